"""Schema-based fuzz runs over the `doc` document: no 5xx, responses as documented, bad input refused.

Every operation, reads and writes, is fuzzed anonymously and as an administrator (HTTP Basic), on
whichever database the suite runs on (CI runs it on both, PostgreSQL included).
"""
import base64
import datetime as dt

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


# Every check schemathesis has but positive_data_acceptance: parameters that name stored records
# (IDs, slugs), free-form dates (PHP strtotime) and role-dependent values (`status`) cannot be
# described in JSON Schema, and the contract answers 400 for them (decisions.md "Hardening").
ALL_CHECKS = [
    *CHECKS,
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
            failures[f"{operation.method.upper()} {operation.path}"] = str(failure)[:2000]
    assert failures == {}
