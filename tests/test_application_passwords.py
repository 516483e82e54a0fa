"""Application passwords: WordPress's `wp/v2` routes, HTTP Basic with them, the admin and the command."""

import base64
import datetime as dt
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from events.models import ApplicationPassword, PostStatus
from events.services import credentials

from .conftest import API, post_json
from .factories import make_event, make_user

pytestmark = pytest.mark.django_db

ROUTE = "/wp-json/wp/v2/users/{user}/application-passwords"
GROUPED = re.compile(r"^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$")
LOGIN_PASSWORD = "login-pass-123"


def basic(username, password):
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def signed(username, password):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=basic(username, password))
    return client


def route(user="me", suffix=""):
    return ROUTE.format(user=user) + suffix


def create(client, user="me", **body):
    return client.post(route(user), {"name": "Sync tool", **body}, format="json")


@pytest.fixture
def editor_user():
    return make_user("editor", username="ed", password=LOGIN_PASSWORD)


@pytest.fixture
def editor_login(editor_user):
    return signed("ed", LOGIN_PASSWORD)


@pytest.fixture
def issued(editor_login):
    """(record JSON, the new password) of an application password the editor just made."""
    response = create(editor_login)
    assert response.status_code == 201
    return response.json(), response.json()["password"]


# --- the routes -----------------------------------------------------------------------------------


def test_create_answers_201_with_the_password_once_and_a_location(editor_login, editor_user):
    response = create(editor_login, app_id="6ba7b810-9dad-11d1-80b4-00c04fd430c8")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"uuid", "app_id", "name", "created", "last_used", "last_ip", "password", "_links"}
    assert GROUPED.match(body["password"])
    assert body["app_id"] == "6ba7b810-9dad-11d1-80b4-00c04fd430c8"
    assert (body["name"], body["last_used"], body["last_ip"]) == ("Sync tool", None, None)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", body["created"])
    self_url = f"http://testserver/wp-json/wp/v2/users/{editor_user.pk}/application-passwords/{body['uuid']}"
    assert body["_links"] == {"self": [{"href": self_url}]}
    assert response["Location"] == self_url
    # Shown once: the record read back has no password, and the database holds only a digest.
    again = editor_login.get(route(suffix=f"/{body['uuid']}")).json()
    assert "password" not in again
    stored = ApplicationPassword.objects.get(uuid=body["uuid"])
    assert body["password"].replace(" ", "") not in stored.password_digest
    assert len(stored.password_digest) == 64


def test_the_new_password_signs_requests(issued, editor_user):
    record, password = issued
    draft = make_event("Draft plan", status=PostStatus.DRAFT)
    response = signed("ed", password).get(f"{API}/events/{draft.pk}")
    assert response.status_code == 200
    assert response.json()["id"] == draft.pk


@pytest.mark.parametrize(
    "presented",
    [
        pytest.param(lambda p: p, id="grouped"),
        pytest.param(lambda p: p.replace(" ", ""), id="no-spaces"),
        pytest.param(lambda p: p.replace(" ", "-"), id="dashes"),
        pytest.param(lambda p: f"  {p}  ", id="surrounding-blanks"),
    ],
)
def test_separators_are_ignored_like_wordpress(issued, presented):
    _record, password = issued
    assert signed("ed", presented(password)).get(API).status_code == 200


def test_letters_keep_their_case_like_wordpress(issued):
    _record, password = issued
    flipped = password.swapcase()
    assert flipped != password  # 24 random letters and digits hold a letter
    response = signed("ed", flipped).get(API)
    assert response.status_code == 401
    assert response.json()["code"] == "incorrect_password"


def test_list_shows_the_callers_passwords_without_secrets(editor_login):
    for name in ("Phone", "Laptop"):
        assert create(editor_login, name=name).status_code == 201
    other = make_user("editor", username="other", password=LOGIN_PASSWORD)
    create(signed("other", LOGIN_PASSWORD), name="Not yours")
    response = editor_login.get(route())
    assert response.status_code == 200
    assert [item["name"] for item in response.json()] == ["Phone", "Laptop"]
    assert all("password" not in item for item in response.json())
    assert other.application_passwords.count() == 1


def test_embed_context_leaves_out_dates_and_address(issued):
    record, _password = issued
    body = signed("ed", LOGIN_PASSWORD).get(route(suffix=f"/{record['uuid']}"), {"context": "embed"}).json()
    assert set(body) == {"uuid", "app_id", "name", "_links"}


def test_a_revoked_password_gets_401_on_the_next_request(issued, editor_login):
    record, password = issued
    client = signed("ed", password)
    assert client.get(API).status_code == 200
    response = editor_login.delete(route(suffix=f"/{record['uuid']}"))
    assert response.status_code == 200
    body = response.json()
    assert body["deleted"] is True
    assert body["previous"]["uuid"] == record["uuid"]
    assert "_links" not in body["previous"]
    refused = client.get(API)
    assert refused.status_code == 401
    assert refused.json()["code"] == "incorrect_password"


def test_delete_all_revokes_every_password_and_counts_them(editor_login):
    passwords = [create(editor_login, name=name).json()["password"] for name in ("A", "B", "C")]
    response = editor_login.delete(route())
    assert response.status_code == 200
    assert response.json() == {"deleted": True, "count": 3}
    assert all(signed("ed", password).get(API).status_code == 401 for password in passwords)


def test_rename(issued, editor_login):
    record, _password = issued
    response = editor_login.post(route(suffix=f"/{record['uuid']}"), {"name": "  Renamed <b>tool</b> "}, format="json")
    assert response.status_code == 200
    assert response.json()["name"] == "Renamed tool"
    assert "password" not in response.json()


def test_introspect_names_the_password_in_use(issued):
    record, password = issued
    response = signed("ed", password).get(route(suffix="/introspect"))
    assert response.status_code == 200
    assert response.json()["uuid"] == record["uuid"]
    assert "password" not in response.json()


def test_introspect_with_a_login_password_is_404(issued, editor_login):
    response = editor_login.get(route(suffix="/introspect"))
    assert response.status_code == 404
    assert response.json()["code"] == "rest_no_authenticated_app_password"


def test_introspect_of_another_user_is_refused_even_to_an_administrator(issued, editor_user):
    make_user("administrator", username="boss", password=LOGIN_PASSWORD)
    response = signed("boss", LOGIN_PASSWORD).get(route(editor_user.pk, "/introspect"))
    assert response.status_code == 403
    assert response.json()["code"] == "rest_cannot_introspect_app_password_for_non_authenticated_user"


@pytest.mark.parametrize(
    "method, suffix, code",
    [
        ("get", "", "rest_cannot_list_application_passwords"),
        ("post", "", "rest_cannot_create_application_passwords"),
        ("delete", "", "rest_cannot_delete_application_passwords"),
        ("get", "/{uuid}", "rest_cannot_read_application_password"),
        ("post", "/{uuid}", "rest_cannot_edit_application_password"),
        ("delete", "/{uuid}", "rest_cannot_delete_application_password"),
    ],
)
def test_other_users_passwords_are_refused_to_non_administrators(issued, editor_user, method, suffix, code):
    record, _password = issued
    path = route(editor_user.pk, suffix.format(uuid=record["uuid"]))
    make_user("editor", username="peer", password=LOGIN_PASSWORD)
    signed_in = getattr(signed("peer", LOGIN_PASSWORD), method)(path, {"name": "x"}, format="json")
    assert (signed_in.status_code, signed_in.json()["code"]) == (403, code)
    anonymous = getattr(APIClient(), method)(path, {"name": "x"}, format="json")
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, code)
    assert ApplicationPassword.objects.filter(uuid=record["uuid"], name="Sync tool").exists()


def test_administrators_manage_other_users_passwords(issued, editor_user):
    record, password = issued
    make_user("administrator", username="boss", password=LOGIN_PASSWORD)
    boss = signed("boss", LOGIN_PASSWORD)
    assert [item["uuid"] for item in boss.get(route(editor_user.pk)).json()] == [record["uuid"]]
    made = create(boss, user=editor_user.pk, name="Made by admin")
    assert made.status_code == 201
    assert ApplicationPassword.objects.get(uuid=made.json()["uuid"]).user == editor_user
    assert boss.delete(route(editor_user.pk, f"/{record['uuid']}")).status_code == 200
    assert signed("ed", password).get(API).status_code == 401


def test_me_without_credentials_is_401_not_logged_in():
    response = APIClient().get(route())
    assert response.status_code == 401
    assert response.json()["code"] == "rest_not_logged_in"


@pytest.mark.parametrize("user", ["999999", "0", "99999999999999999999999"])
def test_unknown_user_is_404(editor_login, user):
    response = editor_login.get(route(user))
    assert response.status_code == 404
    assert response.json()["code"] == "rest_user_invalid_id"


@pytest.mark.parametrize("key", ["0b7e3c1a-5d1f-4c37-9a55-3f0e2b9d4c11", "not-a-uuid", "introspect-me"])
def test_unknown_password_is_404(editor_login, key):
    for method in ("get", "post", "delete"):
        response = getattr(editor_login, method)(route(suffix=f"/{key}"), {"name": "x"}, format="json")
        assert response.status_code == 404
        assert response.json()["code"] == "rest_application_password_not_found"


def test_duplicate_name_is_409(issued, editor_login):
    response = create(editor_login)
    assert response.status_code == 409
    assert response.json()["code"] == "application_password_duplicate_name"
    assert ApplicationPassword.objects.count() == 1


@pytest.mark.parametrize(
    "body, code",
    [
        pytest.param({}, "rest_missing_callback_param", id="no-name"),
        pytest.param({"name": ""}, "rest_invalid_param", id="empty"),
        pytest.param({"name": 5}, "rest_invalid_param", id="number"),
        pytest.param({"name": "   "}, "application_password_empty_name", id="blank"),
        pytest.param({"name": "<script></script>"}, "application_password_empty_name", id="only-tags"),
        pytest.param({"name": "ok", "app_id": "not-a-uuid"}, "rest_invalid_param", id="bad-app-id"),
        pytest.param({"name": "a\x00b"}, "rest_invalid_param", id="nul"),
    ],
)
def test_invalid_create_is_400_and_stores_nothing(editor_login, body, code):
    response = editor_login.post(route(), body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert ApplicationPassword.objects.count() == 0


def test_routes_answer_in_chinese(editor_login):
    response = editor_login.get("/zh-hant" + route("999999"))
    assert response.json()["message"] == "無效的使用者 ID。"


# --- authentication -------------------------------------------------------------------------------


def test_use_is_recorded_at_most_once_a_day(issued):
    record, password = issued
    client = signed("ed", password)
    client.get(API, REMOTE_ADDR="203.0.113.9")
    stored = ApplicationPassword.objects.get(uuid=record["uuid"])
    assert stored.last_ip == "203.0.113.9"
    first_use = stored.last_used
    assert first_use is not None
    # Within the day a signed read writes nothing.
    with CaptureQueriesContext(connection) as queries:
        assert client.get(API, REMOTE_ADDR="198.51.100.7").status_code == 200
    assert not [q for q in queries.captured_queries if q["sql"].lstrip().upper().startswith("UPDATE")]
    stored.refresh_from_db()
    assert (stored.last_used, stored.last_ip) == (first_use, "203.0.113.9")
    # A day later it is recorded again.
    ApplicationPassword.objects.filter(pk=stored.pk).update(last_used=timezone.now() - dt.timedelta(days=1, seconds=1))
    client.get(API, REMOTE_ADDR="198.51.100.7")
    stored.refresh_from_db()
    assert stored.last_ip == "198.51.100.7"
    assert stored.last_used > first_use
    listed = signed("ed", LOGIN_PASSWORD).get(route()).json()[0]
    assert listed["last_ip"] == "198.51.100.7"
    assert listed["last_used"] == stored.last_used.strftime("%Y-%m-%dT%H:%M:%S")


def test_an_inactive_users_application_password_is_refused(issued, editor_user):
    _record, password = issued
    editor_user.is_active = False
    editor_user.save()
    response = signed("ed", password).get(API)
    assert response.status_code == 401
    assert response.json()["code"] == "incorrect_password"


def test_an_application_password_works_only_with_its_own_user(issued):
    _record, password = issued
    make_user("editor", username="someone", password=LOGIN_PASSWORD)
    response = signed("someone", password).get(API)
    assert response.status_code == 401
    assert response.json()["code"] == "incorrect_password"


def test_an_application_password_creates_events(issued):
    _record, password = issued
    response = post_json(
        signed("ed", password),
        "/events",
        {"title": "Signed", "start_date": "2031-05-01 10:00", "end_date": "2031-05-01 11:00"},
    )
    assert response.status_code == 201


def test_login_passwords_over_basic_can_be_switched_off(issued, settings):
    _record, password = issued
    settings.EVENTS = {"BASIC_AUTH_LOGIN_PASSWORDS": False}
    refused = signed("ed", LOGIN_PASSWORD).get(API)
    assert (refused.status_code, refused.json()["code"]) == (401, "incorrect_password")
    assert signed("ed", password).get(API).status_code == 200


def test_the_secret_key_signs_the_digests(issued, settings):
    """A new SECRET_KEY invalidates application passwords unless the old one stays a fallback."""
    _record, password = issued
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY = "a-completely-different-secret-key-for-this-test"
    assert signed("ed", password).get(API).status_code == 401
    settings.SECRET_KEY_FALLBACKS = [old_key]
    assert signed("ed", password).get(API).status_code == 200


def test_every_candidate_is_compared_in_constant_time(editor_user, monkeypatch):
    """The comparison neither stops at the first match nor uses `==`: time does not tell which came close."""
    records = [ApplicationPassword(user=editor_user, name=f"app {n}") for n in range(3)]
    secrets = [credentials.issue_application_password(record) for record in records]
    compared = []

    def counting_compare(a, b):
        compared.append((a, b))
        return a == b

    monkeypatch.setattr(credentials, "constant_time_compare", counting_compare)
    assert credentials.matching_application_password(records, secrets[0]) == records[0]
    assert len(compared) == len(records) * len(credentials._secret_keys())
    compared.clear()
    almost = secrets[1][:-1] + ("a" if secrets[1][-1] != "a" else "b")
    assert credentials.matching_application_password(records, almost) is None
    assert len(compared) == len(records) * len(credentials._secret_keys())


# --- remembered login passwords ---------------------------------------------------------------


class CountingHasher(MD5PasswordHasher):
    """The test hasher, counting how often a password is verified (the slow step in production)."""

    algorithm = "counting_md5"
    verified = 0

    def verify(self, password, encoded):
        CountingHasher.verified += 1
        return super().verify(password, encoded)


@pytest.fixture
def counting_hasher(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    CountingHasher.verified = 0
    return CountingHasher


def test_a_verified_login_password_is_not_hashed_again(counting_hasher):
    make_user("editor", username="ed", password=LOGIN_PASSWORD)
    client = signed("ed", LOGIN_PASSWORD)
    for _ in range(3):
        assert client.get(API).status_code == 200
    assert counting_hasher.verified == 1


def test_wrong_passwords_are_never_remembered(counting_hasher):
    make_user("editor", username="ed", password=LOGIN_PASSWORD)
    assert signed("ed", LOGIN_PASSWORD).get(API).status_code == 200
    for _ in range(2):
        assert signed("ed", "wrong-guess").get(API).status_code == 401
    assert counting_hasher.verified == 3


def test_the_memory_ends_when_the_password_changes(counting_hasher):
    user = make_user("editor", username="ed", password=LOGIN_PASSWORD)
    assert signed("ed", LOGIN_PASSWORD).get(API).status_code == 200
    user.set_password("a-new-login-pass")
    user.save()
    assert signed("ed", LOGIN_PASSWORD).get(API).status_code == 401
    assert signed("ed", "a-new-login-pass").get(API).status_code == 200


def test_the_memory_ends_when_the_user_is_deactivated_or_loses_the_role(counting_hasher):
    user = make_user("editor", username="ed", password=LOGIN_PASSWORD)
    draft = make_event("Draft", status=PostStatus.DRAFT)
    client = signed("ed", LOGIN_PASSWORD)
    assert client.get(f"{API}/events/{draft.pk}").status_code == 200
    user.groups.clear()
    assert client.get(f"{API}/events/{draft.pk}").status_code == 403
    user.is_active = False
    user.save()
    assert client.get(API).status_code == 401


def test_the_memory_can_be_switched_off(counting_hasher, settings):
    settings.EVENTS = {"LOGIN_PASSWORD_MEMORY_SECONDS": 0}
    make_user("editor", username="ed", password=LOGIN_PASSWORD)
    client = signed("ed", LOGIN_PASSWORD)
    for _ in range(2):
        assert client.get(API).status_code == 200
    assert counting_hasher.verified == 2


def test_nul_in_a_basic_username_is_401_without_reaching_the_database():
    response = APIClient().get(API, HTTP_AUTHORIZATION=basic("u\x00x", "pw"))
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_username"


# --- the command and the admin ----------------------------------------------------------------


def test_the_command_issues_a_password_once(editor_user):
    out = StringIO()
    call_command("events_user", "ed", "--app-password", "Deploy script", stdout=out)
    password = re.search(r"\(shown only once\): (.+)$", out.getvalue().strip()).group(1)
    assert GROUPED.match(password)
    assert signed("ed", password).get(API).status_code == 200
    with pytest.raises(CommandError):
        call_command("events_user", "ed", "--app-password", "Deploy script", stdout=StringIO())
    assert editor_user.application_passwords.count() == 1


def test_the_command_makes_a_user_who_signs_in_only_with_application_passwords():
    out = StringIO()
    call_command("events_user", "robot", "--role", "author", "--app-password", "CI", stdout=out)
    password = out.getvalue().strip().rsplit(": ", 1)[1]
    assert signed("robot", password).get(API).status_code == 200
    assert not get_user_model().objects.get(username="robot").has_usable_password()
    with pytest.raises(CommandError):
        call_command("events_user", "newbie", "--app-password", "CI", stdout=StringIO())


def admin_session(role, username):
    make_user(role, username=username, password=LOGIN_PASSWORD, is_staff=True, is_superuser=role == "administrator")
    client = Client()
    assert client.login(username=username, password=LOGIN_PASSWORD)
    return client


ADMIN = "/admin/events/applicationpassword/"


def test_an_editor_creates_one_in_the_admin_and_sees_it_once():
    browser = admin_session("contributor", "carol")
    response = browser.post(f"{ADMIN}add/", {"name": "Desktop app"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    password = re.search(r'id="application-password"[^>]*>([^<]+)<', response.content.decode()).group(1)
    assert GROUPED.match(password)
    assert signed("carol", password).get(API).status_code == 200
    listing = browser.get(ADMIN).content.decode()
    assert "Desktop app" in listing
    assert password not in listing
    record = ApplicationPassword.objects.get()
    assert password not in browser.get(f"{ADMIN}{record.pk}/change/").content.decode()


def test_the_admin_refuses_a_duplicate_name():
    browser = admin_session("editor", "ed")
    assert browser.post(f"{ADMIN}add/", {"name": "Phone"}).status_code == 200
    response = browser.post(f"{ADMIN}add/", {"name": "Phone"})
    assert "Each application name should be unique." in response.content.decode()
    assert ApplicationPassword.objects.count() == 1


def test_non_administrators_see_and_revoke_only_their_own():
    mine = admin_session("editor", "ed")
    theirs = admin_session("author", "alice")
    mine.post(f"{ADMIN}add/", {"name": "Mine"})
    theirs.post(f"{ADMIN}add/", {"name": "Theirs"})
    own, foreign = ApplicationPassword.objects.get(name="Mine"), ApplicationPassword.objects.get(name="Theirs")
    listing = mine.get(ADMIN).content.decode()
    assert "Mine" in listing and "Theirs" not in listing
    assert mine.get(f"{ADMIN}{foreign.pk}/change/").status_code == 302  # "does not exist", not shown
    mine.post(ADMIN, {"action": "revoke", "_selected_action": [own.pk, foreign.pk]})
    assert list(ApplicationPassword.objects.values_list("name", flat=True)) == ["Theirs"]


def test_an_administrator_issues_one_for_another_user_and_revokes_all():
    boss = admin_session("administrator", "boss")
    worker = make_user("author", username="worker", password=LOGIN_PASSWORD)
    response = boss.post(f"{ADMIN}add/", {"user": worker.pk, "name": "Kiosk"})
    password = re.search(r'id="application-password"[^>]*>([^<]+)<', response.content.decode()).group(1)
    assert signed("worker", password).get(API).status_code == 200
    boss.post(f"{ADMIN}add/", {"user": worker.pk, "name": "Phone"})
    selected = list(ApplicationPassword.objects.values_list("pk", flat=True))
    boss.post(ADMIN, {"action": "revoke", "_selected_action": selected})
    assert ApplicationPassword.objects.count() == 0
    assert signed("worker", password).get(API).status_code == 401


@pytest.mark.parametrize(
    "prefix, heading", [("", "Authentication: application passwords"), ("/zh-hans", "认证：应用密码")]
)
def test_the_api_reference_page_lists_the_credential_routes(prefix, heading):
    page = Client().get(f"{prefix}/api-docs/").content.decode()
    assert heading in page
    for path in ("application-passwords", "application-passwords/introspect", "application-passwords/{uuid}"):
        assert f"http://testserver{prefix}/wp-json/wp/v2/users/{{user_id}}/{path}</code>" in page


# An application password: one statement finds the user, their application passwords and their
# rights. A login password: one finds the user, one reads their rights (not ModelBackend's two).
SIGNED_READ_EXTRA_QUERIES = {"application": 1, "login": 2}


@pytest.mark.parametrize("credential", ["application", "login"])
def test_a_signed_read_costs_a_query_or_two_more_than_an_anonymous_one(issued, credential):
    _record, password = issued
    client = signed("ed", password if credential == "application" else LOGIN_PASSWORD)
    event = make_event("Open day")
    path = f"{API}/events/{event.pk}"
    client.get(path)  # the once-a-day usage record and the remembered login password settle first
    with CaptureQueriesContext(connection) as anonymous:
        assert APIClient().get(path).status_code == 200
    with CaptureQueriesContext(connection) as signed_read:
        assert client.get(path).status_code == 200
    assert len(signed_read.captured_queries) == len(anonymous.captured_queries) + SIGNED_READ_EXTRA_QUERIES[credential]


@pytest.mark.parametrize("role", ["subscriber", "contributor", "editor"])
def test_the_rights_read_with_an_application_password_are_the_roles_rights(role):
    """What the authentication statement reads of a caller's rights decides as ModelBackend would."""
    user = make_user(role)
    secret = credentials.issue_application_password(ApplicationPassword(user=user, name="laptop"))
    draft = make_event("Draft by another", status=PostStatus.DRAFT)
    client = signed(user.username, secret)
    read = client.get(f"{API}/events/{draft.pk}")
    created = post_json(
        client, "/events", {"title": "Mine", "start_date": "2030-01-01 10:00:00", "end_date": "2030-01-01 11:00:00"}
    )
    fresh = get_user_model().objects.get(pk=user.pk)
    assert (read.status_code == 200) is fresh.has_perm("events.edit_others_events")
    assert (created.status_code == 201) is fresh.has_perm("events.edit_events")
