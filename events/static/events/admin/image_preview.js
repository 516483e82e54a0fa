// The featured image's thumbnail follows the picker: a choice from the list or an image just uploaded
// through the "+" popup (the admin announces both as a jQuery "change" on the select).
'use strict';
{
    function follow(preview) {
        const select = document.getElementById(preview.dataset.previewFor);
        if (!select) {
            return;
        }
        django.jQuery(select).on('change', () => {
            const chosen = select.value;
            preview.hidden = !chosen;
            if (chosen) {
                preview.src = preview.dataset.thumbnailUrl.replace('/0/', `/${encodeURIComponent(chosen)}/`);
            }
        });
    }
    function start() {
        document.querySelectorAll('img.events-image-preview').forEach(follow);
    }
    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
}
