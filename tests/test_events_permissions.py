"""Who may create, update and delete which events (docs/contract/auth.md §3), by ID and by slug alike, and in which order the checks run."""

import pytest

from events.models import Event, PostStatus
from events.services.posts import move_to_trash

from .conftest import API
from .factories import make_event, make_user, make_venue
from .test_events_create import error_of, event_body, table_counts

pytestmark = pytest.mark.django_db

ROLES = [None, "subscriber", "contributor", "author", "editor", "administrator"]


def role_id(role):
    return role or "anonymous"


@pytest.fixture
def client_for(api, as_role):
    def build(role):
        return as_role(role) if role else api

    return build


# --- create ---------------------------------------------------------------------------------------


CREATE_MATRIX = [
    (None, 401),
    ("subscriber", 403),
    ("contributor", 201),
    ("author", 201),
    ("editor", 201),
    ("administrator", 201),
]


@pytest.mark.parametrize("role, expected", CREATE_MATRIX, ids=[role_id(role) for role, _ in CREATE_MATRIX])
def test_create_by_role(client_for, role, expected):
    client = client_for(role)
    before = table_counts()
    response = client.post(f"{API}/events", event_body(), format="json")
    assert response.status_code == expected
    if expected == 201:
        assert response.json()["author"] == str(client.user.pk)
        assert Event.objects.filter(pk=response.json()["id"]).exists()
    else:
        assert error_of(response) == "rest_forbidden"
        assert table_counts() == before


# --- update and delete: role x action x owner x status x route -------------------------------------


def expected_status(role, action, own, status):
    """docs/contract/auth.md §3.2, the same table by ID and by slug (the Recommended rule of §3.3)."""
    if role is None:
        return 401
    if role == "subscriber":
        return 403
    if role in ("editor", "administrator"):
        return 200
    if not own:
        return 403
    if role == "contributor" and status == PostStatus.PUBLISH:
        return 403
    return 200


MATRIX = [
    (role, action, own, status, route)
    for role in ROLES
    for action in ("update", "delete")
    for own in (True, False)
    for status in (PostStatus.DRAFT, PostStatus.PENDING, PostStatus.PUBLISH)
    for route in ("id", "slug")
    if not (own and role is None)
]


@pytest.mark.parametrize(
    "role, action, own, status, route",
    MATRIX,
    ids=[f"{role_id(r)}-{a}-{'own' if o else 'others'}-{s}-by-{rt}" for r, a, o, s, rt in MATRIX],
)
def test_write_matrix(client_for, role, action, own, status, route):
    client = client_for(role)
    owner = client.user if own else make_user("administrator")
    event = make_event("Matrix event", status=status, slug="matrix-event", author=owner)
    path = f"{API}/events/{event.pk}" if route == "id" else f"{API}/events/by-slug/matrix-event"
    if action == "update":
        response = client.post(path, {"title": "Changed"}, format="json")
    else:
        response = client.delete(path)

    expected = expected_status(role, action, own, status)
    assert response.status_code == expected, response.json()
    stored = Event.objects.get(pk=event.pk)
    if expected == 200:
        assert response.json()["id"] == event.pk
        if action == "update":
            assert stored.title == "Changed"
        else:
            assert stored.status == PostStatus.TRASH
    else:
        assert error_of(response) == "rest_forbidden"
        assert (stored.title, stored.status, stored.slug) == ("Matrix event", status, "matrix-event")


# --- trashed events are judged by the status they had -----------------------------------------------


@pytest.mark.parametrize(
    "role, status_before, action, expected",
    [
        ("contributor", PostStatus.DRAFT, "update", 200),
        ("contributor", PostStatus.PUBLISH, "update", 403),
        ("contributor", PostStatus.DRAFT, "delete", 410),
        ("contributor", PostStatus.PUBLISH, "delete", 403),
        ("author", PostStatus.PUBLISH, "delete", 410),
    ],
    ids=[
        "contributor-update-was-draft",
        "contributor-update-was-published",
        "contributor-delete-was-draft",
        "contributor-delete-was-published",
        "author-delete-was-published",
    ],
)
def test_own_trashed_event(as_role, role, status_before, action, expected):
    client = as_role(role)
    event = make_event(status=status_before, author=client.user)
    move_to_trash(event)
    event.save()
    path = f"{API}/events/{event.pk}"
    response = client.post(path, {"title": "Changed"}, format="json") if action == "update" else client.delete(path)
    assert response.status_code == expected


# --- the order of the checks --------------------------------------------------------------------


@pytest.mark.parametrize(
    "role, expected",
    [(None, 401), ("subscriber", 403), ("contributor", 404), ("author", 404)],
    ids=["anonymous", "subscriber", "contributor", "author"],
)
@pytest.mark.parametrize("method", ["post", "delete"])
def test_an_unknown_id_needs_only_the_general_right_to_be_404(client_for, role, expected, method):
    response = getattr(client_for(role), method)(f"{API}/events/987654", {"title": "x"}, format="json")
    assert response.status_code == expected
    assert error_of(response) == ("rest-event-not-found" if expected == 404 else "rest_forbidden")


@pytest.mark.parametrize(
    "role, expected",
    [(None, 401), ("subscriber", 403), ("contributor", 404)],
    ids=["anonymous", "subscriber", "contributor"],
)
def test_update_by_unknown_slug_checks_the_right_first(client_for, role, expected):
    response = client_for(role).post(f"{API}/events/by-slug/no-such-event", {"title": "x"}, format="json")
    assert response.status_code == expected


def test_wrong_kind_id_is_checked_after_the_right(client_for):
    venue = make_venue()
    assert client_for(None).post(f"{API}/events/{venue.pk}", {"title": "x"}, format="json").status_code == 401
    assert client_for("contributor").post(f"{API}/events/{venue.pk}", {"title": "x"}, format="json").status_code == 400


@pytest.mark.parametrize("role", [None, "subscriber"], ids=["anonymous", "subscriber"])
def test_validation_comes_before_permission(client_for, role):
    client = client_for(role)
    event = make_event()
    missing = client.post(f"{API}/events", {}, format="json")
    assert (missing.status_code, error_of(missing)) == (400, "rest_missing_callback_param")
    invalid = client.post(f"{API}/events/{event.pk}", {"featured": "yes"}, format="json")
    assert (invalid.status_code, error_of(invalid)) == (400, "rest_invalid_param")


def test_a_contributor_may_not_raise_their_draft_past_pending_nor_touch_it_once_published(as_role):
    contributor = as_role("contributor")
    event = make_event(status=PostStatus.DRAFT, author=contributor.user)
    assert (
        contributor.post(f"{API}/events/{event.pk}", {"status": "publish"}, format="json").json()["status"] == "pending"
    )
    Event.objects.filter(pk=event.pk).update(status=PostStatus.PUBLISH)
    response = contributor.post(f"{API}/events/{event.pk}", {"status": "draft"}, format="json")
    assert (response.status_code, error_of(response)) == (403, "rest_forbidden")


@pytest.mark.parametrize(
    "role, allowed",
    [(None, "GET"), ("subscriber", "GET"), ("contributor", "GET, DELETE, POST, PUT, PATCH")],
    ids=["anonymous", "subscriber", "contributor"],
)
def test_allow_header_lists_the_methods_the_caller_may_use(client_for, role, allowed):
    event = make_event()
    assert client_for(role).get(f"{API}/events/{event.pk}")["Allow"] == allowed


@pytest.mark.parametrize("role", ROLES, ids=[role_id(role) for role in ROLES])
@pytest.mark.parametrize("status", ["foo", "Publish", ""], ids=["unknown", "wrong-case", "empty"])
def test_an_unregistered_status_is_400_for_every_role(client_for, role, status):
    before = table_counts()
    response = client_for(role).post(f"{API}/events", event_body(status=status), format="json")
    assert (response.status_code, error_of(response)) == (400, "rest_invalid_param")
    assert list(response.json()["data"]["params"]) == ["status"]
    assert table_counts() == before


def test_a_list_read_by_one_author_is_never_answered_for_another(as_role):
    """Lists keep their compiled statements per caller condition: an author's own drafts stay theirs."""
    first, second = as_role("author"), as_role("author")
    make_event("Draft by the first", status=PostStatus.DRAFT, author=first.user)
    make_event("Draft by the second", status=PostStatus.DRAFT, author=second.user)
    make_event("Published", author=first.user)
    for _ in range(2):  # the second round reads statements compiled in the first
        for client, own in ((first, "Draft by the first"), (second, "Draft by the second")):
            listed = client.get(f"{API}/events", {"status": "draft,publish"})
            assert listed.status_code == 200
            assert sorted(event["title"] for event in listed.json()["events"]) == sorted([own, "Published"])
