"""Importing iCalendar feeds (docs/import.md): a Google/Outlook-shaped feed with VTIMEZONE blocks and
overridden instances, updates and cancellations, malformed components, and the calendar's own feed
imported into an empty calendar."""

import io

import pytest
from django.core.management import call_command
from django.test import Client

from events.dates import site_zone_name
from events.management.commands.events_clear import clear_calendar
from events.models import Event, ImportRun, PostStatus

from .conftest import API

pytestmark = pytest.mark.django_db

GOOGLE_FEED = """BEGIN:VCALENDAR
PRODID:-//Google Inc//Google Calendar 70.9054//EN
VERSION:2.0
CALSCALE:GREGORIAN
METHOD:PUBLISH
X-WR-CALNAME:Club
X-WR-TIMEZONE:Europe/Berlin
BEGIN:VTIMEZONE
TZID:Europe/Berlin
X-LIC-LOCATION:Europe/Berlin
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE
BEGIN:VEVENT
DTSTART;TZID=Europe/Berlin:20270302T190000
DTEND;TZID=Europe/Berlin:20270302T210000
RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TU
EXDATE;TZID=Europe/Berlin:20270316T190000
UID:weekly-practice@google.com
SUMMARY:Practice
DESCRIPTION:Bring shoes & water
LOCATION:Gym Hall, Hauptstr. 1, Berlin
ORGANIZER;CN=Coach Kim:mailto:kim@example.org
CATEGORIES:Sport,Club
URL:https://example.org/practice
STATUS:CONFIRMED
END:VEVENT
BEGIN:VEVENT
DTSTART;TZID=Europe/Berlin:20270323T200000
DTEND;TZID=Europe/Berlin:20270323T220000
RECURRENCE-ID;TZID=Europe/Berlin:20270323T190000
UID:weekly-practice@google.com
SUMMARY:Practice (late start)
END:VEVENT
BEGIN:VEVENT
DTSTART;VALUE=DATE:20270410
DTEND;VALUE=DATE:20270412
UID:weekend-trip@google.com
SUMMARY:Weekend trip
END:VEVENT
BEGIN:VEVENT
DTSTART:20270501T120000Z
DTEND:20270501T130000Z
UID:cancelled-later@google.com
SUMMARY:Picnic
END:VEVENT
END:VCALENDAR
"""

OUTLOOK_FEED = """BEGIN:VCALENDAR
PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN
VERSION:2.0
BEGIN:VTIMEZONE
TZID:Pacific Standard Time
BEGIN:STANDARD
DTSTART:16011104T020000
RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11
TZOFFSETFROM:-0700
TZOFFSETTO:-0800
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:16010311T020000
RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3
TZOFFSETFROM:-0800
TZOFFSETTO:-0700
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VEVENT
UID:040000008200E00074C5B7101A82E00800000000
SUMMARY:Standup
DTSTART;TZID=Pacific Standard Time:20270104T093000
DTEND;TZID=Pacific Standard Time:20270104T094500
RRULE:FREQ=DAILY;UNTIL=20270108T173000Z;INTERVAL=1
X-ALT-DESC;FMTTYPE=text/html:<p>Daily <b>sync</b><script>alert(1)</script></p>
END:VEVENT
BEGIN:VEVENT
UID:040000008200E00074C5B7101A82E00800000000
RECURRENCE-ID;TZID=Pacific Standard Time:20270106T093000
SUMMARY:Standup
DTSTART;TZID=Pacific Standard Time:20270106T093000
DTEND;TZID=Pacific Standard Time:20270106T094500
STATUS:CANCELLED
END:VEVENT
BEGIN:VEVENT
UID:broken-rule
SUMMARY:Broken
DTSTART:20270104T093000Z
RRULE:FREQ=SECONDLY
END:VEVENT
BEGIN:VEVENT
SUMMARY:No identity
DTSTART:20270104T093000Z
END:VEVENT
END:VCALENDAR
"""


@pytest.fixture
def admin_user(as_role):
    return as_role("administrator")


def run_import(path, *args):
    out, err = io.StringIO(), io.StringIO()
    call_command("events_import", str(path), *args, stdout=out, stderr=err)
    return out.getvalue().strip()


def listed(**params):
    """(title, start_date, end_date, timezone, all_day) of every published event the API lists from 2027."""
    response = Client().get(
        f"{API}/events", {"start_date": "2027-01-01", "end_date": "2027-12-31", "per_page": 50, **params}
    )
    assert response.status_code == 200
    return [
        (record["title"], record["start_date"], record["end_date"], record["timezone"], record["all_day"])
        for record in response.json()["events"]
    ]


def write(tmp_path, text, name="feed.ics"):
    path = tmp_path / name
    path.write_text(text.replace("\n", "\r\n"))
    return path


def test_google_feed_imports_series_override_zone_and_all_day(admin_user, tmp_path):
    path = write(tmp_path, GOOGLE_FEED)
    assert run_import(path) == "imported: 3 created, 1 updated, 0 trashed, 0 unchanged, 0 skipped, 0 errors"
    assert listed() == [
        ("Practice", "2027-03-02 19:00:00", "2027-03-02 21:00:00", "Europe/Berlin", False),
        ("Practice", "2027-03-09 19:00:00", "2027-03-09 21:00:00", "Europe/Berlin", False),
        ("Practice (late start)", "2027-03-23 20:00:00", "2027-03-23 22:00:00", "Europe/Berlin", False),
        ("Practice", "2027-03-30 19:00:00", "2027-03-30 21:00:00", "Europe/Berlin", False),
        ("Practice", "2027-04-06 19:00:00", "2027-04-06 21:00:00", "Europe/Berlin", False),
        ("Weekend trip", "2027-04-10 00:00:00", "2027-04-11 23:59:59", "Europe/Berlin", True),
        ("Picnic", "2027-05-01 14:00:00", "2027-05-01 15:00:00", "Europe/Berlin", False),
    ]
    first = Client().get(f"{API}/events", {"start_date": "2027-03-01", "end_date": "2027-03-03"}).json()["events"][0]
    assert first["venue"]["venue"] == "Gym Hall"
    assert first["venue"]["address"] == "Hauptstr. 1, Berlin"
    assert [organizer["organizer"] for organizer in first["organizer"]] == ["Coach Kim"]
    assert first["organizer"][0]["email"] == "kim@example.org"
    assert sorted(category["name"] for category in first["categories"]) == ["Club", "Sport"]
    assert first["website"] == "https://example.org/practice"
    assert first["description"] == "<p>Bring shoes &amp; water</p>"
    assert first["recurrence"]["exclusions"] == ["2027-03-16 19:00:00"]


def test_import_again_changes_nothing_then_follows_the_source(admin_user, tmp_path):
    path = write(tmp_path, GOOGLE_FEED)
    run_import(path)
    count = Event.objects.count()
    assert run_import(path) == "imported: 0 created, 0 updated, 0 trashed, 4 unchanged, 0 skipped, 0 errors"
    assert Event.objects.count() == count

    changed = GOOGLE_FEED.replace("SUMMARY:Weekend trip", "SUMMARY:Long weekend trip").replace(
        "SUMMARY:Picnic", "SUMMARY:Picnic\nSTATUS:CANCELLED"
    )
    write(tmp_path, changed)
    assert run_import(path) == "imported: 0 created, 1 updated, 1 trashed, 2 unchanged, 0 skipped, 0 errors"
    titles = [row[0] for row in listed()]
    assert "Long weekend trip" in titles and "Weekend trip" not in titles and "Picnic" not in titles

    # Gone from the source: trashed, as the whole series.
    without_series = changed.split("BEGIN:VEVENT", 1)[0] + "BEGIN:VEVENT" + changed.split("BEGIN:VEVENT", 3)[3]
    write(tmp_path, without_series)
    summary = run_import(path)
    assert summary.startswith("imported: 0 created, 0 updated, 1 trashed")
    assert [row[0] for row in listed()] == ["Long weekend trip"]


def test_an_event_an_editor_deleted_stays_deleted(admin_user, tmp_path):
    path = write(tmp_path, GOOGLE_FEED)
    run_import(path)
    trip = Event.objects.get(title="Weekend trip")
    response = admin_user.delete(f"{API}/events/{trip.pk}")
    assert response.status_code == 200
    assert run_import(path) == "imported: 0 created, 0 updated, 0 trashed, 3 unchanged, 1 skipped, 0 errors"
    assert Event.objects.get(pk=trip.pk).status == PostStatus.TRASH


def test_outlook_feed_windows_zone_cancelled_instance_and_malformed_parts(admin_user, tmp_path):
    path = write(tmp_path, OUTLOOK_FEED)
    summary = run_import(path)
    assert summary == "imported: 1 created, 0 updated, 1 trashed, 0 unchanged, 0 skipped, 2 errors"
    assert listed() == [
        ("Standup", f"2027-01-0{day} 09:30:00", f"2027-01-0{day} 09:45:00", "America/Los_Angeles", False)
        for day in (4, 5, 7, 8)
    ]
    record = Client().get(f"{API}/events", {"start_date": "2027-01-04", "end_date": "2027-01-04 23:59"}).json()
    assert "script" not in record["events"][0]["description"]
    assert "<b>sync</b>" in record["events"][0]["description"]
    run = ImportRun.objects.get()
    assert run.errors == 2 and len(run.messages) == 2


def test_unreadable_source_exits_with_an_error(admin_user, tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        run_import(tmp_path / "missing.ics")
    assert ImportRun.objects.get().failure


def test_own_feed_imported_into_an_empty_calendar_reproduces_it(admin_user, tmp_path):
    def create(**fields):
        body = {"status": "publish", "timezone": "America/New_York", **fields}
        response = admin_user.post(f"{API}/events", body, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    series = create(
        title="Book club",
        start_date="2027-02-01 18:00:00",
        end_date="2027-02-01 19:30:00",
        recurrence={
            "rules": ["FREQ=MONTHLY;COUNT=5"],
            "dates": ["2027-02-15 18:00:00"],
            "exclusions": ["2027-04-01 18:00:00"],
        },
    )
    # An all-day event's dates carry no zone in a calendar file: it is read in the calendar's zone.
    create(title="Fair", start_date="2027-06-05", end_date="2027-06-06", all_day=True, timezone=site_zone_name())
    occurrence = [
        item
        for item in Client()
        .get(f"{API}/events", {"start_date": "2027-05-01", "end_date": "2027-05-02"})
        .json()["events"]
    ][0]
    response = admin_user.post(f"{API}/events/{occurrence['id']}", {"title": "Book club: guest author"}, format="json")
    assert response.status_code == 200
    before = listed()
    assert len(before) == 6 and series["recurrence"]["exclusions"] == ["2027-04-01 18:00:00"]

    feed = Client().get("/events/?ical=1&start_date=2027-01-01&end_date=2027-12-31")
    assert feed.status_code == 200
    clear_calendar()
    assert listed() == []
    path = tmp_path / "own.ics"
    path.write_bytes(feed.content)
    assert run_import(path).startswith("imported: 2 created, 1 updated, 0 trashed")
    assert listed() == before


def test_a_feed_read_in_part_trashes_nothing(admin_user, tmp_path):
    path = write(tmp_path, GOOGLE_FEED)
    run_import(path)
    listed_before = listed()
    # The last component never ends: the parser drops everything after it.
    write(tmp_path, GOOGLE_FEED.replace("SUMMARY:Weekend trip\nEND:VEVENT", "SUMMARY:Weekend trip"))
    summary = run_import(path)
    assert " 0 trashed" in summary and summary.endswith("1 errors")
    assert listed() == listed_before


def test_an_error_page_in_place_of_the_feed_is_not_an_empty_calendar(admin_user, tmp_path):
    from django.core.management.base import CommandError

    path = write(tmp_path, GOOGLE_FEED)
    run_import(path)
    path.write_text("<html><body>Service unavailable</body></html>")
    with pytest.raises(CommandError, match="no longer serves"):
        run_import(path)
    assert len(listed()) == 7


def test_extra_dates_make_a_series_and_one_before_its_start_is_left_out(admin_user, tmp_path):
    feed = (
        "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:dates\nDTSTART;TZID=Europe/Rome:20270601T180000\n"
        "DTEND;TZID=Europe/Rome:20270601T190000\nRDATE;TZID=Europe/Rome:20270520T180000,20270610T180000\n"
        "SUMMARY:Concert\nEND:VEVENT\nEND:VCALENDAR\n"
    )
    path = write(tmp_path, feed)
    assert run_import(path).startswith("imported: 1 created")
    assert [row[:2] for row in listed()] == [("Concert", "2027-06-01 18:00:00"), ("Concert", "2027-06-10 18:00:00")]
