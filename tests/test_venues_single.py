"""Single venue reads by ID and by slug (docs/contract/venues-organizers.md §3): every status code, in the contract's order."""

import pytest

from .conftest import API
from .factories import make_event, make_image, make_organizer, make_user, make_venue

pytestmark = pytest.mark.django_db

ROLES = [None, "subscriber", "contributor", "author", "editor", "administrator"]
ROLE_IDS = ["anonymous", "subscriber", "contributor", "author", "editor", "administrator"]


def code_of(response):
    body = response.json()
    assert body["data"]["status"] == response.status_code
    return body["code"]


@pytest.mark.parametrize("route", ["id", "slug"])
def test_published_venue_is_read_with_json_ld(api, route):
    venue = make_venue("Main hall", slug="main-hall")
    path = f"{API}/venues/{venue.pk}" if route == "id" else f"{API}/venues/by-slug/main-hall"
    response = api.get(path)
    assert response.status_code == 200
    assert response.json()["id"] == venue.pk
    assert response.json()["json_ld"]["name"] == "Main hall"


@pytest.mark.parametrize("record_id", ["999999", str(2**70)], ids=["unused", "beyond-64-bits"])
def test_unknown_id_is_400_even_for_anonymous_callers(api, record_id):
    response = api.get(f"{API}/venues/{record_id}")
    assert response.status_code == 400
    assert code_of(response) == "rest_invalid_param"
    assert response.json()["data"]["params"] == {"id": "Invalid parameter."}


@pytest.mark.parametrize("build", [make_event, make_organizer, make_image], ids=["event", "organizer", "attachment"])
def test_another_kinds_id_is_400(api, build):
    record = build()
    response = api.get(f"{API}/venues/{record.pk}")
    assert response.status_code == 400
    assert code_of(response) == "rest_invalid_param"


@pytest.mark.parametrize("path", ["/venues/foo", "/venues/-1", "/venues/by-slug/"], ids=["word", "negative", "no-slug"])
def test_paths_that_match_no_route_are_404(api, path):
    response = api.get(f"{API}{path}")
    assert response.status_code == 404
    assert code_of(response) == "rest_no_route"


def test_unknown_slug_is_400(api):
    response = api.get(f"{API}/venues/by-slug/nowhere")
    assert response.status_code == 400
    assert response.json()["data"]["params"] == {"slug": "Invalid parameter."}


def test_slug_of_another_kind_is_400(api):
    make_organizer("Shared name", slug="shared-name")
    assert api.get(f"{API}/venues/by-slug/shared-name").status_code == 400


@pytest.mark.parametrize("segment", ["MAIN-HALL", "main.hall", "Main%20Hall"], ids=["upper-case", "dot", "space"])
def test_slug_is_normalised_before_lookup(api, segment):
    venue = make_venue("Main hall", slug="main-hall")
    response = api.get(f"{API}/venues/by-slug/{segment}")
    assert response.status_code == 200
    assert response.json()["id"] == venue.pk


def test_percent_encoded_unicode_slug(api):
    venue = make_venue("音乐厅")
    assert venue.slug.startswith("%e9%9f%b3")
    assert api.get(f"{API}/venues/by-slug/音乐厅").json()["id"] == venue.pk


def test_a_body_slug_does_not_redirect_a_by_slug_read(api):
    first = make_venue("First", slug="first")
    make_venue("Second", slug="second")
    response = api.generic("GET", f"{API}/venues/by-slug/first?slug=second")
    assert response.json()["id"] == first.pk


# --- read rights (docs/contract/auth.md §2.1) ----------------------------------------------------------------------

# Expected status for (status, owned by the caller) per role.
READ_MATRIX = {
    ("draft", False): [403, 403, 403, 403, 200, 200],
    ("draft", True): [None, 200, 200, 200, 200, 200],
    ("pending", False): [403, 403, 403, 403, 200, 200],
    ("future", True): [None, 200, 200, 200, 200, 200],
    ("private", False): [403, 403, 403, 403, 200, 200],
    ("private", True): [None, 200, 200, 200, 200, 200],
    ("trash", False): [403, 403, 403, 403, 200, 200],
    ("trash", True): [None, 200, 200, 200, 200, 200],
    ("publish", False): [200, 200, 200, 200, 200, 200],
}
READ_CASES = [
    (status, own, role, expected)
    for (status, own), expected_by_role in READ_MATRIX.items()
    for role, expected in zip(ROLES, expected_by_role)
    if expected is not None
]
READ_IDS = [
    f"{status}-{'own' if own else 'others'}-{ROLE_IDS[ROLES.index(role)]}"
    for status, own, role, _expected in READ_CASES
]


@pytest.mark.parametrize("status, own, role, expected", READ_CASES, ids=READ_IDS)
@pytest.mark.parametrize("route", ["id", "slug"])
def test_read_matrix(api, as_role, route, status, own, role, expected):
    client = as_role(role) if role else api
    author = client.user if own else make_user("administrator")
    venue = make_venue("Guarded", slug="guarded", status=status, author=author)
    path = f"{API}/venues/{venue.pk}" if route == "id" else f"{API}/venues/by-slug/{venue.slug}"
    response = client.get(path)
    assert response.status_code == expected, response.content
    if expected == 403:
        assert code_of(response) == "venue-not-accessible"
    else:
        assert response.json()["status"] == status


def test_trashed_venue_is_read_by_its_trashed_slug_only(as_role):
    editor = as_role("editor")
    venue = make_venue("Old hall", slug="old-hall")
    editor.delete(f"{API}/venues/{venue.pk}")
    assert editor.get(f"{API}/venues/by-slug/old-hall").status_code == 400
    response = editor.get(f"{API}/venues/by-slug/old-hall__trashed")
    assert response.status_code == 200
    assert response.json()["status"] == "trash"


def test_draft_venue_has_json_ld_for_who_may_read_it(as_role):
    client = as_role("editor")
    venue = make_venue("Draft", status="draft")
    assert client.get(f"{API}/venues/{venue.pk}").json()["json_ld"]["@type"] == "Place"


def test_empty_password_is_refused(api):
    venue = make_venue()
    response = api.get(f"{API}/venues/{venue.pk}", {"password": ""})
    assert response.status_code == 400
    assert "password" in response.json()["data"]["params"]


def test_head_is_served_like_get_without_body(api):
    venue = make_venue()
    response = api.head(f"{API}/venues/{venue.pk}")
    assert response.status_code == 200
    assert response.content == b""
