"""The events list's page statement is a bounded index range scan on PostgreSQL, whatever the page
size: the planner must never walk the start index from the oldest event and filter out the past."""

import datetime as dt
import json

import pytest
from django.db import connection
from django.utils import timezone

from .conftest import API
from .factories import make_event

pytestmark = pytest.mark.postgres

PAST_EVENTS, UPCOMING_EVENTS = 150, 60


@pytest.fixture
def calendar(db):
    today = timezone.now().replace(hour=10, minute=0, second=0, microsecond=0)
    for n in range(PAST_EVENTS):
        make_event(f"Past {n}", start=today - dt.timedelta(days=n + 2, hours=n % 5))
    for n in range(UPCOMING_EVENTS):
        make_event(f"Upcoming {n}", start=today + dt.timedelta(days=n + 1, hours=n % 5))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE events_event")


def page_statement(api, per_page):
    """(sql, params) of the statement that reads the page of a default-window events list."""
    api.get(f"{API}/events?per_page={per_page}")  # stores the records: the next read is the page alone
    statements = []

    def capture(execute, sql, params, many, context):
        statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        response = api.get(f"{API}/events?per_page={per_page}")
    assert response.status_code == 200
    assert len(response.json()["events"]) == min(per_page, UPCOMING_EVENTS)
    pages = [(sql, params) for sql, params in statements if 'ORDER BY "events_event"."start_local"' in sql]
    assert len(pages) == 1, statements
    return pages[0]


def scans_of_events(plan):
    """Every plan node that reads the events table."""
    if plan.get("Relation Name") == "events_event":
        yield plan
    for child in plan.get("Plans", []):
        yield from scans_of_events(child)


@pytest.mark.parametrize("per_page", [1, 10, 50])
def test_the_default_window_page_is_an_index_range_scan_bounded_by_its_start(api, calendar, per_page):
    sql, params = page_statement(api, per_page)
    with connection.cursor() as cursor:
        # A table this small would be read whole, or through any index and then sorted, as its
        # size on disk (what earlier tests left in it) tips the costs; what is pinned is the access
        # path the planner takes when it reads the page in index order, as it does at 100,000
        # events: the window's start must bound that index scan, not filter its rows.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    scans = list(scans_of_events(plan[0]["Plan"]))
    # An index scan, or a bitmap heap scan over an index, whose condition bounds the start.
    bounded = [scan for scan in scans if "start_local >=" in scan.get("Index Cond", scan.get("Recheck Cond", ""))]
    assert bounded, json.dumps(plan, indent=1)
    assert all(scan["Node Type"] != "Seq Scan" for scan in scans)
