"""Authentication through the real URLconf: Basic, token and session, with WordPress's error codes."""

import base64

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from events import roles

from .conftest import API
from .factories import make_event, make_user

pytestmark = pytest.mark.django_db


def basic(username, password):
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def test_wrong_basic_password_is_401_incorrect_password_even_on_public_reads(api):
    make_user("editor", username="ed", password="right-password")
    response = api.get(API, HTTP_AUTHORIZATION=basic("ed", "wrong"))
    assert response.status_code == 401
    assert response.json()["code"] == "incorrect_password"
    assert response.json()["data"] == {"status": 401}


def test_unknown_basic_user_is_401_invalid_username(api):
    response = api.get(API, HTTP_AUTHORIZATION=basic("nobody", "x"))
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_username"


def test_correct_basic_credentials_authenticate(api):
    make_user("editor", username="ed", password="right-password")
    response = api.get(API, HTTP_AUTHORIZATION=basic("ed", "right-password"))
    assert response.status_code == 200


def test_token_authentication(api):
    user = make_user("editor")
    token = Token.objects.create(user=user)
    assert api.get(API, HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
    response = api.get(API, HTTP_AUTHORIZATION="Token not-a-real-token")
    assert response.status_code == 401
    assert response.json()["code"] == "incorrect_password"


ROLE_RIGHTS = {
    # role: (edit events, publish, edit own published, edit others', manage categories, manage tags, upload)
    "administrator": (True, True, True, True, True, True, True),
    "editor": (True, True, True, True, True, True, True),
    "author": (True, True, True, False, True, False, True),
    "contributor": (True, False, False, False, False, False, False),
    "subscriber": (False, False, False, False, False, False, False),
}


@pytest.mark.parametrize("role", list(ROLE_RIGHTS))
@pytest.mark.parametrize("kind", ["tribe_events", "tribe_venue", "tribe_organizer"])
def test_role_capabilities(role, kind):
    user = make_user(role)
    edit, publish, edit_published, edit_others, categories, tags, upload = ROLE_RIGHTS[role]
    assert roles.has_right(user, kind, roles.EDIT) is edit
    assert roles.has_right(user, kind, roles.PUBLISH) is publish
    assert roles.has_right(user, kind, roles.EDIT_PUBLISHED) is edit_published
    assert roles.has_right(user, kind, roles.EDIT_OTHERS) is edit_others
    assert roles.has_capability(user, roles.MANAGE_CATEGORIES) is categories
    assert roles.has_capability(user, roles.MANAGE_TAGS) is tags
    assert roles.has_capability(user, roles.UPLOAD_FILES) is upload
    assert roles.role_of(user) == role


@pytest.mark.parametrize(
    "role, own, status, expected",
    [
        ("contributor", True, "draft", True),
        ("contributor", True, "pending", True),
        ("contributor", True, "publish", False),
        ("contributor", False, "draft", False),
        ("author", True, "publish", True),
        ("author", False, "draft", False),
        ("editor", False, "publish", True),
        ("subscriber", True, "draft", False),
    ],
)
def test_record_level_edit_rule(role, own, status, expected):
    user = make_user(role)
    event = make_event(status=status, author=user if own else make_user("administrator"))
    assert roles.can_edit(user, event) is expected


@pytest.mark.django_db(transaction=True)
def test_role_groups_come_back_after_a_flush():
    """A flush (run after every transactional test) empties the groups; the roles must return with it."""
    call_command("flush", interactive=False, verbosity=0)
    editor = make_user("editor")
    assert sorted(Group.objects.values_list("name", flat=True)) == sorted(roles.ROLES)
    assert roles.has_capability(editor, roles.MANAGE_TAGS)


def test_a_role_an_administrator_changed_keeps_its_rights_after_migrate():
    editor_group = Group.objects.get(name="editor")
    editor_group.permissions.clear()
    call_command("migrate", verbosity=0)
    assert not editor_group.permissions.exists()


def test_superuser_acts_as_administrator():
    user = make_user(None, is_superuser=True)
    assert roles.role_of(user) == "administrator"
    assert roles.can_edit(user, make_event(author=make_user("author")))


def test_events_user_command_sets_exactly_one_role(capsys):
    call_command("events_user", "maria", "--password", "pw-123456", "--role", "author")
    call_command("events_user", "maria", "--role", "editor")
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="maria")
    assert [group.name for group in user.groups.all()] == ["editor"]
    assert user.check_password("pw-123456")
    assert "pw-123456" not in capsys.readouterr().out
    client = APIClient()
    assert client.get(API, HTTP_AUTHORIZATION=basic("maria", "pw-123456")).status_code == 200


class TestSession:
    """Browser sessions map onto WordPress's cookie + nonce rules (docs/contract/auth.md §1)."""

    @pytest.fixture
    def session_client(self):
        user = make_user("editor", username="sessioned", password="pw-123456")
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(user)
        client.get(API)  # sets the CSRF cookie through the site
        from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret

        secret = _get_new_csrf_string()
        client.cookies["csrftoken"] = secret
        return client, _mask_cipher_secret(secret)

    @pytest.mark.parametrize("header", ["HTTP_X_WP_NONCE", "HTTP_X_CSRFTOKEN"])
    def test_session_reads_with_the_nonce_are_authenticated(self, session_client, header):
        client, token = session_client
        event = make_event(status="draft")
        assert client.get(f"{API}/events/{event.pk}", **{header: token}).status_code == 200

    def test_session_reads_without_the_nonce_are_anonymous(self, session_client):
        """A page on another site can make the browser send the cookie, never the nonce (WordPress's rule)."""
        client, _ = session_client
        event = make_event(status="draft")
        response = client.get(f"{API}/events/{event.pk}", HTTP_ORIGIN="https://sibling.example")
        assert response.status_code == 403
        assert response.json()["code"] == "event-not-accessible"
        listing = client.get(f"{API}/events", {"status": "draft"})
        assert listing.status_code == 400  # only `publish` may be asked for anonymously

    def test_session_read_with_a_wrong_nonce_is_403(self, session_client):
        client, _ = session_client
        response = client.get(API, HTTP_X_WP_NONCE="x" * 64)
        assert response.status_code == 403
        assert response.json()["code"] == "rest_cookie_invalid_nonce"

    def test_the_admin_and_public_pages_keep_working_with_the_session(self):
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(make_user("editor", is_staff=True))
        assert client.get("/admin/").status_code == 200
        assert client.get("/admin/events/event/").status_code == 200
        assert client.get("/events/").status_code == 200

    def test_write_without_token_is_anonymous_401(self, session_client):
        client, _ = session_client
        response = client.post(f"{API}/categories", {"name": "Jazz"}, format="json")
        assert response.status_code == 401
        assert response.json()["code"] == "rest_forbidden"

    @pytest.mark.parametrize("header", ["HTTP_X_WP_NONCE", "HTTP_X_CSRFTOKEN"])
    def test_write_with_token_is_authenticated(self, session_client, header):
        client, token = session_client
        response = client.post(f"{API}/categories", {"name": "Jazz"}, format="json", **{header: token})
        assert response.status_code == 201

    def test_write_with_wrong_token_is_403_invalid_nonce(self, session_client):
        client, _ = session_client
        response = client.post(f"{API}/categories", {"name": "Jazz"}, format="json", HTTP_X_WP_NONCE="x" * 64)
        assert response.status_code == 403
        assert response.json()["code"] == "rest_cookie_invalid_nonce"


@pytest.mark.parametrize(
    "client_role, expected_status",
    [(None, 401), ("subscriber", 403), ("editor", 201)],
    ids=["anonymous-401", "logged-in-403", "allowed-201"],
)
def test_route_permission_statuses_and_error_shape(api, as_role, client_role, expected_status):
    client = as_role(client_role) if client_role else api
    response = client.post(f"{API}/tags", {"name": "Outdoor"}, format="json")
    assert response.status_code == expected_status
    if expected_status >= 400:
        assert response.json() == {
            "code": "rest_forbidden",
            "message": "Sorry, you are not allowed to do that.",
            "data": {"status": expected_status},
        }


@pytest.mark.parametrize(
    "backend", ["events.backends.ThrottledModelBackend", "django.contrib.auth.backends.ModelBackend"]
)
def test_rights_read_in_one_query_equal_what_django_computes(settings, backend):
    """roles.load_rights fills ModelBackend's cache with exactly the set ModelBackend would compute."""
    from django.contrib.auth.backends import ModelBackend
    from django.contrib.auth.models import Permission

    settings.AUTHENTICATION_BACKENDS = [backend]
    user = make_user("author")
    user.user_permissions.add(Permission.objects.get(codename="change_user"))
    user.groups.add(Group.objects.get(name="contributor"))
    expected = ModelBackend().get_all_permissions(get_user_model().objects.get(pk=user.pk))
    fresh = get_user_model().objects.get(pk=user.pk)
    roles.load_rights(fresh)
    assert fresh._perm_cache == expected
    assert "auth.change_user" in expected and "events.publish_events" in expected
    user.groups.clear()
    emptied = get_user_model().objects.get(pk=user.pk)
    roles.load_rights(emptied)
    assert emptied._perm_cache == {"auth.change_user"}
