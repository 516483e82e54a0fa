// The event form's repeat section shows the series' next dates and its rule in words while the
// editor types, without saving: the form's own inputs are sent to the admin's preview view
// (EventAdmin.recurrence_preview_view), which cleans them as a save would and answers JSON. The
// server does every reading and every translation; this only asks and writes the answer out.
'use strict';
{
    const PAUSE = 300;  // milliseconds of quiet before asking: one question per burst of typing

    function setUp() {
        const box = document.getElementById('events-recurrence-preview');
        if (!box) {
            return;  // an occurrence other than the first, or a read-only page: nothing to preview
        }
        const form = box.closest('form');
        // The template can only place the box after the section's fieldset; it belongs at its end.
        const section = form.querySelector('fieldset.events-repeat');
        if (section) {
            section.append(box);
        }
        const parameters = new Set(box.dataset.parameters.split(' '));
        // The page's static "Next dates" under Repeat: the live preview says the same, kept up to date.
        const staticDates = document.getElementById('id_repeat_helptext');
        if (staticDates) {
            staticDates.hidden = true;
        }
        let timer = null;
        let controller = null;

        function query() {
            const params = new URLSearchParams();
            for (const [name, value] of new FormData(form)) {
                if (parameters.has(name)) {
                    params.append(name, value);
                }
            }
            return params;
        }

        function element(tag, className, text) {
            const node = document.createElement(tag);
            if (className) {
                node.className = className;
            }
            if (text !== undefined) {
                node.textContent = text;
            }
            return node;
        }

        function show(answer) {
            box.replaceChildren();
            box.classList.toggle('has-errors', Boolean(answer.errors));
            if (answer.errors) {
                const list = element('ul', 'errorlist');
                for (const message of answer.errors) {
                    list.append(element('li', '', message));
                }
                box.append(list);
                box.hidden = false;
                return;
            }
            if (!answer.repeats) {
                box.hidden = true;
                return;
            }
            box.append(element('h3', '', answer.heading));
            for (const rule of answer.rules) {
                box.append(element('p', 'events-recurrence-rule', rule));
            }
            const dates = element('ol', 'events-recurrence-dates');
            for (const date of answer.dates) {
                const item = element('li');
                const time = element('time', '', date.text);
                time.dateTime = date.start;
                item.append(time);
                dates.append(item);
            }
            box.append(dates);
            box.append(element('p', 'events-recurrence-summary', answer.summary));
            box.hidden = false;
        }

        async function refresh() {
            if (controller) {
                controller.abort();  // an older question's answer would overwrite this one's
            }
            controller = new AbortController();
            const asked = controller;
            try {
                const response = await fetch(`${box.dataset.url}?${query()}`, {
                    headers: {'Accept': 'application/json'},
                    credentials: 'same-origin',
                    signal: asked.signal,
                });
                const answer = await response.json();
                if (asked === controller) {
                    show(answer);
                    box.dataset.state = 'ready';
                }
            } catch (error) {
                if (error.name !== 'AbortError') {
                    box.hidden = true;  // the preview is a help, never in the way of saving
                }
            }
        }

        function changed(event) {
            if (!parameters.has(event.target.name)) {
                return;
            }
            box.dataset.state = 'waiting';
            clearTimeout(timer);
            timer = setTimeout(refresh, PAUSE);
        }

        form.addEventListener('input', changed);
        form.addEventListener('change', changed);
        refresh();
    }

    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', setUp);
    } else {
        setUp();
    }
}
