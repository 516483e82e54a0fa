"""WordPress routing rules through the real URLconf: no-route errors, slashes, case, HEAD, OPTIONS."""

import pytest

from events.api.views.discovery import NamespaceIndexViewSet
from events.conf import events_settings

from .conftest import API

pytestmark = pytest.mark.django_db


def test_namespace_index_lists_every_route(api):
    response = api.get(API)
    assert response.status_code == 200
    body = response.json()
    assert body["namespace"] == "tribe/events/v1"
    assert list(body["routes"])[:5] == [
        "/tribe/events/v1",
        "/tribe/events/v1/doc",
        "/tribe/events/v1/events",
        "/tribe/events/v1/events/(?P<id>\\d+)",
        "/tribe/events/v1/events/by-slug/(?P<slug>[^/]+)",
    ]
    assert body["routes"]["/tribe/events/v1/events/(?P<id>\\d+)"]["methods"] == [
        "GET",
        "DELETE",
        "POST",
        "PUT",
        "PATCH",
    ]
    assert body["_links"]["up"][0]["href"] == "http://testserver/wp-json/"


@pytest.mark.parametrize(
    "path", ["/wp-json/nope", f"{API}/nope", f"{API}/events/foo", f"{API}/events/-1", f"{API}/events/by-slug/"]
)
def test_unknown_route_is_rest_no_route(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert response.json() == {
        "code": "rest_no_route",
        "message": "No route was found matching the URL and request method.",
        "data": {"status": 404},
    }


def test_unsupported_method_is_404_not_405(api):
    response = api.delete(API)
    assert response.status_code == 404
    assert response.json()["code"] == "rest_no_route"


@pytest.mark.parametrize("path", [f"{API}/", "/wp-json/TRIBE/Events/V1", "/wp-json/tribe/events/v1///"])
def test_trailing_slash_and_case_are_ignored(api, path):
    response = api.get(path)
    assert response.status_code == 200
    assert response.json()["namespace"] == "tribe/events/v1"


def test_head_is_get_without_body(api):
    response = api.head(API)
    assert response.status_code == 200
    assert response.content == b""
    assert response["Content-Type"] == "application/json; charset=UTF-8"


def test_options_answers_with_the_route_entry_and_cors(api):
    response = api.options(f"{API}/events", HTTP_ORIGIN="https://widget.example")
    assert response.status_code == 200
    body = response.json()
    assert body["methods"] == ["GET", "POST"]
    assert [endpoint["methods"] for endpoint in body["endpoints"]] == [["GET"], ["POST"]]
    assert response["Access-Control-Allow-Origin"] == "https://widget.example"
    # No origin may send the visitor's cookie unless the site lists it.
    assert "Access-Control-Allow-Credentials" not in response


def test_listed_origins_may_send_credentials(api, settings):
    settings.EVENTS = {"CORS_CREDENTIALS_ORIGINS": ["https://app.example"]}
    listed = api.get(f"{API}/events", HTTP_ORIGIN="https://app.example")
    assert listed["Access-Control-Allow-Credentials"] == "true"
    other = api.get(f"{API}/events", HTTP_ORIGIN="https://app.example.evil")
    assert other["Access-Control-Allow-Origin"] == "https://app.example.evil"
    assert "Access-Control-Allow-Credentials" not in other


def test_method_override_dispatches_as_the_given_method(api):
    # The namespace index has no DELETE endpoint, so an overridden POST must fail like a DELETE.
    assert api.post(f"{API}?_method=DELETE").json()["code"] == "rest_no_route"
    assert api.post(API, HTTP_X_HTTP_METHOD_OVERRIDE="GET").status_code == 200


def test_wordpress_headers_on_every_response(api):
    response = api.get(API)
    assert response["Link"] == '<http://testserver/wp-json/>; rel="https://api.w.org/"'
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Robots-Tag"] == "noindex"
    assert response["Allow"] == "GET"


def test_unknown_namespace_is_rest_invalid_namespace(api):
    response = api.get(API, {"namespace": "wp/v2"})
    assert response.status_code == 404
    assert response.json()["code"] == "rest_invalid_namespace"


def test_root_index_advertises_the_namespace(api):
    response = api.get("/wp-json/")
    assert response.status_code == 200
    assert "tribe/events/v1" in response.json()["namespaces"]


def test_language_prefixed_roots_serve_the_same_routes(api):
    response = api.get("/zh-hant/wp-json/tribe/events/v1")
    assert response.status_code == 200
    assert response.json()["_links"]["up"][0]["href"] == "http://testserver/zh-hant/wp-json/"


def test_invalid_language_parameter_is_rest_invalid_param(api):
    response = api.get(API, {"wpml_language": "fr"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert body["data"]["params"] == {"wpml_language": "wpml_language is not one of en, zh-hans, zh-hant."}
    assert body["data"]["details"]["wpml_language"]["code"] == "rest_not_in_enum"


def test_vendor_word_is_a_setting(api, settings):
    settings.EVENTS = {**settings.EVENTS, "NAMESPACE_VENDOR": "acme"}
    assert events_settings.namespace == "acme/events/v1"
    assert api.get("/wp-json/acme/events/v1").json()["namespace"] == "acme/events/v1"
    assert api.get(API).status_code == 404


def test_disabled_api_answers_no_route(api, settings):
    settings.EVENTS = {**settings.EVENTS, "REST_API_ENABLED": False}
    response = api.get(API)
    assert response.status_code == 404
    assert response.json()["code"] == "rest_no_route"


def test_unexpected_error_is_a_json_500_without_traceback(api, monkeypatch):
    def explode(self, request, *args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(NamespaceIndexViewSet, "index", explode)
    response = api.get(API)
    assert response.status_code == 500
    assert response.json() == {
        "code": "rest_internal_error",
        "message": "The server could not complete the request.",
        "data": {"status": 500},
    }
    assert b"secret internals" not in response.content


def test_envelope_and_fields_global_parameters(api):
    response = api.get(API, {"_fields": "namespace", "_envelope": "1"})
    assert response.status_code == 200
    assert response.json()["body"] == {"namespace": "tribe/events/v1"}
    assert response.json()["status"] == 200
