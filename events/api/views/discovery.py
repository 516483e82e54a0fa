"""The REST root index, the namespace index and OPTIONS answers, generated from the route table."""
from django.utils.translation import gettext_lazy as _
from rest_framework.fields import empty
from rest_framework.response import Response

from ...conf import events_settings
from .. import errors
from ..links import rest_root
from ..openapi import build_document
from ..params import Params, RawParam
from ..routes import CALENDAR_NAMESPACE, ROUTES
from .base import WPViewSet


def describe_param(field):
    """A parameter as the WordPress index publishes it: only the keys that are declared."""
    entry = {}
    if field.help_text:
        entry["description"] = str(field.help_text)
    if getattr(field, "wp_type", None):
        entry["type"] = field.wp_type
    if getattr(field, "wp_format", None):
        entry["format"] = field.wp_format
    if field.default is not empty:
        default = field.default
        entry["default"] = default() if callable(default) else default
    if getattr(field, "wp_items", None):
        entry["items"] = field.wp_items
    if getattr(field, "enum", None):
        entry["enum"] = list(field.enum)
    entry["required"] = bool(field.required)
    return entry


def endpoint_args(route, endpoint):
    params_class = route.viewset.params_classes.get(endpoint.action) or Params
    return {name: describe_param(field) for name, field in params_class().fields.items()}


def route_key(route):
    return f"/{route.namespace}{route.pattern}"


def route_entry(request, route):
    entry = {
        "namespace": route.namespace,
        "methods": route.methods,
        "endpoints": [
            {"methods": list(endpoint.methods), "args": endpoint_args(route, endpoint) or []} for endpoint in route.endpoints
        ],
    }
    if not route.has_path_variable:
        entry["_links"] = {"self": [{"href": f"{rest_root(request)}{route.namespace}{route.pattern}"}]}
    return entry


def root_index(request):
    """`GET {root}`: enough of WordPress's root index for clients to detect the namespace."""
    return Response(
        {
            "name": request.get_host(),
            "url": request.build_absolute_uri("/"),
            "home": request.build_absolute_uri("/"),
            "namespaces": [events_settings.namespace, CALENDAR_NAMESPACE],
            "authentication": [],
            "routes": {},
            "_links": {"help": []},
        }
    )


class NamespaceIndexParams(Params):
    # WordPress declares these two with a default only: no type, no description (discovery.md §1).
    namespace = RawParam(default=lambda: events_settings.namespace)
    context = RawParam(default="view")


class NamespaceIndexViewSet(WPViewSet):
    params_classes = {"index": NamespaceIndexParams}

    def index(self, request, *args, **kwargs):
        if self.params["namespace"] != events_settings.namespace:
            raise errors.ApiError("rest_invalid_namespace", _("The specified namespace could not be found."), 404)
        routes = {route_key(route): route_entry(request, route) for route in ROUTES}
        return Response(
            {
                "namespace": events_settings.namespace,
                "routes": routes,
                "_links": {"up": [{"href": rest_root(request)}]},
            }
        )


class DocViewSet(WPViewSet):
    """`GET /doc`: the OpenAPI 3.0.0 document, generated per request in the request's language."""

    params_classes = {"doc": Params}

    def doc(self, request, *args, **kwargs):
        return Response(build_document(request))
