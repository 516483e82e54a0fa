"""Fixtures shared by the suite: API clients per role, the namespace URL, an isolated media folder."""

import base64
import json
import socket

import pytest
from django.db import connection
from django.utils import translation
from rest_framework.test import APIClient

from events.conf import events_settings
from events.roles import ROLES

API = f"/wp-json/{events_settings.namespace}"


def pytest_collection_modifyitems(config, items):
    """`@pytest.mark.postgres` tests run only when the suite runs on PostgreSQL."""
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" in engine:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def isolated_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Basic authentication checks a password on every request; a slow hasher would dominate the suite."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def forget_memories():
    """Each test starts with nothing remembered by this process (events.memory), as a process that just started."""
    from events.memory import forget_all

    forget_all()


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: failed sign-ins counted by the login throttle (and
    anything else kept there) belong to the test that made them."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def declared_reads_hold(monkeypatch):
    """Every list statement a test builds reads no table (nor display column) beyond what it
    declares (tests/statement_reads.py); checked after the test, whatever caught the error."""
    from events.queries.pages import ListStatement

    from .statement_reads import undeclared

    built = ListStatement.queryset.fget
    found = []

    def checked(statement):
        first = statement._queryset is None
        queryset = built(statement)
        if first:
            found.append(undeclared(statement, queryset))
        return queryset

    monkeypatch.setattr(ListStatement, "queryset", property(checked))
    yield
    assert [problem for problem in found if problem] == []


@pytest.fixture(autouse=True)
def english_at_start():
    """Each test starts in English: LocaleMiddleware leaves the last request's language active in the
    thread, and translated fields (`title=...`) are written in the active language."""
    with translation.override("en"):
        yield


@pytest.fixture
def no_lookup(monkeypatch):
    """Fails the test if a host name is looked up (a DNS query may leave the machine); the hosts
    that were, for the assertion."""
    looked_up = []

    def getaddrinfo(host, *args, **kwargs):
        looked_up.append(host)
        pytest.fail(f"{host!r} was looked up")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return looked_up


@pytest.fixture
def api():
    """An anonymous API client."""
    return APIClient()


class RoleClient(APIClient):
    """An API client logged in through HTTP Basic, as WordPress application passwords are sent."""

    def __init__(self, user, password, **kwargs):
        super().__init__(**kwargs)
        self.user = user
        token = base64.b64encode(f"{user.username}:{password}".encode()).decode()
        self.credentials(HTTP_AUTHORIZATION=f"Basic {token}")


@pytest.fixture
def as_role(db):
    """`as_role("editor")` → a client authenticated as a new user holding that role (`.user`)."""

    from .factories import make_user

    def build(role, **user_fields):
        user = make_user(role, password="secret-pass-123", **user_fields)
        return RoleClient(user, "secret-pass-123")

    return build


@pytest.fixture
def editor(as_role):
    """A client authenticated as a new editor."""
    return as_role("editor")


def post_json(client, path, data, prefix=""):
    """POST `data` as a JSON body to a namespace path (`/events`), optionally under a language prefix."""
    return client.post(f"{prefix}{API}{path}", json.dumps(data), content_type="application/json")


def comparable_endpoints(endpoints):
    """Index endpoints without the defaults read off the clock (the events list's `start_date` and
    `end_date`, to the second), which differ between two requests a second apart."""
    return [
        {
            **endpoint,
            "args": {
                name: {
                    key: value
                    for key, value in arg.items()
                    if not (key == "default" and name in ("start_date", "end_date"))
                }
                for name, arg in endpoint["args"].items()
            },
        }
        for endpoint in endpoints
    ]


@pytest.fixture(params=ROLES)
def any_role(request, as_role):
    return as_role(request.param)


@pytest.fixture
def on_postgres():
    return connection.vendor == "postgresql"
