"""Public calendar pages: what each page kind shows, to whom, in which language, and how it caches."""

import datetime as dt
import json
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.http import http_date, parse_http_date

from events import store
from events.models import Event, PostStatus, RenderedRecord
from events.services.posts import move_to_trash

from .conftest import API
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_venue

pytestmark = pytest.mark.django_db

TOMORROW = dt.datetime.combine(timezone.now().date() + dt.timedelta(days=1), dt.time(10, 0))


# --- reading pages ------------------------------------------------------------------------------


class Page(HTMLParser):
    """What a test reads from an HTML page: elements with their attributes, text, JSON-LD blocks."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.elements, self.text_parts, self.json_ld_blocks = [], [], []
        self._in_json_ld = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        self._in_json_ld = tag == "script" and attributes.get("type") == "application/ld+json"

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_json_ld = False

    def handle_data(self, data):
        if self._in_json_ld:
            self.json_ld_blocks.append(data)
        else:
            self.text_parts.append(data)

    @property
    def text(self):
        return re.sub(r"\s+", " ", "".join(self.text_parts))

    def find_all(self, tag, **wanted):
        return [
            attrs
            for name, attrs in self.elements
            if name == tag and all(attrs.get(k.rstrip("_")) == v for k, v in wanted.items())
        ]

    def meta(self, name):
        return [attrs["content"] for attrs in self.find_all("meta", name=name)]

    def links(self, rel):
        return [attrs["href"] for attrs in self.find_all("link", rel=rel)]

    def hrefs(self):
        return [attrs["href"] for attrs in self.find_all("a") if "href" in attrs]

    def json_ld(self):
        assert len(self.json_ld_blocks) == 1, self.json_ld_blocks
        return json.loads(self.json_ld_blocks[0])


def page(response, status=200):
    assert response.status_code == status, response.content[:2000]
    assert response["Content-Type"].startswith("text/html")
    return Page(response.content.decode())


def event_links(parsed):
    """Paths of the event pages a page links to, in page order."""
    return [urlsplit(href).path for href in parsed.hrefs() if "/event/" in href]


def soon(days=0, hours=0, **fields):
    start = TOMORROW + dt.timedelta(days=days, hours=hours)
    return make_event(start=start, end=start + dt.timedelta(hours=2), **fields)


# --- the upcoming list --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/events/"], ids=["home", "events"])
def test_upcoming_list_shows_what_the_api_lists_by_default_in_its_order(client, api, path):
    later = soon(days=3, title="Later")
    first = soon(days=1, title="First")
    same_start = soon(days=1, title="Same start, higher ID")
    soon(days=2, status=PostStatus.DRAFT)
    soon(days=2, status=PostStatus.PENDING)
    soon(days=2, status=PostStatus.PRIVATE)
    soon(days=2, status=PostStatus.TRASH)
    soon(days=2, hide_from_listings=True)
    make_event(start=TOMORROW - dt.timedelta(days=10), title="Long gone")
    make_event(start=TOMORROW + dt.timedelta(days=900), title="Beyond the window")

    parsed = page(client.get(path))

    expected = [f"/event/{event.slug}/" for event in (first, same_start, later)]
    assert event_links(parsed) == expected
    api_urls = [urlsplit(event["url"]).path for event in api.get(f"{API}/events").json()["events"]]
    assert api_urls == expected


def test_list_cards_show_time_venue_and_cost_but_nothing_of_protected_events(client):
    venue = make_venue("Blue Hall", city="Rome")
    soon(title="Open night", venue=venue, cost=["10"], excerpt="Bring friends")
    soon(days=1, title="Members only", venue=venue, cost=["99"], excerpt="Secret plans", password="letmein")

    text = page(client.get("/events/")).text

    assert "Open night" in text and "Blue Hall, Rome" in text and "$10" in text and "Bring friends" in text
    assert "Members only" in text and "This event is password protected." in text
    assert "$99" not in text and "Secret plans" not in text


def test_list_pages_through_the_events(client, settings):
    settings.EVENTS = {"DEFAULT_PER_PAGE": 2}
    events = [soon(days=n) for n in range(5)]

    first = page(client.get("/events/"))
    third = page(client.get("/events/", {"page": 3}))

    assert event_links(first) == [f"/event/{event.slug}/" for event in events[:2]]
    assert first.find_all("a", rel="next")[0]["href"] == "/events/?page=2"
    assert first.find_all("a", rel="prev") == []
    assert event_links(third) == [f"/event/{events[4].slug}/"]
    assert third.find_all("a", rel="prev")[0]["href"] == "/events/?page=2"
    assert "Page 3 of 3" in third.text


@pytest.mark.parametrize(
    ("query", "status"),
    [({"page": 9}, 404), ({"page": 0}, 400), ({"page": "two"}, 400), ({"page": ""}, 400)],
    ids=["past-the-end", "zero", "word", "empty"],
)
def test_bad_page_numbers_are_client_errors(client, query, status):
    soon()
    assert client.get("/events/", query).status_code == status


def test_empty_calendar_says_so(client):
    assert "There are no upcoming events." in page(client.get("/")).text


def test_featured_view_lists_featured_events_only(client):
    featured = soon(featured=True)
    soon(days=1)

    parsed = page(client.get("/events/featured/"))

    assert event_links(parsed) == [f"/event/{featured.slug}/"]
    assert "Featured events" in parsed.text


# --- archives -----------------------------------------------------------------------------------


def test_category_archive_lists_the_category_at_its_full_path(client):
    music = make_category("Music")
    jazz = make_category("Jazz", parent=music)
    in_jazz = soon(categories=[jazz])
    soon(categories=[music])

    parsed = page(client.get("/events/category/music/jazz/"))

    assert event_links(parsed) == [f"/event/{in_jazz.slug}/"]
    assert "Events in Jazz" in parsed.text


@pytest.mark.parametrize(
    "path", ["/events/category/jazz/", "/events/category/other/jazz/"], ids=["no-parent", "wrong-parent"]
)
def test_category_at_another_path_redirects_to_its_address(client, path):
    make_category("Jazz", parent=make_category("Music"))
    response = client.get(path)
    assert response.status_code == 301
    assert response["Location"] == "http://testserver/events/category/music/jazz/"


def test_archive_headings_show_term_names_as_stored(client):
    make_tag("Rock &amp; roll", slug="rock-roll")
    response = client.get("/tag/rock-roll/")
    assert "<h1>Events tagged Rock &amp; roll</h1>" in response.content.decode()
    assert "Events tagged Rock & roll" in page(response).text


def test_tag_archive_lists_the_tag(client):
    outdoors = make_tag("Outdoors")
    tagged = soon(tags=[outdoors])
    soon()

    parsed = page(client.get("/tag/outdoors/"))

    assert event_links(parsed) == [f"/event/{tagged.slug}/"]
    assert "Events tagged Outdoors" in parsed.text


@pytest.mark.parametrize(
    "path",
    [
        "/events/category/nothing/",
        "/tag/nothing/",
        "/event/nothing/",
        "/venue/nothing/",
        "/organizer/nothing/",
        "/no/such/page/",
    ],
    ids=["category", "tag", "event", "venue", "organizer", "unrouted"],
)
def test_unknown_addresses_get_the_calendar_404_page(client, path):
    parsed = page(client.get(path), status=404)
    assert "Page not found" in parsed.text


# --- single pages: who may see them -------------------------------------------------------------


@pytest.mark.parametrize(
    "status", [PostStatus.DRAFT, PostStatus.PENDING, PostStatus.PRIVATE, PostStatus.FUTURE], ids=str
)
def test_unpublished_events_are_404(client, status):
    event = soon(status=status, slug="hidden-plan")
    assert client.get(f"/event/{event.slug}/").status_code == 404


def test_trashed_event_is_404_at_its_old_and_trashed_slugs(client):
    event = soon(slug="cancelled")
    move_to_trash(event)
    event.save()
    assert client.get("/event/cancelled/").status_code == 404
    assert client.get(f"/event/{event.slug}/").status_code == 404


@pytest.mark.parametrize("kind", ["venue", "organizer"])
@pytest.mark.parametrize("status", [PostStatus.DRAFT, PostStatus.PRIVATE, PostStatus.TRASH], ids=str)
def test_unpublished_venues_and_organizers_are_404(client, kind, status):
    build = make_venue if kind == "venue" else make_organizer
    record = build(status=status, slug=f"{kind}-x")
    assert client.get(f"/{kind}/{record.slug}/").status_code == 404


def test_hidden_events_are_not_listed_but_have_their_page(client):
    hidden = soon(hide_from_listings=True)
    assert event_links(page(client.get("/"))) == []
    assert page(client.get(f"/event/{hidden.slug}/")).text


def test_slugs_match_like_the_api_by_slug_routes(client):
    event = soon(title="中文活动")
    assert event.slug.startswith("%e4")
    assert client.get(f"/event/{event.slug}/").status_code == 200
    assert client.get(f"/event/{event.slug.upper()}/").status_code == 200
    assert client.get("/event/%E4%B8%AD%E6%96%87%E6%B4%BB%E5%8A%A8/").status_code == 200


# --- the single event page ----------------------------------------------------------------------


def test_event_page_shows_time_in_the_event_zone(client):
    event = make_event(
        "Winter concert",
        start=dt.datetime(2031, 1, 15, 19, 0),
        end=dt.datetime(2031, 1, 15, 21, 30),
        timezone_name="America/New_York",
    )

    parsed = page(client.get(f"/event/{event.slug}/"))

    times = [attrs["datetime"] for attrs in parsed.find_all("time")]
    assert times[:2] == ["2031-01-15T19:00:00-05:00", "2031-01-15T21:30:00-05:00"]
    assert "Jan. 15, 2031 7 p.m. – 9:30 p.m. EST" in parsed.text


def test_all_day_multi_day_event_shows_its_days(client):
    event = make_event(start=dt.datetime(2031, 3, 1, 0, 0), end=dt.datetime(2031, 3, 3, 0, 0), all_day=True)
    parsed = page(client.get(f"/event/{event.slug}/"))
    assert [attrs["datetime"] for attrs in parsed.find_all("time")][:2] == ["2031-03-01", "2031-03-03"]
    assert "March 1, 2031 – March 3, 2031 All day" in parsed.text


def test_event_page_shows_every_detail(client):
    venue = make_venue(
        "Blue Hall",
        address="1 Main St",
        city="Rome",
        province="RM",
        zip="00100",
        country="Italy",
        phone="+39 06 123",
        website="https://hall.example",
    )
    first = make_organizer("Ann Arts", email="ann@example.org", phone="555-1000", website="https://ann.example")
    second = make_organizer("Bob Band", status=PostStatus.DRAFT)
    music = make_category("Music")
    jazz = make_category("Jazz", parent=music)
    tag = make_tag("Late night")
    event = soon(
        title="Jazz night",
        venue=venue,
        organizers=[first, second],
        categories=[jazz],
        tags=[tag],
        cost=["5", "50"],
        website="https://jazz.example",
        description="First line\n\nSecond paragraph",
        image=make_image(title="Poster"),
    )

    parsed = page(client.get(f"/event/{event.slug}/"))
    text, hrefs = parsed.text, parsed.hrefs()

    assert "Jazz night" in text and "$5 – $50" in text
    assert "1 Main St" in text and "Rome RM 00100" in text and "Italy" in text and "+39 06 123" in text
    assert "http://testserver/venue/blue-hall/" in hrefs
    assert "https://www.google.com/maps/search/?api=1&query=1+Main+St%2C+Rome+RM+00100%2C+Italy" in hrefs
    # Organizers in their written order; a draft organizer is named but not linked.
    assert text.index("Ann Arts") < text.index("Bob Band")
    assert "http://testserver/organizer/ann-arts/" in hrefs and "mailto:ann@example.org" in hrefs
    assert not any("/organizer/bob-band/" in href for href in hrefs)
    assert "http://testserver/events/category/music/jazz/" in hrefs and "http://testserver/tag/late-night/" in hrefs
    assert "https://jazz.example" in hrefs
    assert "<p>First line</p>" in response_html(client, event) and "<p>Second paragraph</p>" in response_html(
        client, event
    )
    (image,) = parsed.find_all("img")
    assert image["src"].startswith("http://testserver/media/events/") and image["alt"] == "Poster"
    assert (image["width"], image["height"]) == ("640", "480")


def response_html(client, event):
    return client.get(f"/event/{event.slug}/").content.decode()


@pytest.mark.parametrize(("flag", "shown"), [(None, True), (True, True), (False, False)], ids=["unset", "on", "off"])
def test_map_link_follows_show_map_link(client, flag, shown):
    event = soon(venue=make_venue(address="1 Main St", city="Rome", geo_lat=41.9, geo_lng=12.5), show_map_link=flag)
    hrefs = page(client.get(f"/event/{event.slug}/")).hrefs()
    assert ("https://www.google.com/maps/search/?api=1&query=41.9%2C12.5" in hrefs) is shown


def test_descriptions_lose_scripts_and_unsafe_links(client):
    event = soon(
        title="<script>alert('t')</script>Safe title",
        description='<p onclick="x()">Hi <a href="javascript:alert(1)">bad</a> <a href="https://ok.example">good</a></p>'
        "<script>alert(2)</script><img src=x onerror=alert(3)><iframe src=//evil></iframe>",
    )
    html = response_html(client, event)
    body = html.split("<body>", 1)[1]
    assert "<script" not in body.replace('<script type="application/ld+json">', "")
    assert "alert(" not in body and "onclick" not in body and "onerror" not in body and "<iframe" not in body
    assert '<a rel="nofollow noopener">bad</a>' in body
    assert '<a href="https://ok.example" rel="nofollow noopener">good</a>' in body
    assert "Safe title" in body


def test_protected_venue_and_organizer_are_named_only(client):
    venue = make_venue("Secret Hall", address="9 Hidden Rd", password="pw")
    organizer = make_organizer("Quiet Club", email="quiet@example.org", password="pw")
    event = soon(venue=venue, organizers=[organizer])
    text = page(client.get(f"/event/{event.slug}/")).text
    assert "Secret Hall" in text and "Quiet Club" in text
    assert "9 Hidden Rd" not in text and "quiet@example.org" not in text


# --- password-protected events ------------------------------------------------------------------


def test_protected_event_shows_a_password_form_until_unlocked():
    client = Client(enforce_csrf_checks=True)
    event = soon(title="Board meeting", description="The agenda", password="letmein")
    url = f"/event/{event.slug}/"

    locked = client.get(url)
    parsed = page(locked)
    assert "The agenda" not in parsed.text and "Board meeting" in parsed.text
    assert parsed.json_ld_blocks == []
    assert "Last-Modified" not in locked and "private" in locked["Cache-Control"]
    (form,) = parsed.find_all("form")
    assert form["method"] == "post"
    token = parsed.find_all("input", name="csrfmiddlewaretoken")[0]["value"]

    assert client.post(url, {"post_password": "letmein"}).status_code == 403  # no CSRF token
    wrong = client.post(url, {"post_password": "nope", "csrfmiddlewaretoken": token})
    assert wrong.status_code == 403
    assert "That password is not correct." in page(wrong, status=403).text

    right = client.post(url, {"post_password": "letmein", "csrfmiddlewaretoken": token})
    assert (right.status_code, right["Location"]) == (303, url)
    unlocked = client.get(url)
    assert "The agenda" in page(unlocked).text
    assert "Last-Modified" not in unlocked and "Cookie" in unlocked["Vary"]

    # The cookie holds a keyed hash, not the password, and stops working when the password changes.
    assert "letmein" not in right.cookies["events_post_password"].value
    Event.objects.filter(pk=event.pk).update(password="changed")
    assert "The agenda" not in page(client.get(url)).text


def test_protected_venue_page_asks_for_the_password(client):
    venue = make_venue("Secret Hall", description="Hidden door", password="pw")
    parsed = page(client.get(f"/venue/{venue.slug}/"))
    assert "Hidden door" not in parsed.text and parsed.find_all("form")
    assert parsed.json_ld_blocks == []


# --- venue and organizer pages ------------------------------------------------------------------


def test_venue_page_shows_the_venue_and_its_upcoming_events(client):
    venue = make_venue("Blue Hall", address="1 Main St", city="Rome", description="A fine room", show_map_link=False)
    here = soon(venue=venue)
    soon(venue=make_venue())
    soon(venue=venue, status=PostStatus.DRAFT)

    parsed = page(client.get(f"/venue/{venue.slug}/"))

    assert "A fine room" in parsed.text and "1 Main St" in parsed.text
    assert not any("google.com/maps" in href for href in parsed.hrefs())
    assert event_links(parsed) == [f"/event/{here.slug}/"]


def test_organizer_page_shows_the_organizer_and_its_upcoming_events(client):
    organizer = make_organizer("Ann Arts", phone="555-1000", description="Since 1999")
    theirs = soon(organizers=[make_organizer(), organizer])
    soon(organizers=[make_organizer()])

    parsed = page(client.get(f"/organizer/{organizer.slug}/"))

    assert "Since 1999" in parsed.text and "555-1000" in parsed.text
    assert event_links(parsed) == [f"/event/{theirs.slug}/"]


# --- JSON-LD ------------------------------------------------------------------------------------


def test_event_json_ld_is_the_api_json_ld(client, api):
    venue = make_venue("Blue Hall", address="1 Main St", city="Rome", geo_lat=41.9, geo_lng=12.5)
    event = make_event(
        "Rock </script><script>alert(1)</script> & roll",
        start=dt.datetime(2031, 7, 4, 20, 0),
        end=dt.datetime(2031, 7, 4, 23, 0),
        timezone_name="Europe/Rome",
        venue=venue,
        organizers=[make_organizer("Ann Arts")],
        cost=["15"],
    )

    response = client.get(f"/event/{event.slug}/")
    data = page(response).json_ld()

    assert "</script><script>" not in response.content.decode().split("</title>", 1)[1]
    assert data == api.get(f"{API}/events/{event.pk}").json()["json_ld"]
    assert (data["@type"], data["startDate"], data["endDate"]) == (
        "Event",
        "2031-07-04T20:00:00+02:00",
        "2031-07-04T23:00:00+02:00",
    )
    assert data["location"]["name"] == "Blue Hall"
    assert data["location"]["address"]["addressLocality"] == "Rome"
    assert data["location"]["geo"] == {"@type": "GeoCoordinates", "latitude": 41.9, "longitude": 12.5}


def test_event_page_json_ld_is_the_stored_json_ld_of_the_api_record(client, api):
    """The page renders its JSON-LD with the function the store's JSON-LD rows were rendered with, from
    the event read as its record reads it: once a read replaces the rows' markers with this site's
    values, the page's document and the record's `json_ld` are the same, linked records and images too."""
    music = make_category("Music")
    event = make_event(
        "Jazz night",
        venue=make_venue("Blue Hall", city="Rome", image=make_image("hall.png")),
        organizers=[make_organizer("Ann Arts", image=make_image("ann.png")), make_organizer("Bo Band")],
        categories=[make_category("Jazz", parent=music), music],
        image=make_image("poster.png"),
        cost=["15"],
    )
    store.render_all()
    stored = {
        row.kind: json.loads(row.body)
        for row in RenderedRecord.objects.filter(
            kind__in=[store.EVENT_LD, store.VENUE_LD, store.ORGANIZER_LD], language="en"
        )
    }
    # The stored rows stand for this site's home and origin with markers.
    assert stored[store.EVENT_LD]["url"].startswith(store.HOME)
    assert stored[store.EVENT_LD]["image"].startswith(store.ORIGIN)
    assert stored[store.VENUE_LD]["image"].startswith(store.ORIGIN)

    data = page(client.get(f"/event/{event.slug}/")).json_ld()

    assert data == api.get(f"{API}/events/{event.pk}").json()["json_ld"]
    assert data["url"] == f"http://testserver/event/{event.slug}/"
    assert data["image"].startswith("http://testserver/") and data["image"].endswith(".png")
    assert (data["location"]["name"], data["organizer"]["name"]) == ("Blue Hall", "Ann Arts")
    assert data["location"]["image"].startswith("http://testserver/")


@pytest.mark.parametrize("kind", ["venues", "organizers"])
def test_linked_record_page_json_ld_is_the_api_record_s_with_a_context(client, api, kind):
    record = (make_venue if kind == "venues" else make_organizer)("Blue Hall", image=make_image())

    data = page(client.get(f"/{kind[:-1]}/{record.slug}/")).json_ld()

    assert data == {"@context": "http://schema.org", **api.get(f"{API}/{kind}/{record.pk}").json()["json_ld"]}


def test_venue_json_ld_is_a_place(client):
    venue = make_venue("Blue Hall", address="1 Main St", city="Rome", zip="00100")
    data = page(client.get(f"/venue/{venue.slug}/")).json_ld()
    assert data["@context"] == "http://schema.org" and data["@type"] == "Place"
    assert data["url"] == "http://testserver/venue/blue-hall/"
    assert data["address"] == {
        "@type": "PostalAddress",
        "streetAddress": "1 Main St",
        "addressLocality": "Rome",
        "postalCode": "00100",
    }


def test_organizer_json_ld_is_a_person(client):
    organizer = make_organizer("Ann Arts", email="ann@example.org")
    data = page(client.get(f"/organizer/{organizer.slug}/")).json_ld()
    assert (data["@context"], data["@type"], data["name"], data["email"]) == (
        "http://schema.org",
        "Person",
        "Ann Arts",
        "ann@example.org",
    )


# --- the month grid -----------------------------------------------------------------------------


def cells(parsed):
    """{date: [event paths]} of the grid, read in page order."""
    found, current = {}, None
    for tag, attrs in parsed.elements:
        if tag == "time" and re.fullmatch(r"\d{4}-\d{2}-\d{2}", attrs.get("datetime", "")):
            current = attrs["datetime"]
            found[current] = []
        elif tag == "a" and current and "/event/" in attrs.get("href", ""):
            found[current].append(urlsplit(attrs["href"]).path)
    return found


def test_month_grid_places_events_on_their_days(client):
    concert = make_event("Concert", start=dt.datetime(2031, 6, 10, 20, 0), end=dt.datetime(2031, 6, 10, 22, 0))
    festival = make_event("Festival", start=dt.datetime(2031, 6, 29, 9, 0), end=dt.datetime(2031, 7, 2, 18, 0))
    make_event("Draft", start=dt.datetime(2031, 6, 11, 9, 0), status=PostStatus.DRAFT)
    make_event("Hidden", start=dt.datetime(2031, 6, 12, 9, 0), hide_from_listings=True)

    parsed = page(client.get("/events/month/", {"month": "2031-06"}))
    grid = cells(parsed)

    assert "June 2031" in parsed.text
    # English weeks start on Sunday: the grid runs from Sunday 1 June to Saturday 5 July.
    assert (min(grid), max(grid)) == ("2031-06-01", "2031-07-05")
    assert grid["2031-06-10"] == [f"/event/{concert.slug}/"]
    assert [day for day, links in grid.items() if links == [f"/event/{festival.slug}/"]] == [
        "2031-06-29",
        "2031-06-30",
        "2031-07-01",
        "2031-07-02",
    ]
    assert grid["2031-06-11"] == grid["2031-06-12"] == []
    # The start time shows on the first day only.
    assert parsed.text.count("Festival") == 4 and parsed.text.count("9 a.m. Festival") == 1
    assert parsed.find_all("a", rel="prev")[0]["href"] == "/events/month/?month=2031-05"
    assert parsed.find_all("a", rel="next")[0]["href"] == "/events/month/?month=2031-07"


def test_month_grid_weeks_start_on_monday_in_chinese(client):
    grid = cells(page(client.get("/zh-hans/events/month/", {"month": "2031-06"})))
    assert (min(grid), max(grid)) == ("2031-05-26", "2031-07-06")


def test_busy_days_show_a_few_events_and_count_the_rest(client):
    for hour in range(7):
        make_event(start=dt.datetime(2031, 6, 10, 8 + hour, 0))
    parsed = page(client.get("/events/month/", {"month": "2031-06"}))
    assert len(cells(parsed)["2031-06-10"]) == 4
    assert "3 more events" in parsed.text


def test_month_grid_defaults_to_this_month(client):
    today = timezone.localdate()
    grid = cells(page(client.get("/events/month/")))
    assert today.isoformat() in grid


@pytest.mark.parametrize("month", ["2031-13", "2031-00", "31-06", "June", "0001-01", "9999-12", ""], ids=str)
def test_bad_months_are_400(client, month):
    assert client.get("/events/month/", {"month": month}).status_code == 400


# --- languages ----------------------------------------------------------------------------------


def test_pages_come_in_three_languages(client):
    event = soon(title="Jazz night")
    Event.objects.filter(pk=event.pk).update(title_zh_hans="爵士之夜", title_zh_hant="爵士之夜（繁）")

    english = page(client.get(f"/event/{event.slug}/"))
    simplified = page(client.get(f"/zh-hans/event/{event.slug}/"))
    traditional = page(client.get(f"/zh-hant/event/{event.slug}/"))

    assert english.find_all("html")[0]["lang"] == "en"
    assert simplified.find_all("html")[0]["lang"] == "zh-hans"
    assert "爵士之夜" in simplified.text and "爵士之夜（繁）" in traditional.text
    assert "All events" in english.text
    assert "所有活动" in simplified.text and "所有活動" in traditional.text
    alternates = {
        attrs["hreflang"]: attrs["href"]
        for attrs in traditional.find_all("link", rel="alternate")
        if "hreflang" in attrs
    }
    assert alternates == {
        "en": f"http://testserver/event/{event.slug}/",
        "zh-hans": f"http://testserver/zh-hans/event/{event.slug}/",
        "zh-hant": f"http://testserver/zh-hant/event/{event.slug}/",
        "x-default": f"http://testserver/event/{event.slug}/",
    }
    switcher = {attrs["hreflang"]: attrs for attrs in traditional.find_all("a") if "hreflang" in attrs}
    assert switcher["zh-hant"]["aria-current"] == "true"
    assert switcher["en"]["href"] == f"/event/{event.slug}/"


def test_links_stay_in_the_page_language(client):
    venue = make_venue("Blue Hall")
    event = soon(venue=venue)
    hrefs = page(client.get("/zh-hant/events/")).hrefs()
    assert f"http://testserver/zh-hant/event/{event.slug}/" in hrefs
    venue_hrefs = page(client.get(f"/zh-hant/event/{event.slug}/")).hrefs()
    assert f"http://testserver/zh-hant/venue/{venue.slug}/" in venue_hrefs


def test_list_language_switcher_keeps_the_query(client):
    parsed = page(client.get("/events/month/", {"month": "2031-06"}))
    switcher = {attrs["hreflang"]: attrs["href"] for attrs in parsed.find_all("a") if "hreflang" in attrs}
    assert switcher["zh-hant"] == "/zh-hant/events/month/?month=2031-06"


# --- every public URL the API returns answers ---------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "/zh-hans", "/zh-hant"], ids=["en", "zh-hans", "zh-hant"])
def test_every_url_the_api_returns_for_published_records_answers(client, api, prefix):
    venue = make_venue("Blue Hall", address="1 Main St")
    organizer = make_organizer("Ann Arts")
    music = make_category("Music")
    jazz = make_category("Jazz", parent=music)
    folk = make_category("民谣", parent=music)
    tag = make_tag("Late night")
    soon(title="Jazz night", venue=venue, organizers=[organizer], categories=[jazz], tags=[tag])
    soon(title="中文活动", featured=True, categories=[folk], tags=[make_tag("深夜")])
    soon(title="Members only", password="pw")

    urls = set()
    for event in api.get(f"{prefix}{API}/events").json()["events"]:
        urls.add(event["url"])
        urls.update(item["url"] for item in ([event["venue"]] if event["venue"] else []) + event["organizer"])
        single = api.get(f"{prefix}{API}/events/{event['id']}")
        if single.status_code == 200:
            urls.add(single.json()["json_ld"]["url"])
    for collection in ("venues", "organizers", "categories", "tags"):
        records = api.get(f"{prefix}{API}/{collection}", {"hide_empty": "0"}).json()[collection]
        urls.update(record["url"] for record in records)

    # Three events, the venue, the organizer, three categories and two tags.
    assert len(urls) == 10
    for url in sorted(urls):
        assert url.startswith(f"http://testserver{prefix}/")
        assert client.get(url).status_code == 200, url


def test_record_id_addresses_redirect_to_published_pages(client):
    event = soon()
    draft = soon(status=PostStatus.DRAFT)
    response = client.get("/", {"post_type": "tribe_events", "p": event.pk})
    assert (response.status_code, response["Location"]) == (301, f"http://testserver/event/{event.slug}/")
    assert client.get("/", {"post_type": "tribe_events", "p": draft.pk}).status_code == 404
    assert client.get("/", {"p": "abc"}).status_code == 404


# --- caching ------------------------------------------------------------------------------------


def test_event_page_is_last_modified_when_it_or_its_links_changed(client):
    venue = make_venue()
    event = soon(venue=venue)
    Event.objects.filter(pk=event.pk).update(modified=dt.datetime(2021, 1, 2, 3, 4, 5, tzinfo=dt.UTC))
    type(venue).objects.filter(pk=venue.pk).update(modified=dt.datetime(2021, 1, 1, tzinfo=dt.UTC))
    url = f"/event/{event.slug}/"

    first = client.get(url)
    assert first["Last-Modified"] == "Sat, 02 Jan 2021 03:04:05 GMT"
    assert first["Cache-Control"] == "no-cache"

    assert client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.head(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304

    venue.save()  # a change to the venue shows on the event page
    changed = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert changed.status_code == 200
    assert changed["Last-Modified"] == http_date(type(venue).objects.get(pk=venue.pk).modified.timestamp())


def test_list_revalidates_when_an_event_leaves_it(client):
    kept, dropped = soon(), soon(days=1)
    first = client.get("/events/")
    assert client.get("/events/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    Event.objects.filter(pk=dropped.pk).update(status=PostStatus.TRASH)

    again = client.get("/events/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert event_links(page(again)) == [f"/event/{kept.slug}/"]


def test_list_is_never_older_than_today(client):
    soon()
    Event.objects.update(modified=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    last_modified = parse_http_date(client.get("/events/")["Last-Modified"])
    midnight = dt.datetime.combine(timezone.now().astimezone(dt.UTC).date(), dt.time(), tzinfo=dt.UTC)
    assert midnight.timestamp() <= last_modified <= timezone.now().timestamp()


def test_head_is_answered_without_a_body(client):
    event = soon()
    response = client.head(f"/event/{event.slug}/")
    assert response.status_code == 200 and response.content == b""
    assert response["Last-Modified"]


# --- query counts -------------------------------------------------------------------------------


@pytest.mark.parametrize("links", [1, 5], ids=["one-of-each", "five-of-each"])
def test_event_page_runs_a_fixed_number_of_queries(client, django_assert_max_num_queries, links):
    music = make_category("Music")
    event = soon(
        venue=make_venue(image=make_image()),
        organizers=[make_organizer(image=make_image()) for _ in range(links)],
        categories=[make_category(parent=music) for _ in range(links)],
        tags=[make_tag() for _ in range(links)],
        image=make_image(),
    )
    # The event with its venue and images, its terms, its organizers, and the category tree.
    with django_assert_max_num_queries(4):
        response = client.get(f"/event/{event.slug}/")
    assert len(page(response).json_ld()["organizer"]) > 0


@pytest.mark.parametrize("events", [1, 30], ids=["one-event", "many-events"])
@pytest.mark.parametrize("path", ["/events/", "/events/featured/", "/zh-hant/events/"])
def test_list_pages_run_a_fixed_number_of_queries(client, django_assert_max_num_queries, settings, path, events):
    settings.EVENTS = {"DEFAULT_PER_PAGE": 50}
    venue = make_venue()
    for n in range(events):
        soon(days=n % 20, venue=venue, featured=True, organizers=[make_organizer()], categories=[make_category()])
    # The page of events and its total, in one query.
    with django_assert_max_num_queries(1):
        response = client.get(path)
    assert len(event_links(page(response))) == events


@pytest.mark.parametrize("events", [1, 30], ids=["one-event", "many-events"])
def test_month_page_runs_a_fixed_number_of_queries(client, django_assert_max_num_queries, events):
    for n in range(events):
        make_event(start=dt.datetime(2031, 6, 1 + n % 28, 9, 0), end=dt.datetime(2031, 6, 2 + n % 28, 9, 0))
    # The events of the grid's weeks, in one query.
    with django_assert_max_num_queries(1):
        response = client.get("/events/month/", {"month": "2031-06"})
    assert len({path for links in cells(page(response)).values() for path in links}) == events


# The record or term behind the page, then the page of events; categories also load their tree once.
ARCHIVE_QUERIES = {"venue": 2, "organizer": 2, "category": 3, "tag": 2}


@pytest.mark.parametrize("kind", list(ARCHIVE_QUERIES))
@pytest.mark.parametrize("events", [1, 30], ids=["one-event", "many-events"])
def test_archive_pages_run_a_fixed_number_of_queries(client, django_assert_max_num_queries, kind, events):
    venue, organizer = make_venue("Hall"), make_organizer("Ann")
    category, tag = make_category("Jazz", parent=make_category("Music")), make_tag("Late")
    for n in range(events):
        soon(days=n % 20, venue=venue, organizers=[organizer], categories=[category], tags=[tag])
    path = {
        "venue": "/venue/hall/",
        "organizer": "/organizer/ann/",
        "category": "/events/category/music/jazz/",
        "tag": "/tag/late/",
    }[kind]
    with django_assert_max_num_queries(ARCHIVE_QUERIES[kind]):
        response = client.get(path)
    assert len(event_links(page(response))) == min(events, 10)
