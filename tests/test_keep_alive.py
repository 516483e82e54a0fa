"""A client that reuses an idle keep-alive connection is answered (docs/deployment.md).

HTTP clients keep a connection open after an answer and send their next request on it: Node's
fetch for 4 s, browsers and load balancers for a minute or more. gunicorn closes an idle
connection after its `keepalive` seconds (2 by default), and a request sent on a connection the
server has just closed fails in the client without ever reaching the server. gunicorn.conf.py
keeps idle connections longer than clients reuse them; these tests serve the site with it.
"""

import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
# Longer than gunicorn's default keep-alive, within the idle time a Node client reuses a socket.
IDLE_SECONDS = 3


def free_port():
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@pytest.fixture
def serve(tmp_path):
    """Start gunicorn with the project's config file (plus `extra` options); yields its port."""
    servers = []

    def start(*extra, **environment):
        port = free_port()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "calendar_site.settings",
            "DEBUG": "false",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
            "GUNICORN_BIND": f"{HOST}:{port}",
            "WEB_CONCURRENCY": "1",
            "GUNICORN_ACCESS_LOG": "",
            **environment,
        }
        log = open(tmp_path / f"gunicorn-{port}.log", "wb")
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "--config",
                str(ROOT / "gunicorn.conf.py"),
                *extra,
                "calendar_site.wsgi",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        servers.append((process, log))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert process.poll() is None, (tmp_path / f"gunicorn-{port}.log").read_text()
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                return port
            except OSError:
                time.sleep(0.1)
        pytest.fail("gunicorn did not start")

    yield start
    for process, log in servers:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def ask_twice_on_one_connection(port):
    """Two requests on one connection with an idle pause between them, as a pooling client sends them."""
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        # The redirect to the site's icon needs no database: only the connection is under test.
        connection.request("GET", "/favicon.ico")
        first = connection.getresponse()
        first.read()
        time.sleep(IDLE_SECONDS)
        connection.request("GET", "/favicon.ico")
        second = connection.getresponse()
        second.read()
        return first.status, second.status
    finally:
        connection.close()


def test_a_connection_idle_for_seconds_is_still_answered(serve):
    assert ask_twice_on_one_connection(serve()) == (301, 301)


def test_gunicorns_default_keep_alive_drops_the_same_request(serve):
    """The failure the config file prevents: with gunicorn's default, the second request is lost."""
    port = serve("--keep-alive", "2")
    with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)):
        ask_twice_on_one_connection(port)


def test_a_worker_freezes_what_it_loaded_out_of_the_collector_s_way():
    import gc
    import runpy

    hooks = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    try:
        hooks["post_worker_init"](worker=None)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
