"""Several server processes on one database and one Redis never serve each other stale data.

Two real gunicorn processes share the test's PostgreSQL database and a Redis read cache, as the
nodes of a site behind a load balancer do. Whatever one process remembers (the cached anonymous
reads; pages, totals, stored rows, bodies and lookups per table version; login passwords it
verified) and the rendered records in the database must give way at once to a write made through
the other, or by any other process.
"""

import base64
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from events.models import ApplicationPassword
from events.services import credentials

from .conftest import API
from .factories import make_category, make_event, make_user, make_venue

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
# A Redis database of its own: it is flushed at start, so no other user of the local Redis may share it.
REDIS_URL = f"redis://{HOST}:6379/9"
IN_CI = os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}
READY_TIMEOUT = 30
REQUEST_TIMEOUT = 10


def database_url():
    """The URL of the database this test runs on (the test database, not the one DATABASE_URL names)."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    credentials_part = f"{user}{password}@" if user else ""
    return f"postgres://{credentials_part}{db['HOST'] or HOST}:{db['PORT'] or 5432}/{quote(db['NAME'], safe='')}"


def connect_redis():
    """The Redis client of the servers' cache database; skipped (failed in CI) when Redis is down."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        if IN_CI:
            pytest.fail(f"Redis is unreachable at {REDIS_URL}: {error}")
        pytest.skip(f"Redis is unreachable at {REDIS_URL} ({error}); set CI=true to require it")
    return client


def free_port():
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    """One gunicorn process (one worker) serving the site on a free port of 127.0.0.1."""

    def __init__(self, name, env, log_dir):
        self.name = name
        self.port = free_port()
        self.log_path = log_dir / f"gunicorn-{name}.log"
        self.log = open(self.log_path, "wb")
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "calendar_site.wsgi:application",
            "--bind",
            f"{HOST}:{self.port}",
            "--workers",
            "1",
            "--chdir",
            str(ROOT),
            "--log-level",
            "warning",
            "--timeout",
            str(REQUEST_TIMEOUT * 3),
        ]
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        self.stopping = False

    def wait_ready(self, deadline):
        # An unknown route answers 404 from the whole Django stack and is never cached, so probing
        # leaves nothing behind that the test's own writes (which bump no Redis version) could stale.
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server {self.name} exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                if self.request("GET", f"{API}/readiness-probe").status == 404:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server {self.name} did not answer within {READY_TIMEOUT} s:\n{self.log_tail()}")

    def request(self, method, path, headers=None, body=None):
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        try:
            conn.request(method, path, body=body, headers={"Accept": "application/json", **(headers or {})})
            response = conn.getresponse()
            response.body = response.read()
            return response
        finally:
            conn.close()

    def get(self, path, headers=None):
        response = self.request("GET", path, headers)
        response.data = json.loads(response.body) if response.body else None
        return response

    def post(self, path, data, headers):
        response = self.request("POST", path, {**headers, "Content-Type": "application/json"}, json.dumps(data))
        assert response.status == 200, (self.name, path, response.status, response.body[:500])
        return json.loads(response.body)

    def log_tail(self, lines=40):
        self.log.flush()
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def signal_stop(self):
        if self.process.poll() is None and not self.stopping:
            self.process.send_signal(signal.SIGTERM)
            self.stopping = True

    def stop(self):
        self.signal_stop()
        if self.process.poll() is None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()


@pytest.fixture(scope="module")
def running_servers(request, django_db_setup, tmp_path_factory):
    """Servers A and B on the test database and one Redis, read cache on, DEBUG off: (A, B, redis).

    Started once for the module (starting them is most of a test's time) and always stopped.
    """
    redis_client = connect_redis()
    redis_client.flushdb()
    log_dir = tmp_path_factory.mktemp("servers")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "calendar_site.settings",
        "DATABASE_URL": database_url(),
        "REDIS_URL": REDIS_URL,
        "EVENTS_READ_CACHE_SECONDS": "60",
        "DEBUG": "false",
        "ALLOWED_HOSTS": f"{HOST},localhost",
        # Application password digests are keyed from SECRET_KEY: every node must share it.
        "SECRET_KEY": settings.SECRET_KEY,
        "MEDIA_ROOT": str(log_dir / "media"),
    }
    started = []

    def stop_all():
        # Both stop together: a graceful gunicorn shutdown takes about a second.
        for server in started:
            server.signal_stop()
        for server in started:
            server.stop()
        redis_client.flushdb()
        redis_client.close()

    request.addfinalizer(stop_all)
    for name in ("A", "B"):
        started.append(Server(name, env, log_dir))
    deadline = time.monotonic() + READY_TIMEOUT
    for server in started:
        server.wait_ready(deadline)
    return (*started, redis_client)


@pytest.fixture
def servers(running_servers, transactional_db):
    """(A, B) with an empty read cache: this process's own writes (the test's setup) bump no cache
    version, so nothing a previous test left there may be served."""
    a, b, redis_client = running_servers
    redis_client.flushdb()
    return a, b


def basic(username, password):
    return {"Authorization": "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()}


def listed(response):
    """(titles, body total, total header) of an events list answer."""
    assert response.status == 200, response.body[:500]
    return (
        [event["title"] for event in response.data["events"]],
        response.data["total"],
        response.getheader("X-TEC-Total"),
    )


def test_a_write_through_one_server_shows_at_once_through_the_other(servers, running_servers):
    a, b = servers
    redis_client = running_servers[2]
    editor = make_user("editor", username="scale-editor")
    secret = credentials.issue_application_password(ApplicationPassword(user=editor, name="scale test"))
    signed = basic(editor.username, secret)
    venue = make_venue("Town hall")
    category = make_category("Jazz")
    event = make_event("Concert", venue=venue, categories=[category])
    events, single, venue_path = f"{API}/events", f"{API}/events/{event.pk}", f"{API}/venues/{venue.pk}"

    # B reads everything twice: the second answers come from the shared cache and B's memories.
    for _ in range(2):
        assert listed(b.get(events)) == (["Concert"], 1, "1")
        before = b.get(single)
        assert before.status == 200
        assert b.get(venue_path).data["venue"] == "Town hall"
    assert (before.data["title"], before.data["venue"]["venue"]) == ("Concert", "Town hall")
    assert [term["name"] for term in before.data["categories"]] == ["Jazz"]
    assert redis_client.dbsize() > 3  # B's three reads are stored, next to the calendar version
    old_etag = before.getheader("ETag")
    assert b.get(single, {"If-None-Match": old_etag}).status == 304
    assert listed(a.get(events)) == (["Concert"], 1, "1")

    a.post(single, {"title": "Recital"}, signed)
    a.post(venue_path, {"venue": "Concert hall"}, signed)
    a.post(f"{API}/categories/{category.pk}", {"name": "Blues"}, signed)

    after = b.get(single)
    assert after.status == 200
    assert (after.data["title"], after.data["venue"]["venue"]) == ("Recital", "Concert hall")
    assert [term["name"] for term in after.data["categories"]] == ["Blues"]
    assert after.getheader("ETag") != old_etag
    assert b.get(single, {"If-None-Match": old_etag}).status == 200
    assert b.get(venue_path).data["venue"] == "Concert hall"
    listed_after = b.get(events)
    assert listed(listed_after) == (["Recital"], 1, "1")
    assert listed_after.data["events"][0]["venue"]["venue"] == "Concert hall"
    assert [term["name"] for term in listed_after.data["events"][0]["categories"]] == ["Blues"]

    # A draft leaves B's anonymous list, its total and its headers at once; its editor still sees it.
    a.post(single, {"status": "draft"}, signed)
    assert listed(b.get(events)) == ([], 0, "0")
    assert b.get(single).status == 403
    assert listed(b.get(f"{events}?status=draft", signed)) == (["Recital"], 1, "1")

    # The other way round: A has just counted the list without the draft; B publishes it again.
    assert listed(a.get(events)) == ([], 0, "0")
    b.post(single, {"status": "publish", "title": "Encore"}, signed)
    assert listed(a.get(events)) == (["Encore"], 1, "1")
    assert a.get(single).data["title"] == "Encore"


def test_what_one_server_remembers_per_table_version_gives_way_to_a_write_through_the_other(servers):
    """Past the read cache (`_fields` answers are never cached): B's remembered pages, totals,
    stored rows, bodies, filter lookups and single reads are checked against the database's
    versions on every read, so A's writes show through B at once."""
    a, b = servers
    editor = make_user("editor", username="memory-editor")
    signed = basic(
        editor.username, credentials.issue_application_password(ApplicationPassword(user=editor, name="memory"))
    )
    venue = make_venue("Town hall")
    category = make_category("Jazz")
    event = make_event("Concert", venue=venue, categories=[category])
    filtered = f"{API}/events?categories=jazz&_fields=events,total"
    single = f"{API}/events/{event.pk}?_fields=title,venue,categories"

    def seen():
        page, record = b.get(filtered), b.get(single)
        assert page.status == 200, page.body[:500]
        return (
            [(item["title"], item["venue"]["venue"]) for item in page.data["events"]],
            page.data["total"],
            record.status,
            record.data.get("title"),
        )

    for _ in range(3):
        assert seen() == ([("Concert", "Town hall")], 1, 200, "Concert")
    a.post(f"{API}/events/{event.pk}", {"title": "Recital"}, signed)
    a.post(f"{API}/venues/{venue.pk}", {"venue": "Concert hall"}, signed)
    assert seen() == ([("Recital", "Concert hall")], 1, 200, "Recital")
    a.post(f"{API}/events/{event.pk}", {"status": "draft"}, signed)
    assert seen() == ([], 0, 403, None)
    # The filter's slug is looked up again once the term changes: the old one names nothing.
    a.post(f"{API}/categories/{category.pk}", {"slug": "blues"}, signed)
    assert b.get(filtered).status == 400
    b.post(f"{API}/events/{event.pk}", {"status": "publish"}, signed)
    assert b.get(f"{API}/events?categories=blues&_fields=total").data["total"] == 1


def test_a_login_password_remembered_by_one_server_ends_with_a_change_made_elsewhere(servers):
    _a, b = servers
    hasher = PBKDF2PasswordHasher()
    # The servers run the site's own password hashers, not the suite's fast one.
    editor = make_user("editor", username="scale-login")
    editor.password = hasher.encode("login-pass-1", hasher.salt())
    editor.save(update_fields=["password"])
    secret = credentials.issue_application_password(ApplicationPassword(user=editor, name="scale test"))
    draft = f"{API}/events?status=draft"
    make_event("Rehearsal", status="draft")

    for _ in range(2):  # the second request is answered from B's memory of the password
        assert listed(b.get(draft, basic("scale-login", "login-pass-1"))) == (["Rehearsal"], 1, "1")

    # Another process changes the password (one cheap iteration: only the stored hash matters here).
    editor.password = hasher.encode("login-pass-2", hasher.salt(), iterations=1)
    editor.save(update_fields=["password"])
    refused = b.get(draft, basic("scale-login", "login-pass-1"))
    assert (refused.status, refused.data["code"]) == (401, "incorrect_password")
    assert b.get(draft, basic("scale-login", secret)).status == 200

    # Deactivation needs no memory to be forgotten: every request reads the user again.
    editor.is_active = False
    editor.save(update_fields=["is_active"])
    refused = b.get(draft, basic("scale-login", secret))
    assert (refused.status, refused.data["code"]) == (401, "incorrect_password")
