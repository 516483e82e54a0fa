"""List totals remembered per version of the tables they read: counted once, exact after every commit."""

import datetime as dt
import importlib
import json
import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from events import list_versions
from events.memory import forget_all
from events.models import Event, EventOrganizer, Organizer, Venue

from .conftest import API, post_json
from .factories import make_category, make_event, make_organizer, make_venue

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 30


def listed_total(api, **query):
    with CaptureQueriesContext(connection) as queries:
        response = api.get(f"{API}/events", query)
    assert response.status_code == 200
    counted = any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    return response.json()["total"], int(response["X-TEC-Total"]), counted


def test_a_total_is_remembered_until_a_write_changes_what_it_counts(api, editor):
    for _ in range(3):
        make_event()
    assert listed_total(api)[:2] == (3, 3)
    assert listed_total(api) == (3, 3, False)
    assert listed_total(api, per_page=2) == (3, 3, False)  # the page size does not change the total
    assert listed_total(api, featured="true")[:2] == (0, 0)
    created = post_json(
        editor,
        "/events",
        {"title": "New", "start_date": "tomorrow 10:00", "end_date": "tomorrow 11:00", "status": "publish"},
    )
    assert created.status_code == 201
    # The commit bumped the events table's version: counted again, and exact.
    assert listed_total(api) == (4, 4, True)
    assert listed_total(api) == (4, 4, False)


def test_writes_to_what_a_list_does_not_read_keep_its_total(api, editor):
    """An editor at work (excerpts, descriptions, a venue's phone) does not make the default list count again."""
    event, venue = make_event(), make_venue()
    assert listed_total(api)[:2] == (1, 1)
    writes = [
        (f"/events/{event.pk}", {"excerpt": "Bring a torch.", "description": "<p>Lights out at ten.</p>"}),
        (f"/venues/{venue.pk}", {"phone": "+1 555 0100"}),
    ]
    for path, body in writes:
        assert post_json(editor, path, body).status_code == 200
        assert listed_total(api) == (1, 1, False)


def test_a_search_counts_again_after_an_excerpt_edit(api, editor):
    event = make_event(excerpt="Nothing special.")
    make_event(excerpt="Bring a torch.")
    assert listed_total(api, search="torch") == (1, 1, True)
    assert listed_total(api, search="torch") == (1, 1, False)
    assert post_json(editor, f"/events/{event.pk}", {"excerpt": "Bring a torch too."}).status_code == 200
    assert listed_total(api, search="torch") == (2, 2, True)


def _tomorrow_plus(days):
    return dt.datetime.combine(dt.date.today() + dt.timedelta(days=days), dt.time(10, 0))


def _unpublish(event, editor):
    assert post_json(editor, f"/events/{event.pk}", {"status": "draft"}).status_code == 200


def _feature(event, editor):
    assert post_json(editor, f"/events/{event.pk}", {"featured": True}).status_code == 200


def _move_past_the_window(event, editor):
    body = {"start_date": "2020-01-01 10:00:00", "end_date": "2020-01-01 11:00:00"}
    assert post_json(editor, f"/events/{event.pk}", body).status_code == 200


def _hide_by_update(event, editor):
    Event.objects.filter(pk=event.pk).update(hide_from_listings=True)


def _delete(event, editor):
    assert editor.delete(f"{API}/events/{event.pk}?force=true").status_code == 200


def _categorize(event, editor):
    assert post_json(editor, f"/events/{event.pk}", {"categories": ["night-walks"]}).status_code == 200


def _add_organizer(event, editor):
    organizer = Organizer.objects.get(slug="lamplighters")
    assert post_json(editor, f"/events/{event.pk}", {"organizer": [organizer.pk]}).status_code == 200


def _locate_venue(event, editor):
    Venue.objects.filter(pk=event.venue_id).update(geo_lat=51.5, geo_lng=-0.12)


@pytest.mark.parametrize(
    "query, write, before, after",
    [
        ({}, _unpublish, 2, 1),
        ({"featured": "true"}, _feature, 1, 2),
        ({}, _move_past_the_window, 2, 1),
        ({}, _hide_by_update, 2, 1),
        ({}, _delete, 2, 1),
        ({"categories": "night-walks"}, _categorize, 1, 2),
        ({"organizer": "lamplighters"}, _add_organizer, 1, 2),
        ({"geoloc": "true"}, _locate_venue, 1, 2),
    ],
    ids=lambda value: getattr(value, "__name__", None),
)
def test_every_write_that_changes_a_list_counts_it_again(api, editor, query, write, before, after):
    """The written event joins or leaves a list that the other event is on (an empty page carries
    no state to remember a total by)."""
    event = make_event(start=_tomorrow_plus(1), venue=make_venue())
    make_event(
        start=_tomorrow_plus(2),
        featured=True,
        categories=[make_category(slug="night-walks")],
        organizers=[make_organizer(slug="lamplighters")],
        venue=make_venue(geo_lat=48.85, geo_lng=2.35),
    )
    if "organizer" in query:  # the filter takes IDs
        query = {"organizer": Organizer.objects.get(slug=query["organizer"]).pk}
    assert listed_total(api, **query)[:2] == (before, before)
    assert listed_total(api, **query) == (before, before, False)
    write(event, editor)
    assert listed_total(api, **query) == (after, after, True)


def _versions():
    with connection.cursor() as cursor:
        cursor.execute("SELECT versions FROM events_list_version")
        return json.loads(cursor.fetchone()[0])


def test_each_kind_of_change_bumps_the_version_it_should():
    event, organizer = make_event(), make_organizer()
    link = EventOrganizer.objects.create(event=event, organizer=organizer, position=0)

    def bumped_by(change):
        before = _versions()
        change()
        after = _versions()
        # The rendering store re-renders what changed, in the same or the next transaction: its
        # own version is checked in test_stored_rows_memory.py.
        return {name for name in after if after[name] != before.get(name) and name != list_versions.RENDERED_TABLE}

    assert bumped_by(lambda: Event.objects.filter(pk=event.pk).update(excerpt_en="New words")) == {
        "events_event:display"
    }
    assert bumped_by(lambda: Event.objects.filter(pk=event.pk).update(featured=True)) == {"events_event"}
    assert bumped_by(lambda: Event.objects.filter(pk=event.pk).update(featured=True)) == set()  # nothing changed
    # A table without display columns (its trigger has no arguments).
    assert bumped_by(lambda: EventOrganizer.objects.filter(pk=link.pk).update(position=3)) == {"events_eventorganizer"}
    assert bumped_by(lambda: event.terms.add(make_category())) == {"events_event_terms", "events_term"}

    def rolled_back_then_other():
        with transaction.atomic():
            try:
                with transaction.atomic():
                    Event.objects.filter(pk=event.pk).update(featured=False)
                    raise RuntimeError
            except RuntimeError:
                pass
            Event.objects.filter(pk=event.pk).update(title_en="Renamed")

    assert bumped_by(rolled_back_then_other) == {"events_event:display"}


def test_the_triggers_and_the_reader_agree_on_tables():
    """The display columns are the triggers' alone: statements declare whether they read one, and
    tests/statement_reads.py parses them with the triggers' own pattern."""
    migration = importlib.import_module("events.migrations.0007_list_versions")
    store_migration = importlib.import_module("events.migrations.0008_rendered_record_version")
    assert (*migration.VERSIONED_TABLES, *store_migration.VERSIONED_TABLES) == list_versions.VERSIONED_TABLES
    assert store_migration.VERSIONED_TABLES == (list_versions.RENDERED_TABLE,)


def test_a_new_list_query_is_counted(api):
    make_event()
    listed_total(api)
    assert listed_total(api, featured="true") == (0, 0, True)


def test_a_write_still_open_elsewhere_is_not_counted_and_is_once_committed(api):
    make_event()
    assert listed_total(api)[0] == 1
    written, may_commit, errors = threading.Event(), threading.Event(), []

    def other_process_writes():
        try:
            with transaction.atomic():
                make_event("Elsewhere")
                written.set()
                may_commit.wait(WAIT_SECONDS)
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    writer = threading.Thread(target=other_process_writes)
    writer.start()
    assert written.wait(WAIT_SECONDS)
    assert listed_total(api)[0] == 1
    may_commit.set()
    writer.join(WAIT_SECONDS)
    assert errors == []
    assert listed_total(api)[0] == 2


def test_requests_that_miss_together_count_once(api):
    """After a commit every request of a list misses at once; one counts and the others wait for it."""
    for _ in range(3):
        make_event()
    readers = 4

    def counts_when_all_miss_together():
        forget_all()
        # A reader about to count waits (briefly) for the others to be about to count too: without
        # a single count per process they all get there, with it only one ever does.
        about_to_count = threading.Barrier(readers, timeout=0.5)
        counted, answers = [], []

        def meet_before_counting(execute, sql, params, many, context):
            if "COUNT(" in sql.upper():
                try:
                    about_to_count.wait()
                except threading.BrokenBarrierError:
                    pass
            return execute(sql, params, many, context)

        def read():
            try:
                with connection.execute_wrapper(meet_before_counting):
                    total, header, was_counted = listed_total(api)
                answers.append((total, header))
                counted.append(was_counted)
            finally:
                connection.close()

        threads = [threading.Thread(target=read) for _ in range(readers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT_SECONDS)
        assert answers == [(3, 3)] * readers
        return sum(counted)

    assert counts_when_all_miss_together() == 1
