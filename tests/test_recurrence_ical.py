"""Recurring series in calendar files: one VEVENT with RRULE/RDATE/EXDATE, one with RECURRENCE-ID per
occurrence edited on its own; expanded by an independent library, a feed gives what the API lists."""

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events
from django.test import Client

from .conftest import API

pytestmark = pytest.mark.django_db

RANGE = ("2027-01-01", "2027-12-31")


def create(client, **fields):
    body = {"status": "publish", "timezone": "America/New_York", **fields}
    response = client.post(f"{API}/events", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def api_occurrences(client):
    """(title, start) of every event the API lists over RANGE, start as an aware datetime or a date."""
    found, page = [], 1
    while True:
        response = client.get(
            f"{API}/events", {"start_date": RANGE[0], "end_date": f"{RANGE[1]} 23:59:59", "per_page": 50, "page": page}
        )
        body = response.json()
        for record in body.get("events", []):
            zone = ZoneInfo(record["timezone"])
            start = dt.datetime.fromisoformat(record["start_date"])
            found.append((record["title"], start.date() if record["all_day"] else start.replace(tzinfo=zone)))
        if response.status_code != 200 or page >= body["total_pages"]:
            return sorted(found, key=_key)
        page += 1


def feed_occurrences(content):
    calendar = icalendar.Calendar.from_ical(content)
    expanded = recurring_ical_events.of(calendar).between(
        dt.date.fromisoformat(RANGE[0]), dt.date.fromisoformat(RANGE[1]) + dt.timedelta(days=1)
    )
    found = []
    for entry in expanded:
        start = entry["DTSTART"].dt
        found.append((str(entry["SUMMARY"]), start))
    return sorted(found, key=_key)


def _key(item):
    title, start = item
    moment = start if isinstance(start, dt.datetime) else dt.datetime.combine(start, dt.time(0, 0), tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC), title


@pytest.fixture
def calendar(editor):
    """A calendar with each kind of series the API writes, and edits of each scope."""
    weekly = create(
        editor,
        title="Choir",
        start_date="2027-01-05 19:00",
        end_date="2027-01-05 21:00",
        recurrence={
            "rules": ["FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231T235959Z"],
            "dates": ["2027-02-14 10:00:00"],
            "exclusions": ["2027-03-02 19:00:00"],
        },
    )
    listed = editor.get(f"{API}/events", {"post_parent": weekly["id"], "per_page": 50, "start_date": RANGE[0]}).json()[
        "events"
    ]
    # One occurrence renamed, one moved, one deleted, one a draft.
    assert editor.post(f"{API}/events/{listed[3]['id']}", {"title": "Choir concert"}, format="json").status_code == 200
    assert (
        editor.post(
            f"{API}/events/{listed[5]['id']}",
            {"start_date": "2027-01-22 18:00", "end_date": "2027-01-22 20:00"},
            format="json",
        ).status_code
        == 200
    )
    assert editor.delete(f"{API}/events/{listed[7]['id']}").status_code == 200
    assert editor.post(f"{API}/events/{listed[9]['id']}", {"status": "draft"}, format="json").status_code == 200
    monthly = create(
        editor,
        title="Market",
        all_day=True,
        start_date="2027-01-02",
        end_date="2027-01-03",
        recurrence={"rules": ["FREQ=MONTHLY;BYDAY=1SA;UNTIL=20271231"]},
    )
    create(editor, title="Gala", start_date="2027-06-01 20:00", end_date="2027-06-01 23:00")
    split = create(
        editor,
        title="Course",
        start_date="2027-04-01 09:00",
        end_date="2027-04-01 10:00",
        recurrence={"rules": ["FREQ=DAILY;COUNT=10"]},
    )
    course = editor.get(f"{API}/events", {"post_parent": split["id"], "start_date": RANGE[0]}).json()["events"]
    assert (
        editor.post(
            f"{API}/events/{course[4]['id']}",
            {"title": "Course, part two", "recurrence_scope": "following"},
            format="json",
        ).status_code
        == 200
    )
    return weekly, monthly


def test_a_feed_expands_to_exactly_what_the_api_lists(api, calendar):
    # Both as an anonymous reader sees them: the draft occurrence is in neither.
    response = Client().get(f"/events/?ical=1&start_date={RANGE[0]}&end_date={RANGE[1]}")
    assert response.status_code == 200
    listed = api_occurrences(api)
    assert len(listed) > 100
    assert feed_occurrences(response.content) == listed


def test_a_series_is_one_vevent_with_its_rules_and_its_edited_occurrences(editor, calendar):
    weekly, _monthly = calendar
    response = Client().get(f"/event/{weekly['slug']}/ical/")
    parsed = icalendar.Calendar.from_ical(response.content)
    entries = list(parsed.walk("VEVENT"))
    masters = [entry for entry in entries if "RRULE" in entry]
    assert len(masters) == 1
    master = masters[0]
    assert master["RRULE"].to_ical() == b"FREQ=WEEKLY;UNTIL=20271231T235959Z;BYDAY=TU,TH"
    assert master["DTSTART"].dt == dt.datetime(2027, 1, 5, 19, 0, tzinfo=ZoneInfo("America/New_York"))
    assert b"RDATE;TZID=America/New_York:20270214T100000" in response.content
    exdates = master["EXDATE"] if isinstance(master["EXDATE"], list) else [master["EXDATE"]]
    left_out = sorted(moment.dt for value in exdates for moment in value.dts)
    # The exclusion, the deleted occurrence and the draft.
    new_york = ZoneInfo("America/New_York")
    assert left_out == [
        dt.datetime(2027, 1, 28, 19, 0, tzinfo=new_york),
        dt.datetime(2027, 2, 4, 19, 0, tzinfo=new_york),
        dt.datetime(2027, 3, 2, 19, 0, tzinfo=new_york),
    ]
    overrides = [entry for entry in entries if "RECURRENCE-ID" in entry]
    assert sorted(str(entry["SUMMARY"]) for entry in overrides) == ["Choir", "Choir concert"]
    assert {str(entry["UID"]) for entry in entries} == {str(master["UID"])}


def test_an_all_day_series_ends_on_a_date(editor, calendar):
    _weekly, monthly = calendar
    content = Client().get(f"/event/{monthly['slug']}/ical/").content
    assert b"RRULE:FREQ=MONTHLY;UNTIL=20271231;BYDAY=1SA" in content
    assert b"DTSTART;VALUE=DATE:20270102" in content
