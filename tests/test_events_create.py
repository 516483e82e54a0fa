"""Event creation (docs/contract/events.md §4): fields, defaults, dates, status by role, linked records, refusals that change nothing."""

import datetime as dt

import pytest
from django.utils import timezone, translation

from events.models import Attachment, Event, EventOrganizer, Organizer, PostIdentity, PostStatus, Term, Venue

from .concurrency import all_at_once
from .conftest import API, RoleClient, post_json
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_user, make_venue
from .test_images import ImageServer, image_bytes

pytestmark = pytest.mark.django_db

READ_ONLY_KEYS = ("json_ld",)


def event_body(**fields):
    return {"title": "Jazz night", "start_date": "2030-05-01 20:00", "end_date": "2030-05-01 23:00", **fields}


def create(client, **fields):
    return client.post(f"{API}/events", event_body(**fields), format="json")


def error_of(response):
    body = response.json()
    assert body["data"]["status"] == response.status_code
    return body["code"]


def table_counts():
    """Rows of every table an event write touches."""
    return {
        "events": Event.objects.count(),
        "venues": Venue.objects.count(),
        "organizers": Organizer.objects.count(),
        "terms": Term.objects.count(),
        "organizer links": EventOrganizer.objects.count(),
        "term links": Event.terms.through.objects.count(),
        "attachments": Attachment.objects.count(),
        "identities": PostIdentity.objects.count(),
    }


# --- the created record -------------------------------------------------------------------------


def test_create_answers_201_with_the_record_and_a_location(editor):
    response = create(editor)
    assert response.status_code == 201
    body = response.json()
    assert response["Location"] == body["rest_url"] == f"http://testserver{API}/events/{body['id']}"
    assert "json_ld" not in body
    assert Event.objects.filter(pk=body["id"]).exists()


def test_the_created_record_reads_back_the_same(editor):
    created = create(
        editor,
        description="Live music",
        excerpt="Tonight",
        cost="$10",
        website="https://jazz.example/",
        venue={"venue": "Blue Hall", "city": "Lyon"},
        organizer=[{"organizer": "Ann"}],
        categories="Music",
        tags="jazz",
        featured=True,
    ).json()
    read = editor.get(f"{API}/events/{created['id']}").json()
    assert {
        key: value for key, value in read.items() if key not in READ_ONLY_KEYS and key != "venue" and key != "organizer"
    } == {key: value for key, value in created.items() if key not in ("venue", "organizer")}
    # The single read adds json_ld to embedded records too; everything else is the same.
    assert {key: value for key, value in read["venue"].items() if key != "json_ld"} == created["venue"]
    assert [{k: v for k, v in item.items() if k != "json_ld"} for item in read["organizer"]] == created["organizer"]


def test_defaults_of_a_created_event(editor):
    body = create(editor).json()
    assert body["author"] == str(editor.user.pk)
    assert body["status"] == "publish"
    assert body["slug"] == "jazz-night"
    assert body["title"] == "Jazz night"
    assert (body["description"], body["excerpt"]) == ("", "")
    assert (body["start_date"], body["end_date"]) == ("2030-05-01 20:00:00", "2030-05-01 23:00:00")
    assert (body["timezone"], body["timezone_abbr"]) == ("UTC", "UTC")
    assert body["all_day"] is False
    assert body["image"] is False
    assert (body["cost"], body["cost_details"]["values"]) == ("", [])
    # Nothing stored: the website reads as the event page (docs/contract/events.md §4.1).
    assert body["website"] == body["url"] == "http://testserver/event/jazz-night/"
    # Source quirk: a REST-created event stores false for the map flags unless true is sent.
    assert (body["show_map"], body["show_map_link"]) == (False, False)
    assert (body["hide_from_listings"], body["sticky"], body["featured"]) == (False, False, False)
    assert (body["categories"], body["tags"], body["venue"], body["organizer"]) == ([], [], [], [])


def test_output_only_keys_are_ignored(editor):
    body = create(
        editor, id=12345, url="http://elsewhere/", utc_start_date="1999-01-01 00:00:00", timezone_abbr="XYZ"
    ).json()
    assert body["id"] != 12345
    assert body["url"] == "http://testserver/event/jazz-night/"
    assert body["utc_start_date"] == "2030-05-01 20:00:00"
    assert body["timezone_abbr"] == "UTC"


def test_form_encoded_create_with_bracket_syntax(editor):
    organizer = make_organizer()
    response = editor.post(
        f"{API}/events",
        {
            **event_body(),
            "venue[venue]": "Form Hall",
            "venue[city]": "Oslo",
            "organizer[0]": str(organizer.pk),
            "organizer[1][organizer]": "Form Organizer",
            "categories": "Rock, Pop",
            "all_day": "1",
            "featured": "0",
        },
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["venue"]["venue"], body["venue"]["city"]) == ("Form Hall", "Oslo")
    assert [item["organizer"] for item in body["organizer"]] == [organizer.title, "Form Organizer"]
    assert [term["name"] for term in body["categories"]] == ["Pop", "Rock"]
    assert (body["all_day"], body["featured"]) == (True, False)


def test_create_in_another_language_fills_english_too(editor):
    response = editor.post(f"/zh-hans{API}/events", event_body(title="爵士之夜", description="现场音乐"), format="json")
    assert response.status_code == 201
    event = Event.objects.get(pk=response.json()["id"])
    assert (event.title_zh_hans, event.title_en) == ("爵士之夜", "爵士之夜")
    assert event.description_en == "现场音乐"
    assert event.slug == "%e7%88%b5%e5%a3%ab%e4%b9%8b%e5%a4%9c"
    with translation.override("en"):
        assert editor.get(f"{API}/events/{event.pk}").json()["title"] == "爵士之夜"


# --- missing and invalid parameters --------------------------------------------------------------


@pytest.mark.parametrize(
    "body, missing",
    [
        ({}, ["title", "start_date", "end_date"]),
        ({"title": "Only a title"}, ["start_date", "end_date"]),
        ({"start_date": "2030-05-01 20:00"}, ["title", "end_date"]),
        ({"title": "x", "start_date": "2030-05-01 20:00"}, ["end_date"]),
    ],
    ids=["nothing", "no-dates", "no-title-no-end", "no-end"],
)
def test_missing_required_fields_are_listed_in_declaration_order(editor, body, missing):
    before = table_counts()
    response = editor.post(f"{API}/events", body, format="json")
    assert response.status_code == 400
    assert error_of(response) == "rest_missing_callback_param"
    assert response.json()["data"]["params"] == missing
    assert response.json()["message"] == "Missing parameter(s): " + ", ".join(missing)
    assert table_counts() == before


def _event_id():
    return make_event().pk


def _venue_id():
    return make_venue().pk


def _organizer_id():
    return make_organizer().pk


# (name, value or a builder of it): each must be 400 rest_invalid_param naming `name` and change nothing.
INVALID_INPUTS = [
    ("title", ""),
    ("title", 123),
    ("title", "x" * 501),
    ("title", "nul\x00byte"),
    ("description", ""),
    ("excerpt", ""),
    ("slug", ""),
    ("start_date", "not a date"),
    ("start_date", ""),
    ("start_date", True),
    ("end_date", "2030-13-45 10:00"),
    ("date", "someday"),
    ("date", 1514764800),
    ("date_utc", "never"),
    ("timezone", "Mars/Olympus"),
    ("timezone", "UTC+99"),
    ("timezone", 5),
    ("timezone", "A" * 65),
    ("status", "foo"),
    ("status", ["publish"]),
    ("all_day", "yes"),
    ("show_map", "yes"),
    ("show_map_link", 2),
    ("hide_from_listings", "no"),
    ("sticky", "maybe"),
    ("featured", "yes"),
    ("website", "foo"),
    ("website", "javascript:alert(1)"),
    ("website", "https://example.org/" + "a" * 2000),
    ("website", 42),
    ("image", 17),
    ("image", "999999"),
    ("image", "not a url"),
    ("image", "ftp://example.org/a.png"),
    ("author", ""),
    ("author", "foo"),
    ("author", 999999),
    ("cost", {"price": 10}),
    ("cost", True),
    ("venue", 999999),
    ("venue", _event_id),
    ("venue", _organizer_id),
    ("venue", lambda: {"id": _event_id()}),
    ("venue", {"id": 999999}),
    ("venue", {"city": "No name"}),
    ("venue", {"venue": ""}),
    ("venue", "Hall by name"),
    ("venue", True),
    ("venue", lambda: [_venue_id(), 999999]),
    ("organizer", [999999]),
    ("organizer", lambda: [_organizer_id(), 999999]),
    ("organizer", _venue_id),
    ("organizer", lambda: [{"id": _event_id()}]),
    ("organizer", [{"organizer": ""}]),
    ("organizer", [{"phone": "123"}]),
    ("organizer", "Bob"),
    ("organizer", [[1, 2]]),
    ("categories", ["fine", "nul\x00"]),
]


@pytest.mark.parametrize(
    "name, value",
    INVALID_INPUTS,
    ids=[f"{name}-{i}" for i, (name, _value) in enumerate(INVALID_INPUTS)],
)
def test_invalid_input_is_400_naming_the_parameter_and_changes_nothing(editor, name, value):
    if callable(value):
        value = value()
    before = table_counts()
    response = editor.post(f"{API}/events", {**event_body(), name: value}, format="json")
    assert response.status_code == 400, response.json()
    assert error_of(response) == "rest_invalid_param"
    assert list(response.json()["data"]["params"]) == [name]
    assert table_counts() == before


def test_typed_parameters_say_which_type_they_need(editor):
    response = create(editor, featured="yes", image=17)
    params = response.json()["data"]["params"]
    assert params == {"featured": "featured is not of type boolean.", "image": "image is not of type string."}
    assert response.json()["data"]["details"]["featured"]["code"] == "rest_invalid_type"


def test_an_overlong_title_says_so(editor):
    response = create(editor, title="x" * 501)
    assert response.json()["data"]["params"]["title"] == "title is longer than 500 characters."


def test_contributors_may_not_import_images_from_urls(as_role):
    before = table_counts()
    response = create(as_role("contributor"), image="https://images.example/photo.jpg")
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["image"]
    assert table_counts() == before


# --- dates and time zones -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "zone, start, local, utc, abbreviation",
    [
        ("America/New_York", "2030-01-05 10:00", "2030-01-05 10:00:00", "2030-01-05 15:00:00", "EST"),
        ("America/New_York", "2030-07-05 10:00", "2030-07-05 10:00:00", "2030-07-05 14:00:00", "EDT"),
        ("Asia/Shanghai", "2030-01-05 10:00", "2030-01-05 10:00:00", "2030-01-05 02:00:00", "CST"),
        ("UTC+5", "2030-01-05 10:00", "2030-01-05 10:00:00", "2030-01-05 05:00:00", "UTC+5"),
        ("UTC-3.5", "2030-01-05 10:00", "2030-01-05 10:00:00", "2030-01-05 13:30:00", "UTC-3.5"),
        # Source quirk: epoch seconds become their UTC wall clock, then count as local time.
        ("America/New_York", "1514764800", "2018-01-01 00:00:00", "2018-01-01 05:00:00", "EST"),
        ("America/New_York", 1514764800, "2018-01-01 00:00:00", "2018-01-01 05:00:00", "EST"),
        # An input with its own offset names an instant, shown on the event's clock.
        ("America/New_York", "2030-01-05T15:00:00+00:00", "2030-01-05 10:00:00", "2030-01-05 15:00:00", "EST"),
    ],
    ids=[
        "iana-winter",
        "iana-summer",
        "shanghai",
        "offset",
        "half-hour-offset",
        "epoch-string",
        "epoch-number",
        "iso-with-offset",
    ],
)
def test_dates_are_read_in_the_event_time_zone(editor, zone, start, local, utc, abbreviation):
    body = create(editor, timezone=zone, start_date=start, end_date=start).json()
    assert (body["start_date"], body["utc_start_date"]) == (local, utc)
    assert (body["end_date"], body["utc_end_date"]) == (local, utc)
    assert (body["timezone"], body["timezone_abbr"]) == (zone, abbreviation)


@pytest.mark.parametrize("sent", [{}, {"timezone": ""}], ids=["absent", "empty"])
def test_without_a_time_zone_the_site_zone_is_used(editor, settings, sent):
    settings.TIME_ZONE = "Europe/Paris"
    body = create(editor, start_date="2030-01-05 10:00", end_date="2030-01-05 12:00", **sent).json()
    assert (body["timezone"], body["timezone_abbr"]) == ("Europe/Paris", "CET")
    assert (body["start_date"], body["utc_start_date"]) == ("2030-01-05 10:00:00", "2030-01-05 09:00:00")


def test_all_day_events_cover_whole_days(editor):
    body = create(editor, all_day=True, start_date="2030-05-01 20:00", end_date="2030-05-03 10:00").json()
    assert body["all_day"] is True
    assert (body["start_date"], body["end_date"]) == ("2030-05-01 00:00:00", "2030-05-03 23:59:59")


def test_an_end_before_the_start_moves_to_the_start(editor):
    body = create(editor, start_date="2030-05-01 20:00", end_date="2030-05-01 08:00").json()
    assert (body["start_date"], body["end_date"]) == ("2030-05-01 20:00:00", "2030-05-01 20:00:00")


@pytest.mark.parametrize(
    "fields, expected",
    [
        ({"date": "2020-03-04 05:06:07"}, ("2020-03-04 05:06:07", "2020-03-04 05:06:07")),
        # WordPress reads `date` (post_date) in the site's zone, never in the event's.
        ({"date": "2020-03-04 05:06:07", "timezone": "Asia/Shanghai"}, ("2020-03-04 05:06:07", "2020-03-04 05:06:07")),
        ({"date_utc": "2020-03-04 05:06:07"}, ("2020-03-04 05:06:07", "2020-03-04 05:06:07")),
        (
            {"date": "2020-01-01 00:00:00", "date_utc": "2020-03-04 05:06:07"},
            ("2020-03-04 05:06:07", "2020-03-04 05:06:07"),
        ),
    ],
    ids=["date-site-zone", "date-not-in-event-zone", "date-utc", "date-utc-wins"],
)
def test_publication_date(editor, fields, expected):
    body = create(editor, **fields).json()
    assert (body["date"], body["date_utc"]) == expected


@pytest.mark.parametrize("action", ["create", "update"])
def test_date_is_read_in_the_site_zone_whatever_the_event_zone(editor, settings, action):
    settings.TIME_ZONE = "Europe/Berlin"
    fields = {"date": "tomorrow 9am", "timezone": "America/New_York"}
    if action == "create":
        body = create(editor, **fields).json()
    else:
        event_id = create(editor).json()["id"]
        body = post_json(editor, f"/events/{event_id}", fields).json()
    assert body["date"].endswith(" 09:00:00")


# 00:27 UTC on 26 November is still the 25th in New York and already the 26th in Tokyo.
LATE_IN_THE_AMERICAS = dt.datetime(2026, 11, 26, 0, 27, tzinfo=dt.UTC)
EARLY_IN_ASIA = dt.datetime(2026, 11, 25, 23, 30, tzinfo=dt.UTC)


@pytest.mark.parametrize("action", ["create", "update"])
@pytest.mark.parametrize(
    "now, fields, expected",
    [
        (LATE_IN_THE_AMERICAS, {"timezone": "America/New_York"}, ("2026-11-26 09:00:00", "2026-11-26 09:00:00")),
        (EARLY_IN_ASIA, {"timezone": "Asia/Tokyo"}, ("2026-11-27 09:00:00", "2026-11-27 09:00:00")),
        (LATE_IN_THE_AMERICAS, {"timezone": "UTC-5"}, ("2026-11-26 09:00:00", "2026-11-26 09:00:00")),
        (LATE_IN_THE_AMERICAS, {}, ("2026-11-27 09:00:00", "2026-11-27 09:00:00")),
        (LATE_IN_THE_AMERICAS, {"timezone": ""}, ("2026-11-27 09:00:00", "2026-11-27 09:00:00")),
    ],
    ids=["new-york-still-yesterday", "tokyo-already-tomorrow", "manual-offset", "no-zone", "site-zone"],
)
def test_a_relative_date_counts_from_today_in_the_event_zone_and_keeps_its_wall_clock(
    editor, monkeypatch, action, now, fields, expected
):
    """docs/contract/events.md §4: `date=tomorrow 9am` with a `timezone` is tomorrow in that zone, at 9:00 as
    written, stored as the site's wall clock (UTC here), not converted between the zones."""
    event_id = create(editor).json()["id"] if action == "update" else None
    monkeypatch.setattr(timezone, "now", lambda: now)
    fields = {"date": "tomorrow 9am", **fields}
    response = create(editor, **fields) if action == "create" else post_json(editor, f"/events/{event_id}", fields)
    assert response.status_code == (201 if action == "create" else 200)
    assert (response.json()["date"], response.json()["date_utc"]) == expected


def test_date_utc_stays_read_in_utc_whatever_the_event_zone(editor, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: LATE_IN_THE_AMERICAS)
    body = create(editor, date_utc="tomorrow 9am", timezone="America/New_York").json()
    assert (body["date"], body["date_utc"]) == ("2026-11-27 09:00:00", "2026-11-27 09:00:00")


EDGE_DATES = [
    ({"timezone": "UTC-5", "start_date": "2030-01-01 10:00", "end_date": "9999-12-31 23:30"}, "end_date"),
    ({"timezone": "Asia/Tokyo", "start_date": "0001-01-01 01:00", "end_date": "2030-01-01 10:00"}, "start_date"),
    (
        {"timezone": "UTC-5", "all_day": True, "start_date": "2030-01-01 10:00", "end_date": "9999-12-31 10:00"},
        "end_date",
    ),
]


@pytest.mark.parametrize(
    "site_zone, date",
    [("Asia/Tokyo", "0001-01-01 01:00:00"), ("America/New_York", "9999-12-31 23:00:00")],
    ids=["before-utc", "after-utc"],
)
def test_publication_dates_that_do_not_exist_in_utc_are_refused(editor, settings, site_zone, date):
    settings.TIME_ZONE = site_zone
    before = table_counts()
    response = create(editor, date=date)
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["date"]
    assert table_counts() == before


@pytest.mark.parametrize("fields, name", EDGE_DATES, ids=["end-after-utc", "start-before-utc", "all-day-end-after-utc"])
def test_dates_that_do_not_exist_in_utc_are_refused(editor, fields, name):
    before = table_counts()
    response = create(editor, **fields)
    assert response.status_code == 400
    assert error_of(response) == "rest_invalid_param"
    assert list(response.json()["data"]["params"]) == [name]
    assert table_counts() == before


def test_dates_at_the_calendar_ends_that_fit_are_stored(editor):
    body = create(editor, start_date="0001-01-01 00:00", end_date="9999-12-31 23:59:59").json()
    assert (body["utc_start_date"], body["utc_end_date"]) == ("0001-01-01 00:00:00", "9999-12-31 23:59:59")


# --- status and author by role ------------------------------------------------------------------


STATUS_BY_ROLE = [
    ("contributor", None, "draft"),
    ("contributor", "draft", "draft"),
    ("contributor", "pending", "pending"),
    ("contributor", "publish", "pending"),
    ("contributor", "future", "pending"),
    # Recommended: private is scaled down too (docs/contract/auth.md §3.1).
    ("contributor", "private", "pending"),
    ("author", None, "publish"),
    ("author", "draft", "draft"),
    ("author", "private", "private"),
    ("author", "publish", "publish"),
    ("editor", "pending", "pending"),
    ("administrator", None, "publish"),
    # WordPress's internal statuses are stored as drafts.
    ("editor", "auto-draft", "draft"),
]


@pytest.mark.parametrize(
    "role, sent, expected", STATUS_BY_ROLE, ids=[f"{role}-{sent or 'none'}" for role, sent, _ in STATUS_BY_ROLE]
)
def test_status_is_scaled_by_role(as_role, role, sent, expected):
    body = create(as_role(role), **({"status": sent} if sent else {})).json()
    assert body["status"] == expected


@pytest.mark.parametrize(
    "fields, expected",
    [
        ({"status": "publish", "date": "+1 week"}, "future"),
        ({"date": "+1 week"}, "future"),
        ({"status": "future", "date": "-1 day"}, "publish"),
        ({"status": "future"}, "publish"),
        ({"status": "future", "date_utc": "+10 days"}, "future"),
    ],
    ids=["publish-ahead", "default-ahead", "future-past", "future-now", "future-utc-ahead"],
)
def test_publish_and_future_follow_the_publication_date(editor, fields, expected):
    assert create(editor, **fields).json()["status"] == expected


def test_unslugged_draft_gets_its_slug_when_published_later(as_role):
    author = as_role("author")
    draft = create(author, status="draft").json()
    assert draft["slug"] == ""
    published = author.post(f"{API}/events/{draft['id']}", {"status": "publish"}, format="json").json()
    assert published["slug"] == "jazz-night"


@pytest.mark.parametrize("role", ["editor", "administrator"])
def test_callers_with_the_others_right_may_name_another_author(as_role, role):
    other = make_user("author")
    body = create(as_role(role), author=other.pk).json()
    assert body["author"] == str(other.pk)


@pytest.mark.parametrize("role", ["author", "contributor"])
def test_others_may_not_name_another_author(as_role, role):
    other = make_user("editor")
    before = table_counts()
    response = create(as_role(role), author=str(other.pk))
    assert response.status_code == 403
    assert error_of(response) == "rest_forbidden"
    assert table_counts() == before


def test_naming_oneself_as_author_is_fine(as_role):
    contributor = as_role("contributor")
    assert create(contributor, author=contributor.user.pk).json()["author"] == str(contributor.user.pk)


# --- slugs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, expected",
    [
        ({"slug": "My Own Slug!"}, "my-own-slug"),
        ({"title": "Café & Crème"}, "cafe-creme"),
        ({"title": "!!!"}, None),
        ({"status": "draft"}, ""),
        ({"status": "pending"}, ""),
        ({"status": "draft", "slug": "kept"}, "kept"),
    ],
    ids=["explicit", "from-title", "nothing-sluggable", "draft", "pending", "draft-explicit"],
)
def test_slugs(editor, fields, expected):
    body = create(editor, **fields).json()
    # A title with nothing sluggable falls back to the ID, as WordPress does.
    assert body["slug"] == (str(body["id"]) if expected is None else expected)


def test_slugs_are_made_unique_but_draft_slugs_are_kept_as_given(editor):
    slugs = [create(editor).json()["slug"] for _ in range(3)]
    assert slugs == ["jazz-night", "jazz-night-2", "jazz-night-3"]
    assert create(editor, slug="jazz-night", status="draft").json()["slug"] == "jazz-night"
    assert create(editor, slug="jazz-night").json()["slug"] == "jazz-night-4"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_creates_of_one_title_get_distinct_slugs():
    user = make_user("editor", password="secret-pass-123")
    clients = [RoleClient(user, "secret-pass-123") for _ in range(2)]

    def post(client):
        response = create(client, title="Same title")
        return response.status_code, response.json().get("slug")

    results = all_at_once([lambda client=client: post(client) for client in clients])
    assert sorted(results) == [(201, "same-title"), (201, "same-title-2")]


# --- attributes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cost, shown, details",
    [
        ("$10", "$10", {"currency_symbol": "$", "currency_position": "prefix", "values": ["10"]}),
        ("20$", "20$", {"currency_symbol": "$", "currency_position": "postfix", "values": ["20"]}),
        (
            ["0$", "20$", "30$"],
            "Free – 30$",
            {"currency_symbol": "$", "currency_position": "postfix", "values": ["0", "20", "30"]},
        ),
        ("23", "$23", {"currency_symbol": "", "currency_position": "", "values": ["23"]}),
        (15, "$15", {"currency_symbol": "", "currency_position": "", "values": ["15"]}),
        (
            "€6.50 - €8.50",
            "€6.50 – €8.50",
            {"currency_symbol": "€", "currency_position": "prefix", "values": ["6.50", "8.50"]},
        ),
        ("Donation", "Donation", {"currency_symbol": "", "currency_position": "", "values": ["donation"]}),
        ("", "", {"currency_symbol": "", "currency_position": "", "values": []}),
    ],
    ids=["prefix", "postfix", "list", "no-symbol", "number", "range", "words", "empty"],
)
def test_cost(editor, cost, shown, details):
    body = create(editor, cost=cost).json()
    assert body["cost"] == shown
    assert {key: body["cost_details"][key] for key in details} == details


@pytest.mark.parametrize(
    "website, expected",
    [
        ("https://jazz.example/?a=1&b=2", "https://jazz.example/?a=1&amp;b=2"),
        ("", "http://testserver/event/jazz-night/"),
        (None, "http://testserver/event/jazz-night/"),
    ],
    ids=["url-escaped", "empty-reads-as-page", "null-reads-as-page"],
)
def test_website(editor, website, expected):
    assert create(editor, website=website).json()["website"] == expected


def test_flags_are_stored_as_sent(editor):
    flags = {"show_map": True, "show_map_link": True, "hide_from_listings": True, "sticky": True, "featured": True}
    body = create(editor, **flags).json()
    assert {name: body[name] for name in flags} == flags


# --- image --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reference",
    [lambda image: str(image.pk), lambda image: f"http://testserver{image.file.url}", lambda image: image.file.url],
    ids=["id", "absolute-url", "relative-url"],
)
def test_image_by_attachment_id_or_url(editor, reference):
    image = make_image()
    body = create(editor, image=reference(image)).json()
    assert body["image"]["id"] == image.pk
    assert Attachment.objects.count() == 1


@pytest.fixture
def image_server(settings):
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"]}
    with ImageServer() as server:
        yield server


def test_image_url_is_imported_as_a_new_attachment(editor, image_server):
    image_server.routes["/poster.png"] = (200, {"Content-Type": "image/png"}, image_bytes((300, 200)))
    body = create(editor, image=image_server.url("/poster.png")).json()
    attachment = Attachment.objects.get()
    assert body["image"]["id"] == attachment.pk
    assert (body["image"]["width"], body["image"]["height"]) == (300, 200)
    assert attachment.source_url == image_server.url("/poster.png")


def test_failed_import_is_400_and_changes_nothing(editor, image_server):
    before = table_counts()
    response = create(
        editor,
        image=image_server.url("/missing.png"),
        venue={"venue": "New hall"},
        organizer=[{"organizer": "New organizer"}],
        categories="Brand new category",
    )
    assert response.status_code == 400
    assert error_of(response) == "rest_invalid_param"
    assert list(response.json()["data"]["params"]) == ["image"]
    assert table_counts() == before


# --- venue --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reference",
    [
        lambda venue: venue.pk,
        lambda venue: str(venue.pk),
        lambda venue: {"id": venue.pk},
        lambda venue: {"id": str(venue.pk), "venue": "ignored when an ID is given"},
        lambda venue: [venue.pk],
        lambda venue: [{"id": venue.pk}],
        lambda venue: {"0": venue.pk},
    ],
    ids=[
        "id",
        "id-string",
        "id-object",
        "id-object-with-fields",
        "one-item-list",
        "one-item-list-of-object",
        "numbered-object",
    ],
)
def test_existing_venue_is_linked(editor, reference):
    venue = make_venue("Old Hall")
    body = create(editor, venue=reference(venue)).json()
    assert body["venue"]["id"] == venue.pk
    assert Venue.objects.count() == 1


def test_venue_object_creates_a_venue(editor):
    body = create(
        editor, venue={"venue": "Blue Hall", "address": "1 Main St", "city": "Lyon", "show_map": "yes"}
    ).json()
    venue = Venue.objects.get()
    assert body["venue"]["id"] == venue.pk
    assert (venue.title, venue.address, venue.city, venue.status) == (
        "Blue Hall",
        "1 Main St",
        "Lyon",
        PostStatus.PUBLISH,
    )
    assert venue.author == editor.user


def test_nested_venue_of_a_contributor_is_a_draft_whatever_the_event(as_role):
    body = create(as_role("contributor"), status="pending", venue={"venue": "Their hall"}).json()
    assert (body["status"], Venue.objects.get().status) == ("pending", PostStatus.DRAFT)


def test_venue_object_reuses_a_venue_of_the_same_name(editor):
    venue = make_venue("Blue Hall")
    body = create(editor, venue=[{"venue": "BLUE HALL", "phone": "123"}]).json()
    assert body["venue"]["id"] == venue.pk
    assert Venue.objects.count() == 1


@pytest.mark.parametrize(
    "empty",
    ["", 0, "0", None, [], [""]],
    ids=["empty-string", "zero", "zero-string", "null", "empty-list", "empty-items"],
)
def test_empty_venue_means_none(editor, empty):
    assert create(editor, venue=empty).json()["venue"] == []


@pytest.mark.parametrize(
    "several",
    [
        lambda: [make_venue().pk, make_venue().pk],
        lambda: f"{make_venue().pk},{make_venue().pk}",
        lambda: [{"venue": "First new"}, {"venue": "Second new"}],
    ],
    ids=["id-list", "csv", "objects"],
)
def test_several_venues_cannot_be_linked(editor, several):
    value = several()
    before = table_counts()
    response = create(editor, venue=value, categories="Unheard of")
    assert response.status_code == 400
    assert error_of(response) == "could-not-create-venue"
    assert table_counts() == before


# --- organizers ---------------------------------------------------------------------------------


def test_organizers_in_every_form_keep_their_order(editor):
    first, second, third = make_organizer("First"), make_organizer("Second"), make_organizer("Third")
    body = create(
        editor,
        organizer=[third.pk, {"id": first.pk}, {"organizer": "Brand new", "email": "new@example.org"}, str(second.pk)],
    ).json()
    assert [item["organizer"] for item in body["organizer"]] == ["Third", "First", "Brand new", "Second"]
    assert Organizer.objects.get(title="Brand new").email == "new@example.org"


@pytest.mark.parametrize(
    "value, expected",
    [
        (lambda a, b: a.pk, ["A"]),
        (lambda a, b: f"{b.pk},{a.pk}", ["B", "A"]),
        (lambda a, b: [str(a.pk), str(b.pk)], ["A", "B"]),
        (lambda a, b: {"id": b.pk}, ["B"]),
        (lambda a, b: {"organizer": "Solo"}, ["Solo"]),
        (lambda a, b: {"0": b.pk, "1": a.pk}, ["B", "A"]),
        (lambda a, b: [a.pk, a.pk, {"id": a.pk}], ["A"]),
        (lambda a, b: [{"organizer": "a"}, b.pk], ["A", "B"]),
    ],
    ids=[
        "id",
        "csv",
        "list",
        "id-object",
        "bare-object",
        "numbered-object",
        "repeats-collapse",
        "duplicate-name-reused",
    ],
)
def test_organizer_forms(editor, value, expected):
    a, b = make_organizer("A"), make_organizer("B")
    body = create(editor, organizer=value(a, b)).json()
    assert [item["organizer"] for item in body["organizer"]] == expected


@pytest.mark.parametrize(
    "empty", ["", 0, None, [], ["", 0]], ids=["empty-string", "zero", "null", "empty-list", "empty-items"]
)
def test_empty_organizer_means_none(editor, empty):
    assert create(editor, organizer=empty).json()["organizer"] == []


# --- categories and tags ------------------------------------------------------------------------


def test_terms_by_id_slug_or_name_and_new_names_created(editor):
    rock = make_category("Rock", slug="rock")
    jazz = make_category("Jazz", slug="jazz-music")
    live = make_tag("Live", slug="live")
    body = create(editor, categories=[str(rock.pk), "jazz-music", "Brand New"], tags=f"{live.pk}, outdoors").json()
    assert [term["name"] for term in body["categories"]] == ["Brand New", "Jazz", "Rock"]
    assert [term["name"] for term in body["tags"]] == ["Live", "outdoors"]
    assert Term.objects.filter(name="Brand New", taxonomy="tribe_events_cat").exists()
    assert jazz.pk in [term["id"] for term in body["categories"]]


def test_unknown_term_ids_are_skipped_and_empty_means_none(editor):
    body = create(editor, categories=[999999, "999998"], tags="").json()
    assert (body["categories"], body["tags"]) == ([], [])
    assert Term.objects.count() == 0


def test_a_tag_id_is_not_a_category(editor):
    tag = make_tag("Only a tag")
    assert create(editor, categories=[tag.pk]).json()["categories"] == []


# --- failures after some records were written ---------------------------------------------------


def test_a_refused_nested_organizer_rolls_back_the_venue_made_before_it(as_role):
    """The author may not name another author for a nested organizer (403), after the nested venue was saved."""
    other = make_user("editor")
    before = table_counts()
    response = create(
        as_role("author"),
        venue={"venue": "Made then undone"},
        organizer=[{"organizer": "Theirs", "author": other.pk}],
        categories="Also undone",
    )
    assert response.status_code == 403
    assert error_of(response) == "rest_forbidden"
    assert table_counts() == before


def test_an_invalid_organizer_item_leaves_nothing_behind(editor):
    before = table_counts()
    response = create(
        editor, venue={"venue": "Never made"}, organizer=[{"organizer": "Fine"}, {"organizer": ""}], tags="nope"
    )
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["organizer"]
    assert table_counts() == before


def test_imported_files_are_removed_when_the_write_fails(as_role, image_server, settings):
    image_server.routes["/poster.png"] = (200, {"Content-Type": "image/png"}, image_bytes((300, 200)))
    other = make_user("editor")
    response = create(
        as_role("author"),
        image=image_server.url("/poster.png"),
        organizer=[{"organizer": "Theirs", "author": other.pk}],
    )
    assert response.status_code == 403
    assert Attachment.objects.count() == 0
    media = settings.MEDIA_ROOT
    assert [path for path in media.rglob("*") if path.is_file()] == []
