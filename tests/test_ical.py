"""Calendar files of the public pages: `?ical=1` on every view and an event's `ical/` link, read back
with the library that writes them and with an independent parser."""

import datetime as dt
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import icalendar
import pytest
import vobject
from django.test import Client
from django.utils import timezone

from events.conf import events_settings
from events.models import Event, PostStatus, Venue
from events.public import queries
from events.public.views import PASSWORD_COOKIE
from events.queries.filtersets import EventFilterSet
from events.services.posts import move_to_trash

from .conftest import post_json
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_user, make_venue
from .test_public_pages import page

pytestmark = pytest.mark.django_db

NEW_YORK = ZoneInfo("America/New_York")
TOMORROW = dt.datetime.combine(timezone.now().date() + dt.timedelta(days=1), dt.time(10, 0))


def soon(days=0, **fields):
    start = TOMORROW + dt.timedelta(days=days)
    return make_event(start=start, end=start + dt.timedelta(hours=2), **fields)


class Feed:
    """One calendar file, parsed twice: by icalendar (which wrote it) and by vobject."""

    def __init__(self, response):
        assert response.status_code == 200, response.content[:500]
        assert response["Content-Type"] == "text/calendar; charset=utf-8"
        self.response = response
        self.text = response.content.decode()
        self.calendar = icalendar.Calendar.from_ical(response.content)
        # vobject keeps the first VTIMEZONE it read of a TZID for the whole process; each file brings
        # its own, covering its events' days, so each file is read with only its own.
        vars(vobject.icalendar)["__tzidMap"].clear()
        vobject.icalendar.registerTzid("UTC", vobject.icalendar.utc)
        self.vobject = vobject.readOne(self.text)

    @property
    def filename(self):
        disposition = self.response["Content-Disposition"]
        assert disposition.startswith("attachment; ")
        return disposition.split('filename="', 1)[1].rstrip('"')

    @property
    def entries(self):
        return list(self.calendar.walk("VEVENT"))

    @property
    def vobject_entries(self):
        return list(getattr(self.vobject, "vevent_list", []))

    def summaries(self):
        summaries = [str(entry["SUMMARY"]) for entry in self.entries]
        assert [entry.summary.value for entry in self.vobject_entries] == summaries
        return summaries

    def entry(self, summary):
        """The event named `summary`, as (icalendar component, vobject component)."""
        by_icalendar = [entry for entry in self.entries if str(entry["SUMMARY"]) == summary]
        by_vobject = [entry for entry in self.vobject_entries if entry.summary.value == summary]
        assert len(by_icalendar) == len(by_vobject) == 1, self.summaries()
        return by_icalendar[0], by_vobject[0]


def event_file(client, event, prefix=""):
    return Feed(client.get(f"{prefix}/event/{event.slug}/ical/"))


# --- one event ----------------------------------------------------------------------------------


def test_event_file_holds_every_detail_the_page_shows(client):
    venue = make_venue("Blue Note", address="131 W 3rd St", city="New York", state="NY", geo_lat=40.73, geo_lng=-74.0)
    image = make_image("poster.png")
    event = make_event(
        "Jazz & <em>blues</em>",
        start=dt.datetime(2031, 6, 5, 20, 0),
        end=dt.datetime(2031, 6, 5, 23, 0),
        timezone_name="America/New_York",
        venue=venue,
        organizers=[make_organizer("Ann Arts", email="ann@example.org"), make_organizer("Bob")],
        categories=[make_category("Music"), make_category("Late shows")],
        tags=[make_tag("Not a category")],
        description="<p>Three sets of <strong>modern</strong> jazz.</p><p>Doors at 7&nbsp;pm.<br>Bar open.</p><script>x()</script>",
        image=image,
    )
    feed = event_file(client, event)
    assert feed.filename == f"{event.slug}.ics"

    assert str(feed.calendar["PRODID"]) == "-//testserver - ECPv6.0.0//NONSGML v1.0//EN"
    assert str(feed.calendar["VERSION"]) == "2.0"
    assert str(feed.calendar["X-WR-CALNAME"]) == "Jazz & blues · Events calendar"
    assert str(feed.calendar["X-WR-TIMEZONE"]) == "UTC"
    assert "METHOD" not in feed.calendar
    assert [str(zone["TZID"]) for zone in feed.calendar.walk("VTIMEZONE")] == ["America/New_York"]

    entry, other = feed.entry("Jazz & blues")
    assert str(entry["UID"]) == f"{event.pk}@testserver" == other.uid.value
    assert entry["DTSTART"].params["TZID"] == "America/New_York"
    assert entry.decoded("DTSTART") == dt.datetime(2031, 6, 5, 20, 0, tzinfo=NEW_YORK)
    assert other.dtend.value.astimezone(dt.UTC) == dt.datetime(2031, 6, 6, 3, 0, tzinfo=dt.UTC)
    assert (
        str(entry["DESCRIPTION"])
        == "Three sets of modern jazz.\n\nDoors at 7\xa0pm.\nBar open."
        == other.description.value
    )
    assert str(entry["LOCATION"]) == "Blue Note, 131 W 3rd St, New York NY" == other.location.value
    assert (entry["GEO"].latitude, entry["GEO"].longitude) == (40.73, -74.0)
    assert str(entry["ORGANIZER"]) == "mailto:ann@example.org" == other.organizer.value
    assert entry["ORGANIZER"].params["CN"] == "Ann Arts" == other.organizer.params["CN"][0]
    assert entry["CATEGORIES"].cats == ["Late shows", "Music"]
    assert str(entry["URL"]) == f"http://testserver/event/{event.slug}/"
    assert (
        str(entry["ATTACH"]).startswith("http://testserver/media/") and entry["ATTACH"].params["FMTTYPE"] == "image/png"
    )
    changed = Event.objects.get(pk=event.pk).modified.replace(microsecond=0)
    assert entry.decoded("LAST-MODIFIED") == changed == entry.decoded("DTSTAMP")


def test_a_title_written_in_paragraphs_names_its_file_on_one_line(client):
    event = make_event("<p>Jazz</p>\n<p>Night</p>", start=dt.datetime(2031, 6, 5, 20, 0))
    feed = event_file(client, event)
    assert feed.response.status_code == 200
    name = str(feed.calendar["X-WR-CALNAME"])
    assert "\n" not in name and name.startswith("Jazz Night")


def test_event_page_answers_ical_as_its_ical_link_does(client):
    event = soon()
    by_link = client.get(f"/event/{event.slug}/ical/")
    by_query = client.get(f"/event/{event.slug}/", {"ical": "1"})
    assert by_query["Content-Type"] == "text/calendar; charset=utf-8"
    assert by_query.content == by_link.content


def test_file_names_keep_the_slug_in_its_own_script(client):
    event = soon(title="爵士之夜")
    disposition = client.get(f"/event/{event.slug}/ical/")["Content-Disposition"]
    assert disposition == "attachment; filename*=utf-8''%E7%88%B5%E5%A3%AB%E4%B9%8B%E5%A4%9C.ics"


def test_times_cross_a_daylight_saving_change_in_the_event_zone(client):
    # New York moves its clocks forward at 2:00 on 9 March 2031: the event lasts 37 hours, not 38.
    event = make_event(
        "Festival",
        start=dt.datetime(2031, 3, 8, 20, 0),
        end=dt.datetime(2031, 3, 10, 10, 0),
        timezone_name="America/New_York",
    )
    entry, other = event_file(client, event).entry("Festival")
    assert entry["DTSTART"].to_ical() == b"20310308T200000" and entry["DTEND"].to_ical() == b"20310310T100000"
    for start, end in ((entry.decoded("DTSTART"), entry.decoded("DTEND")), (other.dtstart.value, other.dtend.value)):
        # vobject reads the offsets from the file's own VTIMEZONE, so this also checks that block.
        assert start.astimezone(dt.UTC) == dt.datetime(2031, 3, 9, 1, 0, tzinfo=dt.UTC)
        assert end.astimezone(dt.UTC) == dt.datetime(2031, 3, 10, 14, 0, tzinfo=dt.UTC)
        assert end.astimezone(dt.UTC) - start.astimezone(dt.UTC) == dt.timedelta(hours=37)


@pytest.mark.parametrize(
    ("days", "last_day"), [(0, dt.date(2031, 6, 6)), (2, dt.date(2031, 6, 8))], ids=["one-day", "three-days"]
)
def test_all_day_events_are_dates_with_the_day_after_as_end(client, days, last_day):
    event = make_event(
        "Fair",
        start=dt.datetime(2031, 6, 5),
        end=dt.datetime(2031, 6, 5 + days),
        all_day=True,
        timezone_name="America/New_York",
    )
    feed = event_file(client, event)
    entry, other = feed.entry("Fair")
    assert entry["DTSTART"].params["VALUE"] == "DATE"
    assert entry.decoded("DTSTART") == dt.date(2031, 6, 5) == other.dtstart.value
    assert entry.decoded("DTEND") == last_day == other.dtend.value
    assert not list(feed.calendar.walk("VTIMEZONE"))


def test_manual_offset_zones_are_written_in_utc(client):
    event = make_event(
        "Offset", start=dt.datetime(2031, 6, 5, 10, 0), end=dt.datetime(2031, 6, 5, 11, 0), timezone_name="UTC+5"
    )
    entry, other = event_file(client, event).entry("Offset")
    assert entry["DTSTART"].to_ical() == b"20310605T050000Z"
    assert other.dtstart.value == dt.datetime(2031, 6, 5, 5, 0, tzinfo=dt.UTC)


def test_sequence_grows_with_each_edit_and_uid_stays(client):
    event = soon(title="Talk")
    Event.objects.filter(pk=event.pk).update(modified=dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    first, _ = event_file(client, event).entry("Talk")
    Event.objects.filter(pk=event.pk).update(
        modified=dt.datetime(2030, 1, 1, 0, 0, 1, tzinfo=dt.UTC), start_local=event.start_local
    )
    second, _ = event_file(client, event).entry("Talk")
    assert second["UID"] == first["UID"]
    assert int(second["SEQUENCE"]) == int(first["SEQUENCE"]) + 1


def test_a_venue_edit_changes_the_entry_and_its_sequence(client):
    venue = make_venue("Hall")
    event = soon(title="Talk", venue=venue)
    Event.objects.filter(pk=event.pk).update(modified=dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    Venue.objects.filter(pk=venue.pk).update(modified=dt.datetime(2029, 1, 1, tzinfo=dt.UTC))
    before, _ = event_file(client, event).entry("Talk")
    Venue.objects.filter(pk=venue.pk).update(title="Great Hall", modified=dt.datetime(2030, 2, 1, tzinfo=dt.UTC))
    after, _ = event_file(client, event).entry("Talk")
    assert str(after["LOCATION"]) == "Great Hall"
    assert after.decoded("LAST-MODIFIED") == dt.datetime(2030, 2, 1, tzinfo=dt.UTC)
    assert int(after["SEQUENCE"]) > int(before["SEQUENCE"])


def test_protected_venue_and_organizer_are_named_only(client):
    venue = make_venue("Secret Hall", address="1 Hidden Way", geo_lat=1.5, geo_lng=2.5, password="pw")
    organizer = make_organizer("Quiet Org", email="quiet@example.org", password="pw")
    event = soon(title="Talk", venue=venue, organizers=[organizer])
    entry, _ = event_file(client, event).entry("Talk")
    assert str(entry["LOCATION"]) == "Secret Hall"
    assert "GEO" not in entry
    assert str(entry["ORGANIZER"]) == f"http://testserver/organizer/{organizer.slug}/"


def test_files_come_in_the_request_language(client):
    event = soon(title="Jazz night")
    Event.objects.filter(pk=event.pk).update(title_zh_hant="爵士之夜")
    feed = event_file(client, event, prefix="/zh-hant")
    assert feed.summaries() == ["爵士之夜"]
    assert str(feed.calendar["X-WR-CALNAME"]).startswith("爵士之夜 · ")
    entry, _ = feed.entry("爵士之夜")
    assert str(entry["URL"]) == f"http://testserver/zh-hant/event/{event.slug}/"
    # One record, one UID, whatever the language of the file.
    assert str(entry["UID"]) == f"{event.pk}@testserver"


# --- the views ----------------------------------------------------------------------------------


def test_every_view_answers_ical_with_its_events(client):
    hall, ann = make_venue("Hall"), make_organizer("Ann")
    jazz, late = make_category("Jazz", parent=make_category("Music")), make_tag("Late")
    day = TOMORROW.date()
    make_event(
        "Everything", start=TOMORROW, venue=hall, organizers=[ann], categories=[jazz], tags=[late], featured=True
    )
    make_event("Next week", start=TOMORROW + dt.timedelta(days=7))
    month = f"{day:%Y-%m}"
    views = {
        "/": ("events.ics", ["Everything", "Next week"]),
        "/events/": ("events.ics", ["Everything", "Next week"]),
        "/events/featured/": ("featured-events.ics", ["Everything"]),
        "/events/category/music/jazz/": ("events-category-jazz.ics", ["Everything"]),
        "/tag/late/": ("events-tag-late.ics", ["Everything"]),
        "/venue/hall/": ("venue-hall.ics", ["Everything"]),
        "/organizer/ann/": ("organizer-ann.ics", ["Everything"]),
        f"/events/{day.isoformat()}/": (f"events-{day.isoformat()}.ics", ["Everything"]),
    }
    for path, (filename, summaries) in views.items():
        feed = Feed(client.get(path, {"ical": "1"}))
        assert (feed.filename, feed.summaries()) == (filename, summaries), path
    feed = Feed(client.get("/events/month/", {"month": month, "ical": "1"}))
    assert feed.filename == f"events-{month}.ics"
    assert "Everything" in feed.summaries()


def test_month_file_holds_the_month_not_the_grid_padding(client):
    make_event("Last of May", start=dt.datetime(2031, 5, 31, 10, 0))
    make_event("In June", start=dt.datetime(2031, 6, 15, 10, 0))
    make_event("First of July", start=dt.datetime(2031, 7, 1, 10, 0))
    assert Feed(client.get("/events/month/", {"month": "2031-06", "ical": "1"})).summaries() == ["In June"]


def test_list_file_holds_every_event_not_a_page(client, settings):
    settings.EVENTS = {"DEFAULT_PER_PAGE": 10}
    for n in range(25):
        soon(days=n, title=f"Event {n:02d}")
    feed = Feed(client.get("/events/", {"ical": "1", "page": "2"}))
    assert feed.summaries() == [f"Event {n:02d}" for n in range(25)]
    assert "X-WR-CALDESC" not in feed.calendar


def test_files_past_the_cap_are_cut_and_say_so(client, monkeypatch):
    monkeypatch.setattr(queries, "FEED_LIMIT", 3)
    for n in range(5):
        soon(days=n, title=f"Event {n}")
    feed = Feed(client.get("/events/", {"ical": "1"}))
    assert feed.summaries() == ["Event 0", "Event 1", "Event 2"]
    notice = "This calendar holds only the first 3 events of this view."
    assert str(feed.calendar["X-WR-CALDESC"]) == notice == str(feed.calendar["DESCRIPTION"])
    assert feed.vobject.x_wr_caldesc.value == notice


def test_the_cap_is_far_above_a_real_calendar():
    assert queries.FEED_LIMIT >= 5000


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"categories": "jazz"}, ["Jazz gig"]),
        ({"categories": "jazz,poetry"}, ["Jazz gig", "Reading"]),
        ({"tags": "late"}, ["Reading"]),
        ({"venue": "VENUE"}, ["Jazz gig"]),
        ({"organizer": "ORGANIZER"}, ["Reading"]),
        ({"featured": "true"}, ["Reading"]),
        ({"search": "gig"}, ["Jazz gig"]),
        ({"start_date": "DAY5"}, ["Reading", "Next year"]),
        ({"end_date": "DAY3"}, ["Jazz gig"]),
        ({"start_date": "2031-01-01", "end_date": "2031-12-31"}, ["Far away"]),
    ],
    ids=[
        "category",
        "categories",
        "tag",
        "venue",
        "organizer",
        "featured",
        "search",
        "start-date",
        "end-date",
        "far-window",
    ],
)
def test_list_files_take_the_api_list_filters(client, query, expected):
    hall, ann = make_venue("Hall"), make_organizer("Ann")
    make_category("Jazz"), make_category("Poetry"), make_tag("Late")
    from events.models import Category, Tag

    soon(days=1, title="Jazz gig", venue=hall, categories=[Category.objects.get(slug="jazz")])
    soon(
        days=6,
        title="Reading",
        organizers=[ann],
        featured=True,
        categories=[Category.objects.get(slug="poetry")],
        tags=[Tag.objects.get(slug="late")],
    )
    soon(days=300, title="Next year")
    make_event("Far away", start=dt.datetime(2031, 6, 1, 10, 0))
    values = {"VENUE": str(hall.pk), "ORGANIZER": str(ann.pk)}
    for offset in (3, 5):
        values[f"DAY{offset}"] = (TOMORROW + dt.timedelta(days=offset)).date().isoformat()
    query = {name: values.get(value, value) for name, value in query.items()}
    assert Feed(client.get("/events/", {**query, "ical": "1"})).summaries() == expected


def test_archive_files_add_query_filters_to_their_own(client):
    jazz = make_category("Jazz")
    soon(days=1, title="Jazz gig", categories=[jazz])
    soon(days=2, title="Jazz festival", categories=[jazz], featured=True)
    soon(days=3, title="Reading", featured=True)
    assert Feed(client.get("/events/category/jazz/", {"ical": "1", "featured": "1"})).summaries() == ["Jazz festival"]


@pytest.mark.parametrize(
    "query", [{"categories": "no-such-category"}, {"venue": "abc"}, {"start_date": "not a date"}], ids=str
)
def test_invalid_filters_are_400(client, query):
    response = client.get("/events/", {**query, "ical": "1"})
    assert response.status_code == 400


def test_files_take_every_filter_of_the_api_list(client):
    """Feeds read the list's filters with the parsers of the FilterSet the API list publishes."""
    index = client.get("/wp-json/tribe/events/v1/").json()
    published = index["routes"]["/tribe/events/v1/events"]["endpoints"][0]["args"]
    not_filters = {"page", "per_page", "status", events_settings.language_param}
    assert set(published) - not_filters == set(EventFilterSet.base_filters) - {"status"}
    response = client.get("/events/", {"ticketed": "true", "ical": "1"})
    assert response.status_code == 400


def test_day_view_lists_the_events_of_its_day(client):
    make_event("Morning", start=dt.datetime(2031, 6, 5, 9, 0))
    make_event("Overnight", start=dt.datetime(2031, 6, 4, 22, 0), end=dt.datetime(2031, 6, 5, 2, 0))
    make_event("Next day", start=dt.datetime(2031, 6, 6, 9, 0))
    parsed = page(client.get("/events/2031-06-05/"))
    assert "June 5, 2031" in parsed.text
    titles = [attrs["href"] for attrs in parsed.find_all("a") if "/event/" in attrs.get("href", "")]
    assert [urlsplit(href).path for href in titles] == ["/event/overnight/", "/event/morning/"]
    assert client.get("/events/2031-02-30/").status_code == 400
    assert "/events/2031-06-05/" in page(client.get("/events/month/", {"month": "2031-06"})).hrefs()
    assert client.get("/events/0001-01-01/").status_code == 400


# --- what is exported ---------------------------------------------------------------------------


def editor_browser(unlocking):
    """A browser signed in as an editor that also entered the password of `unlocking` on its page."""
    browser = Client()
    browser.force_login(make_user("editor"))
    assert (
        browser.post(
            f"/{unlocking.KIND.removeprefix('tribe_').replace('events', 'event')}/{unlocking.slug}/",
            {"post_password": "pw"},
        ).status_code
        == 303
    )
    assert PASSWORD_COOKIE in browser.cookies
    return browser


@pytest.mark.parametrize("reader", ["anonymous", "editor"])
def test_only_what_anonymous_readers_see_is_exported(reader):
    soon(title="Public")
    hidden = [
        soon(title=f"{status} event", status=status)
        for status in (PostStatus.DRAFT, PostStatus.PENDING, PostStatus.PRIVATE, PostStatus.FUTURE)
    ]
    trashed = soon(title="Trashed")
    move_to_trash(trashed)
    trashed.save()
    protected = soon(title="Protected", password="pw")
    unlisted = soon(title="Unlisted", hide_from_listings=True)
    browser = editor_browser(protected) if reader == "editor" else Client()
    for path in ("/events/", "/events/month/", f"/events/{TOMORROW.date().isoformat()}/"):
        assert Feed(browser.get(path, {"ical": "1"})).summaries() == ["Public"], path
    for event in [*hidden, trashed, protected]:
        for url in (f"/event/{event.slug}/ical/", f"/event/{event.slug}/?ical=1"):
            response = browser.get(url)
            assert response.status_code == 404, url
            assert b"BEGIN:VCALENDAR" not in response.content
    # Left out of lists, as on the pages, yet its own page (and file) exists.
    assert Feed(browser.get(f"/event/{unlisted.slug}/ical/")).summaries() == ["Unlisted"]


def test_protected_venue_has_no_file():
    venue = make_venue("Secret", password="pw")
    soon(venue=venue)
    assert editor_browser(venue).get(f"/venue/{venue.slug}/", {"ical": "1"}).status_code == 404


# --- caching ------------------------------------------------------------------------------------


def test_event_file_revalidates_with_etag_and_last_modified(client):
    event = soon()
    url = f"/event/{event.slug}/ical/"
    first = client.get(url)
    assert first["ETag"].startswith('W/"') and first["Last-Modified"]
    assert first["Cache-Control"] == "no-cache"
    for headers in ({"HTTP_IF_NONE_MATCH": first["ETag"]}, {"HTTP_IF_MODIFIED_SINCE": first["Last-Modified"]}):
        again = client.get(url, **headers)
        assert again.status_code == 304 and again.content == b""
        assert again["ETag"] == first["ETag"]
    head = client.head(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert head.status_code == 304 and head.content == b""

    Event.objects.filter(pk=event.pk).update(modified=timezone.now() + dt.timedelta(seconds=5))
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_list_file_revalidates_with_etag_and_changes_when_an_event_leaves(client):
    kept, dropped = soon(title="Kept"), soon(days=1, title="Dropped")
    first = client.get("/events/", {"ical": "1"})
    # A list has no honest single modification date: an event leaving it changes no remaining one.
    assert "Last-Modified" not in first
    again = client.get("/events/", {"ical": "1"}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    Event.objects.filter(pk=dropped.pk).update(status=PostStatus.TRASH)
    changed = client.get("/events/", {"ical": "1"}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert Feed(changed).summaries() == ["Kept"]


def test_head_is_answered_without_a_body(client):
    response = client.head("/events/", {"ical": "1"})
    assert response.status_code == 200 and response.content == b""
    assert response["Content-Type"] == "text/calendar; charset=utf-8"


# --- query counts -------------------------------------------------------------------------------


def rich_events(count):
    hall, music = make_venue("Hall", image=make_image()), make_category("Music")
    for n in range(count):
        soon(
            days=n % 20,
            venue=hall,
            organizers=[make_organizer(email=f"o{n}@example.org") for _ in range(2)],
            categories=[music, make_category(parent=music)],
            tags=[make_tag()],
            image=make_image(),
        )


# The events with venue and image, their terms, their organizers; archives first find their record
# (categories also their tree), and filters given by slug or ID are checked in one query each.
FILE_QUERIES = {
    "/events/": 3,
    "/events/?categories=music&venue=VENUE": 5,
    "/events/month/?month=MONTH": 3,
    "/events/category/music/": 5,
    "/venue/hall/": 4,
}


@pytest.mark.parametrize("events", [1, 30], ids=["one-event", "many-events"])
@pytest.mark.parametrize("path", list(FILE_QUERIES))
def test_files_run_a_fixed_number_of_queries(client, django_assert_max_num_queries, path, events):
    rich_events(events)
    venue = Venue.objects.get(slug="hall")
    url = path.replace("VENUE", str(venue.pk)).replace("MONTH", f"{TOMORROW:%Y-%m}")
    url = f"{url}{'&' if '?' in url else '?'}ical=1"
    with django_assert_max_num_queries(FILE_QUERIES[path]):
        response = client.get(url)
    assert len(Feed(response).entries) >= min(events, 1)


def test_event_file_runs_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    rich_events(1)
    event = Event.objects.get()
    # The event with its venue and images, its terms, its organizers.
    with django_assert_max_num_queries(3):
        Feed(client.get(f"/event/{event.slug}/ical/"))


# --- links on the pages -------------------------------------------------------------------------


def menu(client, path, query=None):
    parsed = page(client.get(path, query or {}))
    anchors = [attrs for tag, attrs in parsed.elements if tag == "a"]
    assert parsed.find_all("details", class_="subscribe"), path
    return [attrs["href"] for attrs in anchors]


def test_views_offer_the_subscribe_menu(client):
    soon(categories=[make_category("Jazz")])
    hrefs = menu(client, "/events/category/jazz/")
    feed = "webcal://testserver/events/category/jazz/?ical=1"
    assert feed in hrefs
    google = next(href for href in hrefs if href.startswith("https://www.google.com/calendar/render?"))
    assert parse_qs(urlsplit(google).query) == {"cid": [feed]}
    for host in ("outlook.office.com", "outlook.live.com"):
        outlook = next(href for href in hrefs if urlsplit(href).netloc == host)
        assert parse_qs(urlsplit(outlook).query) == {
            "path": ["/calendar/action/compose"],
            "rru": ["addsubscription"],
            "url": [feed],
            "name": ["Events in Jazz · Events calendar"],
        }
    assert "http://testserver/events/category/jazz/?ical=1" in hrefs


def test_month_menu_subscribes_to_upcoming_events_and_exports_the_month(client):
    hrefs = menu(client, "/zh-hans/events/month/", {"month": "2031-06"})
    assert "webcal://testserver/zh-hans/events/?ical=1" in hrefs
    assert "http://testserver/zh-hans/events/month/?month=2031-06&ical=1" in hrefs


def test_locked_pages_offer_no_menu(client):
    venue = make_venue("Secret", password="pw")
    parsed = page(client.get(f"/venue/{venue.slug}/"))
    assert not parsed.find_all("details", class_="subscribe")


def test_event_page_links_to_google_calendar_and_its_file(client):
    venue = make_venue("Hall", address="1 Main St", city="Springfield")
    event = make_event(
        "Jazz night",
        start=dt.datetime(2031, 6, 5, 20, 0),
        end=dt.datetime(2031, 6, 5, 23, 0),
        timezone_name="America/New_York",
        venue=venue,
        description="<p>Three sets.</p>",
    )
    hrefs = page(client.get(f"/event/{event.slug}/")).hrefs()
    assert f"http://testserver/event/{event.slug}/ical/" in hrefs
    google = next(href for href in hrefs if href.startswith("https://www.google.com/calendar/render?"))
    assert parse_qs(urlsplit(google).query) == {
        "action": ["TEMPLATE"],
        "dates": ["20310605T200000/20310605T230000"],
        "text": ["Jazz night"],
        "details": ["Three sets."],
        "location": ["Hall, 1 Main St, Springfield"],
        "trp": ["false"],
        "ctz": ["America/New_York"],
        "sprop": ["website:http://testserver"],
    }


def test_all_day_google_link_ends_the_day_after(client):
    event = make_event("Fair", start=dt.datetime(2031, 6, 5), end=dt.datetime(2031, 6, 7), all_day=True)
    hrefs = page(client.get(f"/event/{event.slug}/")).hrefs()
    google = next(href for href in hrefs if href.startswith("https://www.google.com/calendar/render?"))
    query = parse_qs(urlsplit(google).query)
    assert query["dates"] == ["20310605/20310608"] and "ctz" not in query


# --- the last day dates can hold ----------------------------------------------------------------


def test_an_all_day_event_on_the_last_representable_day_has_its_pages_and_files(client, editor):
    """9999-12-31 is a date the API takes; the day after it, an all-day event's exclusive end, is none."""
    response = post_json(
        editor,
        "/events",
        {
            "title": "Last day",
            "start_date": "9999-12-31",
            "end_date": "9999-12-31",
            "all_day": True,
            "status": "publish",
        },
    )
    assert response.status_code == 201
    slug = response.json()["slug"]
    assert client.get(f"/event/{slug}/").status_code == 200
    entry, other = event_file(client, Event.objects.get(slug=slug)).entry("Last day")
    assert entry.decoded("DTSTART") == dt.date(9999, 12, 31) == other.dtstart.value
    # RFC 5545 has no date for its end: the length says it instead, one day.
    assert "DTEND" not in entry
    assert entry.decoded("DURATION") == dt.timedelta(days=1) == other.duration.value
    feed = Feed(client.get("/events/", {"ical": "1", "start_date": "9999-12-30", "end_date": "9999-12-31"}))
    assert feed.summaries() == ["Last day"]
    hrefs = page(client.get(f"/event/{slug}/")).hrefs()
    google = next(href for href in hrefs if href.startswith("https://www.google.com/calendar/render?"))
    assert parse_qs(urlsplit(google).query)["dates"] == ["99991231/99991231"]


def test_views_reaching_the_last_representable_day_answer(client, editor):
    """A multi-day event into 9999-12-31 shows in the last month and day the views have (9998-12)."""
    response = post_json(
        editor,
        "/events",
        {
            "title": "Long fair",
            "start_date": "9998-12-30",
            "end_date": "9999-12-31",
            "all_day": True,
            "status": "publish",
        },
    )
    assert response.status_code == 201
    entry, other = Feed(client.get("/events/month/", {"month": "9998-12", "ical": "1"})).entry("Long fair")
    assert entry.decoded("DTSTART") == dt.date(9998, 12, 30)
    assert entry.decoded("DURATION") == dt.timedelta(days=367) == other.duration.value
    assert Feed(client.get("/events/9998-12-31/", {"ical": "1"})).summaries() == ["Long fair"]
    assert client.get("/events/month/", {"month": "9998-12"}).status_code == 200
    assert client.get("/events/9998-12-31/").status_code == 200
    assert client.get("/events/", {"start_date": "9998-12-31"}).status_code == 200
