"""Importing from a site that serves tribe/events/v1: this service, run on loopback, read page by page.

One database holds both sides here, so the import writes drafts: the anonymous v1 list the source
serves never shows them, and each draft is compared with the event it was read from.
"""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.test import Client

from events.models import Event, ImportedRecord, ImportSource
from events.services.schedule import site_zone_name

from .conftest import API
from .factories import make_event

pytestmark = pytest.mark.django_db(transaction=True)

COMPARED = ("title", "start_date", "end_date", "utc_start_date", "utc_end_date", "all_day", "timezone", "cost")


@pytest.fixture
def loopback_allowed(settings):
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1", "localhost"]}


def run_import(url, *args):
    out = io.StringIO()
    call_command("events_import", url, "--status=draft", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()


def remote_records():
    records, page = {}, 1
    while True:
        body = Client().get(f"{API}/events", {"start_date": "2000-01-01", "per_page": 50, "page": page}).json()
        records.update({record["id"]: record for record in body["events"]})
        if page >= body["total_pages"]:
            return records
        page += 1


def shown(record):
    return {
        **{name: record[name] for name in COMPARED},
        "venue": record["venue"].get("venue") if record["venue"] else None,
        "organizers": [organizer["organizer"] for organizer in record["organizer"]],
        "categories": sorted(category["name"] for category in record["categories"]),
        "tags": sorted(tag["name"] for tag in record["tags"]),
    }


def test_a_second_site_imports_the_first_through_tribe_events_v1(as_role, live_server, loopback_allowed):
    admin = as_role("administrator")
    rich = [
        {
            "title": "Jazz night",
            "start_date": "2027-03-05 20:00:00",
            "end_date": "2027-03-05 23:00:00",
            "timezone": "America/Chicago",
            "cost": "$15",
            "venue": {"venue": "Blue Room", "city": "Chicago", "address": "1 Lake St"},
            "organizer": [{"organizer": "Jazz Society", "email": "hi@jazz.example"}],
            "categories": ["Music"],
            "tags": ["live", "jazz"],
        },
        {
            "title": "Harvest fair",
            "start_date": "2027-09-10",
            "end_date": "2027-09-11",
            "all_day": True,
            "timezone": "Europe/Paris",
            "categories": ["Fairs"],
        },
    ]
    for fields in rich:
        response = admin.post(f"{API}/events", {"status": "publish", **fields}, format="json")
        assert response.status_code == 201, response.json()
    # Past one page of the plugin's largest size.
    for day in range(1, 56):
        make_event(
            f"Talk {day}", start=dt.datetime(2027, 1, 1, 10) + dt.timedelta(days=day), timezone_name=site_zone_name()
        )
    remote = remote_records()
    assert len(remote) == 57

    assert run_import(live_server.url) == "imported: 57 created, 0 updated, 0 trashed, 0 unchanged, 0 skipped, 0 errors"
    source = ImportSource.objects.get()
    assert source.kind == "tribe"
    for record in ImportedRecord.objects.select_related("event"):
        copy = admin.get(f"{API}/events/{record.event_id}").json()
        assert copy["status"] == "draft"
        assert shown(copy) == shown(remote[int(record.remote_key)])

    # Again: nothing changed; then an event changes at the source and one leaves it.
    assert run_import(live_server.url) == "imported: 0 created, 0 updated, 0 trashed, 57 unchanged, 0 skipped, 0 errors"
    jazz = next(record for record in remote.values() if record["title"] == "Jazz night")
    assert (
        admin.post(f"{API}/events/{jazz['id']}", {"title": "Jazz night (sold out)"}, format="json").status_code == 200
    )
    gone = next(record for record in remote.values() if record["title"] == "Talk 1")
    assert admin.delete(f"{API}/events/{gone['id']}").status_code == 200
    assert run_import(live_server.url) == "imported: 0 created, 1 updated, 1 trashed, 55 unchanged, 0 skipped, 0 errors"
    copy = ImportedRecord.objects.get(remote_key=str(jazz["id"])).event
    assert Event.objects.get(pk=copy.pk).title == "Jazz night (sold out)"
    assert Event.objects.get(pk=ImportedRecord.objects.get(remote_key=str(gone["id"])).event_id).status == "trash"


def test_a_site_that_is_not_an_events_site_is_refused(as_role, live_server, loopback_allowed):
    as_role("administrator")
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="could not be read"):
        run_import(f"{live_server.url}/no-such-page/wp-json/nothing")


def test_private_addresses_are_refused_without_the_allow_list(as_role, live_server):
    as_role("administrator")
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="private or reserved"):
        run_import(live_server.url)
