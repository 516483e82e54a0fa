"""Conditional requests on the API: ETag and 304 on every read, If-Match on writes, caching headers."""

import pytest

from events.models import Event, Venue

from .conftest import API, post_json
from .factories import make_category, make_event, make_venue

pytestmark = pytest.mark.django_db


def revalidated(client, path, etag, **extra):
    return client.get(path, HTTP_IF_NONE_MATCH=etag, **extra)


@pytest.fixture
def stopped_clock(monkeypatch):
    """The index and `doc` publish defaults read off the clock to the second, so their ETag rightly
    changes every second; the clock is held still so that two requests see the same answer."""
    from django.utils import timezone

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)


@pytest.mark.parametrize(
    "path", ["", "/doc", "/events", "/events/{id}", "/venues", "/categories", "/events/by-slug/concert"]
)
def test_every_read_has_an_etag_and_answers_304_to_a_current_copy(api, stopped_clock, path):
    event = make_event("Concert", venue=make_venue("Hall"), categories=[make_category("Jazz")])
    url = f"{API}{path.format(id=event.pk)}"
    first = api.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('W/"')
    again = revalidated(api, url, etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert revalidated(api, url, 'W/"something-else"').status_code == 200


@pytest.mark.parametrize(
    "change, language",
    [
        pytest.param(
            lambda event: Venue.objects.filter(pk=event.venue_id).update(address="1 New Street"), "", id="linked-venue"
        ),
        pytest.param(lambda event: event.terms.update(name="Bebop"), "", id="term-rename"),
        pytest.param(
            lambda event: Event.objects.filter(pk=event.pk).update(title_zh_hant="音樂會"), "/zh-hant", id="translation"
        ),
        pytest.param(lambda event: Event.objects.filter(pk=event.pk).update(featured=True), "", id="flag"),
    ],
)
@pytest.mark.parametrize("path", ["/events", "/events/{id}"])
def test_the_etag_changes_with_anything_the_answer_shows(api, change, language, path):
    event = make_event("Concert", venue=make_venue("Hall"), categories=[make_category("Jazz")])
    url = f"{API}{path.format(id=event.pk)}"
    etag = api.get(f"{language}{url}")["ETag"]
    change(event)
    fresh = revalidated(api, f"{language}{url}", etag)
    assert fresh.status_code == 200
    assert fresh["ETag"] != etag


def test_the_etag_depends_on_the_language(api):
    event = make_event("Concert", title_zh_hans="音乐会")
    url = f"{API}/events/{event.pk}"
    etag = api.get(url)["ETag"]
    assert revalidated(api, f"/zh-hans{url}", etag).status_code == 200
    assert api.get(f"/zh-hans{url}")["ETag"] != etag


def test_anonymous_answers_are_public_and_signed_ones_private(api, editor):
    anonymous = api.get(f"{API}/events")
    assert "public" in anonymous["Cache-Control"] and "no-cache" in anonymous["Cache-Control"]
    assert {"Authorization", "Cookie"} <= {v.strip() for v in anonymous["Vary"].split(",")}
    signed = editor.get(f"{API}/events")
    assert "private" in signed["Cache-Control"]
    assert "public" not in signed["Cache-Control"]


def test_if_match_refuses_a_write_based_on_a_stale_read(editor):
    event = make_event("Concert")
    url = f"{API}/events/{event.pk}"
    etag = editor.get(url)["ETag"]
    # Another editor changes the title meanwhile.
    assert post_json(editor, f"/events/{event.pk}", {"title": "Renamed by a colleague"}).status_code == 200
    stale = editor.post(url, {"title": "My change"}, format="json", HTTP_IF_MATCH=etag)
    assert stale.status_code == 412
    assert stale.json()["code"] == "rest_precondition_failed"
    assert Event.objects.get(pk=event.pk).title_en == "Renamed by a colleague"
    current = editor.get(url)["ETag"]
    accepted = editor.post(url, {"title": "My change"}, format="json", HTTP_IF_MATCH=current)
    assert accepted.status_code == 200
    assert Event.objects.get(pk=event.pk).title_en == "My change"


def test_if_match_guards_deletes_too(editor):
    event = make_event("Concert")
    url = f"{API}/events/{event.pk}"
    assert editor.delete(url, HTTP_IF_MATCH='W/"not-the-current-one"').status_code == 412
    assert Event.objects.get(pk=event.pk).status == "publish"
    assert editor.delete(url, HTTP_IF_MATCH=editor.get(url)["ETag"]).status_code == 200


def test_head_carries_the_same_etag(api):
    event = make_event("Concert")
    url = f"{API}/events/{event.pk}"
    assert api.head(url)["ETag"] == api.get(url)["ETag"]


def test_the_index_etag_moves_on_with_the_clock(api, monkeypatch):
    """Its `end_date` default is now + 24 months, to the second: a second later it is another answer."""
    import datetime as dt

    from django.utils import timezone

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    etag = api.get(API)["ETag"]
    monkeypatch.setattr(timezone, "now", lambda: now + dt.timedelta(seconds=1))
    assert revalidated(api, API, etag).status_code == 200


def test_if_match_on_a_record_trashed_since_the_read_is_refused(editor):
    event = make_event("Concert")
    url = f"{API}/events/{event.pk}"
    etag = editor.get(url)["ETag"]
    assert editor.delete(url).status_code == 200
    response = editor.patch(url, {"title": "Back"}, format="json", HTTP_IF_MATCH=etag)
    assert (response.status_code, response.json()["code"]) == (412, "rest_precondition_failed")
    assert Event.objects.get(pk=event.pk).title_en == "Concert"
    assert Event.objects.get(pk=event.pk).status == "trash"
