"""The worker's refresh of import sources: due sources run, an unchanged feed costs one 304, two runs
of one source never interleave."""

import datetime as dt
import http.server
import io
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connections
from django.utils import timezone

from events.imports.run import RunUnderWay, run_source
from events.models import Event, ImportRun, ImportSource

FEED = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:u1\r\nDTSTART:20270301T100000Z\r\n"
    "DTEND:20270301T110000Z\r\nSUMMARY:{title}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


class FeedServer(http.server.BaseHTTPRequestHandler):
    """A feed with validators, answering 304 to a request that sends them back."""

    title = "Talk"
    delay = 0.0
    requests = []

    def do_GET(self):
        body = FEED.format(title=self.title).encode()
        etag = f'"{hash(body)}"'
        self.requests.append(self.headers.get("If-None-Match"))
        time.sleep(self.delay)
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", "Mon, 01 Mar 2027 10:00:00 GMT")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def feed_url(settings):
    settings.EVENTS = {"OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"]}
    FeedServer.title, FeedServer.delay, FeedServer.requests = "Talk", 0.0, []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FeedServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/feed.ics"
    server.shutdown()


def due(source):
    ImportSource.objects.filter(pk=source.pk).update(next_run=timezone.now() - dt.timedelta(seconds=1))


# The worker closes its connections after each look, as it does between two looks in production.
@pytest.mark.django_db(transaction=True)
def test_the_worker_refreshes_due_sources_with_their_validators(as_role, feed_url):
    admin = as_role("administrator")
    source = ImportSource.objects.create(url=feed_url, interval_minutes=60, owner=admin.user)
    later = ImportSource.objects.create(
        url=feed_url + "?later", interval_minutes=60, next_run=timezone.now() + dt.timedelta(hours=1)
    )
    call_command("events_worker", "--batch", stdout=io.StringIO(), stderr=io.StringIO())
    assert Event.objects.get().title == "Talk"
    source.refresh_from_db()
    assert source.next_run > timezone.now() + dt.timedelta(minutes=59)
    assert not later.runs.exists()

    due(source)
    call_command("events_worker", "--batch", stdout=io.StringIO(), stderr=io.StringIO())
    run = ImportRun.objects.filter(source=source).order_by("-started", "-id").first()
    assert run.not_modified and FeedServer.requests[-1] is not None

    FeedServer.title = "Talk (moved)"
    due(source)
    call_command("events_worker", "--batch", stdout=io.StringIO(), stderr=io.StringIO())
    assert Event.objects.get().title == "Talk (moved)"
    assert [run.updated for run in ImportRun.objects.filter(source=source)] == [1, 0, 0]


@pytest.mark.django_db(transaction=True)
def test_two_runs_of_one_source_never_interleave(as_role, feed_url):
    admin = as_role("administrator")
    source = ImportSource.objects.create(url=feed_url, interval_minutes=0, owner=admin.user)
    FeedServer.delay = 0.5
    outcomes = []

    def run():
        try:
            outcomes.append(run_source(ImportSource.objects.get(pk=source.pk)).created)
        except RunUnderWay:
            outcomes.append("under way")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes, key=str) == [1, "under way"]
    assert Event.objects.count() == 1
