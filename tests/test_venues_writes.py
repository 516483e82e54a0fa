"""Venue create, update and trash (docs/contract/venues-organizers.md §4-§6): parameters, saving rules, duplicates, bad input."""

import datetime as dt
import json

import pytest
from django.utils import timezone, translation

from events.models import Event, PostStatus, Venue

from .conftest import API, post_json
from .factories import make_event, make_image, make_organizer, make_user, make_venue

pytestmark = pytest.mark.django_db


def create(client, **data):
    response = post_json(client, "/venues", data)
    assert response.status_code == 201, response.content
    return response.json()


def refused(response, name, code="rest_invalid_param"):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == code
    assert name in body["data"]["params"]
    return body


# --- create -----------------------------------------------------------------------------------


def test_create_answers_201_with_the_record_without_json_ld(editor):
    body = create(
        editor,
        venue="Blue Note",
        address="131 W 3rd St",
        city="New York",
        state="NY",
        zip="10012",
        country="US",
        phone="+1 212",
        website="https://bluenote.example",
    )
    venue = Venue.objects.get(pk=body["id"])
    assert body["venue"] == "Blue Note"
    assert body["author"] == str(editor.user.pk)
    assert body["status"] == "publish"
    assert body["slug"] == "blue-note"
    assert body["url"] == "http://testserver/venue/blue-note/"
    assert body["stateprovince"] == "NY"
    assert (body["show_map"], body["show_map_link"]) == (True, True)
    assert "json_ld" not in body
    assert venue.title_en == "Blue Note"


def test_create_from_a_form_body(editor):
    response = editor.post(f"{API}/venues", {"venue": "Form hall", "city": "Rome", "show_map": "0"})
    assert response.status_code == 201
    assert (response.json()["city"], response.json()["show_map"]) == ("Rome", False)


def test_name_is_required(editor):
    response = post_json(editor, "/venues", {"city": "Rome"})
    assert response.status_code == 400
    assert response.json()["code"] == "rest_missing_callback_param"
    assert response.json()["data"]["params"] == ["venue"]
    assert not Venue.objects.exists()


@pytest.mark.parametrize("name", ["", "<b></b>", "   "], ids=["empty", "only-tags", "only-spaces"])
def test_name_must_leave_some_text(editor, name):
    refused(post_json(editor, "/venues", {"venue": name}), "venue")
    assert not Venue.objects.exists()


def test_text_fields_are_sanitised(editor):
    body = create(editor, venue="  The <b>Jazz</b>\n  club ", address="  Via   <i>Roma</i>\n\t1 ", city="Rome")
    assert body["venue"] == "The Jazz club"
    assert body["address"] == "Via Roma 1"


def test_description_is_kept_as_content(editor):
    body = create(editor, venue="Described", description="First line\n\nSecond <em>para</em>")
    assert body["description"] == "<p>First line</p>\n<p>Second <em>para</em></p>"


def test_unknown_keys_are_ignored(editor):
    body = create(editor, venue="Keys", timezone="Europe/Rome", stateProvince="XX", url="https://ignored.example")
    assert "stateprovince" not in body
    assert body["url"] == "http://testserver/venue/keys/"


@pytest.mark.parametrize(
    "field, value",
    [
        ("city", 12),
        ("address", ["a"]),
        ("venue", 5),
        ("description", True),
        ("show_map", True),
        ("image", 123),
        ("date", 1514764800),
    ],
    ids=[
        "number-city",
        "list-address",
        "number-name",
        "boolean-description",
        "boolean-show-map",
        "number-image",
        "number-date",
    ],
)
def test_typed_strings_refuse_other_json_types(editor, field, value):
    data = {"venue": "Typed", field: value}
    body = refused(post_json(editor, "/venues", data), field)
    assert body["data"]["details"][field]["code"] == "rest_invalid_type"
    assert not Venue.objects.exists()


@pytest.mark.parametrize(
    "value, stored",
    [
        ("true", True),
        ("yes", True),
        ("1", True),
        ("on", True),
        ("false", False),
        ("0", False),
        ("no", False),
        ("", False),
        ("maybe", False),
    ],
)
def test_map_flags_are_read_as_truthy_strings(editor, value, stored):
    body = create(editor, venue="Flags", show_map=value, show_map_link=value)
    assert (body["show_map"], body["show_map_link"]) == (stored, stored)


@pytest.mark.parametrize("website", ["foo", "http://", "www.example.org", "javascript:alert(1)"])
def test_website_must_be_a_url(editor, website):
    refused(post_json(editor, "/venues", {"venue": "Web", "website": website}), "website")


def test_website_may_be_empty(editor):
    assert "website" not in create(editor, venue="Web", website="")


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"state": "NY", "province": "P"}, "NY"),
        ({"state": "NY", "country": "United States"}, "NY"),
        ({"state": "NY", "country": "US"}, "NY"),
        ({"state": "Bavaria", "province": "Oberbayern", "country": "Germany"}, "Oberbayern"),
        ({"state": "Bavaria", "country": "Germany"}, None),
        ({"province": "Ontario", "country": "Canada"}, "Ontario"),
        ({"state": "NY", "stateprovince": "Given"}, "Given"),
        ({"state": "NY", "stateprovince": ""}, "NY"),
    ],
    ids=[
        "state-no-country",
        "state-united-states",
        "state-us",
        "province-abroad",
        "state-abroad-no-province",
        "province",
        "given",
        "given-empty",
    ],
)
def test_stateprovince_is_derived_when_not_given(editor, data, expected):
    body = create(editor, venue="Derived", **data)
    assert body.get("stateprovince") == expected


@pytest.mark.parametrize(
    "lat, lng", [(45.5, -73.5), ("45.5", "-73.5"), (90, 180), (-90, -180)], ids=["numbers", "strings", "max", "min"]
)
def test_coordinates_are_editable(editor, lat, lng):
    body = create(editor, venue="Geo", geo_lat=lat, geo_lng=lng)
    assert (body["geo_lat"], body["geo_lng"]) == (float(lat), float(lng))


@pytest.mark.parametrize(
    "field, value",
    [
        ("geo_lat", 90.5),
        ("geo_lat", -91),
        ("geo_lng", 180.01),
        ("geo_lng", "east"),
        ("geo_lat", "nan"),
        ("geo_lat", True),
    ],
    ids=["lat-above", "lat-below", "lng-above", "word", "nan", "boolean"],
)
def test_coordinates_out_of_range_are_refused(editor, field, value):
    refused(post_json(editor, "/venues", {"venue": "Geo", field: value}), field)
    assert not Venue.objects.exists()


# --- author, dates, status --------------------------------------------------------------------------


@pytest.mark.parametrize("author", [23, "foo", "", 0], ids=["unknown", "word", "empty", "zero"])
def test_author_must_be_an_existing_user(editor, author):
    refused(post_json(editor, "/venues", {"venue": "Authored", "author": author}), "author")


def test_editors_may_name_another_author(editor):
    other = make_user("contributor")
    assert create(editor, venue="Theirs", author=other.pk)["author"] == str(other.pk)


def test_contributors_may_not_name_another_author(as_role):
    contributor = as_role("contributor")
    other = make_user("author")
    response = post_json(contributor, "/venues", {"venue": "Theirs", "author": other.pk})
    assert response.status_code == 403
    assert response.json()["code"] == "rest_forbidden"
    assert not Venue.objects.exists()
    assert create(contributor, venue="Mine", author=contributor.user.pk)["author"] == str(contributor.user.pk)


@pytest.mark.parametrize("field", ["date", "date_utc"])
def test_unparsable_dates_are_refused(editor, field):
    refused(post_json(editor, "/venues", {"venue": "Dated", field: "foo"}), field)


def test_date_is_read_in_the_site_zone(editor, settings):
    settings.TIME_ZONE = "Europe/Paris"
    body = create(editor, venue="Paris", date="2018-01-01 10:00:00")
    assert (body["date"], body["date_utc"]) == ("2018-01-01 10:00:00", "2018-01-01 09:00:00")


def test_epoch_date_is_rendered_in_utc_then_read_as_site_time(editor, settings):
    settings.TIME_ZONE = "Europe/Paris"
    body = create(editor, venue="Epoch", date="1514764800")
    assert (body["date"], body["date_utc"]) == ("2018-01-01 00:00:00", "2017-12-31 23:00:00")


def test_date_utc_is_read_in_utc(editor, settings):
    settings.TIME_ZONE = "Europe/Paris"
    body = create(editor, venue="UTC", date_utc="2018-01-01 10:00:00", date="2000-01-01")
    assert (body["date"], body["date_utc"]) == ("2018-01-01 11:00:00", "2018-01-01 10:00:00")


def test_unregistered_status_is_refused(editor):
    refused(post_json(editor, "/venues", {"venue": "S", "status": "kinda_thinking_about_it"}), "status")


# (role, status sent) → stored status
STATUS_CASES = [
    ("contributor", None, "draft"),
    ("contributor", "publish", "pending"),
    ("contributor", "future", "pending"),
    ("contributor", "private", "pending"),
    ("contributor", "draft", "draft"),
    ("contributor", "pending", "pending"),
    ("author", None, "publish"),
    ("author", "private", "private"),
    ("editor", "draft", "draft"),
    ("editor", "auto-draft", "draft"),
    ("administrator", "pending", "pending"),
]


@pytest.mark.parametrize("role, sent, stored", STATUS_CASES, ids=[f"{r}-{s or 'default'}" for r, s, _ in STATUS_CASES])
def test_status_is_scaled_by_role(as_role, role, sent, stored):
    data = {"venue": "Scaled"} if sent is None else {"venue": "Scaled", "status": sent}
    assert create(as_role(role), **data)["status"] == stored


def test_drafts_get_a_slug(as_role):
    assert create(as_role("contributor"), venue="Draft hall")["slug"] == "draft-hall"


def test_publish_with_a_future_date_is_scheduled_and_future_in_the_past_published(editor):
    ahead = (timezone.now() + dt.timedelta(days=3)).strftime("%Y-%m-%d %H:%M:%S")
    assert create(editor, venue="Later", date_utc=ahead)["status"] == "future"
    assert create(editor, venue="Past", status="future", date_utc="2001-01-01 10:00:00")["status"] == "publish"


def test_slug_is_unique_and_falls_back_to_the_id(editor):
    make_venue("Same name", slug="same-name", description="one")
    assert create(editor, venue="Same name", description="two")["slug"] == "same-name-2"
    body = create(editor, venue="!!!")
    assert body["slug"] == str(body["id"])


def test_create_in_another_language_fills_english(editor):
    response = post_json(editor, "/venues", {"venue": "音乐厅", "wpml_language": "zh-hans"})
    translation.activate("en")
    venue = Venue.objects.get(pk=response.json()["id"])
    assert (venue.title_zh_hans, venue.title_en) == ("音乐厅", "音乐厅")


# --- images -------------------------------------------------------------------------------------


def test_image_by_id_and_by_url_of_an_existing_attachment(editor):
    image = make_image()
    assert create(editor, venue="By id", image=str(image.pk))["image"]["id"] == image.pk
    assert create(editor, venue="By url", image=f"http://testserver{image.file.url}")["image"]["id"] == image.pk


@pytest.mark.parametrize("value", ["999999", "not a url"], ids=["unknown-id", "not-a-url"])
def test_image_must_name_an_image(editor, value):
    refused(post_json(editor, "/venues", {"venue": "Pictured", "image": value}), "image")


def test_contributors_may_not_import_an_image_url(as_role):
    contributor = as_role("contributor")
    refused(post_json(contributor, "/venues", {"venue": "Pictured", "image": "https://images.example/a.jpg"}), "image")


def test_image_import_failure_is_400_and_saves_nothing(editor):
    response = post_json(editor, "/venues", {"venue": "Pictured", "image": "http://127.0.0.1:9/a.jpg"})
    refused(response, "image")
    assert not Venue.objects.exists()


# --- duplicates (§4.3) --------------------------------------------------------------------------


def test_same_name_reuses_the_venue_and_writes_only_the_fields_sent(editor):
    image = make_image()
    existing = make_venue("A venue", phone="000", city="Rome", show_map=False, image=image, stateprovince="RM")
    response = post_json(editor, "/venues", {"venue": "a venue", "phone": "11223344"})
    assert response.status_code == 201
    body = response.json()
    assert body["id"] == existing.pk
    assert (body["venue"], body["phone"], body["city"], body["show_map"]) == ("A venue", "11223344", "Rome", False)
    assert body["image"]["id"] == image.pk
    assert body["stateprovince"] == "RM"
    assert Venue.objects.count() == 1


def test_description_must_match_too_when_one_is_given(editor):
    existing = make_venue("Hall", description="The big one")
    assert create(editor, venue="HALL", description="the BIG one")["id"] == existing.pk
    assert create(editor, venue="Hall", description="Another")["id"] != existing.pk


def test_trashed_venues_and_organizers_are_not_duplicates(editor):
    trashed = make_venue("Gone", status="trash")
    make_organizer("Organizer name")
    assert create(editor, venue="Gone")["id"] != trashed.pk
    assert create(editor, venue="Organizer name")["venue"] == "Organizer name"


def test_a_contributor_is_handed_a_published_duplicate_unchanged(as_role):
    existing = make_venue("Admin hall", phone="1", author=make_user("administrator"))
    contributor = as_role("contributor")
    body = create(contributor, venue="admin hall", phone="2")
    assert (body["id"], body["phone"]) == (existing.pk, "1")


def test_others_drafts_are_not_revealed_as_duplicates(as_role):
    hidden = make_venue("Secret draft", status="draft", author=make_user("administrator"))
    body = create(as_role("contributor"), venue="Secret draft")
    assert body["id"] != hidden.pk


# --- update (§5) --------------------------------------------------------------------------------


@pytest.fixture
def stored(editor):
    image = make_image()
    return make_venue(
        "Stored",
        slug="stored",
        status="draft",
        author=editor.user,
        address="Addr",
        city="City",
        state="Bavaria",
        province="Oberbayern",
        country="Germany",
        stateprovince="Kept",
        show_map=False,
        show_map_link=False,
        image=image,
        website="https://stored.example",
        geo_lat=48.1,
        geo_lng=11.5,
    )


@pytest.mark.parametrize("method", ["post", "put", "patch"])
def test_update_changes_only_the_fields_sent(editor, stored, method):
    response = getattr(editor, method)(
        f"{API}/venues/{stored.pk}", json.dumps({"phone": "42"}), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["phone"] == "42"
    assert (body["status"], body["show_map"], body["show_map_link"]) == ("draft", False, False)
    assert (body["stateprovince"], body["address"], body["website"]) == ("Kept", "Addr", "https://stored.example")
    assert (body["image"]["id"], body["geo_lat"]) == (stored.image_id, 48.1)
    assert "json_ld" not in body


def test_stateprovince_is_re_derived_when_a_source_field_is_sent(editor, stored):
    body = post_json(editor, f"/venues/{stored.pk}", {"country": "US", "state": "NY"}).json()
    assert body["stateprovince"] == "NY"


def test_empty_values_clear_fields(editor, stored):
    body = post_json(editor, f"/venues/{stored.pk}", {"address": "", "website": "", "image": "", "geo_lat": ""}).json()
    assert not {"address", "website", "image", "geo_lat", "geo_lng"} & set(body)
    assert body["city"] == "City"


def test_map_flag_false_is_stored(editor):
    venue = make_venue("Mapped", author=editor.user)
    assert post_json(editor, f"/venues/{venue.pk}", {"show_map": "false"}).json()["show_map"] is False


def test_empty_name_is_refused_on_update(editor, stored):
    refused(post_json(editor, f"/venues/{stored.pk}", {"venue": ""}), "venue")
    assert Venue.objects.get(pk=stored.pk).title == "Stored"


def test_update_may_reuse_another_venues_name(editor, stored):
    make_venue("Taken")
    body = post_json(editor, f"/venues/{stored.pk}", {"venue": "Taken"}).json()
    assert (body["id"], body["venue"], body["slug"]) == (stored.pk, "Taken", "stored")


def test_update_by_slug_uses_the_path_slug(editor, stored):
    other = make_venue("Other", slug="other")
    response = post_json(editor, "/venues/by-slug/stored", {"city": "Munich", "slug": "other"})
    assert response.status_code == 200
    assert response.json()["id"] == stored.pk
    assert Venue.objects.get(pk=other.pk).city == ""


def test_update_publishes_when_asked(editor, stored):
    assert post_json(editor, f"/venues/{stored.pk}", {"status": "publish"}).json()["status"] == "publish"


def test_bad_update_changes_nothing(editor, stored):
    before = Venue.objects.filter(pk=stored.pk).values().get()
    refused(post_json(editor, f"/venues/{stored.pk}", {"city": "New", "geo_lat": 100}), "geo_lat")
    refused(post_json(editor, f"/venues/{stored.pk}", {"city": "New", "website": "nope"}), "website")
    refused(post_json(editor, f"/venues/{stored.pk}", {"city": 7}), "city")
    assert Venue.objects.filter(pk=stored.pk).values().get() == before


@pytest.mark.parametrize("client_role", [None, "subscriber", "editor"], ids=["anonymous", "subscriber", "editor"])
def test_unknown_id_on_update_and_delete_is_400_for_everyone(api, as_role, client_role):
    client = as_role(client_role) if client_role else api
    event = make_event()
    for path in ("/venues/999999", f"/venues/{event.pk}", "/venues/by-slug/nothing-here"):
        refused(post_json(client, path, {"city": "X"}), "slug" if "by-slug" in path else "id")
        response = client.delete(f"{API}{path}")
        assert response.status_code == 400


def test_trashing_by_update_suffixes_the_slug_as_delete_does(editor, stored):
    body = post_json(editor, f"/venues/{stored.pk}", {"status": "trash"}).json()
    assert (body["status"], body["slug"]) == ("trash", "stored__trashed")
    assert make_venue("Stored").slug == "stored"


def test_restoring_from_the_trash_by_update_gives_the_slug_back(editor, stored):
    editor.delete(f"{API}/venues/{stored.pk}")
    body = post_json(editor, f"/venues/{stored.pk}", {"status": "draft"}).json()
    assert (body["status"], body["slug"]) == ("draft", "stored")


# --- delete (§6) --------------------------------------------------------------------------------


@pytest.mark.parametrize("route", ["id", "slug"])
def test_delete_trashes_and_unlinks_from_events(editor, stored, route):
    event = make_event(venue=stored)
    path = f"{API}/venues/{stored.pk}" if route == "id" else f"{API}/venues/by-slug/stored"
    response = editor.delete(path, {"force": "true"})
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["status"], body["slug"]) == (stored.pk, "trash", "stored__trashed")
    assert "json_ld" not in body
    assert Venue.objects.filter(pk=stored.pk, status=PostStatus.TRASH).exists()
    assert Event.objects.get(pk=event.pk).venue_id is None
    assert editor.get(f"{API}/events/{event.pk}").json()["venue"] == []


def test_deleting_a_trashed_venue_is_410(editor, stored):
    editor.delete(f"{API}/venues/{stored.pk}")
    response = editor.delete(f"{API}/venues/{stored.pk}")
    assert response.status_code == 410
    assert response.json() == {
        "code": "venue-is-in-trash",
        "message": f"The venue with the ID {stored.pk} is already in the trash.",
        "data": {"status": 410},
    }
    assert editor.delete(f"{API}/venues/by-slug/stored__trashed").status_code == 410


@pytest.mark.parametrize(
    "zone, date",
    [("America/New_York", "9999-12-31 23:00:00"), ("Asia/Shanghai", "0001-01-01 01:00:00")],
    ids=["after-the-last-utc-day", "before-the-first-utc-day"],
)
def test_dates_beyond_the_calendar_in_utc_are_refused(editor, settings, zone, date):
    settings.TIME_ZONE = zone
    refused(post_json(editor, "/venues", {"venue": "Edge", "date": date}), "date")
    assert not Venue.objects.exists()
