"""The served `doc` document against the server: every operation, through the real URLconf, checked
with schemathesis's examples, coverage (boundaries, undocumented methods, schema-invalid values) and
fuzzing phases, anonymously and as an administrator signed in with an application password.

The document must be exactly as strict as the server: a request it calls valid is accepted (or
refused only for what a schema cannot say, `x-server-checked`), one it calls invalid is refused, a
method it does not list is `404 rest_no_route` (docs/contract/README.md §1: WordPress never answers
405), and every answer has a documented status, content type and shape.
"""

import base64

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation.meta import CoveragePhaseData, CoverageScenario
from schemathesis.specs.openapi import checks as openapi_checks

from events.api.openapi import SERVER_CHECKED
from events.models import ApplicationPassword
from events.services.credentials import issue_application_password

from .conftest import API
from .factories import make_user
from .test_fuzz import calendar  # noqa: F401 - the fixture, a calendar of every record shape

pytestmark = pytest.mark.django_db

ADMIN = "conformance-admin"


@pytest.fixture
def administrator(calendar):
    """The headers of an administrator signed in with HTTP Basic and an application password."""
    admin = make_user("administrator", username=ADMIN)
    secret = issue_application_password(ApplicationPassword(user=admin, name="conformance"))
    return {"Authorization": "Basic " + base64.b64encode(f"{ADMIN}:{secret}".encode()).decode()}


@pytest.fixture(autouse=True)
def keep_connection():
    """The real WSGI application closes the connection after each request; the test's transaction
    must survive it (Django's own test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def server_checked(operation):
    """The names of the parameters (and body properties) the document marks `x-server-checked`."""
    definition = operation.definition.raw
    names = {parameter["name"] for parameter in definition.get("parameters", []) if parameter.get(SERVER_CHECKED)}
    for media in definition.get("requestBody", {}).get("content", {}).values():
        properties = media["schema"].get("properties", {})
        names |= {name for name, schema in properties.items() if schema.get(SERVER_CHECKED)}
    return names


# Refusals of what is stored that name no parameter, and the parameters they are about.
REFUSED_BY_CODE = {"term_exists": {"name"}}


def accepts_schema_valid_data(ctx, response, case):
    """positive_data_acceptance, except for what no schema can say.

    A 400 is expected when every parameter it names is `x-server-checked` (a record that does not
    exist, a date strtotime cannot read, a value the caller's role may not use), or when it names
    none and the path's variable is (`rest-invalid-event-id`: an ID of another kind of record). A
    410 reports an event an earlier example already trashed, as a 404 reports a missing one. Any
    other refusal of a request the document calls valid is a finding.
    """
    try:
        return openapi_checks.positive_data_acceptance(ctx, response, case)
    except openapi_checks.RejectedPositiveData:
        body = response.json() if response.status_code in (400, 410) else {}
        if response.status_code == 410 and body.get("code") == "event-is-in-trash":
            return None
        if response.status_code != 400:
            raise
        refused = set((body.get("data") or {}).get("params") or {}) or REFUSED_BY_CODE.get(body.get("code"), set())
        if not refused:
            # Without `params`, the refusal is about the record the path names (rest-invalid-event-id).
            refused = {p["name"] for p in case.operation.definition.raw.get("parameters", []) if p["in"] == "path"}
        if refused and refused <= server_checked(case.operation) and not names_nothing(case, refused):
            return None
        raise


def sent(case):
    """{name: (value sent, its schema)} of the request's parameters and body properties."""
    definition = case.operation.definition.raw
    schemas = {parameter["name"]: parameter["schema"] for parameter in definition.get("parameters", [])}
    for media in definition.get("requestBody", {}).get("content", {}).values():
        schemas.update(media["schema"].get("properties", {}))
    values = {**(case.query or {}), **(case.path_parameters or {})}
    if isinstance(case.body, dict):
        values.update(case.body)
    return {name: (value, schemas.get(name, {})) for name, value in values.items()}


def names_nothing(case, names):
    """Whether a refused value could name nothing at all: an empty text or list, or an ID below 1
    (record IDs start at 1). Only the schema can refuse those; `x-server-checked` does not excuse them."""
    values = sent(case)
    for name in names:
        value, schema = values.get(name, (None, {}))
        if value in ("", []):
            return True
        integers = schema.get("type") == "integer" or schema.get("items", {}).get("type") == "integer"
        items = value if isinstance(value, list) else [value]
        if integers and any(_below_one(item) for item in items):
            return True
    return False


def _below_one(value):
    try:
        return int(value) < 1
    except (TypeError, ValueError):
        return False


def undocumented_method_has_no_route(ctx, response, case):
    """unsupported_method as the contract words it: a method the document does not list for a path
    answers 404 rest_no_route (never 405), so a method the server routes must be documented.
    OPTIONS (and HEAD) are answered on every route, as WordPress does, and are not listed."""
    meta = case.meta
    data = meta.phase.data if meta else None
    if not isinstance(data, CoveragePhaseData) or data.scenario != CoverageScenario.UNSPECIFIED_HTTP_METHOD:
        return None
    if response.request.method in ("OPTIONS", "HEAD"):
        return None
    code = (
        response.json().get("code")
        if response.headers.get("content-type", [""])[0].startswith("application/json")
        else None
    )
    if response.status_code != 404 or code != "rest_no_route":
        raise AssertionError(
            f"{response.request.method} {case.path} is not in the document, but the server answered "
            f"{response.status_code} {code}: the route accepts this method, so the document must list it"
        )
    return None


CHECKS = [
    not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.negative_data_rejection,
    accepts_schema_valid_data,
    undocumented_method_has_no_route,
    openapi_checks.missing_required_header,
    openapi_checks.use_after_free,
    openapi_checks.ensure_resource_availability,
    openapi_checks.ignored_auth,
]

# The document as the real application serves it, read once when the tests are collected (it reads
# no database), one test per operation.


def load_schema(**config):
    # An update is one operation routed for POST, PUT and PATCH: the coverage phase's boundary cases
    # run through POST; PUT and PATCH get the generated examples, which show they are routed and
    # answered alike.
    updates = {"include-method-regex": "^(PUT|PATCH)$", "phases": {"coverage": {"enabled": False}}}
    settings = schemathesis.Config.from_dict({**config, "operations": [updates]})
    return schemathesis.openapi.from_wsgi(f"{API}/doc", get_wsgi_application(), config=settings)


# Anonymous requests get every generation mode: schema-valid and schema-invalid requests (the
# parameters are checked before the caller is, docs/contract/README.md §2, so a refusal of invalid
# data shows even without credentials).
schema = load_schema()
# The administrator's requests are the schema-valid ones, which really write: the invalid ones
# would be refused as they are for anyone.
admin_schema = load_schema(generation={"mode": "positive"})


# A few generated examples per operation on top of the coverage phase's boundary cases; derandomized,
# so every run sends the same requests and a finding reproduces.
EXAMPLES = settings(
    max_examples=3, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


@schema.parametrize()
@EXAMPLES
def test_anonymous_requests_are_answered_as_documented(case, calendar):
    case.call_and_validate(checks=CHECKS)


@admin_schema.parametrize()
@EXAMPLES
def test_administrator_requests_are_answered_as_documented(case, administrator):
    case.call_and_validate(checks=CHECKS, headers=administrator)


def test_each_operation_is_a_test_of_its_own(request):
    """Under pytest-xdist, tests that share a node ID run once between them: each operation and
    caller must have an ID of its own, or most of the checks above silently never run."""
    names = [item.nodeid for item in request.session.items if item.module is request.module]
    conformance = [name for name in names if "_answered_as_documented" in name]
    if not conformance:
        pytest.skip("the conformance tests are not selected in this run")
    assert len(conformance) > 2
    assert len(set(conformance)) == len(conformance)
