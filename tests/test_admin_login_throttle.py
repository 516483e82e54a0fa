"""The admin's login form shares the API's login throttle: the same counts, the same limits, the same locks."""

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client

from .factories import make_user
from .test_login_throttle import PASSWORD, CountingHasher, signed

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.7"
WRONG_PASSWORD = "Please enter the correct username and password for a staff account."
LOCKED = "Too many failed login attempts. Please try again in 10 minutes."


@pytest.fixture
def limits(settings):
    settings.EVENTS = {
        **getattr(settings, "EVENTS", {}),
        "LOGIN_FAILURES_PER_ACCOUNT": 5,
        "LOGIN_FAILURES_PER_ADDRESS": 12,
        "LOGIN_LOCKOUT_SECONDS": 600,
    }


@pytest.fixture
def counting_hasher(settings):
    settings.PASSWORD_HASHERS = ["tests.test_login_throttle.CountingHasher"]
    CountingHasher.verified = 0
    return CountingHasher


def staff(username):
    return make_user("editor", username=username, password=PASSWORD, is_staff=True)


def form_sign_in(client, username, password, address=ADDRESS, language_prefix=""):
    return client.post(
        f"{language_prefix}/admin/login/",
        {"username": username, "password": password, "next": "/admin/"},
        REMOTE_ADDR=address,
    )


def signed_in(response):
    return response.status_code == 302 and response["Location"] == "/admin/"


def form_error(response):
    """Which refusal the form shows: the wrong password's, the lock's, or None."""
    assert response.status_code == 200
    page = response.content.decode()
    found = [name for name, text in (("wrong", WRONG_PASSWORD), ("locked", LOCKED)) if text in page]
    assert len(found) <= 1
    return found[0] if found else None


def test_wrong_passwords_on_the_form_lock_the_account_on_the_form_and_the_api(api, limits):
    staff("eve")
    client = Client()
    errors = [form_error(form_sign_in(client, "eve", f"guess-{n}")) for n in range(5)]
    # The failure that reaches the limit already says so.
    assert errors == ["wrong"] * 4 + ["locked"]
    assert form_error(form_sign_in(client, "eve", PASSWORD)) == "locked"
    assert client.get("/admin/").status_code == 302
    response = signed(api, "eve", PASSWORD)
    assert (response.status_code, response.json()["code"]) == (429, "too_many_retries")
    assert 590 <= int(response["Retry-After"]) <= 600


def test_failures_on_the_api_lock_the_form_before_the_password_is_hashed(api, limits, counting_hasher):
    staff("eve")
    assert [signed(api, "eve", f"guess-{n}").status_code for n in range(5)] == [401] * 5
    checked = counting_hasher.verified
    client = Client()
    for password in ("guess-6", PASSWORD):
        assert form_error(form_sign_in(client, "eve", password)) == "locked"
    assert counting_hasher.verified == checked
    # Every authenticate() call is refused, not only the admin's form.
    assert not Client().login(username="eve", password=PASSWORD)


def test_failures_on_the_form_and_the_api_add_up(api, limits):
    staff("eve")
    client = Client()
    assert [form_error(form_sign_in(client, "eve", f"guess-{n}")) for n in range(2)] == ["wrong"] * 2
    assert [signed(api, "eve", f"guess-{n}").status_code for n in range(3)] == [401] * 3
    assert signed(api, "eve", PASSWORD).status_code == 429
    assert form_error(form_sign_in(client, "eve", PASSWORD)) == "locked"


def test_an_address_guessing_across_accounts_on_the_form_is_locked(api, limits):
    staff("bob")
    client = Client()
    errors = [form_error(form_sign_in(client, f"nobody{n}", "guess")) for n in range(12)]
    assert errors == ["wrong"] * 11 + ["locked"]
    assert form_error(form_sign_in(client, "bob", PASSWORD)) == "locked"
    assert signed(api, "bob", PASSWORD).status_code == 429
    assert signed_in(form_sign_in(Client(), "bob", PASSWORD, address="198.51.100.1"))


def test_a_success_on_the_form_ends_the_run_of_failures(api, limits, settings):
    # The address's count is not a run: a success does not end it.
    settings.EVENTS = {**settings.EVENTS, "LOGIN_FAILURES_PER_ADDRESS": 100}
    staff("eve")
    for _round in range(3):
        client = Client()
        assert [form_error(form_sign_in(client, "eve", f"guess-{n}")) for n in range(4)] == ["wrong"] * 4
        assert signed_in(form_sign_in(client, "eve", PASSWORD))
    # The API's count was ended too: four more failures there do not lock the account.
    assert [signed(api, "eve", f"guess-{n}").status_code for n in range(4)] == [401] * 4
    assert signed_in(form_sign_in(Client(), "eve", PASSWORD))


def test_other_accounts_sign_in_on_the_form_during_a_lockout(limits):
    staff("eve")
    staff("bob")
    for n in range(5):
        form_sign_in(Client(), "eve", f"guess-{n}")
    assert form_error(form_sign_in(Client(), "eve", PASSWORD)) == "locked"
    assert signed_in(form_sign_in(Client(), "bob", PASSWORD))


@pytest.mark.parametrize("language,words", [("zh-hans", "分钟"), ("zh-hant", "分鐘")])
def test_the_forms_refusal_speaks_the_pages_language(limits, language, words):
    staff("eve")
    for n in range(5):
        form_sign_in(Client(), "eve", f"guess-{n}")
    response = form_sign_in(Client(), "eve", PASSWORD, language_prefix=f"/{language}")
    assert response.status_code == 200
    assert words in response.content.decode()


def test_with_the_throttle_off_the_form_is_djangos(api, settings):
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "LOGIN_LOCKOUT_SECONDS": 0}
    staff("eve")
    client = Client()
    assert [form_error(form_sign_in(client, "eve", f"guess-{n}")) for n in range(30)] == ["wrong"] * 30
    assert signed_in(form_sign_in(client, "eve", PASSWORD))
    assert signed(api, "eve", PASSWORD).status_code == 200


# --- a site that installs the app (docs/install.md) ----------------------------------------------


def test_the_demo_sites_backends_pass_the_system_check():
    call_command("check", fail_level="WARNING")


@pytest.mark.parametrize(
    "backends,warning",
    [
        (["django.contrib.auth.backends.ModelBackend"], "events.W002"),
        ([], "events.W002"),
        (["events.backends.ThrottledModelBackend", "django.contrib.auth.backends.ModelBackend"], "events.W003"),
        (
            ["django.contrib.auth.backends.AllowAllUsersModelBackend", "events.backends.ThrottledModelBackend"],
            "events.W003",
        ),
    ],
    ids=["django-default", "none", "model-backend-beside", "model-backend-first"],
)
def test_a_site_whose_passwords_escape_the_throttle_is_warned(settings, backends, warning):
    settings.AUTHENTICATION_BACKENDS = backends
    with pytest.raises(SystemCheckError, match=warning):
        call_command("check", fail_level="WARNING")


def test_a_site_without_the_backend_is_not_warned_when_the_throttle_is_off(settings):
    settings.AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "LOGIN_LOCKOUT_SECONDS": 0}
    call_command("check", fail_level="WARNING")


def test_a_remote_user_backend_beside_the_throttled_one_is_no_concern(settings):
    settings.AUTHENTICATION_BACKENDS = [
        "django.contrib.auth.backends.RemoteUserBackend",
        "events.backends.ThrottledModelBackend",
    ]
    call_command("check", fail_level="WARNING")
