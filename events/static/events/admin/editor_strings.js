// The rich-text editor's dialogs translate their words with window.gettext, the admin's JavaScript
// catalog, which lacks them. This wraps it (before the editor's module, which runs after the page is
// parsed, keeps a reference) to fall back on the translations the page carries
// (RichTextEditor.render), read once the page is parsed.
'use strict';
{
    const pageStrings = {};
    const adminGettext = window.gettext;
    if (adminGettext) {
        window.gettext = (msgid) => {
            const translated = adminGettext(msgid);
            return translated === msgid && msgid in pageStrings ? pageStrings[msgid] : translated;
        };
    }
    function readPageStrings() {
        const source = document.querySelector('script[id$="_editor_strings"]');
        if (source) {
            Object.assign(pageStrings, JSON.parse(source.textContent));
        }
    }
    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', readPageStrings);
    } else {
        readPageStrings();
    }
}
