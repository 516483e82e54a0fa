"""Event deletion (docs/contract/events.md §6): always to the trash, 410 the second time, by ID or by slug."""

import pytest

from events.models import Event, EventOrganizer, PostStatus

from .conftest import API
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_venue
from .test_events_create import error_of, table_counts

pytestmark = pytest.mark.django_db


def test_delete_moves_to_the_trash_and_answers_with_the_trashed_record(editor):
    event = make_event("Gone soon", slug="gone-soon")
    before = table_counts()
    response = editor.delete(f"{API}/events/{event.pk}")
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["status"], body["slug"]) == (event.pk, "trash", "gone-soon__trashed")
    assert "json_ld" not in body
    assert body["title"] == "Gone soon"
    # Nothing is deleted for good.
    assert table_counts() == before
    stored = Event.objects.get(pk=event.pk)
    assert (stored.status, stored.status_before_trash, stored.slug_before_trash) == ("trash", "publish", "gone-soon")


def test_the_record_keys_are_those_of_every_event_record(editor):
    event = make_event()
    read = editor.get(f"{API}/events/{event.pk}").json()
    trashed = editor.delete(f"{API}/events/{event.pk}").json()
    assert list(trashed) == [key for key in read if key != "json_ld"]


def test_a_second_delete_is_410(editor):
    event = make_event()
    editor.delete(f"{API}/events/{event.pk}")
    response = editor.delete(f"{API}/events/{event.pk}")
    assert response.status_code == 410
    assert error_of(response) == "event-is-in-trash"
    assert str(event.pk) in response.json()["message"]


def test_force_is_ignored(editor):
    event = make_event()
    response = editor.delete(f"{API}/events/{event.pk}?force=true")
    assert response.json()["status"] == "trash"
    assert Event.objects.filter(pk=event.pk).exists()


def test_after_trashing_reads_and_lists_follow(editor, api):
    event = make_event("Trashed", slug="trashed-event")
    editor.delete(f"{API}/events/{event.pk}")
    response = api.get(f"{API}/events/{event.pk}")
    assert (response.status_code, error_of(response)) == (403, "event-no-longer-available")
    # The old slug no longer names anything.
    response = api.get(f"{API}/events/by-slug/trashed-event")
    assert (response.status_code, error_of(response)) == (400, "rest_invalid_param")
    assert api.get(f"{API}/events").json()["total"] == 0
    assert [item["id"] for item in editor.get(f"{API}/events", {"status": "trash"}).json()["events"]] == [event.pk]


def test_links_are_kept_and_term_counts_drop(editor):
    category, tag = make_category("Music"), make_tag("Live")
    venue, organizer = make_venue(), make_organizer()
    event = make_event(venue=venue, organizers=[organizer], categories=[category], tags=[tag], image=make_image())
    assert editor.get(f"{API}/categories/{category.pk}").json()["count"] == 1
    body = editor.delete(f"{API}/events/{event.pk}").json()
    assert body["venue"]["id"] == venue.pk
    assert [item["id"] for item in body["organizer"]] == [organizer.pk]
    assert body["image"]["id"] == event.image_id
    assert EventOrganizer.objects.filter(event=event).count() == 1
    assert [term["count"] for term in body["categories"] + body["tags"]] == [0, 0]


def test_a_draft_without_slug_stays_without(editor):
    event = make_event(status=PostStatus.DRAFT, slug="")
    assert editor.delete(f"{API}/events/{event.pk}").json()["slug"] == ""


# --- by slug --------------------------------------------------------------------------------------


def test_delete_by_slug(editor):
    event = make_event("By slug", slug="delete-by-slug")
    response = editor.delete(f"{API}/events/by-slug/delete-by-slug")
    assert response.status_code == 200
    assert (response.json()["id"], response.json()["status"]) == (event.pk, "trash")


def test_delete_by_slug_twice_is_400_since_the_slug_moved(editor):
    make_event("By slug", slug="twice")
    editor.delete(f"{API}/events/by-slug/twice")
    response = editor.delete(f"{API}/events/by-slug/twice")
    assert (response.status_code, error_of(response)) == (400, "rest_invalid_param")


def test_delete_by_trashed_slug_is_410(editor):
    make_event("By slug", slug="binned")
    editor.delete(f"{API}/events/by-slug/binned")
    response = editor.delete(f"{API}/events/by-slug/binned__trashed")
    assert (response.status_code, error_of(response)) == (410, "event-is-in-trash")


@pytest.mark.parametrize("role", [None, "subscriber", "editor"], ids=["anonymous", "subscriber", "editor"])
def test_unknown_slug_is_400_before_any_permission_check(api, as_role, role):
    client = as_role(role) if role else api
    response = client.delete(f"{API}/events/by-slug/no-such-event")
    assert response.status_code == 400
    assert error_of(response) == "rest_invalid_param"
    assert list(response.json()["data"]["params"]) == ["slug"]


def test_a_venue_slug_is_not_an_event_slug(editor):
    make_venue("Hall", slug="the-hall")
    response = editor.delete(f"{API}/events/by-slug/the-hall")
    assert (response.status_code, error_of(response)) == (400, "rest_invalid_param")


# --- the event behind an ID -----------------------------------------------------------------------


@pytest.mark.parametrize("record_id", [0, 987654, 2**70], ids=["zero", "unused", "beyond-64-bits"])
def test_unknown_id_is_404(editor, record_id):
    response = editor.delete(f"{API}/events/{record_id}")
    assert (response.status_code, error_of(response)) == (404, "rest-event-not-found")


@pytest.mark.parametrize("build", [make_venue, make_organizer, make_image], ids=["venue", "organizer", "attachment"])
def test_another_kinds_id_is_400_and_that_record_stays(editor, build):
    record = build()
    response = editor.delete(f"{API}/events/{record.pk}")
    assert (response.status_code, error_of(response)) == (400, "rest-invalid-event-id")
    assert type(record).objects.filter(pk=record.pk).exists()
