// The event form's repeat section shows the fields of the chosen frequency only, and the series'
// next dates and its rule in words while the editor types, without saving: the form's own inputs
// are sent to the admin's preview view (EventAdmin.recurrence_preview_view), which cleans them as a
// save would and answers JSON. The server does every reading and every translation; this only asks
// and writes the answer out.
'use strict';
{
    const PAUSE = 300;  // milliseconds of quiet before asking: one question per burst of typing

    // What each part of the section is for: [its element, whether the chosen frequency and end
    // want it]. Weekdays are for weekly series, "Monthly on" for monthly ones; without a frequency
    // only the extra and excluded dates remain. Without scripts every part shows, and the server
    // ignores those the choices make irrelevant (their help texts say so).
    const PARTS = [
        ['.form-row.field-repeat_interval', (frequency) => frequency !== ''],
        ['.form-row.field-repeat_weekdays', (frequency) => frequency === 'WEEKLY'],
        ['.form-row.field-repeat_monthly', (frequency) => frequency === 'MONTHLY'],
        ['.form-row.field-repeat_end', (frequency) => frequency !== ''],
        ['.fieldBox.field-repeat_until', (frequency, end) => end === 'until'],
        ['.fieldBox.field-repeat_count', (frequency, end) => end === 'count'],
    ];

    function showChosenFields() {
        const frequency = document.getElementById('id_repeat');
        const section = frequency && frequency.closest('fieldset.events-repeat');
        if (!section) {
            return;  // a page that only shows the event
        }
        const interval = document.getElementById('id_repeat_interval');
        const intervalHelp = document.querySelector('#id_repeat_interval_helptext > div');
        const helpTexts = interval && interval.dataset.helpTexts ? JSON.parse(interval.dataset.helpTexts) : {};
        const anyFrequencyHelp = intervalHelp ? intervalHelp.textContent : '';

        function update() {
            const end = section.querySelector('input[name=repeat_end]:checked');
            for (const [selector, wanted] of PARTS) {
                const part = section.querySelector(selector);
                if (!part) {
                    continue;
                }
                // A box of a line of several fields goes with its help, in the element around it.
                const shown = part.classList.contains('fieldBox') ? part.parentElement : part;
                // A field showing an error stays in sight, whatever is chosen.
                shown.hidden = !wanted(frequency.value, end ? end.value : '') && !shown.querySelector('.errorlist');
            }
            if (intervalHelp) {
                intervalHelp.textContent = helpTexts[frequency.value] || anyFrequencyHelp;
            }
        }

        section.addEventListener('change', update);
        update();
    }

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

    function start() {
        showChosenFields();
        setUp();
    }

    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', start);
    } else {
        start();
    }
}
