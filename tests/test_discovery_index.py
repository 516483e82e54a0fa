"""The namespace index and OPTIONS: every route, method and parameter, as the declarations say, per language."""

import re

import pytest
from django.utils import translation
from rest_framework.fields import empty

from events.api.parameters.fields import Params
from events.api.routes import ROUTES
from events.conf import events_settings

from .conftest import API, comparable_endpoints

pytestmark = pytest.mark.django_db

NS = "/tribe/events/v1"
ROUTE_KEYS = [
    NS,
    f"{NS}/doc",
    f"{NS}/events",
    f"{NS}/events/(?P<id>\\d+)",
    f"{NS}/events/by-slug/(?P<slug>[^/]+)",
    f"{NS}/venues",
    f"{NS}/venues/(?P<id>\\d+)",
    f"{NS}/venues/by-slug/(?P<slug>[^/]+)",
    f"{NS}/organizers",
    f"{NS}/organizers/(?P<id>\\d+)",
    f"{NS}/organizers/by-slug/(?P<slug>[^/]+)",
    f"{NS}/categories",
    f"{NS}/categories/(?P<id>\\d+)",
    f"{NS}/tags",
    f"{NS}/tags/(?P<id>\\d+)",
]
COLLECTION = [["GET"], ["POST"]]
POST_SINGLE = [["GET"], ["DELETE"], ["POST", "PUT", "PATCH"]]
TERM_SINGLE = [["GET"], ["POST", "PUT", "PATCH"], ["DELETE"]]
ENDPOINT_METHODS = {
    NS: [["GET"]],
    f"{NS}/doc": [["GET"]],
    **{
        key: COLLECTION
        for key in ROUTE_KEYS
        if key.endswith(("/events", "/venues", "/organizers", "/categories", "/tags"))
    },
    **{key: POST_SINGLE for key in ROUTE_KEYS if re.search(r"/(events|venues|organizers)/(\(|by-slug)", key)},
    **{key: TERM_SINGLE for key in ROUTE_KEYS if re.search(r"/(categories|tags)/\(", key)},
}
ARG_KEYS = {"description", "type", "format", "default", "items", "enum", "required"}
LANGUAGES = ["en", "zh-hans", "zh-hant"]


def index(client, language="en", **query):
    prefix = "" if language == "en" else f"/{language}"
    response = client.get(f"{prefix}{API}", query)
    assert response.status_code == 200
    return response.json()


def declared_fields(route, endpoint):
    return route.viewset.get_params_class(endpoint.action)().fields


def expected_arg(field):
    """What the index must publish for a declaration (computed defaults are checked separately)."""
    entry = {"required": bool(field.required)}
    if field.help_text:
        entry["description"] = str(field.help_text)
    for key, attribute in (("type", "wp_type"), ("format", "wp_format"), ("items", "wp_items"), ("enum", "enum")):
        value = getattr(field, attribute, None)
        if value:
            entry[key] = list(value) if key == "enum" else value
    return entry


def concrete_path(route):
    return route.pattern.replace(r"(?P<id>\d+)", "1").replace("(?P<slug>[^/]+)", "some-slug")


def test_routes_are_the_registered_patterns_in_order(api):
    body = index(api)
    assert body["namespace"] == "tribe/events/v1"
    assert list(body["routes"]) == ROUTE_KEYS
    assert body["_links"] == {"up": [{"href": "http://testserver/wp-json/"}]}


@pytest.mark.parametrize("key", ROUTE_KEYS)
def test_route_methods_and_endpoints_in_order(api, key):
    entry = index(api)["routes"][key]
    expected = ENDPOINT_METHODS[key]
    assert entry["namespace"] == "tribe/events/v1"
    assert [endpoint["methods"] for endpoint in entry["endpoints"]] == expected
    assert entry["methods"] == [method for methods in expected for method in methods]


@pytest.mark.parametrize("key", ROUTE_KEYS)
def test_self_link_only_for_routes_without_a_path_variable(api, key):
    entry = index(api)["routes"][key]
    if "(?P<" in key:
        assert "_links" not in entry
    else:
        assert entry["_links"] == {"self": [{"href": f"http://testserver/wp-json{key}"}]}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("route", ROUTES, ids=[route.pattern or "/" for route in ROUTES])
def test_endpoint_args_are_the_declarations_in_the_request_language(api, route, language):
    entry = index(api, language)["routes"][f"{NS}{route.pattern}"]
    for endpoint, published in zip(route.endpoints, entry["endpoints"]):
        fields = declared_fields(route, endpoint)
        args = published["args"]
        assert list(args) == list(fields)
        for name, field in fields.items():
            arg = args[name]
            assert set(arg) <= ARG_KEYS
            assert isinstance(arg["required"], bool)
            with translation.override(language):
                expected = expected_arg(field)
            assert {key: value for key, value in arg.items() if key != "default"} == expected, name
            assert ("default" in arg) == (field.default is not empty), name


@pytest.mark.parametrize("route", ROUTES, ids=[route.pattern or "/" for route in ROUTES])
def test_every_endpoint_lists_the_language_parameter(api, route):
    entry = index(api)["routes"][f"{NS}{route.pattern}"]
    for endpoint in entry["endpoints"]:
        arg = endpoint["args"]["wpml_language"]
        assert arg["type"] == "string"
        assert arg["required"] is False
        assert sorted(arg["enum"]) == sorted(["zh-hans", "zh-hant", "en"])
        assert arg["description"]


def test_language_parameter_name_follows_the_setting(api, settings):
    settings.EVENTS = {"LANGUAGE_PARAM_PREFIX": "ml"}
    args = api.get(API).json()["routes"][f"{NS}/doc"]["endpoints"][0]["args"]
    assert "ml_language" in args and "wpml_language" not in args
    assert api.get(f"{API}/doc", {"ml_language": "zh-hant"}).status_code == 200
    assert api.get(f"{API}/doc", {"ml_language": "xx"}).status_code == 400


def test_namespace_index_args_are_as_wordpress_declares_them(api):
    args = index(api)["routes"][NS]["endpoints"][0]["args"]
    assert args["namespace"] == {"default": "tribe/events/v1", "required": False}
    assert args["context"] == {"default": "view", "required": False}


def test_unknown_namespace_is_404(api):
    response = api.get(API, {"namespace": "wp/v2"})
    assert response.status_code == 404
    assert response.json()["code"] == "rest_invalid_namespace"


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_descriptions_are_translated(api, language):
    english, translated = index(api), index(api, language)
    compared = 0
    for key in ROUTE_KEYS:
        for english_endpoint, endpoint in zip(
            english["routes"][key]["endpoints"], translated["routes"][key]["endpoints"]
        ):
            for name, arg in endpoint["args"].items():
                if "description" in arg:
                    assert arg["description"] != english_endpoint["args"][name]["description"], (key, name)
                    compared += 1
    assert compared >= len(ROUTE_KEYS)


def test_wpml_language_overrides_the_path_language(api):
    by_parameter = api.get(f"/zh-hans{API}", {"wpml_language": "zh-hant"}).json()
    traditional = index(api, "zh-hant")
    for key in ROUTE_KEYS:
        expected = comparable_endpoints(traditional["routes"][key]["endpoints"])
        assert comparable_endpoints(by_parameter["routes"][key]["endpoints"]) == expected
    # Links still point where the request was sent.
    assert by_parameter["_links"]["up"] == [{"href": "http://testserver/zh-hans/wp-json/"}]


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_links_keep_the_language_prefix(api, language):
    body = index(api, language)
    assert body["_links"]["up"] == [{"href": f"http://testserver/{language}/wp-json/"}]
    assert body["routes"][f"{NS}/events"]["_links"]["self"] == [
        {"href": f"http://testserver/{language}/wp-json{NS}/events"}
    ]


@pytest.mark.parametrize("route", ROUTES, ids=[route.pattern or "/" for route in ROUTES])
def test_options_answers_with_the_index_entry(api, route):
    response = api.options(f"{API}{concrete_path(route)}")
    assert response.status_code == 200
    entry = index(api)["routes"][f"{NS}{route.pattern}"]
    answered = response.json()
    assert {**answered, "endpoints": comparable_endpoints(answered["endpoints"])} == {
        **entry,
        "endpoints": comparable_endpoints(entry["endpoints"]),
    }


def test_options_in_another_language(api):
    response = api.options(f"/zh-hant{API}/events")
    args = response.json()["endpoints"][0]["args"]
    with translation.override("zh-hant"):
        assert args["wpml_language"]["description"] == str(Params().fields["wpml_language"].help_text)


def test_root_index_lists_the_namespace(api):
    response = api.get("/wp-json/")
    assert response.status_code == 200
    assert events_settings.namespace in response.json()["namespaces"]


# Facts of docs/contract/discovery.md §1 that depend on what each parameter is (not only on how it is declared).
CONTRACT_ARGS = [
    ("/events", 0, "page", {"default": 1, "type": "integer", "required": False}),
    ("/events", 0, "per_page", {"default": 10, "type": "integer", "required": False}),
    ("/events", 0, "strict_dates", {"default": "false", "required": False}),
    ("/events", 0, "categories", {"items": {"type": "integer"}, "required": False}),
    ("/events", 0, "tags", {"items": {"type": "integer"}, "required": False}),
    ("/events", 0, "venue", {"items": {"type": "integer"}, "required": False}),
    ("/events", 0, "organizer", {"items": {"type": "integer"}, "required": False}),
    ("/events", 0, "include", {"items": {"type": "integer"}, "required": False}),
    ("/events", 0, "status", {"format": "string", "required": False}),
    ("/events", 0, "geoloc_lat", {"format": "double", "required": False}),
    ("/events", 0, "geoloc_lng", {"format": "double", "required": False}),
    ("/events", 1, "title", {"type": "string", "required": True}),
    ("/events", 1, "start_date", {"required": True}),
    ("/events", 1, "end_date", {"required": True}),
    ("/events", 1, "all_day", {"default": False, "required": False}),
    ("/events", 1, "website", {"default": None, "required": False}),
    ("/events", 1, "categories", {"default": None, "required": False}),
    ("/events", 1, "venue", {"default": None, "required": False}),
    ("/events", 1, "organizer", {"default": None, "required": False}),
    ("/events/(?P<id>\\d+)", 0, "id", {"type": "integer", "required": True}),
    ("/events/(?P<id>\\d+)", 0, "password", {"type": "string", "required": False}),
    ("/events/(?P<id>\\d+)", 2, "id", {"required": True}),
    ("/events/(?P<id>\\d+)", 2, "title", {"required": False}),
    ("/events/by-slug/(?P<slug>[^/]+)", 2, "slug", {"required": False}),
    ("/venues", 0, "only_with_upcoming", {"default": False, "required": False}),
    ("/venues", 1, "venue", {"required": True}),
    ("/venues", 1, "show_map", {"default": None, "required": False}),
    ("/venues/by-slug/(?P<slug>[^/]+)", 2, "slug", {"required": True}),
    ("/organizers", 0, "only_with_upcoming", {"default": False, "required": False}),
    ("/organizers", 1, "organizer", {"default": None, "required": True}),
    ("/organizers/by-slug/(?P<slug>[^/]+)", 2, "slug", {"required": True}),
    ("/categories", 0, "hide_empty", {"default": "1", "required": False}),
    ("/categories", 1, "name", {"required": True}),
    ("/tags", 0, "hide_empty", {"default": "1", "required": False}),
    ("/tags", 1, "name", {"required": True}),
]


@pytest.mark.parametrize(
    "pattern, position, name, expected",
    CONTRACT_ARGS,
    ids=[
        f"{pattern.split('/(')[0]}{'' if '(' not in pattern else '/{x}'}-{position}-{name}"
        for pattern, position, name, _ in CONTRACT_ARGS
    ],
)
def test_contract_facts_of_arguments(api, pattern, position, name, expected):
    args = index(api)["routes"][f"{NS}{pattern}"]["endpoints"][position]["args"]
    assert name in args
    assert {key: args[name].get(key, "<absent>") for key in expected} == expected


def test_events_list_date_defaults_are_computed_per_request(api):
    args = index(api)["routes"][f"{NS}/events"]["endpoints"][0]["args"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", args["start_date"]["default"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", args["end_date"]["default"])


@pytest.mark.parametrize("resource", ["events", "venues", "organizers"])
def test_update_endpoints_list_the_create_args_as_optional(api, resource):
    routes = index(api)["routes"]
    create = routes[f"{NS}/{resource}"]["endpoints"][1]["args"]
    update = routes[f"{NS}/{resource}/(?P<id>\\d+)"]["endpoints"][2]["args"]
    assert set(create) <= set(update)
    assert update["id"]["required"] is True
    assert [name for name, arg in update.items() if arg["required"]] == ["id"]
    for name in create:
        assert {key: value for key, value in update[name].items() if key != "required"} == {
            key: value for key, value in create[name].items() if key != "required"
        }, name


def test_root_index_lists_every_route_served_as_wordpress_does(api, monkeypatch):
    # The events list's default end date is read from the clock: both indexes at the same moment.
    from django.utils import timezone

    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    root = api.get("/wp-json/").json()
    namespace = api.get(API).json()
    assert root["namespaces"] == [events_settings.namespace, "events-calendar/v1", "wp/v2"]
    # Every route of the namespace index, with the same entry.
    for path, entry in namespace["routes"].items():
        assert root["routes"][path] == entry
    assert "/wp/v2/users/(?P<user_id>(?:\\d+|me))/application-passwords" in root["routes"]
    assert root["routes"]["/"]["_links"]["self"][0]["href"] == "http://testserver/wp-json/"
    # And nothing it does not serve: each listed route without path variables answers a GET.
    for path, entry in root["routes"].items():
        if "(?P<" not in path and "GET" in entry["methods"]:
            assert api.get(f"/wp-json{path}").status_code in (200, 401), path


def test_root_index_says_where_to_authorize_an_application(api, client):
    authentication = api.get("/wp-json/").json()["authentication"]
    page = authentication["application-passwords"]["endpoints"]["authorization"]
    assert page == "http://testserver/admin/events/applicationpassword/authorize/"
    # The page is there: it sends a visitor who is not signed in to the admin's login first.
    assert client.get(page.removeprefix("http://testserver"), {"app_name": "Sync"}).status_code == 302
    chinese = api.get("/zh-hant/wp-json/").json()["authentication"]
    assert chinese["application-passwords"]["endpoints"]["authorization"].startswith("http://testserver/zh-hant/admin/")
