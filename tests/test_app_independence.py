"""The API answers by the contract whatever the site's REST_FRAMEWORK setting says, or without one."""

import base64

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.settings import api_settings
from rest_framework.test import APIClient
from rest_framework.views import APIView

from .conftest import API
from .factories import make_event, make_user

pytestmark = pytest.mark.django_db

# DRF reads these view defaults from its settings once, when rest_framework.views is imported; a
# site's own setting therefore decides them for every view that does not set its own.
DRF_VIEW_DEFAULTS = {
    "renderer_classes": "DEFAULT_RENDERER_CLASSES",
    "parser_classes": "DEFAULT_PARSER_CLASSES",
    "authentication_classes": "DEFAULT_AUTHENTICATION_CLASSES",
    "throttle_classes": "DEFAULT_THROTTLE_CLASSES",
    "permission_classes": "DEFAULT_PERMISSION_CLASSES",
    "content_negotiation_class": "DEFAULT_CONTENT_NEGOTIATION_CLASS",
    "metadata_class": "DEFAULT_METADATA_CLASS",
    "versioning_class": "DEFAULT_VERSIONING_CLASS",
}

# What a site might configure for its own DRF views: none of it may leak into the contract's API.
SITE_OWN_REST_SETTINGS = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAdminUser"],
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.AnonRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"anon": "1/day"},
    "UNAUTHENTICATED_USER": None,
}


@pytest.fixture(params=["no-setting", "site-own-setting"])
def foreign_rest_settings(request, settings, monkeypatch):
    """A site that installs the app without the REST_FRAMEWORK block the demo site once carried."""
    if request.param == "no-setting":
        # Empty rather than deleted: only an assignment sends setting_changed, on which DRF reloads.
        settings.REST_FRAMEWORK = {}
    else:
        settings.REST_FRAMEWORK = SITE_OWN_REST_SETTINGS
    # As if DRF had been imported under this setting (DRF reloads api_settings on setting_changed).
    for attribute, setting_name in DRF_VIEW_DEFAULTS.items():
        monkeypatch.setattr(APIView, attribute, getattr(api_settings, setting_name))
    return request.param


def basic(username, password):
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def assert_contract_error(response, status, code):
    assert response.status_code == status
    body = response.json()
    assert set(body) == {"code", "message", "data"}
    assert body["code"] == code
    assert body["data"]["status"] == status


def test_wrong_basic_password_is_401_incorrect_password(foreign_rest_settings, api):
    make_user("editor", username="ed", password="right-password")
    response = api.get(f"{API}/events", HTTP_AUTHORIZATION=basic("ed", "wrong"))
    assert_contract_error(response, 401, "incorrect_password")


def test_unknown_basic_user_is_401_invalid_username(foreign_rest_settings, api):
    response = api.get(f"{API}/events", HTTP_AUTHORIZATION=basic("nobody", "x"))
    assert_contract_error(response, 401, "invalid_username")


def test_right_basic_password_lets_an_editor_read_a_draft(foreign_rest_settings, api):
    make_user("editor", username="ed", password="right-password")
    draft = make_event(status="draft")
    response = api.get(f"{API}/events/{draft.pk}", HTTP_AUTHORIZATION=basic("ed", "right-password"))
    assert response.status_code == 200
    assert response.json()["status"] == "draft"


def test_token_lets_an_editor_read_a_draft(foreign_rest_settings, api):
    token = Token.objects.create(user=make_user("editor"))
    draft = make_event(status="draft")
    response = api.get(f"{API}/events/{draft.pk}", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200
    assert response.json()["status"] == "draft"


def test_wrong_token_is_401_incorrect_password(foreign_rest_settings, api):
    response = api.get(f"{API}/events", HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_contract_error(response, 401, "incorrect_password")


def test_anonymous_reads_are_served(foreign_rest_settings, api):
    make_event()
    for _ in range(3):
        response = api.get(f"{API}/events")
        assert response.status_code == 200
        assert response.json()["total"] == 1


def test_anonymous_write_is_401_rest_forbidden(foreign_rest_settings, api):
    response = api.post(f"{API}/venues", {"venue": "Hall"}, format="json")
    assert_contract_error(response, 401, "rest_forbidden")


def test_session_write_without_nonce_is_anonymous(foreign_rest_settings):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(make_user("editor"))
    response = client.post(f"{API}/venues", {"venue": "Hall"}, format="json")
    assert_contract_error(response, 401, "rest_forbidden")


def test_session_read_without_nonce_is_anonymous(foreign_rest_settings):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(make_user("editor"))
    draft = make_event(status="draft")
    assert client.get(f"{API}/events/{draft.pk}").status_code == 403


@pytest.mark.parametrize("path", ["/nowhere", "/events/999999999"], ids=["unknown-route", "unknown-event"])
def test_not_found_has_the_contract_shape(foreign_rest_settings, api, path):
    response = api.get(f"{API}{path}")
    assert response.status_code == 404
    assert set(response.json()) == {"code", "message", "data"}
    assert response.json()["data"]["status"] == 404
