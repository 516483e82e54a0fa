"""A database fault during a write is 503 with Retry-After, never a 4xx that blames the input, and
writes nothing (PostgreSQL).

The fault is raised by the database itself: a trigger fails the write with SQLSTATE 57P01 (the
server shutting down), as a terminated backend or a failover would end it.
"""

from contextlib import contextmanager

import pytest
from django.db import connection

from events.models import Event, Organizer, Venue

from .conftest import API, post_json
from .factories import make_event, make_organizer, make_venue

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@contextmanager
def database_fails_on(table, operation):
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION test_fault() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'terminating connection due to administrator command' USING ERRCODE = '57P01'; "
            "END $$ LANGUAGE plpgsql"
        )
        cursor.execute(
            f"CREATE TRIGGER test_fault BEFORE {operation} ON {table} FOR EACH ROW EXECUTE FUNCTION test_fault()"
        )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER test_fault ON {table}")
            cursor.execute("DROP FUNCTION test_fault()")


def assert_unavailable(response):
    assert response.status_code == 503
    assert response.json()["code"] == "rest_database_unavailable"
    assert int(response["Retry-After"]) > 0


@pytest.mark.parametrize(
    "table,nested",
    [
        ("events_venue", {"venue": {"venue": "Grand Hall", "city": "Lyon"}}),
        ("events_organizer", {"organizer": [{"organizer": "Friends of Jazz"}]}),
    ],
)
def test_a_fault_creating_a_nested_record_is_503_and_nothing_is_written(as_role, table, nested):
    editor = as_role("editor")
    with database_fails_on(table, "INSERT"):
        response = post_json(
            editor,
            "/events",
            {
                "title": "Session",
                "start_date": "2031-03-01 10:00",
                "end_date": "2031-03-01 11:00",
                **nested,
            },
        )
    assert_unavailable(response)
    assert (Event.objects.count(), Venue.objects.count(), Organizer.objects.count()) == (0, 0, 0)


@pytest.mark.parametrize(
    "route,make,table",
    [
        ("venues", make_venue, "events_venue"),
        ("organizers", make_organizer, "events_organizer"),
        ("events", make_event, "events_event"),
    ],
)
def test_a_fault_trashing_a_record_is_503_and_it_stays(as_role, route, make, table):
    record = make("Hall")
    with database_fails_on(table, "UPDATE"):
        response = as_role("editor").delete(f"{API}/{route}/{record.pk}")
    assert_unavailable(response)
    assert type(record).objects.get(pk=record.pk).status == "publish"


@pytest.mark.parametrize(
    "route,make,table",
    [
        ("venues", make_venue, "events_venue"),
        ("organizers", make_organizer, "events_organizer"),
    ],
)
def test_a_fault_updating_a_linked_record_is_503(as_role, route, make, table):
    record = make("Hall")
    with database_fails_on(table, "UPDATE"):
        response = post_json(as_role("editor"), f"/{route}/{record.pk}", {"title": "Renamed"})
    assert_unavailable(response)
    assert type(record).objects.get(pk=record.pk).title_en == "Hall"


def test_a_committed_write_is_not_reported_failed_when_storing_its_rendering_fails(api):
    """Outside the services (a command, a shell), the store renders after the commit: a fault there
    leaves the write committed and reported done, and the next read renders the record afresh."""
    event = make_event("Concert")
    with database_fails_on("events_renderedrecord", "INSERT"):
        event.title_en = "Renamed"
        event.save()
    assert Event.objects.get(pk=event.pk).title_en == "Renamed"
    assert api.get(f"{API}/events/{event.pk}").json()["title"] == "Renamed"
