"""A human-readable API reference page, rendered from the same OpenAPI document the `doc` route serves."""

from django.conf import settings
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from ..presentation.links import rest_root, reversed_rest_root, set_rest_root
from .calendar_doc import calendar_route_rows
from .openapi import build_document, openapi_path
from .routes import USER_ROUTES

METHOD_ORDER = ("get", "post", "delete")
CREDENTIAL_ACTIONS = {
    "list": _("The user's application passwords (`me` or a user ID)."),
    "create": _("Create one (`name`, optional `app_id`); the answer holds the password, shown only once."),
    "destroy_all": _("Revoke all of them."),
    "introspect": _("The application password that signed this request."),
    "retrieve": _("One application password."),
    "update": _("Rename it (`name`)."),
    "destroy": _("Revoke it."),
}


def _type_label(schema):
    if "anyOf" in schema:
        return " | ".join(_type_label(option) for option in schema["anyOf"])
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    kind = schema.get("type", "")
    if kind == "array":
        return f"{_type_label(schema.get('items', {}))}[]"
    return f"{kind} ({schema['format']})" if schema.get("format") else kind


def _parameters(parameters):
    return [
        {
            "name": parameter["name"],
            "location": parameter["in"],
            "type": _type_label(parameter["schema"]),
            "required": parameter["required"],
            "default": parameter["schema"].get("default"),
            "enum": parameter["schema"].get("enum"),
            "csv": parameter.get("explode") is False,
            "description": parameter["description"],
        }
        for parameter in parameters
    ]


def _operations(document):
    for path, item in document["paths"].items():
        for method in METHOD_ORDER:
            operation = item.get(method)
            if operation is None:
                continue
            body = operation.get("requestBody", {}).get("content", {})
            body_schema = next(iter(body.values()), {}).get("schema", {})
            yield {
                "anchor": f"{method}-{path.strip('/').replace('/', '-').replace('{', '').replace('}', '')}",
                "method": method.upper(),
                "path": path,
                "summary": operation.get("summary", ""),
                "parameters": _parameters(operation.get("parameters", [])),
                "body": [
                    {"name": name, "type": _type_label(schema), "description": schema.get("description", "")}
                    for name, schema in body_schema.get("properties", {}).items()
                ],
                "responses": [
                    {"status": status, "description": response["description"]}
                    for status, response in operation["responses"].items()
                ],
            }


def _schemas(document):
    return [
        {
            "name": name,
            "properties": [
                {"name": field, "type": _type_label(schema), "description": schema.get("description", "")}
                for field, schema in definition.get("properties", {}).items()
            ],
        }
        for name, definition in document["components"]["schemas"].items()
    ]


def _credential_routes(rest_root):
    """WordPress's application-password routes, which live outside the calendar's namespace."""
    return [
        {
            "method": "/".join(endpoint.methods),
            "path": f"{rest_root}{route.namespace}{openapi_path(route)}",
            "description": CREDENTIAL_ACTIONS[endpoint.action],
        }
        for route in USER_ROUTES
        for endpoint in route.endpoints
    ]


def _language_links(request):
    current = translation.get_language()
    links = []
    for code, name in settings.LANGUAGES:
        with translation.override(code):
            links.append({"code": code, "name": name, "url": reverse("events_api_browser"), "current": code == current})
    return links


def api_browser(request):
    """`/api-docs/` (and `/zh-hans/api-docs/`, `/zh-hant/api-docs/`): the API reference for people."""
    set_rest_root(request, reversed_rest_root(request))
    document = build_document(request)
    server = document["servers"][0]["url"]
    context = {
        "info": document["info"],
        "server": server,
        "doc_url": f"{server}doc",
        "operations": list(_operations(document)),
        "schemas": _schemas(document),
        "credential_routes": _credential_routes(rest_root(request)),
        "calendar_routes": calendar_route_rows(request),
        # The CSRF token, sent as X-WP-Nonce by the page's requests (an anonymous visitor's is unused).
        "nonce": get_token(request),
        "languages": _language_links(request),
    }
    return render(request, "events/api_browser.html", context)
