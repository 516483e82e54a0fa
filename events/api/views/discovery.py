"""The REST root index, the namespace index and OPTIONS answers, generated from the route table."""

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _
from rest_framework.fields import empty
from rest_framework.response import Response

from ...conf import events_settings
from ...presentation.links import rest_root
from .. import errors
from ..openapi import build_document, params_fields
from ..parameters.fields import Params, RawParam
from ..routes import CALENDAR_ROUTES, ROUTES, USER_ROUTES
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
    return {name: describe_param(field) for name, field in params_fields(route, endpoint.action).items()}


def route_entry(request, route):
    entry = {
        "namespace": route.namespace,
        "methods": route.methods,
        "endpoints": [
            {"methods": list(endpoint.methods), "args": endpoint_args(route, endpoint) or []}
            for endpoint in route.endpoints
        ],
    }
    if not route.has_path_variable:
        entry["_links"] = {"self": [{"href": f"{rest_root(request)}{route.namespace}{route.pattern}"}]}
    return entry


def root_index(request):
    """`GET {root}`: WordPress's root index: the site, its namespaces, how to authenticate, every route."""
    served = (*ROUTES, *CALENDAR_ROUTES, *USER_ROUTES)
    routes = {
        "/": {
            "namespace": "",
            "methods": ["GET"],
            "endpoints": [{"methods": ["GET"], "args": {"context": {"default": "view", "required": False}}}],
            "_links": {"self": [{"href": rest_root(request)}]},
        },
        **{f"/{route.namespace}{route.pattern}": route_entry(request, route) for route in served},
    }
    return Response(
        {
            "name": request.get_host(),
            "url": request.build_absolute_uri("/"),
            "home": request.build_absolute_uri("/"),
            "namespaces": list(dict.fromkeys(route.namespace for route in served)),
            "authentication": _authentication(request),
            "routes": routes,
            "_links": {"help": []},
        }
    )


def _authentication(request):
    """Where a client starts WordPress's authorize-application flow (docs/api.md), as WordPress lists
    it; an empty list, as WordPress gives, on a site that does not serve the admin's page."""
    try:
        page = reverse("admin:events_authorize_application")
    except NoReverseMatch:
        return []
    return {"application-passwords": {"endpoints": {"authorization": request.build_absolute_uri(page)}}}


class NamespaceIndexParams(Params):
    # WordPress declares these two with a default only: no type, no description (docs/contract/discovery.md §1).
    namespace = RawParam(default=lambda: events_settings.namespace)
    context = RawParam(default="view")


class NamespaceIndexViewSet(WPViewSet):
    params_classes = {"index": NamespaceIndexParams}

    def index(self, request, *args, **kwargs):
        if self.params["namespace"] != events_settings.namespace:
            raise errors.ApiError("rest_invalid_namespace", _("The specified namespace could not be found."), 404)
        routes = {f"/{route.namespace}{route.pattern}": route_entry(request, route) for route in ROUTES}
        return Response(
            {"namespace": events_settings.namespace, "routes": routes, "_links": {"up": [{"href": rest_root(request)}]}}
        )


class DocViewSet(WPViewSet):
    """`GET /doc`: the OpenAPI 3.0.0 document, generated per request in the request's language."""

    def doc(self, request, *args, **kwargs):
        return Response(build_document(request))
