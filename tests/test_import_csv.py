"""Importing CSV files in the columns of the plugin's CSV importer: events, venues, organizers."""

import io

import pytest
from django.core.management import call_command
from django.test import Client

from events.models import Organizer, Venue

from .conftest import API

pytestmark = pytest.mark.django_db

EVENTS = """Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event,Timezone,Event Venue Name,Event Organizer Name,Event Cost,Event Currency Symbol,Event Category,Event Tags,Event Website
Pottery class,"Clay, wheel <b>and</b> kiln",2027-02-03,18:00:00,2027-02-03,20:00:00,FALSE,Europe/London,Studio 5,"Ann Potter",25,£,"Crafts,Evening",hands-on,https://example.org/pottery
Open day,,2027-02-06,,2027-02-06,,TRUE,Europe/London,,,,,,,
Broken,,,,,,,,,,,,,,
"""
VENUES = """Venue Name,Venue Address,Venue City,Venue Country,Venue Zip,Venue Phone
Studio 5,5 Kiln Lane,Leeds,United Kingdom,LS1 1AA,0113 000
"""
ORGANIZERS = """Organizer Name,Organizer Email,Organizer Phone,Organizer Website
Ann Potter,ann@example.org,0113 111,https://ann.example.org
"""


def run_import(path):
    out = io.StringIO()
    call_command("events_import", str(path), stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()


def test_events_file(as_role, tmp_path):
    as_role("administrator")
    path = tmp_path / "events.csv"
    path.write_text(EVENTS)
    assert run_import(path) == "imported: 2 created, 0 updated, 0 trashed, 0 unchanged, 0 skipped, 1 errors"
    events = Client().get(f"{API}/events", {"start_date": "2027-02-01", "end_date": "2027-02-28"}).json()["events"]
    pottery, open_day = events
    assert (pottery["title"], pottery["start_date"], pottery["end_date"], pottery["timezone"]) == (
        "Pottery class",
        "2027-02-03 18:00:00",
        "2027-02-03 20:00:00",
        "Europe/London",
    )
    assert pottery["cost"] == "£25"
    assert pottery["venue"]["venue"] == "Studio 5"
    assert [organizer["organizer"] for organizer in pottery["organizer"]] == ["Ann Potter"]
    assert sorted(category["name"] for category in pottery["categories"]) == ["Crafts", "Evening"]
    assert [tag["name"] for tag in pottery["tags"]] == ["hands-on"]
    assert (open_day["all_day"], open_day["start_date"], open_day["end_date"]) == (
        True,
        "2027-02-06 00:00:00",
        "2027-02-06 23:59:59",
    )
    assert run_import(path) == "imported: 0 created, 0 updated, 0 trashed, 2 unchanged, 0 skipped, 1 errors"


def test_venues_and_organizers_files_fill_the_records_events_name(as_role, tmp_path):
    as_role("administrator")
    events, venues, organizers = tmp_path / "events.csv", tmp_path / "venues.csv", tmp_path / "organizers.csv"
    events.write_text(EVENTS)
    venues.write_text(VENUES)
    organizers.write_text(ORGANIZERS)
    run_import(events)
    assert run_import(venues) == "imported: 1 created, 0 updated, 0 trashed, 0 unchanged, 0 skipped, 0 errors"
    assert run_import(organizers) == "imported: 1 created, 0 updated, 0 trashed, 0 unchanged, 0 skipped, 0 errors"
    venue = Venue.objects.get()
    assert (venue.title, venue.city, venue.zip) == ("Studio 5", "Leeds", "LS1 1AA")
    organizer = Organizer.objects.get()
    assert (organizer.title, organizer.email) == ("Ann Potter", "ann@example.org")
    venues.write_text(VENUES.replace("Leeds", "York"))
    assert run_import(venues) == "imported: 0 created, 1 updated, 0 trashed, 0 unchanged, 0 skipped, 0 errors"
    assert Venue.objects.get().city == "York"
