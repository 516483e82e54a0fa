"""The public pages in a real browser (Debian's Chromium driven by Playwright), with JavaScript switched off."""

import datetime as dt
from pathlib import Path

from events.models import Event, Venue

from .browser import ARTIFACTS, BROWSER_TEST, browser_page
from .factories import make_event, make_organizer, make_venue

pytestmark = BROWSER_TEST


def test_reader_goes_from_the_list_to_an_event_then_to_its_venue_in_traditional_chinese(live_server):
    venue = make_venue("Blue Note Hall", address="131 W 3rd St", city="New York", state="NY")
    Venue.objects.filter(pk=venue.pk).update(title_zh_hant="藍調音樂廳")
    start = dt.datetime.combine(dt.date.today() + dt.timedelta(days=3), dt.time(20, 0))
    event = make_event(
        "Jazz night",
        start=start,
        end=start + dt.timedelta(hours=3),
        timezone_name="America/New_York",
        venue=venue,
        organizers=[make_organizer("Ann Arts")],
        cost=["25"],
        description="Three sets of modern jazz.",
    )
    Event.objects.filter(pk=event.pk).update(title_zh_hant="爵士之夜", description_zh_hant="三場現代爵士樂演出。")
    make_event("Another evening", start=start + dt.timedelta(days=1))
    with browser_page() as page:
        page.goto(f"{live_server.url}/")
        assert page.locator("h1").inner_text() == "Upcoming events"
        assert page.locator(".event-title a").all_inner_texts() == ["Jazz night", "Another evening"]

        page.get_by_role("link", name="Jazz night").click()
        assert page.url == f"{live_server.url}/event/{event.slug}/"
        assert page.locator("h1").inner_text() == "Jazz night"
        assert "Three sets of modern jazz." in page.locator(".description").inner_text()
        assert page.locator(".cost").inner_text() == "$25"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "event-page.png"), full_page=True)

        page.get_by_role("link", name="繁體中文").click()
        assert page.url == f"{live_server.url}/zh-hant/event/{event.slug}/"
        assert page.locator("html").get_attribute("lang") == "zh-hant"
        assert page.locator("h1").inner_text() == "爵士之夜"
        assert "三場現代爵士樂演出。" in page.locator(".description").inner_text()

        page.get_by_role("link", name="藍調音樂廳").click()
        assert page.url == f"{live_server.url}/zh-hant/venue/{venue.slug}/"
        assert page.locator("h1").inner_text() == "藍調音樂廳"
        assert page.locator("#upcoming-heading").inner_text() == "即將舉行的活動"
        assert page.locator(".event-title a").all_inner_texts() == ["爵士之夜"]
        # The stylesheet is served and applied: the skip link sits off screen until focused.
        assert page.locator(".skip-link").bounding_box()["x"] < 0


def test_reader_subscribes_from_the_menu_and_downloads_an_event(live_server):
    import icalendar

    start = dt.datetime.combine(dt.date.today() + dt.timedelta(days=2), dt.time(19, 0))
    event = make_event("Poetry evening", start=start, end=start + dt.timedelta(hours=2), timezone_name="Europe/Paris")
    make_event("Chess club", start=start + dt.timedelta(days=1))
    with browser_page() as page:
        page.goto(f"{live_server.url}/events/")
        menu = page.locator("details.subscribe")
        google = menu.get_by_role("link", name="Google Calendar")
        assert not google.is_visible()

        menu.locator("summary").click()
        assert google.is_visible()
        host = live_server.url.split("://", 1)[1]
        assert menu.get_by_role("link", name="iCalendar").get_attribute("href") == f"webcal://{host}/events/?ical=1"
        for name in ("Outlook 365", "Outlook Live"):
            assert "rru=addsubscription" in menu.get_by_role("link", name=name).get_attribute("href")
        with page.expect_download() as exported:
            menu.get_by_role("link", name="Export .ics file").click()
        download = exported.value
        assert download.suggested_filename == "events.ics"
        calendar = icalendar.Calendar.from_ical(Path(download.path()).read_bytes())
        assert [str(entry["SUMMARY"]) for entry in calendar.walk("VEVENT")] == ["Poetry evening", "Chess club"]

        page.get_by_role("link", name="Poetry evening").click()
        assert page.url == f"{live_server.url}/event/{event.slug}/"
        assert (
            page.get_by_role("link", name="Add to Google Calendar")
            .get_attribute("href")
            .startswith("https://www.google.com/calendar/render?action=TEMPLATE&")
        )
        with page.expect_download() as exported:
            page.get_by_role("link", name="iCalendar").click()
        assert exported.value.suggested_filename == f"{event.slug}.ics"
        calendar = icalendar.Calendar.from_ical(Path(exported.value.path()).read_bytes())
        (entry,) = calendar.walk("VEVENT")
        assert entry["DTSTART"].params["TZID"] == "Europe/Paris"
