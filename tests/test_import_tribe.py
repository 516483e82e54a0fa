"""Importing from a site that serves tribe/events/v1: this service, run on loopback, read page by page.

One database holds both sides here, so the import writes drafts: the anonymous v1 list the source
serves never shows them, and each draft is compared with the event it was read from.
"""

import datetime as dt
import http.server
import io

import pytest
from django.core.management import call_command
from django.test import Client

from events.dates import site_zone_name
from events.models import Event, ImportedRecord, ImportSource

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


class _PluginLikeSite(http.server.BaseHTTPRequestHandler):
    """A site whose home page is missing and whose list links no next page, only counts them."""

    def do_GET(self):
        import json
        import urllib.parse

        parts = urllib.parse.urlsplit(self.path)
        if parts.path != "/wp-json/tribe/events/v1/events":
            self.send_response(404)
            self.end_headers()
            return
        page = int(dict(urllib.parse.parse_qsl(parts.query)).get("page", "1"))
        events = [
            {
                "id": 100 * page + number,
                "title": f"Remote {page}-{number}",
                "start_date": f"2027-05-{page:02d} 1{number}:00:00",
                "end_date": f"2027-05-{page:02d} 1{number}:30:00",
                "timezone": "Asia/Tokyo",
                "all_day": False,
                "categories": [{"name": "Remote"}],
            }
            for number in range(3)
        ]
        body = json.dumps({"events": events, "total": 6, "total_pages": 2}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_site_that_counts_its_pages_without_linking_them(as_role, loopback_allowed):
    import threading
    from http.server import ThreadingHTTPServer

    as_role("administrator")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _PluginLikeSite)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        summary = run_import(f"http://127.0.0.1:{server.server_port}/")
    finally:
        server.shutdown()
    assert summary == "imported: 6 created, 0 updated, 0 trashed, 0 unchanged, 0 skipped, 0 errors"
    event = Event.objects.get(title="Remote 2-1")
    assert (event.timezone_name, event.start_local.strftime("%H:%M")) == ("Asia/Tokyo", "11:00")
