"""`manage.py events_import`: options, policies, the caps on hostile sources, one run at a time."""

import datetime as dt
import http.server
import io
import threading
import time

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from events.models import Event, ImportSource, PostStatus

from .conftest import API

pytestmark = pytest.mark.django_db

FEED = """BEGIN:VCALENDAR
VERSION:2.0
BEGIN:VEVENT
UID:one
DTSTART:20270301T100000Z
DTEND:20270301T110000Z
SUMMARY:First
LOCATION:Hall
END:VEVENT
BEGIN:VEVENT
UID:two
DTSTART:20270302T100000Z
DTEND:20270302T110000Z
SUMMARY:Second
END:VEVENT
END:VCALENDAR
"""


def run_import(path, *args):
    out = io.StringIO()
    call_command("events_import", str(path), *args, stdout=out, stderr=io.StringIO())
    return out.getvalue().strip()


@pytest.fixture
def feed(tmp_path, as_role):
    as_role("administrator")
    path = tmp_path / "feed.ics"
    path.write_text(FEED)
    return path


def test_status_and_categories_options(feed):
    run_import(feed, "--status=draft", "--category=Imported", "--category=Town")
    for event in Event.objects.all():
        assert event.status == PostStatus.DRAFT
        assert sorted(term.name for term in event.terms.all()) == ["Imported", "Town"]


def test_overwrite_replaces_local_edits(feed, as_role):
    run_import(feed)
    event = Event.objects.get(title="First")
    as_role("administrator").post(f"{API}/events/{event.pk}", {"title": "Edited here"}, format="json")
    feed.write_text(FEED.replace("LOCATION:Hall", "LOCATION:Big hall"))
    run_import(feed)
    assert Event.objects.get(pk=event.pk).title == "First"


def test_keep_local_keeps_edited_fields_and_takes_the_others(feed, as_role):
    run_import(feed, "--policy=keep_local")
    event = Event.objects.get(title="First")
    response = as_role("administrator").post(f"{API}/events/{event.pk}", {"title": "Edited here"}, format="json")
    assert response.status_code == 200
    feed.write_text(
        FEED.replace("SUMMARY:First", "SUMMARY:First (renamed)").replace("LOCATION:Hall", "LOCATION:Big hall")
    )
    assert run_import(feed).startswith("imported: 0 created, 1 updated")
    event = Event.objects.select_related("venue").get(pk=event.pk)
    assert event.title == "Edited here"
    assert event.venue.title == "Big hall"


def test_new_only_leaves_imported_events_alone(feed):
    run_import(feed, "--policy=new_only")
    feed.write_text(FEED.replace("SUMMARY:First", "SUMMARY:Changed").replace("UID:two", "UID:three"))
    assert run_import(feed) == "imported: 1 created, 0 updated, 0 trashed, 0 unchanged, 1 skipped, 0 errors"
    assert sorted(Event.objects.exclude(status=PostStatus.TRASH).values_list("title", flat=True)) == [
        "First",
        "Second",
        "Second",
    ]


def test_a_source_being_run_is_not_run_again_meanwhile(feed):
    run_import(feed)
    ImportSource.objects.update(claimed_until=timezone.now() + dt.timedelta(minutes=5))
    with pytest.raises(CommandError, match="under way"):
        run_import(feed)
    ImportSource.objects.update(claimed_until=timezone.now() - dt.timedelta(seconds=1))
    assert run_import(feed).endswith("2 unchanged, 0 skipped, 0 errors")


class _Hostile(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar")
        self.end_headers()
        try:
            if self.path == "/slow":
                for _ in range(50):
                    self.wfile.write(b"BEGIN:VCALENDAR\r\n")
                    self.wfile.flush()
                    time.sleep(0.1)
            else:
                self.wfile.write(b"X" * 200_000)
        except OSError:
            # The importer hung up, as it should.
            pass

    def log_message(self, *args):
        pass


@pytest.fixture
def hostile_server(settings):
    settings.EVENTS = {"OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"], "IMPORT_MAX_BYTES": 100_000, "IMPORT_SECONDS": 1}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.mark.parametrize(("path", "reason"), [("/big", "larger than the import limit"), ("/slow", "time limit")])
def test_oversized_and_slow_sources_are_cut_off(as_role, hostile_server, path, reason):
    as_role("administrator")
    started = time.monotonic()
    with pytest.raises(CommandError, match=reason):
        run_import(f"{hostile_server}{path}")
    assert time.monotonic() - started < 3
    assert not Event.objects.exists()


def test_a_calendar_without_administrators_imports_as_an_account_that_cannot_sign_in(db, tmp_path):
    path = tmp_path / "feed.ics"
    path.write_text(FEED)
    assert run_import(path).startswith("imported: 2 created")
    owner = ImportSource.objects.get().owner
    assert owner.username == "events-import" and not owner.has_usable_password() and not owner.is_staff
    assert set(Event.objects.values_list("status", flat=True)) == {PostStatus.PUBLISH}


def test_the_history_keeps_the_latest_hundred_runs(feed):
    from events.models import ImportRun

    run_import(feed)
    source = ImportSource.objects.get()
    long_ago = timezone.now() - dt.timedelta(days=30)
    ImportRun.objects.bulk_create(
        ImportRun(source=source, started=long_ago + dt.timedelta(minutes=minute)) for minute in range(120)
    )
    run_import(feed)
    assert ImportRun.objects.filter(source=source).count() == 100
    assert ImportRun.objects.filter(source=source).order_by("-started").first().unchanged == 2
