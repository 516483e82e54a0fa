"""Two gunicorn instances on one host, each with the project's gunicorn.conf.py, keep out of each other's way."""

import http.client

from .test_keep_alive import HOST, serve  # noqa: F401 — the fixture that starts gunicorn


def answers(port):
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    connection.request("GET", "/favicon.ico")
    status = connection.getresponse().status
    connection.close()
    return status


def test_two_instances_share_no_control_socket_by_default(serve, tmp_path):  # noqa: F811
    home = tmp_path / "home"
    home.mkdir()
    first = serve(HOME=str(home), XDG_RUNTIME_DIR="")
    second = serve(HOME=str(home), XDG_RUNTIME_DIR="")
    assert answers(first) == answers(second) == 301
    # gunicorn's default would be one socket per user here, taken over by whichever started last.
    assert not (home / ".gunicorn").exists()


def test_each_instance_keeps_the_control_socket_it_is_given(serve, tmp_path):  # noqa: F811
    sockets = [tmp_path / "first.ctl", tmp_path / "second.ctl"]
    ports = [serve(GUNICORN_CONTROL_SOCKET=str(path)) for path in sockets]
    assert [answers(port) for port in ports] == [301, 301]
    assert all(path.is_socket() for path in sockets)
