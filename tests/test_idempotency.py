"""Idempotent retries: the same Idempotency-Key and request get the first answer again, never a second record."""

import pytest

from events.models import Event, IdempotentRequest

from .concurrency import all_at_once
from .conftest import API
from .factories import make_event
from .test_write_faults import database_fails_on

pytestmark = pytest.mark.django_db

NEW_EVENT = {"title": "Jazz night", "start_date": "2031-03-01 20:00", "end_date": "2031-03-01 23:00"}


def create(client, body=NEW_EVENT, key="key-1", **extra):
    return client.post(f"{API}/events", body, format="json", HTTP_IDEMPOTENCY_KEY=key, **extra)


def test_a_retried_create_gets_the_first_answer_and_makes_one_event(editor):
    first = create(editor)
    again = create(editor)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert Event.objects.count() == 1


def test_the_draft_syntax_quoted_key_works_too(editor):
    assert create(editor, key='"abc-123"').status_code == 201
    assert create(editor, key='"abc-123"').json()["id"] == Event.objects.get().pk
    assert Event.objects.count() == 1


def test_the_same_key_with_another_body_is_422_and_writes_nothing(editor):
    create(editor)
    other = create(editor, {**NEW_EVENT, "title": "Another night"})
    assert other.status_code == 422
    assert other.json()["code"] == "rest_idempotency_key_reused"
    assert other.json()["data"] == {"status": 422}
    assert list(Event.objects.values_list("title_en", flat=True)) == ["Jazz night"]


def test_keys_belong_to_the_credentials_they_came_with(as_role):
    create(as_role("editor"))
    create(as_role("editor"))
    assert Event.objects.count() == 2


def test_a_refused_write_keeps_nothing_so_its_corrected_retry_runs(editor):
    refused = create(editor, {"title": "No dates", "start_date": "not a date"})
    assert refused.status_code == 400
    assert create(editor).status_code == 201
    assert Event.objects.count() == 1


def test_a_delete_retried_gets_the_first_answer(editor):
    event = make_event("Concert")
    url = f"{API}/events/{event.pk}"
    first = editor.delete(url, HTTP_IDEMPOTENCY_KEY="delete-1")
    again = editor.delete(url, HTTP_IDEMPOTENCY_KEY="delete-1")
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json()
    # Without the key, a second delete of a trashed event is the contract's refusal.
    assert editor.delete(url).status_code == 410


def test_an_expired_key_runs_afresh(editor, settings):
    create(editor)
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "IDEMPOTENCY_KEY_SECONDS": 60}
    IdempotentRequest.objects.update(created=IdempotentRequest.objects.get().created.replace(year=2020))
    assert create(editor).status_code == 201
    assert Event.objects.count() == 2


@pytest.mark.parametrize("key", ["", " ", "é", "x" * 256, "a\x01b"])
def test_a_malformed_key_is_400(editor, key):
    response = editor.generic("POST", f"{API}/events", "{}", content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    assert (response.status_code, response.json()["code"]) == (400, "rest_invalid_idempotency_key")
    assert Event.objects.count() == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_write_answered_503_is_safe_to_retry_with_its_key(as_role):
    editor = as_role("editor")
    with database_fails_on("events_event", "INSERT"):
        assert create(editor).status_code == 503
    assert Event.objects.count() == 0
    assert create(editor).status_code == 201
    assert create(editor).status_code == 201
    assert Event.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_simultaneous_retries_make_one_event_and_all_get_its_answer(as_role):
    editor = as_role("editor")
    clients = [editor] + [type(editor)(editor.user, "secret-pass-123") for _ in range(7)]
    responses = all_at_once([lambda client=client: create(client) for client in clients])
    assert sorted(response.status_code for response in responses) == [201] * 8
    assert len({response.json()["id"] for response in responses}) == 1
    assert Event.objects.count() == 1
