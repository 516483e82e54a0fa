"""Who may create, update and delete categories and tags (docs/contract/auth.md §4): one table-driven matrix."""

import base64

import pytest

from events.models import Term

from .conftest import API
from .factories import make_category, make_tag, make_user

pytestmark = pytest.mark.django_db

ROLES = [None, "subscriber", "contributor", "author", "editor", "administrator"]
ROLE_IDS = ["anonymous", "subscriber", "contributor", "author", "editor", "administrator"]

# Expected status per role for (taxonomy, action): categories need author and above, tags editor and above.
MATRIX = {
    ("categories", "create"): [401, 403, 403, 201, 201, 201],
    ("categories", "update"): [401, 403, 403, 200, 200, 200],
    ("categories", "delete"): [401, 403, 403, 200, 200, 200],
    ("tags", "create"): [401, 403, 403, 403, 201, 201],
    ("tags", "update"): [401, 403, 403, 403, 200, 200],
    ("tags", "delete"): [401, 403, 403, 403, 200, 200],
}
CASES = [
    (collection, action, role, expected)
    for (collection, action), statuses in MATRIX.items()
    for role, expected in zip(ROLES, statuses)
]
CASE_IDS = [f"{collection}-{action}-{role_id}" for (collection, action), _ in MATRIX.items() for role_id in ROLE_IDS]


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    # Every request authenticates by HTTP Basic; the production hasher would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def send(client, collection, action, term):
    if action == "create":
        return client.post(f"{API}/{collection}", {"name": "Brand new"})
    if action == "update":
        return client.post(f"{API}/{collection}/{term.pk}", {"name": "Renamed"})
    return client.delete(f"{API}/{collection}/{term.pk}")


@pytest.mark.parametrize("collection, action, role, expected", CASES, ids=CASE_IDS)
def test_write_permission_matrix(api, as_role, collection, action, role, expected):
    term = make_category("Original") if collection == "categories" else make_tag("Original")
    client = as_role(role) if role else api
    response = send(client, collection, action, term)
    assert response.status_code == expected, response.content
    changed = {
        "create": Term.objects.filter(name_en="Brand new").exists(),
        "update": Term.objects.filter(pk=term.pk, name_en="Renamed").exists(),
        "delete": not Term.objects.filter(pk=term.pk).exists(),
    }[action]
    assert changed == (expected < 400)
    if expected >= 400:
        assert response.json()["code"] == "rest_forbidden"


@pytest.mark.parametrize("role", ROLES, ids=ROLE_IDS)
@pytest.mark.parametrize("collection", ["categories", "tags"])
def test_reads_are_public(api, as_role, role, collection):
    term = make_category("Readable") if collection == "categories" else make_tag("Readable")
    client = as_role(role) if role else api
    assert client.get(f"{API}/{collection}/{term.pk}").status_code == 200
    assert client.get(f"{API}/{collection}", {"hide_empty": 0}).status_code == 200


def test_superuser_acts_as_administrator(as_role):
    client = as_role(None, is_superuser=True)
    assert client.post(f"{API}/tags", {"name": "By root"}).status_code == 201


def test_wrong_password_is_401_even_on_reads(api):
    user = make_user("editor", password="right-password")
    token = base64.b64encode(f"{user.username}:wrong-password".encode()).decode()
    api.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    response = api.get(f"{API}/tags")
    assert response.status_code == 401
    assert response.json()["code"] == "incorrect_password"
