"""Every list statement declares the tables it reads: each filter of each list, checked against its SQL.

The suite-wide fixture `declared_reads_hold` (conftest.py) does the checking for every list any test
builds; this file makes sure each filter that joins a table or searches display columns is built
at least once, on both databases.
"""

import pytest
from django.contrib.auth import get_user_model

from events import list_versions
from events.list_versions import Reads
from events.models import Event

from .conftest import API
from .factories import make_category, make_event, make_organizer, make_tag, make_venue
from .statement_reads import read_by

pytestmark = pytest.mark.django_db

STATE = '100:100: {"events_event": 4}'


@pytest.fixture
def calendar():
    venue = make_venue("Hall", geo_lat=48.85, geo_lng=2.35)
    organizer, category, tag = (
        make_organizer("Choir"),
        make_category("Music", slug="music"),
        make_tag("Free", slug="free"),
    )
    event = make_event("Concert", venue=venue, organizers=[organizer], categories=[category], tags=[tag])
    return {"venue": venue, "organizer": organizer, "category": category, "tag": tag, "event": event}


EVENT_FILTERS = [
    "search=concert",
    "categories=music",
    "tags=free",
    "venue={venue}",
    "organizer={organizer}",
    "featured=true",
    "geoloc=true",
    "geoloc=false",
    "geoloc_lat=48.85&geoloc_lng=2.35",
    "include={event}",
    "post_parent={event}",
    "starts_after=2000-01-01&ends_before=2100-01-01",
    "search=concert&categories=music&organizer={organizer}&geoloc_lat=48.85&geoloc_lng=2.35",
]
LINKED_FILTERS = [
    "search=hall",
    "search=choir",
    "event={event}",
    "has_events=true",
    "has_events=false",
    "only_with_upcoming=true",
]
TERM_FILTERS = [
    "search=mus",
    "post={event}",
    "event={event}",
    "orderby=description",
    "orderby=count",
    "include={term}",
    "exclude={term}",
    "slug=music",
    "hide_empty=false",
]


def urls():
    for query in EVENT_FILTERS:
        yield pytest.param(f"{API}/events?{query}", id=f"events?{query}")
    for collection in ("venues", "organizers"):
        for query in LINKED_FILTERS:
            yield pytest.param(f"{API}/{collection}?{query}", id=f"{collection}?{query}")
    for collection, term in (("categories", "category"), ("tags", "tag")):
        for query in TERM_FILTERS:
            yield pytest.param(
                f"{API}/{collection}?{query}".replace("{term}", f"{{{term}}}"), id=f"{collection}?{query}"
            )
    yield pytest.param(f"{API}/categories?parent={{category}}", id="categories?parent={category}")
    # The public pages' lists of upcoming events.
    for path in (
        "/events/",
        "/events/featured/",
        "/events/category/music/",
        "/tag/free/",
        "/venue/hall/",
        "/organizer/choir/",
    ):
        yield pytest.param(path, id=path)


@pytest.mark.parametrize("url", list(urls()))
def test_each_filter_of_each_list_declares_what_it_reads(client, calendar, url):
    ids = {name: record.pk for name, record in calendar.items()}
    response = client.get(url.format(**ids))
    assert response.status_code == 200
    # What the statement read is checked after the test (declared_reads_hold).


def test_the_sql_is_read_for_its_tables_and_display_columns():
    joined = 'SELECT "events_event"."id" FROM "events_event" INNER JOIN "auth_user" ON ("events_event"."author_id" = "auth_user"."id")'
    assert read_by(joined) == Reads(frozenset({"events_event", "auth_user"}), False)
    searched = 'SELECT "events_event"."id" FROM "events_event" WHERE "events_event"."title_en" LIKE %s'
    assert read_by(searched) == Reads(frozenset({"events_event"}), True)
    # Subqueries name their tables too, with an alias.
    linked = 'SELECT "events_term"."id" FROM "events_term" WHERE "events_term"."id" IN (SELECT U0."term_id" FROM "events_event_terms" U0)'
    assert read_by(linked).tables == {"events_term", "events_event_terms"}


def test_a_statement_reading_an_unversioned_table_depends_on_the_snapshot():
    joined = Reads.of(Event, get_user_model())
    assert joined.names is None
    assert list_versions.tables_key(joined.names, STATE) == STATE
    assert Reads.of(Event).names == ("events_event",)
    searched = Reads.of(Event, display=True)
    assert searched.names == ("events_event", "events_event:display")
    assert list_versions.tables_key(searched.names, STATE) == (4, None)
    assert (Reads.of(Event) | Reads.of(Event.terms.through, display=True)).names == (
        "events_event",
        "events_event:display",
        "events_event_terms",
        "events_event_terms:display",
    )
