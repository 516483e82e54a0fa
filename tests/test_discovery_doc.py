"""The `doc` route: a valid OpenAPI 3.0.0 document generated from the routes, in the request's language."""

import pytest
from django.utils import translation
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate as validate_openapi

from events.api.openapi import openapi_path
from events.api.parameters.fields import Params
from events.api.routes import ROUTES
from events.conf import events_settings

from .conftest import API
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_venue

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "zh-hans", "zh-hant"]
PATHS = [
    "/doc",
    "/events",
    "/events/{id}",
    "/events/by-slug/{slug}",
    "/venues",
    "/venues/{id}",
    "/venues/by-slug/{slug}",
    "/organizers",
    "/organizers/{id}",
    "/organizers/by-slug/{slug}",
    "/categories",
    "/categories/{id}",
    "/tags",
    "/tags/{id}",
]
SCHEMAS = ["ImageSize", "CostDetails", "Term", "Image", "DateDetails", "Event", "Venue", "Organizer"]


def fetch_doc(client, language="en", **extra):
    prefix = "" if language == "en" else f"/{language}"
    response = client.get(f"{prefix}{API}/doc", **extra)
    assert response.status_code == 200
    return response.json()


def route_for(path):
    return next(route for route in ROUTES if route.pattern and openapi_path(route) == path)


def fields_of(route, action):
    return route.viewset.get_params_class(action)().fields


def action_of(route, kind):
    return next(endpoint.action for endpoint in route.endpoints if endpoint.action.removesuffix("_by_slug") == kind)


@pytest.mark.parametrize("language", LANGUAGES)
def test_document_is_valid_openapi_3_0_0(api, language):
    document = fetch_doc(api, language)
    validate_openapi(document)
    assert list(document) == ["openapi", "info", "components", "servers", "paths"]
    assert document["openapi"] == "3.0.0"
    assert document["info"]["version"] == "1.0.0"
    assert document["info"]["title"] == "The Events Calendar REST API"
    assert document["info"]["description"]


def test_info_description_is_translated_per_language(api):
    descriptions = {language: fetch_doc(api, language)["info"]["description"] for language in LANGUAGES}
    assert len(set(descriptions.values())) == 3
    assert descriptions["en"].startswith("The Events Calendar REST API")


@pytest.mark.parametrize(
    "language, extra, expected",
    [
        ("en", {}, "http://testserver/wp-json/tribe/events/v1/"),
        ("en", {"HTTP_HOST": "localhost:8080"}, "http://localhost:8080/wp-json/tribe/events/v1/"),
        ("zh-hant", {}, "http://testserver/zh-hant/wp-json/tribe/events/v1/"),
        ("zh-hans", {"HTTP_HOST": "127.0.0.1:8000"}, "http://127.0.0.1:8000/zh-hans/wp-json/tribe/events/v1/"),
    ],
    ids=["plain", "port-kept", "language-prefix", "prefix-and-port"],
)
def test_server_url_is_the_namespace_root_with_trailing_slash(api, language, extra, expected):
    assert fetch_doc(api, language, **extra)["servers"] == [{"url": expected}]


def test_server_url_follows_the_vendor_setting(api, settings):
    settings.EVENTS = {"NAMESPACE_VENDOR": "acme"}
    response = api.get("/wp-json/acme/events/v1/doc")
    assert response.json()["servers"][0]["url"] == "http://testserver/wp-json/acme/events/v1/"


def test_paths_in_contract_order_with_their_operations(api):
    paths = fetch_doc(api)["paths"]
    assert list(paths) == PATHS
    # The plugin's document lists get on every path and post and delete on single records
    # (docs/contract/discovery.md §2), in that order; every other method the server routes follows:
    # the creates' post, and the updates' put and patch.
    expected = {path: ["get", "post"] for path in PATHS}
    expected["/doc"] = ["get"]
    for path in PATHS:
        if "{" in path:
            expected[path] = ["get", "post", "delete", "put", "patch"]
    assert {path: list(item) for path, item in paths.items()} == expected


def test_every_routed_method_is_documented(api):
    paths = fetch_doc(api)["paths"]
    for route in ROUTES:
        if route.pattern:
            assert sorted(paths[openapi_path(route)]) == sorted(method.lower() for method in route.methods)


@pytest.mark.parametrize("path", [path for path in PATHS if "{" in path])
def test_updates_are_documented_alike_for_post_put_and_patch(api, path):
    item = fetch_doc(api)["paths"][path]
    assert item["put"] == item["post"] == item["patch"]


@pytest.mark.parametrize("path", [path for path in PATHS if "{" not in path and path != "/doc"])
def test_creates_take_the_create_parameters_as_a_body(api, path):
    operation = fetch_doc(api)["paths"][path]["post"]
    declared = fields_of(route_for(path), "create")
    body = operation["requestBody"]
    schema = body["content"]["application/x-www-form-urlencoded"]["schema"]
    assert list(schema["properties"]) == [name for name in declared if name != events_settings.language_param]
    assert schema["required"] == [name for name, field in declared.items() if field.required]
    assert body["required"] is True
    assert [p["name"] for p in operation["parameters"]] == [events_settings.language_param]
    assert set(operation["responses"]) == {"201", "400", "401", "403"}
    assert operation["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].startswith(
        "#/components/schemas/"
    )


@pytest.mark.parametrize("path", [path for path in PATHS if "{" in path])
def test_path_variables_are_as_strict_as_the_routes(api, path):
    for operation in fetch_doc(api)["paths"][path].values():
        (variable,) = [p for p in operation["parameters"] if p["in"] == "path"]
        # No record has ID 0 (venue, organizer and term routes refuse it, event routes find nothing);
        # a path segment is never empty.
        expected = {"type": "integer", "minimum": 1} if variable["name"] == "id" else {"type": "string", "minLength": 1}
        assert variable["schema"] == expected


def test_doc_operation_documents_the_answers_the_server_gives(api):
    operation = fetch_doc(api)["paths"]["/doc"]["get"]
    # The plugin's document has only the 200 (docs/contract/discovery.md §2); a conditional request
    # and an unknown language are answered too.
    assert list(operation["responses"]) == ["200", "304", "400"]
    assert operation["responses"]["200"]["description"]
    assert api.get(f"{API}/doc", {"wpml_language": "fr"}).status_code == 400


def test_components_are_the_record_shapes(api):
    schemas = fetch_doc(api)["components"]["schemas"]
    assert list(schemas) == SCHEMAS
    assert all(schema["type"] == "object" and schema["properties"] for schema in schemas.values())
    # The plugin's declarations are wrong here; the document describes what the API returns.
    assert schemas["DateDetails"]["properties"]["year"]["type"] == "string"
    assert schemas["CostDetails"]["properties"]["values"]["items"] == {"type": "string"}
    assert "currency_position" in schemas["CostDetails"]["properties"]
    assert schemas["Event"]["properties"]["author"]["type"] == "string"
    assert schemas["Event"]["properties"]["start_date_details"] == {"$ref": "#/components/schemas/DateDetails"}
    assert schemas["Event"]["properties"]["cost_details"] == {"$ref": "#/components/schemas/CostDetails"}


@pytest.mark.parametrize("path", [path for path in PATHS if "{" not in path and path != "/doc"])
def test_list_parameters_are_the_declared_query_parameters(api, path):
    operation = fetch_doc(api)["paths"][path]["get"]
    route = route_for(path)
    declared = fields_of(route, "list")
    parameters = operation["parameters"]
    assert [parameter["name"] for parameter in parameters] == list(declared)
    assert events_settings.language_param in declared
    for parameter in parameters:
        field = declared[parameter["name"]]
        assert parameter["in"] == "query"
        assert parameter["required"] is False
        assert parameter["description"] == str(field.help_text)
        assert "type" in parameter["schema"]
        if parameter["schema"]["type"] == "array":
            assert (parameter["style"], parameter["explode"]) == ("form", False)
            assert "type" in parameter["schema"]["items"]
        else:
            assert "style" not in parameter
    collection = path.strip("/")
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    record = "Term" if collection in ("categories", "tags") else collection[:-1].capitalize()
    assert schema["properties"][collection]["items"] == {"$ref": f"#/components/schemas/{record}"}
    assert set(operation["responses"]) == {"200", "304", "400", "404"}


@pytest.mark.parametrize("path", [path for path in PATHS if "{" in path])
def test_single_operations_take_the_path_variable_and_the_create_body(api, path):
    item = fetch_doc(api)["paths"][path]
    route = route_for(path)
    variable = path.rsplit("{", 1)[1].rstrip("}")
    for method in ("get", "post", "delete"):
        path_parameters = [p for p in item[method]["parameters"] if p["in"] == "path"]
        assert [(p["name"], p["required"]) for p in path_parameters] == [(variable, True)]
        assert path_parameters[0]["description"]
        expected_type = "integer" if variable == "id" else "string"
        assert path_parameters[0]["schema"]["type"] == expected_type
        assert events_settings.language_param in [p["name"] for p in item[method]["parameters"]]
    read_names = [p["name"] for p in item["get"]["parameters"]]
    assert read_names == [
        variable,
        *[name for name in fields_of(route, action_of(route, "retrieve")) if name != variable],
    ]
    delete_names = [p["name"] for p in item["delete"]["parameters"]]
    assert delete_names == [
        variable,
        *[name for name in fields_of(route, action_of(route, "destroy")) if name != variable],
    ]
    body = item["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"]
    assert body["type"] == "object"
    # The language is a query parameter (above): a body's value would win over it.
    create_fields = [name for name in fields_of(route, "create") if name != events_settings.language_param]
    assert list(body["properties"]) == create_fields
    assert "required" not in body
    assert all("description" in spec for spec in body["properties"].values())
    assert {"200", "400", "403"} <= set(item["post"]["responses"])
    assert {"200", "400", "403", "410"} <= set(item["delete"]["responses"])
    assert {"200", "400", "403", "404"} <= set(item["get"]["responses"])


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_parameter_descriptions_follow_the_request_language(api, language):
    english = fetch_doc(api)
    translated = fetch_doc(api, language)
    for path in PATHS:
        route = route_for(path)
        for method, operation in translated["paths"][path].items():
            if "{" in path:
                # An update's query parameters are the read's.
                action = "destroy" if method == "delete" else "retrieve"
            else:
                action = {"get": "list", "post": "create"}[method]
            if path == "/doc":
                action = "doc"
            fields = fields_of(route, action if path == "/doc" else action_of(route, action))
            for parameter in operation["parameters"]:
                field = fields.get(parameter["name"])
                if field is None:
                    continue
                with translation.override(language):
                    assert parameter["description"] == str(field.help_text)
    assert translated["paths"]["/events"]["get"]["summary"] != english["paths"]["/events"]["get"]["summary"]
    event_fields = translated["components"]["schemas"]["Event"]["properties"]
    assert (
        event_fields["title"]["description"]
        != english["components"]["schemas"]["Event"]["properties"]["title"]["description"]
    )


def test_wpml_language_parameter_overrides_the_path_language(api):
    by_parameter = api.get(f"{API}/doc", {"wpml_language": "zh-hant"}).json()
    assert by_parameter["info"]["description"] == fetch_doc(api, "zh-hant")["info"]["description"]
    # The server URL is where the request was sent: the path language stays in it.
    assert by_parameter["servers"][0]["url"] == "http://testserver/wp-json/tribe/events/v1/"


def test_invalid_language_is_refused(api):
    response = api.get(f"{API}/doc", {"wpml_language": "fr"})
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_param"


def test_doc_is_public_and_has_the_wordpress_headers(api):
    response = api.get(f"{API}/doc")
    assert response["Content-Type"] == "application/json; charset=UTF-8"
    assert response["Allow"] == "GET"


def schema_validator(document, schema):
    return OAS30Validator({**schema, "components": document["components"]})


@pytest.fixture
def calendar(db):
    image = make_image()
    venue = make_venue("Hall", city="Rome", image=image)
    organizer = make_organizer("Ada", email="ada@example.org")
    category = make_category("Jazz")
    tag = make_tag("Outdoor")
    event = make_event(
        "Concert", venue=venue, organizers=[organizer], categories=[category], tags=[tag], image=image, cost=["10"]
    )
    return {"event": event, "venue": venue, "organizer": organizer, "category": category, "tag": tag}


@pytest.mark.parametrize(
    "path, template",
    [
        ("/events", "/events"),
        ("/events/{event}", "/events/{id}"),
        ("/venues", "/venues"),
        ("/venues/{venue}", "/venues/{id}"),
        ("/organizers", "/organizers"),
        ("/organizers/{organizer}", "/organizers/{id}"),
        ("/categories?hide_empty=0", "/categories"),
        ("/categories/{category}", "/categories/{id}"),
        ("/tags?hide_empty=0", "/tags"),
        ("/tags/{tag}", "/tags/{id}"),
    ],
    ids=["events", "event", "venues", "venue", "organizers", "organizer", "categories", "category", "tags", "tag"],
)
def test_responses_match_their_documented_schema(api, calendar, path, template):
    document = fetch_doc(api)
    url = API + path.format(**{name: record.pk for name, record in calendar.items()})
    response = api.get(url)
    assert response.status_code == 200, response.content
    schema = document["paths"][template]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    errors = [error.message for error in schema_validator(document, schema).iter_errors(response.json())]
    assert errors == []


def test_error_responses_match_the_documented_error_shape(api):
    document = fetch_doc(api)
    schema = document["paths"]["/events/{id}"]["get"]["responses"]["404"]["content"]["application/json"]["schema"]
    response = api.get(f"{API}/events/999999")
    assert response.status_code == 404
    assert list(schema_validator(document, schema).iter_errors(response.json())) == []


def test_api_reference_page_lists_every_operation(client):
    response = client.get("/api-docs/")
    assert response.status_code == 200
    page = response.content.decode()
    for path in PATHS:
        assert f"<code>{path}</code>" in page
    assert "<code>per_page</code>" in page
    assert "http://testserver/wp-json/tribe/events/v1/doc" in page
    # Self-contained: the machine serving it may have no internet access.
    assert "<script src" not in page and 'rel="stylesheet"' not in page


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_api_reference_page_in_each_language(client, language):
    page = client.get(f"/{language}/api-docs/").content.decode()
    description = fetch_doc(client, language)["info"]["description"]
    assert description in page
    assert f'lang="{language}"' in page
    assert f"http://testserver/{language}/wp-json/tribe/events/v1/" in page
