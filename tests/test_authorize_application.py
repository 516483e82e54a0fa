"""WordPress's "authorize application" flow on the admin: approve in the browser, the app gets a password."""

import base64
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from events.models import ApplicationPassword

from .conftest import API
from .factories import make_user

pytestmark = pytest.mark.django_db

PAGE = reverse("admin:events_authorize_application")
APP_ID = "0b9c1e4e-3d6f-4c1a-9a52-6f1f0f3c2b7d"


@pytest.fixture
def editor_browser(client):
    user = make_user("editor", username="eddie", password="secret-pass-123")
    user.is_staff = True
    user.save()
    client.force_login(user)
    client.user = user
    return client


def approve(client, **params):
    return client.post(PAGE, {"approve": "1", **params})


def test_an_approved_app_receives_the_login_and_a_working_password_at_its_success_url(editor_browser, api):
    page = editor_browser.get(
        PAGE, {"app_name": "Calendar sync", "app_id": APP_ID, "success_url": "https://app.example/cb?state=xyz"}
    )
    assert page.status_code == 200
    assert "Calendar sync" in page.content.decode()
    answer = approve(
        editor_browser, app_name="Calendar sync", app_id=APP_ID, success_url="https://app.example/cb?state=xyz"
    )
    assert answer.status_code == 302
    target = urlsplit(answer["Location"])
    assert (target.scheme, target.netloc, target.path) == ("https", "app.example", "/cb")
    query = {name: values[0] for name, values in parse_qs(target.query).items()}
    assert query["state"] == "xyz"
    assert query["user_login"] == "eddie"
    assert query["site_url"] == "http://testserver/"
    record = ApplicationPassword.objects.get(user=editor_browser.user)
    assert (record.name, record.app_id) == ("Calendar sync", APP_ID)
    token = base64.b64encode(f"eddie:{query['password']}".encode()).decode()
    assert api.get(f"{API}/events?status=draft", HTTP_AUTHORIZATION=f"Basic {token}").status_code == 200


def test_an_apps_own_url_scheme_is_a_valid_success_url(editor_browser):
    answer = approve(editor_browser, app_name="Phone app", success_url="calendarapp://auth/done")
    assert answer.status_code == 302
    assert answer["Location"].startswith("calendarapp://auth/done?")


def test_without_a_success_url_the_password_is_shown_once_and_not_kept_by_caches(editor_browser):
    answer = approve(editor_browser, app_name="Desktop widget")
    assert answer.status_code == 200
    assert 'id="application-password"' in answer.content.decode()
    assert "no-store" in answer["Cache-Control"]
    assert ApplicationPassword.objects.filter(name="Desktop widget").count() == 1


def test_a_rejection_goes_to_the_reject_url_or_the_success_url_saying_so(editor_browser):
    explicit = editor_browser.post(PAGE, {"reject": "1", "app_name": "A", "reject_url": "https://app.example/no"})
    assert explicit["Location"] == "https://app.example/no"
    derived = editor_browser.post(PAGE, {"reject": "1", "app_name": "A", "success_url": "https://app.example/cb"})
    assert derived["Location"] == "https://app.example/cb?success=false"
    neither = editor_browser.post(PAGE, {"reject": "1", "app_name": "A"})
    assert neither["Location"] == reverse("admin:index")
    assert ApplicationPassword.objects.count() == 0


@pytest.mark.parametrize(
    "params,reason",
    [
        ({"success_url": "http://app.example/cb"}, "The URL must be served over a secure connection."),
        ({"reject_url": "http://app.example/no"}, "The URL must be served over a secure connection."),
        ({"success_url": "javascript:alert(1)"}, "Invalid URL format."),
        ({"success_url": "data:text/html,hi"}, "Invalid URL format."),
        ({"success_url": "app.example/cb"}, "Invalid URL format."),
        ({"success_url": "https:///nohost"}, "Invalid URL format."),
        ({"app_id": "not-a-uuid"}, "The application ID must be a UUID."),
    ],
)
def test_an_invalid_request_is_refused_with_its_reason_and_issues_nothing(editor_browser, params, reason):
    shown = editor_browser.get(PAGE, {"app_name": "A", **params})
    assert shown.status_code == 400
    assert reason in shown.content.decode()
    assert approve(editor_browser, app_name="A", **params).status_code == 400
    assert ApplicationPassword.objects.count() == 0


def test_plain_http_is_allowed_for_local_development(editor_browser, settings):
    settings.DEBUG = True
    answer = approve(editor_browser, app_name="Local tool", success_url="http://localhost:3000/cb")
    assert answer["Location"].startswith("http://localhost:3000/cb?")


def test_a_duplicate_or_missing_name_is_shown_on_the_page(editor_browser):
    assert approve(editor_browser, app_name="Sync").status_code == 200
    again = approve(editor_browser, app_name="Sync", success_url="https://app.example/cb")
    assert again.status_code == 200
    assert "Each application name should be unique." in again.content.decode()
    missing = approve(editor_browser, app_name="  ")
    assert "An application name is required" in missing.content.decode()
    assert ApplicationPassword.objects.count() == 1


def test_a_visitor_who_is_not_signed_in_is_sent_to_the_login_and_back(client):
    page = client.get(PAGE, {"app_name": "Sync"})
    assert page.status_code == 302
    assert page["Location"].startswith(reverse("admin:login") + "?next=")


def test_approving_needs_the_forms_anti_forgery_token(editor_browser):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(editor_browser.user)
    assert strict.post(PAGE, {"approve": "1", "app_name": "Sneaky"}).status_code == 403
    assert ApplicationPassword.objects.count() == 0


@pytest.mark.parametrize("language,words", [("zh-hans", "授权应用"), ("zh-hant", "授權應用程式")])
def test_the_page_speaks_the_admins_language(editor_browser, language, words):
    page = editor_browser.get(f"/{language}{PAGE}", {"app_name": "Sync"})
    assert words in page.content.decode()
