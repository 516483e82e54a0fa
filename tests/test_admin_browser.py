"""An editor in a real browser (Debian's Chromium driven by Playwright, scripts on): an event with a
rich-text description and organizers in order, in English and in Traditional Chinese."""

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from events.kses import filter_post_html
from events.models import Event

from .browser import ARTIFACTS, BROWSER_TEST, browser_page, sign_in_to_admin
from .factories import make_category, make_event, make_organizer, make_venue

pytestmark = BROWSER_TEST

PASSWORD = "editor-pass-123"


def choose(page, container, text):
    """Pick `text` in the admin's autocomplete (select2) inside `container`: search for the whole
    name, let the results settle, take the highlighted one. A busy machine may answer the search after
    the list was first drawn, so a pick that did not take is tried again."""
    chosen = page.locator(f"{container} .select2-selection", has_text=text)
    for _attempt in range(3):
        page.locator(f"{container} .select2-selection").click()
        search = page.locator(".select2-container--open .select2-search__field")
        search.fill(text)
        page.locator(".select2-container--open .select2-results__option--highlighted", has_text=text).wait_for()
        page.locator(".select2-container--open .loading-results").wait_for(state="detached")
        search.press("Enter")
        try:
            chosen.wait_for(timeout=10_000)
            return
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
    raise AssertionError(f"could not choose {text} in {container}")


def add_organizer(page, name):
    # The new row is numbered after the rows the form already counts; waiting for it keeps a busy
    # machine from picking the name in the previous row.
    row = f"#organizer_links-{page.input_value('#id_organizer_links-TOTAL_FORMS')}"
    page.locator("#organizer_links-group .add-row a").click()
    page.locator(row).wait_for()
    choose(page, row, name)


def write_description(page, language, *parts):
    """Type into the rich-text editor: plain and bold parts alternately."""
    editor = page.locator(f".field-description_{language} [contenteditable=true]")
    editor.click()
    for index, part in enumerate(parts):
        if index % 2:
            page.keyboard.press("Control+b")
        page.keyboard.type(part)
        if index % 2:
            page.keyboard.press("Control+b")


def fill_times(page, day):
    page.fill("#id_start_0", day)
    page.fill("#id_start_1", "19:30")
    page.fill("#id_end_0", day)
    page.fill("#id_end_1", "22:00")
    page.select_option("#id_timezone_name", "Europe/Berlin")


def test_an_editor_makes_events_with_ordered_organizers_and_rich_text_in_english_and_chinese(live_server):
    call_command("events_user", "eddie", "--password", PASSWORD, "--role", "editor", stdout=StringIO())
    make_venue("Blue Note Hall")
    make_organizer("Ann Arts")
    make_organizer("Bob Beats")
    errors = []

    with browser_page(scripts=True) as page:
        page.on("pageerror", lambda error: errors.append(str(error)))
        sign_in_to_admin(page, live_server.url, "eddie", PASSWORD, "/admin/events/event/add/")

        # English: the English tab is open; organizers added in order, then Bob dragged first.
        assert page.locator(".events-language-tabs [aria-selected=true]").first.inner_text() == "English"
        page.fill("#id_title_en", "Jazz night")
        fill_times(page, "2030-07-01")
        # The end's pickers start at the start.
        assert page.locator("#id_end_0").get_attribute("min") == "2030-07-01"
        choose(page, ".field-venue", "Blue Note Hall")
        add_organizer(page, "Ann Arts")
        add_organizer(page, "Bob Beats")
        write_description(page, "en", "Three sets of ", "modern jazz", ".")
        page.locator("input[name=_continue]").click()
        page.locator(".messagelist .success").wait_for()

        rows = page.locator("#organizer_links-group tr.has_original td.original p")
        assert [text.split("\n")[0].strip() for text in rows.all_inner_texts()] == ["Ann Arts", "Bob Beats"]
        # Dragged by its name onto the first row.
        page.locator("#organizer_links-1 td.original p").drag_to(page.locator("#organizer_links-0 td.original p"))
        assert [text.split("\n")[0].strip() for text in rows.all_inner_texts()] == ["Bob Beats", "Ann Arts"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "admin-event-form.png"), full_page=True)
        page.locator("input[name=_continue]").click()
        page.locator(".messagelist .success").wait_for()
        assert [text.split("\n")[0].strip() for text in rows.all_inner_texts()] == ["Bob Beats", "Ann Arts"]

        # Traditional Chinese: a title in that language alone; Bob added before Ann.
        page.goto(f"{live_server.url}/zh-hant/admin/events/event/add/")
        assert page.locator(".events-language-tabs [aria-selected=true]").first.inner_text() == "繁體中文"
        # The editor's dialogs speak the page's language too.
        assert page.evaluate("window.gettext('Edit Link')") == "編輯連結"
        page.fill("#id_title_zh_hant", "爵士之夜")
        fill_times(page, "2030-07-02")
        add_organizer(page, "Bob Beats")
        add_organizer(page, "Ann Arts")
        write_description(page, "zh_hant", "三場", "現代爵士樂", "演出。")
        page.screenshot(path=str(ARTIFACTS / "admin-event-form-zh-hant.png"), full_page=True)
        page.locator("input[name=_save]").click()
        page.locator(".messagelist .success").wait_for()
        page.screenshot(path=str(ARTIFACTS / "admin-event-list-zh-hant.png"), full_page=True)
        assert page.locator("#result_list tbody tr").count() == 2

        page.goto(f"{live_server.url}/admin/events/event/")
        page.screenshot(path=str(ARTIFACTS / "admin-event-list.png"), full_page=True)
        # The list fits the screen: no horizontal scrolling at 1366 px.
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
        # ...nor inside the results, with the navigation sidebar open: the last column shows,
        # and a short title takes one line.
        results = page.locator("#changelist .results").bounding_box()
        featured = page.locator("#result_list th.column-featured").bounding_box()
        assert featured["x"] + featured["width"] <= results["x"] + results["width"] + 1
        title = page.locator("#result_list th.field-title a", has_text="Jazz night").bounding_box()
        assert title["height"] < 1.8 * page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#result_list th.field-title a')).lineHeight)"
        )

    assert errors == []
    english, chinese = Event.objects.order_by("start_utc")
    assert english.title_en == "Jazz night"
    assert english.start_utc == dt.datetime(2030, 7, 1, 17, 30, tzinfo=dt.UTC)
    assert english.venue.title == "Blue Note Hall"
    assert [link.organizer.title for link in english.organizer_links.all()] == ["Bob Beats", "Ann Arts"]
    assert english.description_en == "<p>Three sets of <strong>modern jazz</strong>.</p>"
    assert (chinese.title_zh_hant, chinese.title_en) == ("爵士之夜", "爵士之夜")
    assert [link.organizer.title for link in chinese.organizer_links.all()] == ["Bob Beats", "Ann Arts"]
    assert chinese.description_zh_hant == "<p>三場<strong>現代爵士樂</strong>演出。</p>"
    for html in (english.description_en, chinese.description_zh_hant):
        assert filter_post_html(html) == html


def test_every_column_of_the_events_list_shows_at_1366_px_with_the_filters_open(live_server):
    """A laptop's screen with the navigation sidebar and the filters open: a long venue, title and
    categories wrap inside their columns instead of pushing the last ones out of sight."""
    call_command("events_user", "eddie", "--password", PASSWORD, "--role", "editor", stdout=StringIO())
    venue = make_venue("Konzerthaus am Gendarmenmarkt, Großer Saal")
    categories = [make_category(name) for name in ("Contemporary classical music", "Family concerts", "Workshops")]
    for day in range(23, 27):
        make_event(
            f"An evening of chamber music with the soloists of the orchestra, part {day}",
            start=dt.datetime(2027, 1, day, 9, 0),
            end=dt.datetime(2027, 1, day + 1, 12, 0),
            timezone_name="Europe/Berlin",
            venue=venue,
            categories=categories,
        )

    with browser_page(scripts=True) as page:
        assert page.viewport_size == {"width": 1366, "height": 768}
        sign_in_to_admin(page, live_server.url, "eddie", PASSWORD, "/admin/events/event/")
        page.locator("#result_list").wait_for()
        assert page.locator("#nav-sidebar").is_visible()
        filters = page.locator("#changelist-filter").bounding_box()
        results = page.locator("#changelist .results").bounding_box()
        # The filters sit beside the results, never over them.
        assert results["x"] + results["width"] <= filters["x"]
        # Every header cell and every cell of the last column lies within the results' visible box,
        # which itself lies within the window: nothing is hidden behind a scrollbar or under the filters.
        cells = [
            *page.locator("#result_list thead th").all(),
            *page.locator("#result_list tbody tr > :last-child").all(),
        ]
        for cell in cells:
            box = cell.bounding_box()
            assert results["x"] <= box["x"], cell.inner_text()
            assert box["x"] + box["width"] <= results["x"] + results["width"] + 1, cell.inner_text()
        assert results["x"] + results["width"] <= 1366
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
