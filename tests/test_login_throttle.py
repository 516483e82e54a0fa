"""Login throttling: repeated failed sign-ins are answered 429 with Retry-After, before any password is hashed."""

import base64

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher

from events.models import ApplicationPassword
from events.services import credentials

from .conftest import API
from .factories import make_user

pytestmark = pytest.mark.django_db

EVENTS_URL = f"{API}/events?status=draft"
PASSWORD = "right-pass-123"


class CountingHasher(MD5PasswordHasher):
    """The suite's fast hasher, counting how often a password is checked."""

    algorithm = "counting-md5"
    verified = 0

    def verify(self, password, encoded):
        CountingHasher.verified += 1
        return super().verify(password, encoded)


@pytest.fixture
def counting_hasher(settings):
    settings.PASSWORD_HASHERS = ["tests.test_login_throttle.CountingHasher"]
    CountingHasher.verified = 0
    return CountingHasher


@pytest.fixture
def limits(settings):
    settings.EVENTS = {
        **getattr(settings, "EVENTS", {}),
        "LOGIN_FAILURES_PER_ACCOUNT": 5,
        "LOGIN_FAILURES_PER_ADDRESS": 12,
        "LOGIN_LOCKOUT_SECONDS": 600,
    }


def signed(api, username, password, address="203.0.113.7"):
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return api.get(EVENTS_URL, HTTP_AUTHORIZATION=f"Basic {token}", REMOTE_ADDR=address)


def test_the_default_locks_an_account_after_twenty_failures_in_a_row(api):
    make_user("editor", username="eve", password=PASSWORD)
    statuses = [signed(api, "eve", f"guess-{n}").status_code for n in range(21)]
    assert statuses == [401] * 20 + [429]


def test_a_locked_account_is_refused_even_with_its_password_and_says_when_to_return(api, limits):
    make_user("editor", username="eve", password=PASSWORD)
    for n in range(5):
        assert signed(api, "eve", f"guess-{n}").json()["code"] == "incorrect_password"
    response = signed(api, "eve", PASSWORD)
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "too_many_retries"
    assert body["data"] == {"status": 429}
    assert "10 minutes" in body["message"]
    assert 590 <= int(response["Retry-After"]) <= 600


def test_a_success_ends_the_run_of_failures(api, limits, settings):
    from events.memory import forget_all

    # The address's count is not a run: a success does not end it.
    settings.EVENTS = {**settings.EVENTS, "LOGIN_FAILURES_PER_ADDRESS": 100}
    make_user("editor", username="eve", password=PASSWORD)
    for _round in range(3):
        assert [signed(api, "eve", f"guess-{n}").status_code for n in range(4)] == [401] * 4
        # As a process that has not verified the password yet (one that has pays no cache round trip
        # on its signed requests, so the count goes on until the next checked sign-in).
        forget_all()
        assert signed(api, "eve", PASSWORD).status_code == 200


def test_other_accounts_and_addresses_are_not_affected(api, limits):
    make_user("editor", username="eve", password=PASSWORD)
    make_user("editor", username="bob", password=PASSWORD)
    for n in range(5):
        signed(api, "eve", f"guess-{n}")
    assert signed(api, "eve", PASSWORD).status_code == 429
    assert signed(api, "bob", PASSWORD).status_code == 200
    assert signed(api, "bob", PASSWORD, address="198.51.100.1").status_code == 200


def test_an_address_guessing_across_accounts_is_locked(api, limits):
    make_user("editor", username="bob", password=PASSWORD)
    # Unknown usernames and wrong passwords alike count against the address.
    statuses = [signed(api, f"nobody{n}", "guess").status_code for n in range(12)]
    assert statuses == [401] * 12
    response = signed(api, "bob", PASSWORD)
    assert (response.status_code, response.json()["code"]) == (429, "too_many_retries")
    assert signed(api, "bob", PASSWORD, address="198.51.100.1").status_code == 200


def test_a_refusal_of_a_locked_account_never_reaches_the_password_hasher(api, limits, counting_hasher):
    make_user("editor", username="eve", password=PASSWORD)
    for n in range(5):
        signed(api, "eve", f"guess-{n}")
    checked = counting_hasher.verified
    assert checked == 5
    for n in range(50):
        assert signed(api, "eve", f"more-{n}").status_code == 429
    assert counting_hasher.verified == checked


def test_signed_in_clients_keep_working_through_a_lockout_of_their_account(api, limits):
    """A password this process verified lately, and an application password, are not guesses."""
    user = make_user("editor", username="eve", password=PASSWORD)
    secret = credentials.issue_application_password(ApplicationPassword(user=user, name="app"))
    assert signed(api, "eve", PASSWORD).status_code == 200
    for n in range(5):
        signed(api, "eve", f"guess-{n}", address="192.0.2.66")
    assert signed(api, "eve", "guess-6", address="192.0.2.66").status_code == 429
    assert signed(api, "eve", PASSWORD).status_code == 200
    assert signed(api, "eve", secret).status_code == 200


def test_behind_trusted_proxies_the_forwarded_address_is_the_clients(api, settings):
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "LOGIN_FAILURES_PER_ADDRESS": 3, "TRUSTED_PROXIES": 1}
    make_user("editor", username="bob", password=PASSWORD)
    token = base64.b64encode(b"nobody:guess").decode()
    for _n in range(3):
        api.get(
            EVENTS_URL,
            HTTP_AUTHORIZATION=f"Basic {token}",
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR="spoofed, 203.0.113.9",
        )
    good = base64.b64encode(f"bob:{PASSWORD}".encode()).decode()
    from_guesser = api.get(
        EVENTS_URL, HTTP_AUTHORIZATION=f"Basic {good}", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    from_other = api.get(
        EVENTS_URL, HTTP_AUTHORIZATION=f"Basic {good}", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.4"
    )
    assert (from_guesser.status_code, from_other.status_code) == (429, 200)


@pytest.mark.parametrize("language,words", [("zh-hans", "分钟"), ("zh-hant", "分鐘")])
def test_the_refusal_speaks_the_requests_language(api, limits, language, words):
    make_user("editor", username="eve", password=PASSWORD)
    for n in range(5):
        signed(api, "eve", f"guess-{n}")
    token = base64.b64encode(f"eve:{PASSWORD}".encode()).decode()
    response = api.get(f"/{language}{EVENTS_URL}", HTTP_AUTHORIZATION=f"Basic {token}", REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 429
    assert words in response.json()["message"]
