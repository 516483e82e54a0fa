"""Pages and stored rows a process remembers between requests (PostgreSQL): a repeated read runs one
small statement, and every commit, from this process or any other, is seen by the next read."""

import json

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection, transaction

from events import list_versions
from events.memory import forget_all
from events.models import Event, PostStatus, RenderedRecord, Venue

from .conftest import API, post_json
from .test_rendering_store import LANGUAGES, WRITES, _restore, calendar, urls  # noqa: F401 - the fixture

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LISTS = [
    "/events?start_date=2020-01-01&end_date=2040-12-31",
    # The filter's slugs and IDs are looked up (and remembered) before the page is read.
    "/events?start_date=2020-01-01&end_date=2040-12-31&categories=music&venue={venue}",
    "/venues?per_page=50",
    "/organizers?per_page=50",
    "/categories?per_page=50",
    "/tags?hide_empty=false",
]


def another_process():
    """A connection of its own, as another server process would have: its commits are not this one's."""
    settings = connection.settings_dict
    return psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        password=settings["PASSWORD"] or None,
        autocommit=True,
    )


def fresh(api, url):
    """The answer built from the database alone: nothing remembered, nothing stored."""
    kept = {(row.kind, row.record_id, row.language) for row in RenderedRecord.objects.all()}
    RenderedRecord.objects.all().delete()
    forget_all()
    answer = api.get(url)
    _restore(kept)
    return answer


def paths_of(calendar, paths):
    concert = calendar["events"][0]
    return [API + path.format(concert=concert.pk, slug=concert.slug, venue=calendar["venue"].pk) for path in paths]


@pytest.mark.parametrize("path", LISTS + ["/events/{concert}", "/events/by-slug/{slug}"])
def test_a_repeated_read_runs_only_the_versions_statement(api, calendar, path, django_assert_num_queries):
    [url] = paths_of(calendar, [path])
    api.get(url)  # stores what was not stored yet (a change to the store, which the next read sees)
    first = api.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(1) as queries:
        again = api.get(url)
    assert "events_list_version" in queries.captured_queries[0]["sql"]
    assert again.content == first.content
    assert again.get("X-WP-Total") == first.get("X-WP-Total")


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_after_every_kind_of_write_a_remembered_read_equals_a_fresh_one(api, editor, calendar, write):
    from .factories import make_user

    author = make_user("author")
    Event.objects.filter(pk=calendar["events"][0].pk).update(author=author)
    calendar["author"] = author
    call_command("events_render", stdout=None)
    # Remembered before the write, in every language: pages, stored rows, an event's facts.
    paths = [*urls(calendar), *paths_of(calendar, LISTS)]
    for prefix in LANGUAGES:
        for url in paths:
            api.get(f"{prefix}{url}")
            assert api.get(f"{prefix}{url}").status_code == 200
    response = WRITES[write](editor, calendar)
    assert getattr(response, "status_code", 200) < 400, getattr(response, "content", b"")
    for prefix in LANGUAGES:
        for url in paths:
            remembered = api.get(f"{prefix}{url}")
            built = fresh(api, f"{prefix}{url}")
            assert (remembered.status_code, remembered.content) == (built.status_code, built.content), (
                write,
                prefix,
                url,
            )
            assert remembered.get("X-WP-Total") == built.get("X-WP-Total")


def test_a_commit_by_another_process_is_seen_by_the_next_read(api, calendar):
    concert = calendar["events"][0]
    single, listed = f"{API}/events/{concert.pk}", paths_of(calendar, LISTS)[0]
    for url in (single, listed, single, listed):
        assert api.get(url).status_code == 200
    # Another process re-renders the concert's stored row behind this one's back.
    with another_process() as other:
        other.execute(
            "UPDATE events_renderedrecord SET body = replace(body, %s, %s) WHERE kind = 'event' AND record_id = %s AND language = 'en'",
            ['"title":"Concert"', '"title":"Concert, rendered elsewhere"', concert.pk],
        )
    assert api.get(single).json()["title"] == "Concert, rendered elsewhere"
    assert api.get(listed).json()["events"][0]["title"] == "Concert, rendered elsewhere"
    # …and trashes it: the single read's facts and the list's page and total follow at once.
    total = api.get(listed).json()["total"]
    with another_process() as other:
        other.execute(
            "UPDATE events_event SET status = 'trash', status_before_trash = status WHERE id = %s", [concert.pk]
        )
    assert api.get(single).json()["code"] == "event-no-longer-available"
    after = api.get(listed)
    assert after.json()["total"] == total - 1
    assert concert.pk not in [event["id"] for event in after.json()["events"]]


def test_a_transaction_reads_its_own_writes_not_what_was_remembered(api, calendar):
    concert = calendar["events"][0]
    single, listed = f"{API}/events/{concert.pk}", paths_of(calendar, LISTS)[0]
    for url in (single, listed, single, listed):
        assert api.get(url).status_code == 200
    with transaction.atomic():
        Event.objects.filter(pk=concert.pk).update(status="draft")
        RenderedRecord.objects.filter(kind="event", record_id=concert.pk).update(body=json.dumps({"id": concert.pk}))
        assert concert.pk not in [event["id"] for event in api.get(listed).json()["events"]]
        assert api.get(single).json()["code"] == "event-not-accessible"
        transaction.set_rollback(True)
    # Rolled back: nothing was bumped, and what was remembered is still what the database holds.
    assert api.get(single).json()["title"] == "Concert"
    assert concert.pk in [event["id"] for event in api.get(listed).json()["events"]]


def test_a_change_to_the_store_bumps_its_version():
    def version():
        with connection.cursor() as cursor:
            cursor.execute("SELECT versions FROM events_list_version")
            return json.loads(cursor.fetchone()[0]).get(list_versions.RENDERED_TABLE)

    before = version()
    RenderedRecord.objects.create(kind="event", record_id=1, language="en", epoch="x", body="{}")
    assert version() != before
    before = version()
    RenderedRecord.objects.filter(record_id=1).delete()
    assert version() != before


def test_a_slug_renamed_by_another_process_is_looked_up_again(api, calendar):
    concert = calendar["events"][0]
    by_old, by_new = f"{API}/events?categories=music", f"{API}/events?categories=tunes"
    old_slug, new_slug = f"{API}/events/by-slug/{concert.slug}", f"{API}/events/by-slug/renamed-concert"
    for url in (by_old, by_old, old_slug, old_slug):
        assert api.get(url).status_code == 200
    assert api.get(by_new).json()["code"] == "rest_invalid_param"
    with another_process() as other:
        other.execute("UPDATE events_term SET slug = 'tunes' WHERE slug = 'music'")
        other.execute("UPDATE events_event SET slug = 'renamed-concert' WHERE id = %s", [concert.pk])
    assert api.get(by_old).json()["code"] == "rest_invalid_param"
    assert concert.pk in [event["id"] for event in api.get(by_new).json()["events"]]
    assert api.get(old_slug).json()["code"] == "rest_invalid_param"  # as for any unknown slug
    assert api.get(new_slug).json()["id"] == concert.pk


def test_a_remembered_list_body_is_one_of_its_own_request(api, calendar):
    """The body is remembered under what its links echo and the host and language it is spliced
    with; a page showing a password-protected event is never remembered (it is blanked or not per
    request)."""
    listed = paths_of(calendar, LISTS)[0]
    for _ in range(2):
        plain = api.get(f"{API}/categories").json()["rest_url"]
        explicit = api.get(f"{API}/categories?hide_empty=true").json()["rest_url"]
        assert "hide_empty" not in plain and "hide_empty=1" in explicit
        concert_only = f"{listed}&categories=jazz"  # no password-protected event on this page
        here = api.get(concert_only).json()["events"][0]["url"]
        there = api.get(concert_only, HTTP_HOST="localhost").json()["events"][0]["url"]
        chinese = api.get(f"/zh-hans{listed}").json()["rest_url"]
        assert here.startswith("http://testserver/") and there.startswith("http://localhost/")
        assert "/zh-hans/" in chinese

        def members_only(query=""):
            events = api.get(f"{listed}{query}").json()["events"]
            return next(event for event in events if event["id"] == calendar["events"][2].pk)

        assert members_only()["venue"] == []
        assert members_only("&password=secret")["venue"]["venue"] == "Hall"
        assert members_only()["venue"] == []


def test_a_remembered_single_read_is_an_anonymous_callers_only(api, editor, calendar):
    """What a single read shows of a linked draft venue depends on who reads: an anonymous
    caller's remembered text is never another caller's."""
    Venue.objects.filter(pk=calendar["venue"].pk).update(status=PostStatus.DRAFT)
    url = f"{API}/events/{calendar['events'][0].pk}"
    for _ in range(2):
        assert "json_ld" not in api.get(url).json()["venue"]
        assert "json_ld" in editor.get(url).json()["venue"]
        assert "json_ld" not in api.get(url).json()["venue"]
