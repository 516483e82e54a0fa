"""Single event reads by ID and by slug: every status code of docs/contract/events.md §3, in the contract's order."""

import pytest

from events.models import PostStatus
from events.services.posts import move_to_trash

from .conftest import API
from .factories import make_event, make_image, make_organizer, make_user, make_venue

pytestmark = pytest.mark.django_db


def error_of(response):
    body = response.json()
    assert body["data"]["status"] == response.status_code
    return body["code"]


# --- by ID: existence and kind ------------------------------------------------------------------


@pytest.mark.parametrize("record_id", [0, 999999, 2**70], ids=["zero", "unused", "beyond-64-bits"])
def test_unknown_id_is_404_naming_the_id(api, record_id):
    response = api.get(f"{API}/events/{record_id}")
    assert response.status_code == 404
    assert error_of(response) == "rest-event-not-found"
    assert str(record_id) in response.json()["message"]


@pytest.mark.parametrize("build", [make_venue, make_organizer, make_image], ids=["venue", "organizer", "attachment"])
def test_another_kinds_id_is_400_invalid_event_id(api, build):
    record = build()
    response = api.get(f"{API}/events/{record.pk}")
    assert response.status_code == 400
    assert error_of(response) == "rest-invalid-event-id"


def test_published_event_is_read_with_json_ld(api):
    event = make_event("Jazz night")
    response = api.get(f"{API}/events/{event.pk}")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == event.pk
    assert body["title"] == "Jazz night"
    assert body["json_ld"]["@type"] == "Event"
    assert list(body)[-2:] == ["custom_fields", "json_ld"]


def test_head_is_served_like_get_without_body(api):
    event = make_event()
    response = api.head(f"{API}/events/{event.pk}")
    assert response.status_code == 200
    assert response.content == b""


# --- trash, read rights, password ---------------------------------------------------------------


@pytest.mark.parametrize("role", [None, "subscriber", "contributor", "author", "editor", "administrator"])
def test_trashed_event_is_403_no_longer_available_for_everyone(api, as_role, role):
    client = as_role(role) if role else api
    event = make_event(status=PostStatus.PUBLISH)
    move_to_trash(event)
    event.author = getattr(client, "user", None)
    event.save()
    response = client.get(f"{API}/events/{event.pk}")
    assert response.status_code == 403
    assert error_of(response) == "event-no-longer-available"


# docs/contract/auth.md §2.1: who may read a non-published event.
READ_MATRIX = [
    # role, status, own, expected
    (None, PostStatus.DRAFT, False, 403),
    (None, PostStatus.PRIVATE, False, 403),
    (None, PostStatus.FUTURE, False, 403),
    ("subscriber", PostStatus.PENDING, False, 403),
    ("subscriber", PostStatus.PENDING, True, 200),
    ("contributor", PostStatus.DRAFT, False, 403),
    ("contributor", PostStatus.DRAFT, True, 200),
    ("contributor", PostStatus.PRIVATE, True, 200),
    ("author", PostStatus.PRIVATE, False, 403),
    ("author", PostStatus.FUTURE, True, 200),
    ("editor", PostStatus.DRAFT, False, 200),
    ("editor", PostStatus.PRIVATE, False, 200),
    ("administrator", PostStatus.PENDING, False, 200),
]


@pytest.mark.parametrize(
    "role,status,own,expected",
    READ_MATRIX,
    ids=[f"{role or 'anonymous'}-{status}-{'own' if own else 'others'}" for role, status, own, _ in READ_MATRIX],
)
def test_read_rights_by_role_and_status(api, as_role, role, status, own, expected):
    client = as_role(role) if role else api
    author = client.user if own else make_user("editor")
    event = make_event(status=status, author=author)
    response = client.get(f"{API}/events/{event.pk}")
    assert response.status_code == expected
    if expected == 403:
        assert error_of(response) == "event-not-accessible"
    else:
        assert response.json()["status"] == status


@pytest.mark.parametrize("role", [None, "subscriber", "editor"])
def test_published_event_is_readable_by_everyone(api, as_role, role):
    client = as_role(role) if role else api
    event = make_event(author=make_user("author"))
    assert client.get(f"{API}/events/{event.pk}").status_code == 200


def test_password_protected_event_is_403_without_the_password(api):
    event = make_event(password="open-sesame")
    response = api.get(f"{API}/events/{event.pk}")
    assert response.status_code == 403
    assert error_of(response) == "event-password-protected"
    assert api.get(f"{API}/events/{event.pk}", {"password": "wrong"}).status_code == 403


def test_the_right_password_unlocks_the_event(api):
    event = make_event(password="open-sesame", description="Secret plans")
    response = api.get(f"{API}/events/{event.pk}", {"password": "open-sesame"})
    assert response.status_code == 200
    assert response.json()["description"] == "<p>Secret plans</p>"


def test_empty_password_parameter_is_400_before_the_lookup(api):
    response = api.get(f"{API}/events/999999", {"password": ""})
    assert response.status_code == 400
    assert error_of(response) == "rest_invalid_param"
    assert list(response.json()["data"]["params"]) == ["password"]


@pytest.mark.parametrize(
    "role,own,expected",
    [
        (None, False, 403),
        ("subscriber", False, 403),
        ("contributor", False, 403),
        ("author", True, 200),
        ("author", False, 403),
        ("editor", False, 200),
    ],
    ids=["anonymous", "subscriber", "contributor-others", "author-own", "author-others", "editor"],
)
def test_edit_context_unlocks_only_for_callers_who_may_edit(api, as_role, role, own, expected):
    client = as_role(role) if role else api
    event = make_event(password="open-sesame", author=client.user if own else make_user("administrator"))
    response = client.get(f"{API}/events/{event.pk}", {"context": "edit"})
    assert response.status_code == expected
    if expected == 403:
        assert error_of(response) == "event-password-protected"


def test_contributor_unlocks_own_protected_draft_with_edit_context(as_role):
    client = as_role("contributor")
    event = make_event(status=PostStatus.DRAFT, password="pw", author=client.user)
    assert client.get(f"{API}/events/{event.pk}", {"context": "edit"}).status_code == 200


def test_unlocked_protected_event_carries_no_json_ld(api):
    # WordPress decides JSON-LD visibility from the password cookie, which API clients never hold.
    event = make_event(password="open-sesame")
    body = api.get(f"{API}/events/{event.pk}", {"password": "open-sesame"}).json()
    assert "json_ld" not in body


def test_trash_is_checked_before_read_rights_and_password(api):
    event = make_event(status=PostStatus.DRAFT, password="pw")
    move_to_trash(event)
    event.save()
    assert error_of(api.get(f"{API}/events/{event.pk}")) == "event-no-longer-available"


def test_read_rights_are_checked_before_the_password(api):
    event = make_event(status=PostStatus.DRAFT, password="pw")
    assert error_of(api.get(f"{API}/events/{event.pk}", {"password": "pw"})) == "event-not-accessible"


def test_hidden_event_is_still_readable_singly(api):
    event = make_event(hide_from_listings=True)
    response = api.get(f"{API}/events/{event.pk}")
    assert response.status_code == 200
    assert response.json()["hide_from_listings"] is True


# --- by slug ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "segment",
    ["summer-fair", "Summer-Fair", "summer-fair/", "SUMMER-FAIR"],
    ids=["exact", "mixed-case", "trailing-slash", "upper-case"],
)
def test_by_slug_normalises_the_segment(api, segment):
    event = make_event("Summer fair", slug="summer-fair")
    response = api.get(f"{API}/events/by-slug/{segment}")
    assert response.status_code == 200
    assert response.json()["id"] == event.pk
    assert "json_ld" in response.json()


def test_by_slug_matches_percent_encoded_unicode_slugs(api):
    event = make_event("中文活动", slug="%e4%b8%ad%e6%96%87")
    response = api.get(f"{API}/events/by-slug/中文")
    assert response.status_code == 200
    assert response.json()["id"] == event.pk


def test_by_slug_with_a_dot_never_matches(api):
    # Normalisation turns "." into "-", so a stored slug holding a dot cannot be found (docs/contract/events.md §3).
    make_event(status=PostStatus.DRAFT, slug="draft.event")
    response = api.get(f"{API}/events/by-slug/draft.event")
    assert response.status_code == 400
    assert error_of(response) == "rest_invalid_param"
    assert list(response.json()["data"]["params"]) == ["slug"]


@pytest.mark.parametrize("kind", ["unknown", "venue", "organizer"])
def test_by_slug_of_no_event_is_400(api, kind):
    if kind == "venue":
        make_venue("Town hall", slug="town-hall")
    if kind == "organizer":
        make_organizer("Town hall", slug="town-hall")
    response = api.get(f"{API}/events/by-slug/town-hall")
    assert response.status_code == 400
    assert error_of(response) == "rest_invalid_param"


def test_by_slug_of_a_draft_is_403_not_accessible_for_anonymous(api):
    make_event(status=PostStatus.DRAFT, slug="quiet-draft")
    response = api.get(f"{API}/events/by-slug/quiet-draft")
    assert response.status_code == 403
    assert error_of(response) == "event-not-accessible"


def test_by_slug_of_a_trashed_event(api):
    event = make_event(slug="gone")
    move_to_trash(event)
    event.save()
    assert error_of(api.get(f"{API}/events/by-slug/gone")) == "rest_invalid_param"
    assert error_of(api.get(f"{API}/events/by-slug/gone__trashed")) == "event-no-longer-available"


def test_by_slug_password_rules(api):
    make_event(slug="members-only", password="pw")
    assert error_of(api.get(f"{API}/events/by-slug/members-only")) == "event-password-protected"
    assert api.get(f"{API}/events/by-slug/members-only", {"password": "pw"}).status_code == 200


def test_by_slug_empty_segment_is_no_route(api):
    assert error_of(api.get(f"{API}/events/by-slug/")) == "rest_no_route"


def test_by_slug_that_normalises_to_nothing_does_not_match_unslugged_drafts(api):
    make_event(status=PostStatus.DRAFT, slug="")
    assert error_of(api.get(f"{API}/events/by-slug/%21%21")) == "rest_invalid_param"


def test_single_read_query_count_is_bounded(api, django_assert_max_num_queries):
    event = make_event()
    # Not stored yet: the event's columns, the (missing) rows, the event with its links, then stored.
    with django_assert_max_num_queries(12):
        cold = api.get(f"{API}/events/{event.pk}")
    # Stored: the event's columns, its rows, the rows of what it embeds.
    with django_assert_max_num_queries(3):
        warm = api.get(f"{API}/events/{event.pk}")
    assert warm.status_code == 200
    assert warm.content == cold.content
