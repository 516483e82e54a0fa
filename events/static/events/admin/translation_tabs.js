// Each translated field as language tabs, named as the language switcher names the languages. One
// language is shown at a time, in every field at once, so an editor writes a whole translation in a
// row; a language whose field has an error opens first. Without scripts the fields stay stacked.
'use strict';
{
    function calendarLanguages() {
        return Array.from(document.querySelectorAll('#events-languages a[lang]'), (link) => ({
            code: link.lang,
            suffix: '_' + link.lang.replace('-', '_'),
            name: link.textContent.trim(),
        }));
    }

    function translatedRows(languages) {
        // field base name -> {suffix: row}, from the rows' "field-<name>" classes
        const groups = new Map();
        for (const row of document.querySelectorAll('fieldset .form-row')) {
            for (const name of row.classList) {
                const language = languages.find((candidate) => name.startsWith('field-') && name.endsWith(candidate.suffix));
                if (language) {
                    const base = name.slice('field-'.length, -language.suffix.length);
                    if (!groups.has(base)) {
                        groups.set(base, {});
                    }
                    groups.get(base)[language.suffix] = row;
                }
            }
        }
        return Array.from(groups.values()).filter((rows) => languages.every((language) => rows[language.suffix]));
    }

    function buildTabs() {
        const languages = calendarLanguages();
        const groups = translatedRows(languages);
        if (languages.length < 2 || !groups.length) {
            return;
        }
        const tabs = [];
        function show(shown) {
            for (const rows of groups) {
                for (const language of languages) {
                    rows[language.suffix].hidden = language !== shown;
                }
            }
            for (const tab of tabs) {
                tab.setAttribute('aria-selected', String(tab.lang === shown.code));
            }
        }
        for (const rows of groups) {
            const tablist = document.createElement('div');
            tablist.className = 'events-language-tabs';
            tablist.setAttribute('role', 'tablist');
            for (const language of languages) {
                const row = rows[language.suffix];
                const tab = document.createElement('button');
                tab.type = 'button';
                tab.lang = language.code;
                tab.textContent = language.name;
                tab.setAttribute('role', 'tab');
                if (row.querySelector('.errorlist')) {
                    tab.classList.add('has-errors');
                }
                tab.addEventListener('click', () => show(language));
                row.setAttribute('role', 'tabpanel');
                tablist.append(tab);
                tabs.push(tab);
            }
            const first = rows[languages[0].suffix];
            first.parentNode.insertBefore(tablist, first);
        }
        const withErrors = languages.find((language) => groups.some((rows) => rows[language.suffix].querySelector('.errorlist')));
        const pageLanguage = languages.find((language) => language.code === document.documentElement.lang);
        show(withErrors || pageLanguage || languages[0]);
    }

    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', buildTabs);
    } else {
        buildTabs();
    }
}
