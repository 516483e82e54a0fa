"""A database that is down, unreachable or mute: the API answers 503 with Retry-After, then recovers.

These run against a real PostgreSQL server: the default connection is pointed at a closed port or
at a listener that accepts and never answers, then back at the server, as a restart or a network
fault would do to a running site.
"""

import select
import socket
import threading
import time
from contextlib import contextmanager

import pytest
from django.conf import settings as django_settings
from django.db import close_old_connections, connection, connections

from .conftest import API
from .factories import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@contextmanager
def database_at(port, connect_timeout=None):
    """Point the default connection at another port of 127.0.0.1 for the duration."""
    saved = dict(connection.settings_dict)
    saved_options = dict(saved.get("OPTIONS", {}))
    connection.close()
    connection.settings_dict["HOST"] = "127.0.0.1"
    connection.settings_dict["PORT"] = port
    if connect_timeout is not None:
        connection.settings_dict["OPTIONS"] = {**saved_options, "connect_timeout": connect_timeout}
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
        connection.settings_dict["OPTIONS"] = saved_options


def closed_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def mute_listener():
    """A TCP listener that accepts connections and never says a word (a hung database host)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held, stop = [], threading.Event()

    def accept():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(2)
        for conn in held:
            conn.close()
        server.close()


def assert_unavailable(response):
    assert response.status_code == 503
    assert response["Retry-After"].isdigit()
    body = response.json()
    assert body["code"] == "rest_database_unavailable"
    assert body["data"] == {"status": 503}


def test_a_stopped_database_is_503_and_the_next_request_after_it_is_back_succeeds(api):
    event = make_event("Still here")
    with database_at(closed_port()):
        assert_unavailable(api.get(f"{API}/events/{event.pk}"))
        assert_unavailable(api.get(f"{API}/events"))
    response = api.get(f"{API}/events/{event.pk}")
    assert response.status_code == 200
    assert response.json()["title"] == "Still here"


def test_a_database_that_never_answers_is_503_within_the_connect_timeout(api):
    with mute_listener() as port, database_at(port, connect_timeout=1):
        started = time.monotonic()
        assert_unavailable(api.get(f"{API}/events"))
        assert time.monotonic() - started < 10
    assert api.get(f"{API}/events").status_code == 200


def test_a_connection_the_server_closed_is_replaced_before_use(api):
    """CONN_HEALTH_CHECKS: a kept connection killed by the server costs no failed request."""
    assert django_settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True
    make_event("Kept")
    assert api.get(f"{API}/events").status_code == 200
    pid = connection.connection.info.backend_pid
    killer = connections.create_connection("default")
    try:
        with killer.cursor() as cursor:
            # What a server restart, a failover or an idle-session timeout does to a kept connection.
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        killer.close()
    # The server ends the session asynchronously: wait for its goodbye to reach the socket, as it
    # has long before the next request when a server restarts or fails over.
    goodbye = select.poll()
    goodbye.register(connection.connection.fileno(), select.POLLIN)
    assert goodbye.poll(5000)
    # A server sends request_started before each request, whose receiver lets the health check run
    # again; Django's test client leaves that receiver out, so the test calls it.
    close_old_connections()
    assert api.get(f"{API}/events").status_code == 200
    assert connection.connection.info.backend_pid != pid


def test_the_health_check_of_a_sound_connection_sends_nothing_to_the_server(api):
    """The project's backend checks the socket, not the server: no `SELECT 1` round trip per request."""
    assert api.get(f"{API}/events").status_code == 200
    marker = "SELECT 'last statement before the check'"
    with connection.cursor() as cursor:
        cursor.execute(marker)
    pid = connection.connection.info.backend_pid
    close_old_connections()  # what request_started does: the next use checks the connection
    connection.close_if_health_check_failed()  # the check a request's first query runs
    observer = connections.create_connection("default")
    try:
        with observer.cursor() as cursor:
            cursor.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid])
            last = cursor.fetchone()[0]
    finally:
        observer.close()
    assert connection.health_check_done
    assert connection.connection.info.backend_pid == pid
    assert last == marker
    assert api.get(f"{API}/events").status_code == 200


def test_the_statement_timeout_reaches_the_connection():
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "30s"
