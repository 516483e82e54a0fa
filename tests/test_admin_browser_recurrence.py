"""An editor makes a weekly series in a real browser (Debian's Chromium driven by Playwright, scripts
on): the next dates show while they type, the occurrences are made on save, and edits of an
occurrence go as far as the scope they choose (this one, the following ones, all)."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from events.models import Event, PostStatus

from .browser import ARTIFACTS, BROWSER_TEST, browser_page, sign_in_to_admin

pytestmark = BROWSER_TEST

PASSWORD = "editor-pass-123"
PREVIEW = "#events-recurrence-preview"
# Mondays and Thursdays from Monday 8 March 2027, six times; New York starts daylight-saving time on
# Sunday 14 March, and the series stays at 19:00 on its clock.
EXPECTED_DATES = [
    "Mon 8 Mar 2027, 19:00 EST",
    "Thu 11 Mar 2027, 19:00 EST",
    "Mon 15 Mar 2027, 19:00 EDT",
    "Thu 18 Mar 2027, 19:00 EDT",
    "Mon 22 Mar 2027, 19:00 EDT",
    "Thu 25 Mar 2027, 19:00 EDT",
]


def titles_by_day(page):
    """The changelist's rows (one series listed) as {day of March: title}."""
    rows = {}
    for row in page.locator("#result_list tbody tr").all():
        when = row.locator("td.field-when").inner_text()
        day = int(re.search(r"(\d+) Mar 2027", when).group(1))
        rows[day] = row.locator("th.field-title").inner_text().strip()
    return rows


def edit_occurrence(page, day, title, scope):
    """Open the occurrence of `day` March from the listed series, retitle it, save with `scope`."""
    page.locator("#result_list tbody tr", has=page.locator("td.field-when", has_text=f" {day} Mar 2027")).locator(
        "th.field-title a"
    ).click()
    # The rules are edited on the first occurrence only: here, no live preview, the scope asked first.
    assert page.locator(PREVIEW).count() == 0
    assert page.locator("#id_repeat").is_disabled()
    page.fill("#id_title_en", title)
    page.check(f"input[name=recurrence_scope][value={scope}]")
    page.locator("input[name=_save]").click()
    page.locator(".messagelist .success").wait_for()


def test_an_editor_previews_saves_and_edits_a_weekly_series(live_server):
    call_command("events_user", "eddie", "--password", PASSWORD, "--role", "editor", stdout=StringIO())
    errors = []
    previews = []

    with browser_page(scripts=True) as page:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "request", lambda request: previews.append(request.url) if "recurrence-preview" in request.url else None
        )
        sign_in_to_admin(page, live_server.url, "eddie", PASSWORD, "/admin/events/event/add/")

        page.fill("#id_title_en", "Jazz night")
        page.fill("#id_start_0", "2027-03-08")
        page.fill("#id_start_1", "19:00")
        page.fill("#id_end_0", "2027-03-08")
        page.fill("#id_end_1", "22:00")
        page.select_option("#id_timezone_name", "America/New_York")
        preview = page.locator(PREVIEW)
        # Not repeating: nothing to preview.
        assert preview.is_hidden()

        page.select_option("#id_repeat", "WEEKLY")
        expect(preview.locator(".events-recurrence-rule")).to_have_text("Every week")
        expect(preview.locator("li")).to_have_count(10)
        expect(preview.locator("li").first).to_have_text("Mon 8 Mar 2027, 19:00 EST")

        page.check("input[name=repeat_weekdays][value=MO]")
        page.check("input[name=repeat_weekdays][value=TH]")
        page.check("input[name=repeat_end][value=count]")
        # A number the form refuses shows the form's own message in the preview.
        page.fill("#id_repeat_count", "0")
        expect(preview.locator(".errorlist li")).to_have_text(
            "Number of times: Ensure this value is greater than or equal to 1."
        )
        asked = len(previews)
        count = page.locator("#id_repeat_count")
        count.press("Backspace")
        count.press_sequentially("66", delay=20)
        count.press("Backspace")
        expect(preview.locator(".events-recurrence-rule")).to_have_text("Every Monday and Thursday, 6 times")
        expect(preview.locator("li")).to_have_text(EXPECTED_DATES)
        expect(preview.locator("li time").first).to_have_attribute("datetime", "2027-03-08T19:00:00-05:00")
        expect(preview.locator(".events-recurrence-summary")).to_have_text("6 occurrences in all.")
        # Typing in a burst asks once, after the pause.
        assert len(previews) - asked == 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("fieldset.events-repeat").screenshot(path=str(ARTIFACTS / "admin-recurrence-preview.png"))

        page.locator("input[name=_continue]").click()
        page.locator(".messagelist .success").wait_for()
        series = re.search(r"/admin/events/event/(\d+)/change/", page.url).group(1)
        # The first occurrence edits the series: its preview shows the saved rule, and the page says
        # that a save changes every occurrence instead of asking how far.
        expect(preview.locator(".events-recurrence-rule")).to_have_text("Every Monday and Thursday, 6 times")
        assert page.locator("input[name=recurrence_scope]").count() == 0
        expect(page.locator("fieldset .description").first).to_contain_text(
            "This event is the first of a series of 6 occurrences: saving it changes all of them."
        )

        page.goto(f"{live_server.url}/admin/events/event/?series={series}")
        assert titles_by_day(page) == dict.fromkeys((8, 11, 15, 18, 22, 25), "Jazz night")

        # This and the following: the 15th starts a new series with the new title.
        edit_occurrence(page, 15, "Late jazz", "following")
        page.goto(f"{live_server.url}/admin/events/event/?series={series}")
        assert titles_by_day(page) == {8: "Jazz night", 11: "Jazz night"}
        # The new series is listed from its mark (↻), which links to the whole series.
        page.goto(f"{live_server.url}/admin/events/event/?q=Late+jazz")
        split = re.fullmatch(r"\?series=(\d+)", page.locator("td.field-when a").first.get_attribute("href"))[1]
        page.goto(f"{live_server.url}/admin/events/event/?series={split}")
        assert titles_by_day(page) == dict.fromkeys((15, 18, 22, 25), "Late jazz")

        # This one only: the 18th alone.
        edit_occurrence(page, 18, "Jazz and poetry", "this")
        page.goto(f"{live_server.url}/admin/events/event/?series={split}")
        assert titles_by_day(page) == {15: "Late jazz", 18: "Jazz and poetry", 22: "Late jazz", 25: "Late jazz"}

        # All of the new series, but the 18th keeps the title edited there alone.
        edit_occurrence(page, 22, "Late jazz club", "all")
        page.goto(f"{live_server.url}/admin/events/event/?series={split}")
        assert titles_by_day(page) == {
            15: "Late jazz club",
            18: "Jazz and poetry",
            22: "Late jazz club",
            25: "Late jazz club",
        }

    assert errors == []
    live = Event.objects.exclude(status=PostStatus.TRASH).order_by("start_utc")
    assert [(event.start_local.day, event.series_id, event.title_en) for event in live] == [
        (8, int(series), "Jazz night"),
        (11, int(series), "Jazz night"),
        (15, int(split), "Late jazz club"),
        (18, int(split), "Jazz and poetry"),
        (22, int(split), "Late jazz club"),
        (25, int(split), "Late jazz club"),
    ]


# The parts of the repeat section that come and go with the choices.
PARTS = {
    "interval": ".form-row.field-repeat_interval",
    "weekdays": ".form-row.field-repeat_weekdays",
    "monthly": ".form-row.field-repeat_monthly",
    "ends": ".fieldBox.field-repeat_end",
    "end date": ".fieldBox.field-repeat_until",
    "number of times": ".fieldBox.field-repeat_count",
    "extra dates": ".fieldBox.field-repeat_dates",
    "excluded dates": ".fieldBox.field-repeat_exclusions",
}
SHOWN_FOR_EACH_FREQUENCY = [
    ("", {"extra dates", "excluded dates"}, None),
    ("DAILY", {"interval", "ends", "extra dates", "excluded dates"}, "In days: 1 is every day, 2 every other day…"),
    (
        "WEEKLY",
        {"interval", "weekdays", "ends", "extra dates", "excluded dates"},
        "In weeks: 1 is every week, 2 every other week…",
    ),
    (
        "MONTHLY",
        {"interval", "monthly", "ends", "extra dates", "excluded dates"},
        "In months: 1 is every month, 2 every other month…",
    ),
    ("YEARLY", {"interval", "ends", "extra dates", "excluded dates"}, "In years: 1 is every year, 2 every other year…"),
]


def shown_parts(page):
    return {name for name, selector in PARTS.items() if page.locator(f"fieldset.events-repeat {selector}").is_visible()}


def test_the_repeat_section_shows_the_fields_of_the_chosen_frequency(live_server):
    call_command("events_user", "eddie", "--password", PASSWORD, "--role", "editor", stdout=StringIO())
    errors = []

    with browser_page(scripts=True) as page:
        page.on("pageerror", lambda error: errors.append(str(error)))
        sign_in_to_admin(page, live_server.url, "eddie", PASSWORD, "/admin/events/event/add/")
        help_text = page.locator("#id_repeat_interval_helptext")
        for frequency, shown, interval_help in SHOWN_FOR_EACH_FREQUENCY:
            page.select_option("#id_repeat", frequency)
            assert shown_parts(page) == shown, frequency
            if interval_help:
                expect(help_text).to_have_text(interval_help)

        # The end date or the number of times, as "Ends" says.
        page.select_option("#id_repeat", "WEEKLY")
        page.check("input[name=repeat_end][value=until]")
        assert shown_parts(page) >= {"ends", "end date"}
        assert "number of times" not in shown_parts(page)
        page.check("input[name=repeat_end][value=count]")
        assert shown_parts(page) >= {"ends", "number of times"}
        assert "end date" not in shown_parts(page)

    assert errors == []


def test_without_scripts_the_repeat_section_shows_every_field_and_says_which_are_ignored(live_server):
    call_command("events_user", "eddie", "--password", PASSWORD, "--role", "editor", stdout=StringIO())

    with browser_page(scripts=False) as page:
        sign_in_to_admin(page, live_server.url, "eddie", PASSWORD, "/admin/events/event/add/")
        assert shown_parts(page) == set(PARTS)
        expect(page.locator(".field-repeat_weekdays .help")).to_contain_text("Weekly only (ignored otherwise)")
        expect(page.locator(".field-repeat_monthly .help")).to_contain_text("Monthly only (ignored otherwise)")
