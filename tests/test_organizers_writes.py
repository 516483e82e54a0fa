"""Organizer create, update and trash (docs/contract/venues-organizers.md §4.2-§6): what differs from venues, and the shared rules."""

import pytest

from events.models import EventOrganizer, Organizer

from .conftest import API, post_json
from .factories import make_event, make_organizer, make_user, make_venue

pytestmark = pytest.mark.django_db


def refused(response, name):
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "rest_invalid_param"
    assert name in response.json()["data"]["params"]


def test_create(editor):
    response = post_json(
        editor,
        "/organizers",
        {
            "organizer": "Jazz & Co",
            "phone": " 555 ",
            "email": "not an email",
            "website": "https://jazz.example",
            "description": "We play",
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["organizer"], body["phone"], body["email"]) == ("Jazz &#038; Co", "555", "not an email")
    assert (body["website"], body["description"], body["slug"]) == ("https://jazz.example", "<p>We play</p>", "jazz-co")
    assert (body["status"], body["author"]) == ("publish", str(editor.user.pk))
    assert "json_ld" not in body


def test_name_is_required(editor):
    response = post_json(editor, "/organizers", {"phone": "1"})
    assert response.status_code == 400
    assert response.json()["code"] == "rest_missing_callback_param"
    assert response.json()["data"]["params"] == ["organizer"]


@pytest.mark.parametrize(
    "field, value",
    [
        ("organizer", ""),
        ("organizer", 3),
        ("email", 3),
        ("website", "foo"),
        ("author", 999999),
        ("status", "nope"),
        ("date", "foo"),
    ],
    ids=["empty-name", "number-name", "number-email", "bad-website", "unknown-author", "unknown-status", "bad-date"],
)
def test_bad_input_creates_nothing(editor, field, value):
    data = {"organizer": "Valid", field: value}
    refused(post_json(editor, "/organizers", data), field)
    assert not Organizer.objects.exists()


def test_venue_only_fields_are_ignored(editor):
    body = post_json(
        editor, "/organizers", {"organizer": "Plain", "city": "Rome", "show_map": "no", "geo_lat": 500}
    ).json()
    assert not {"city", "show_map", "geo_lat"} & set(body)


def test_duplicate_reuses_the_organizer(editor):
    existing = make_organizer("Same", email="old@example.org")
    response = post_json(editor, "/organizers", {"organizer": "SAME", "email": "new@example.org"})
    assert response.status_code == 201
    assert (response.json()["id"], response.json()["email"]) == (existing.pk, "new@example.org")
    assert Organizer.objects.count() == 1


def test_venue_of_the_same_name_is_not_a_duplicate(editor):
    venue = make_venue("Shared")
    assert post_json(editor, "/organizers", {"organizer": "Shared"}).json()["id"] != venue.pk


def test_contributor_creates_a_draft_and_publishing_becomes_pending(as_role):
    contributor = as_role("contributor")
    assert post_json(contributor, "/organizers", {"organizer": "Mine"}).json()["status"] == "draft"
    assert (
        post_json(contributor, "/organizers", {"organizer": "Mine too", "status": "publish"}).json()["status"]
        == "pending"
    )


@pytest.mark.parametrize("route", ["id", "slug"])
def test_update_changes_only_what_is_sent(editor, route):
    organizer = make_organizer(
        "Orig", slug="orig", phone="1", email="a@example.org", status="pending", author=editor.user
    )
    path = f"/organizers/{organizer.pk}" if route == "id" else "/organizers/by-slug/orig"
    body = post_json(editor, path, {"email": ""}).json()
    assert (body["id"], body["phone"], body["status"]) == (organizer.pk, "1", "pending")
    assert "email" not in body


def test_trash_removes_only_the_link_to_that_organizer(editor):
    first, gone, last = make_organizer("First"), make_organizer("Gone"), make_organizer("Last")
    event = make_event(organizers=[first, gone, last])
    other = make_event(organizers=[gone])
    response = editor.delete(f"{API}/organizers/{gone.pk}")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["slug"]) == ("trash", "gone__trashed")
    listed = editor.get(f"{API}/events/{event.pk}").json()["organizer"]
    assert [item["id"] for item in listed] == [first.pk, last.pk]
    assert not EventOrganizer.objects.filter(event=other).exists()
    again = editor.delete(f"{API}/organizers/{gone.pk}")
    assert again.status_code == 410
    assert again.json()["code"] == "organizer-is-in-trash"


def test_unknown_organizer_delete_is_400_before_401(api):
    venue = make_venue()
    for path in ("/organizers/999999", f"/organizers/{venue.pk}", "/organizers/by-slug/nothing"):
        response = api.delete(f"{API}{path}")
        assert response.status_code == 400
        assert response.json()["code"] == "rest_invalid_param"


def test_editor_may_give_the_organizer_to_another_author(editor):
    organizer = make_organizer("Handed", author=editor.user)
    other = make_user("author")
    assert post_json(editor, f"/organizers/{organizer.pk}", {"author": other.pk}).json()["author"] == str(other.pk)
