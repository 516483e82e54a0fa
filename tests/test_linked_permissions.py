"""Who may create, update and trash venues and organizers (docs/contract/auth.md §3): one table-driven matrix, by ID and by slug."""

import json

import pytest

from events.models import Organizer, PostStatus, Venue
from events.services.posts import move_to_trash

from .conftest import API
from .factories import make_organizer, make_user, make_venue

pytestmark = pytest.mark.django_db

ROLES = [None, "subscriber", "contributor", "author", "editor", "administrator"]
ROLE_IDS = ["anonymous", "subscriber", "contributor", "author", "editor", "administrator"]
KINDS = {
    "venues": (Venue, make_venue, "venue"),
    "organizers": (Organizer, make_organizer, "organizer"),
}

CREATE = [401, 403, 201, 201, 201, 201]
# (whose record, its status) → expected status per role, for update and delete alike (docs/contract/auth.md §3.2).
WRITE_MATRIX = {
    ("own", "draft"): [None, 403, 200, 200, 200, 200],
    ("own", "pending"): [None, 403, 200, 200, 200, 200],
    ("own", "publish"): [None, 403, 403, 200, 200, 200],
    ("own", "future"): [None, 403, 403, 200, 200, 200],
    ("others", "draft"): [401, 403, 403, 403, 200, 200],
    ("others", "publish"): [401, 403, 403, 403, 200, 200],
}
WRITE_CASES = [
    (whose, status, role, expected)
    for (whose, status), expected_by_role in WRITE_MATRIX.items()
    for role, expected in zip(ROLES, expected_by_role)
    if expected is not None
]
WRITE_IDS = [f"{whose}-{status}-{ROLE_IDS[ROLES.index(role)]}" for whose, status, role, _ in WRITE_CASES]


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    # Every request authenticates by HTTP Basic; the production hasher would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def client_for(api, as_role, role):
    return as_role(role) if role else api


@pytest.mark.parametrize("role, expected", list(zip(ROLES, CREATE)), ids=ROLE_IDS)
@pytest.mark.parametrize("collection", list(KINDS))
def test_create(api, as_role, collection, role, expected):
    model, _build, name_key = KINDS[collection]
    client = client_for(api, as_role, role)
    response = client.post(f"{API}/{collection}", {name_key: "Brand new"})
    assert response.status_code == expected, response.content
    assert model.objects.exists() == (expected == 201)
    if expected != 201:
        assert response.json()["code"] == "rest_forbidden"


def target(collection, whose, status, client):
    _model, build, _name_key = KINDS[collection]
    owner = client.user if whose == "own" else make_user("administrator")
    return build("Original", slug="original", status=status, author=owner)


def path_of(collection, record, route):
    return f"{API}/{collection}/{record.pk}" if route == "id" else f"{API}/{collection}/by-slug/{record.slug}"


@pytest.mark.parametrize("whose, status, role, expected", WRITE_CASES, ids=WRITE_IDS)
@pytest.mark.parametrize("route", ["id", "slug"])
@pytest.mark.parametrize("collection", list(KINDS))
def test_update(api, as_role, collection, route, whose, status, role, expected):
    model, _build, name_key = KINDS[collection]
    client = client_for(api, as_role, role)
    record = target(collection, whose, status, client)
    response = client.post(
        path_of(collection, record, route), json.dumps({name_key: "Renamed"}), content_type="application/json"
    )
    assert response.status_code == expected, response.content
    assert (model.objects.get(pk=record.pk).title == "Renamed") == (expected == 200)
    if expected != 200:
        assert response.json()["code"] == "rest_forbidden"


@pytest.mark.parametrize("whose, status, role, expected", WRITE_CASES, ids=WRITE_IDS)
@pytest.mark.parametrize("route", ["id", "slug"])
@pytest.mark.parametrize("collection", list(KINDS))
def test_delete(api, as_role, collection, route, whose, status, role, expected):
    model, _build, _name_key = KINDS[collection]
    client = client_for(api, as_role, role)
    record = target(collection, whose, status, client)
    response = client.delete(path_of(collection, record, route))
    assert response.status_code == expected, response.content
    assert (model.objects.get(pk=record.pk).status == PostStatus.TRASH) == (expected == 200)
    if expected != 200:
        assert response.json()["code"] == "rest_forbidden"


@pytest.mark.parametrize(
    "before, update, delete", [("draft", 200, 410), ("publish", 403, 403)], ids=["trashed-draft", "trashed-published"]
)
@pytest.mark.parametrize("collection", list(KINDS))
def test_contributors_own_trashed_record_is_judged_by_its_status_before_the_trash(
    as_role, collection, before, update, delete
):
    _model, _build, name_key = KINDS[collection]
    contributor = as_role("contributor")
    record = target(collection, "own", before, contributor)
    move_to_trash(record)
    record.save()
    path = f"{API}/{collection}/{record.pk}"
    assert contributor.post(path, {name_key: "Renamed"}).status_code == update
    assert contributor.delete(path).status_code == delete


@pytest.mark.parametrize("collection", list(KINDS))
def test_route_check_allows_only_callers_with_the_edit_right(api, as_role, collection):
    record = KINDS[collection][1]()
    assert api.options(f"{API}/{collection}/{record.pk}")["Allow"] == "GET"
    assert set(as_role("contributor").get(f"{API}/{collection}/{record.pk}")["Allow"].split(", ")) == {
        "GET",
        "DELETE",
        "POST",
        "PUT",
        "PATCH",
    }
