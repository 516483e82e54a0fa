"""Venue and organizer input: the AVOID_DUPLICATE_LINKED_RECORDS setting; NUL refused alike on every database."""

import pytest

from events.models import Event, Organizer, Venue

from .conftest import API, post_json
from .factories import make_image, make_organizer, make_venue

pytestmark = pytest.mark.django_db

KINDS = {
    "venue": {"collection": "/venues", "model": Venue, "factory": make_venue},
    "organizer": {"collection": "/organizers", "model": Organizer, "factory": make_organizer},
}


def refused_param(response, name):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert body["data"]["status"] == 400
    assert name in body["data"]["params"]


# --- AVOID_DUPLICATE_LINKED_RECORDS -------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_by_default_a_create_with_an_existing_name_reuses_the_record(editor, kind):
    existing = KINDS[kind]["factory"]("Riverside Hall")
    response = post_json(editor, KINDS[kind]["collection"], {kind: "riverside hall"})
    assert response.status_code == 201
    assert response.json()["id"] == existing.pk
    assert KINDS[kind]["model"].objects.count() == 1


@pytest.mark.parametrize("kind", KINDS)
def test_with_duplicates_allowed_a_create_with_an_existing_name_makes_a_new_record(editor, settings, kind):
    settings.EVENTS = {**settings.EVENTS, "AVOID_DUPLICATE_LINKED_RECORDS": False}
    existing = KINDS[kind]["factory"]("Riverside Hall", slug="riverside-hall", phone="1")
    response = post_json(editor, KINDS[kind]["collection"], {kind: "Riverside Hall", "phone": "2"})
    assert response.status_code == 201
    body = response.json()
    assert body["id"] != existing.pk
    assert (body[kind], body["phone"], body["slug"]) == ("Riverside Hall", "2", "riverside-hall-2")
    assert KINDS[kind]["model"].objects.count() == 2
    # The existing record is left as it was.
    reread = editor.get(f"{API}{KINDS[kind]['collection']}/{existing.pk}").json()
    assert reread["phone"] == "1"


@pytest.mark.parametrize("avoid, venues", [(True, 1), (False, 2)], ids=["reused", "duplicated"])
def test_event_writes_follow_the_setting_for_nested_venues_and_organizers(editor, settings, avoid, venues):
    settings.EVENTS = {**settings.EVENTS, "AVOID_DUPLICATE_LINKED_RECORDS": avoid}
    venue, organizer = make_venue("Blue Hall"), make_organizer("Night Owls")
    response = post_json(
        editor,
        "/events",
        {
            "title": "Concert",
            "start_date": "2030-05-01 20:00:00",
            "end_date": "2030-05-01 22:00:00",
            "venue": {"venue": "Blue Hall"},
            "organizer": [{"organizer": "Night Owls"}],
        },
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["venue"]["id"] == venue.pk) is avoid
    assert (body["organizer"][0]["id"] == organizer.pk) is avoid
    assert (Venue.objects.count(), Organizer.objects.count()) == (venues, venues)


# --- NUL characters -----------------------------------------------------------------------------

# Every write parameter of each kind, with a value that is valid but for its NUL character.
NUL_VALUES = {
    "description": "<p>Big\x00 room</p>",
    "date": "2024-01-02 10:00:00\x00",
    "date_utc": "2024-01-02 10:00:00\x00",
    "status": "publish\x00",
    "website": "https://hall.example/\x00",
    "image": "https://images.example/hall\x00.jpg",
    "phone": "555\x00",
}
VENUE_NUL_VALUES = {
    "venue": "Hall\x00",
    **NUL_VALUES,
    "show_map": "1\x00",
    "show_map_link": "1\x00",
    "address": "1 Main St\x00",
    "city": "Lyon\x00",
    "country": "France\x00",
    "province": "Rhône\x00",
    "state": "ARA\x00",
    "zip": "69001\x00",
    "stateprovince": "ARA\x00",
    "geo_lat": "45.7\x00",
    "geo_lng": "4.8\x00",
}
ORGANIZER_NUL_VALUES = {"organizer": "Night Owls\x00", **NUL_VALUES, "email": "owls@example.com\x00"}
# `author` takes a user ID, known only once the test runs: None stands for "the caller's ID, then NUL".
NUL_CASES = (
    [("venue", name, value) for name, value in VENUE_NUL_VALUES.items()]
    + [("organizer", name, value) for name, value in ORGANIZER_NUL_VALUES.items()]
    + [("venue", "author", None), ("organizer", "author", None)]
)
NUL_IDS = [f"{kind}-{name}" for kind, name, _ in NUL_CASES]


def sent_value(value, user):
    return f"{user.pk}\x00" if value is None else value


@pytest.mark.parametrize("kind, name, value", NUL_CASES, ids=NUL_IDS)
def test_nul_in_a_create_is_refused_on_that_parameter_and_nothing_is_written(editor, kind, name, value):
    data = {kind: "Riverside Hall", name: sent_value(value, editor.user)}
    response = post_json(editor, KINDS[kind]["collection"], data)
    refused_param(response, name)
    assert not KINDS[kind]["model"].objects.exists()


@pytest.mark.parametrize("route", ["id", "slug"])
@pytest.mark.parametrize("kind, name, value", NUL_CASES, ids=NUL_IDS)
def test_nul_in_an_update_is_refused_on_that_parameter_and_changes_nothing(editor, kind, name, value, route):
    stored = KINDS[kind]["factory"]("Stored", slug="stored", author=editor.user, image=make_image(), phone="1")
    before = KINDS[kind]["model"].objects.filter(pk=stored.pk).values().get()
    collection = KINDS[kind]["collection"]
    path = f"{collection}/{stored.pk}" if route == "id" else f"{collection}/by-slug/stored"
    response = post_json(editor, path, {"phone": "2", name: sent_value(value, editor.user)})
    refused_param(response, name)
    assert KINDS[kind]["model"].objects.filter(pk=stored.pk).values().get() == before


def test_every_parameter_with_nul_is_named_and_the_message_lists_them(editor):
    response = post_json(editor, "/venues", {"venue": "Hall\x00", "city": "Lyon\x00", "zip": "69001"})
    refused_param(response, "venue")
    body = response.json()
    assert set(body["data"]["params"]) == {"venue", "city"}
    assert body["message"] == "Invalid parameter(s): venue, city"


def test_nul_in_a_form_body_is_refused_too(editor):
    form_body = "organizer=Owls%00&phone=1"
    response = editor.post(f"{API}/organizers", form_body, content_type="application/x-www-form-urlencoded")
    refused_param(response, "organizer")
    assert not Organizer.objects.exists()


def test_a_missing_name_is_still_reported_as_missing(editor):
    response = post_json(editor, "/venues", {"city": "Lyon\x00"})
    assert response.status_code == 400
    assert response.json()["code"] == "rest_missing_callback_param"


def test_nul_in_a_nested_venue_of_an_event_write_is_refused_and_nothing_is_written(editor):
    response = post_json(
        editor,
        "/events",
        {
            "title": "Concert",
            "start_date": "2030-05-01 20:00:00",
            "end_date": "2030-05-01 22:00:00",
            "venue": {"venue": "Blue Hall", "city": "Lyon\x00"},
        },
    )
    refused_param(response, "venue")
    assert not Venue.objects.exists()
    assert not Event.objects.exists()
