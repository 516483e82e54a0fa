"""Choices recorded in docs/decisions.md where the contract is silent, pinned through the API and the public pages."""

import time

import pytest
from django.test import Client
from django.utils.http import parse_http_date

from events.models import Attachment, Event, Organizer, Venue

from .conftest import API, post_json
from .factories import make_event, make_image, make_organizer, make_user, make_venue
from .test_images import ImageServer, image_bytes

pytestmark = pytest.mark.django_db

TEN_DAYS = 10 * 24 * 3600

LINKED = {
    "venue": {"collection": "/venues", "model": Venue, "factory": make_venue},
    "organizer": {"collection": "/organizers", "model": Organizer, "factory": make_organizer},
}


@pytest.fixture
def image_server(settings):
    settings.EVENTS = {**settings.EVENTS, "OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"]}
    with ImageServer() as server:
        server.routes["/poster.png"] = (200, {"Content-Type": "image/png"}, image_bytes((300, 200)))
        server.routes["/hall.png"] = (200, {"Content-Type": "image/png"}, image_bytes((320, 240)))
        yield server


def event_fields(**fields):
    return {"title": "Concert", "start_date": "2030-05-01 20:00:00", "end_date": "2030-05-01 22:00:00", **fields}


def refused_param(response, name):
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["code"], body["data"]["status"]) == ("rest_invalid_param", 400)
    assert list(body["data"]["params"]) == [name]


def files_in(media_root):
    return sorted(path for path in media_root.rglob("*") if path.is_file())


# --- image: null is 400, "" removes the image ---------------------------------------------------


def test_event_create_with_a_null_image_is_400(editor):
    refused_param(post_json(editor, "/events", event_fields(image=None)), "image")
    assert not Event.objects.exists()


def test_event_update_with_a_null_image_is_400_and_keeps_the_image(editor):
    image = make_image()
    event = make_event(image=image)
    refused_param(post_json(editor, f"/events/{event.pk}", {"image": None}), "image")
    assert editor.get(f"{API}/events/{event.pk}").json()["image"]["id"] == image.pk


def test_event_update_with_an_empty_image_removes_it(editor):
    event = make_event(image=make_image())
    response = post_json(editor, f"/events/{event.pk}", {"image": ""})
    assert response.status_code == 200
    assert response.json()["image"] is False
    assert editor.get(f"{API}/events/{event.pk}").json()["image"] is False


@pytest.mark.parametrize("kind", LINKED)
def test_linked_create_with_a_null_image_is_400(editor, kind):
    refused_param(post_json(editor, LINKED[kind]["collection"], {kind: "Riverside", "image": None}), "image")
    assert not LINKED[kind]["model"].objects.exists()


@pytest.mark.parametrize("kind", LINKED)
def test_linked_update_with_a_null_image_is_400_and_keeps_the_image(editor, kind):
    image = make_image()
    record = LINKED[kind]["factory"]("Riverside", image=image)
    refused_param(post_json(editor, f"{LINKED[kind]['collection']}/{record.pk}", {"image": None}), "image")
    assert editor.get(f"{API}{LINKED[kind]['collection']}/{record.pk}").json()["image"]["id"] == image.pk


@pytest.mark.parametrize("kind", LINKED)
def test_linked_update_with_an_empty_image_removes_it(editor, kind):
    record = LINKED[kind]["factory"]("Riverside", image=make_image())
    response = post_json(editor, f"{LINKED[kind]['collection']}/{record.pk}", {"image": ""})
    assert response.status_code == 200
    # Empty keys are left out of venue and organizer records.
    assert "image" not in response.json()
    assert "image" not in editor.get(f"{API}{LINKED[kind]['collection']}/{record.pk}").json()


# --- website: null clears it on events, is 400 on venues and organizers -------------------------


def test_event_update_with_a_null_website_clears_it(editor):
    event = make_event(website="https://concert.example")
    response = post_json(editor, f"/events/{event.pk}", {"website": None})
    assert response.status_code == 200
    assert response.json()["website"] == ""
    assert editor.get(f"{API}/events/{event.pk}").json()["website"] == ""


def test_event_create_with_a_null_website_stores_none(editor):
    body = post_json(editor, "/events", event_fields(website=None)).json()
    # Nothing stored: the website reads as the event's page, as for an absent one (docs/contract/events.md §4.1).
    assert body["website"] == body["url"]


@pytest.mark.parametrize("kind", LINKED)
def test_linked_create_with_a_null_website_is_400(editor, kind):
    refused_param(post_json(editor, LINKED[kind]["collection"], {kind: "Riverside", "website": None}), "website")
    assert not LINKED[kind]["model"].objects.exists()


@pytest.mark.parametrize("kind", LINKED)
def test_linked_update_with_a_null_website_is_400_and_keeps_it(editor, kind):
    record = LINKED[kind]["factory"]("Riverside", website="https://riverside.example")
    path = f"{LINKED[kind]['collection']}/{record.pk}"
    refused_param(post_json(editor, path, {"website": None}), "website")
    assert editor.get(f"{API}{path}").json()["website"] == "https://riverside.example"


@pytest.mark.parametrize("kind", LINKED)
def test_linked_update_with_an_empty_website_clears_it(editor, kind):
    record = LINKED[kind]["factory"]("Riverside", website="https://riverside.example")
    response = post_json(editor, f"{LINKED[kind]['collection']}/{record.pk}", {"website": ""})
    assert response.status_code == 200
    # Empty keys are left out of venue and organizer records.
    assert "website" not in response.json()
    assert "website" not in editor.get(f"{API}{LINKED[kind]['collection']}/{record.pk}").json()


# --- a failed write leaves no imported file behind ----------------------------------------------


def test_a_successful_import_keeps_its_files(editor, image_server, settings):
    response = post_json(editor, "/events", event_fields(image=image_server.url("/poster.png")))
    assert response.status_code == 201
    assert files_in(settings.MEDIA_ROOT)


def test_an_event_write_refused_after_its_image_was_imported_leaves_no_file(as_role, image_server, settings):
    other = make_user("editor")
    response = post_json(
        as_role("author"),
        "/events",
        event_fields(image=image_server.url("/poster.png"), venue={"venue": "Theirs", "author": other.pk}),
    )
    assert response.status_code == 403
    assert ("GET", "/poster.png") in image_server.requests
    assert not Attachment.objects.exists()
    assert files_in(settings.MEDIA_ROOT) == []


def test_an_event_update_failing_on_a_nested_image_leaves_no_file(editor, image_server, settings):
    event = make_event()
    nested_venue = {"venue": "Hall", "image": image_server.url("/missing.png")}
    response = post_json(
        editor, f"/events/{event.pk}", {"image": image_server.url("/poster.png"), "venue": nested_venue}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_param"
    assert ("GET", "/poster.png") in image_server.requests
    assert not Attachment.objects.exists()
    assert files_in(settings.MEDIA_ROOT) == []


def test_a_failed_event_write_deletes_the_image_a_nested_venue_imported(as_role, image_server, settings):
    other = make_user("editor")
    response = post_json(
        as_role("author"),
        "/events",
        event_fields(
            venue={"venue": "Hall", "image": image_server.url("/hall.png")},
            organizer=[{"organizer": "Theirs", "author": other.pk}],
        ),
    )
    assert response.status_code == 403
    assert ("GET", "/hall.png") in image_server.requests
    assert not Attachment.objects.exists()
    assert files_in(settings.MEDIA_ROOT) == []


# --- the password cookie of public pages lasts 10 days ------------------------------------------


@pytest.mark.parametrize("kind", ["event", "venue", "organizer"])
def test_the_password_cookie_lasts_ten_days(kind):
    factory = {"event": make_event, "venue": make_venue, "organizer": make_organizer}[kind]
    record = factory(password="letmein")
    client = Client()
    url = f"/{kind}/{record.slug}/"
    before = int(time.time())
    response = client.post(url, {"post_password": "letmein"})
    after = int(time.time())
    assert response.status_code == 303
    cookie = response.cookies["events_post_password"]
    assert int(cookie["max-age"]) == TEN_DAYS
    # Django writes `expires` from the same clock, to the second.
    assert before + TEN_DAYS <= parse_http_date(cookie["expires"]) <= after + TEN_DAYS
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
