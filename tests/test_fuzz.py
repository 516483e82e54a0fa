"""Schema-based fuzz runs over the `doc` document: no 5xx, responses as documented, bad input refused.

Every operation, reads and writes, is fuzzed anonymously and as an administrator (HTTP Basic), on
whichever database the suite runs on (CI runs it on both, PostgreSQL included).
"""

import base64
import datetime as dt
import urllib.parse

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi import checks as openapi_checks
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from events.api.openapi import SERVER_CHECKED

from .conftest import API
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_user, make_venue
from .test_discovery_doc import PATHS

pytestmark = pytest.mark.django_db

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Few examples per operation keep the whole suite fast; the seed makes a failure reproducible.
FUZZ = settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture
def calendar(db):
    """A small calendar covering every record shape: images, linked venue/organizers, terms, a draft."""
    image = make_image()
    venue = make_venue("Hall", city="Rome", image=image)
    organizer = make_organizer("Ada", email="ada@example.org")
    jazz = make_category("Jazz")
    make_category("Bebop", parent=jazz)
    tag = make_tag("Outdoor")
    start = dt.datetime.combine(timezone.now().date() + dt.timedelta(days=3), dt.time(20, 0))
    make_event("Concert", start=start, venue=venue, organizers=[organizer], categories=[jazz], tags=[tag], image=image)
    make_event("Draft night", start=start, status="draft")
    make_event("Password night", start=start, password="secret")


@pytest.fixture
def wsgi_app():
    """The real WSGI application, minus closing the connection after each request: the test's
    transaction must survive (Django's own test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield get_wsgi_application()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(calendar, wsgi_app):
    return schemathesis.openapi.from_wsgi(f"{API}/doc", wsgi_app)


@pytest.mark.parametrize("path", PATHS)  # every documented path has a GET
def test_get_operations_survive_fuzzing(api_schema, path):
    operation = api_schema[path]["GET"]

    @FUZZ
    @given(case=operation.as_strategy())
    def fuzz(case):
        case.call_and_validate(checks=CHECKS)

    fuzz()


def accepts_schema_valid_data(ctx, response, case):
    """positive_data_acceptance, except for a 400 on parameters the document marks `x-server-checked`,
    and the documented 410 for an event already in the trash.

    Those parameters name stored records (IDs, slugs), strtotime dates or role-dependent values: the
    contract refuses such a value with 400 rest_invalid_param when it names nothing, however well it
    fits the schema. A generated ID can also name an event an earlier example already trashed; the
    410 then reports the record's state, as a 404 reports a missing record. A refusal of any other
    parameter is a finding.
    """
    try:
        return openapi_checks.positive_data_acceptance(ctx, response, case)
    except openapi_checks.RejectedPositiveData:
        if response.status_code == 410 and response.json().get("code") == "event-is-in-trash":
            return None
        if response.status_code != 400:
            raise
        refused = set((response.json().get("data") or {}).get("params") or {})
        if response.json().get("code") == "term_exists":
            # A name another term has: the document marks it x-server-checked.
            refused = {"name"}
        checked = server_checked_names(case.operation) | bracket_written(response)
        # Without `params`, the refusal is about the record the path names (rest-invalid-event-id).
        path_checked = any(
            p.get(SERVER_CHECKED) and p["in"] == "path" for p in case.operation.definition.raw.get("parameters", [])
        )
        if (refused and refused <= checked) or (not refused and path_checked):
            return None
        raise


def bracket_written(response):
    """The parameters a generated extra key writes into: a form or query key `all_day[j]` is, as PHP
    reads it, `all_day` as an object (docs/contract/README.md), though the schema takes it for another
    property. A refusal of such a parameter is the bracket syntax at work, not a finding. Read from
    the request as sent, whatever shape the generated case kept its body in."""
    request = response.request
    body = request.body or ""
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    keys = [key for key, _value in urllib.parse.parse_qsl(urllib.parse.urlsplit(request.url).query, True)]
    if "x-www-form-urlencoded" in (request.headers.get("Content-Type") or ""):
        keys += [key for key, _value in urllib.parse.parse_qsl(body, True)]
    return {key.split("[", 1)[0] for key in keys if "[" in key}


def server_checked_names(operation):
    definition = operation.definition.raw
    names = {parameter["name"] for parameter in definition.get("parameters", []) if parameter.get(SERVER_CHECKED)}
    for media in definition.get("requestBody", {}).get("content", {}).values():
        names |= {name for name, schema in media["schema"].get("properties", {}).items() if schema.get(SERVER_CHECKED)}
    return names


ALL_CHECKS = [
    *CHECKS,
    accepts_schema_valid_data,
    openapi_checks.negative_data_rejection,
    openapi_checks.missing_required_header,
    openapi_checks.unsupported_method,
    openapi_checks.use_after_free,
    openapi_checks.ensure_resource_availability,
    openapi_checks.ignored_auth,
]
ADMIN_PASSWORD = "fuzz-admin-pass"


@pytest.mark.parametrize("caller", ["anonymous", "administrator"])
def test_every_operation_survives_fuzzing(api_schema, caller):
    headers = {}
    if caller == "administrator":
        make_user("administrator", username="fuzz-admin", password=ADMIN_PASSWORD, is_superuser=True, is_staff=True)
        headers = {"Authorization": "Basic " + base64.b64encode(f"fuzz-admin:{ADMIN_PASSWORD}".encode()).decode()}
    failures = {}
    for result in api_schema.get_all_operations():
        operation = result.ok()

        @FUZZ
        @given(case=operation.as_strategy())
        def fuzz(case):
            case.call_and_validate(checks=ALL_CHECKS, headers=headers)

        try:
            fuzz()
        except BaseException as failure:  # noqa: BLE001 - schemathesis raises exception groups; all are collected
            # The findings and how to reproduce them, without the tracebacks around them.
            lines = [line.strip() for line in str(failure).splitlines()]
            failures[f"{operation.method.upper()} {operation.path}"] = [
                line[:4000] for line in lines if line.startswith(("- ST", "- ", "`{", "curl"))
            ]
    assert failures == {}
