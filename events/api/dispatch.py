"""A WordPress-style router in front of the viewsets.

WordPress matches routes case-insensitively, ignores a trailing slash, answers every unknown route
or method with 404 rest_no_route (never 405), honours `_method` / `X-HTTP-Method-Override`, serves
HEAD like GET and answers OPTIONS from the namespace index. Django's resolver does none of that,
so the app mounts one view and routes here.
"""

import json
import re
from contextlib import nullcontext
from functools import lru_cache, partial

from django.core.exceptions import TooManyFieldsSent
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from rest_framework.response import Response

from .. import deadline, list_versions
from ..conf import events_settings
from ..internals import drf_request_as
from ..queries.params import LANGUAGE_CODES
from . import conditional, errors, idempotency, read_cache
from .context import api_context
from .parsing import collect_params
from .renderers import JSONText, WPJSONRenderer
from .routes import CALENDAR_ROUTES, ROUTES, USER_ROUTES

OVERRIDABLE = {"PUT", "PATCH", "DELETE", "GET", "POST"}
# WordPress's list, and the conditional and idempotent request headers this API adds (docs/api.md).
CORS_ALLOW_HEADERS = "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, If-Match, If-None-Match, Idempotency-Key"


@lru_cache(maxsize=4)
def compiled_routes(namespace):
    # `namespace` (the calendar's, a setting) is the cache key; each route knows its own namespace.
    return [
        (re.compile(rf"^/{re.escape(route.namespace)}{route.pattern}$", re.IGNORECASE), route)
        for route in (*ROUTES, *USER_ROUTES, *CALENDAR_ROUTES)
    ]


def match_route(path):
    """(route, path kwargs) for a path like `/tribe/events/v1/events/12`, or (None, None)."""
    for regex, route in compiled_routes(events_settings.namespace):
        match = regex.match(path)
        if match:
            return route, match.groupdict()
    return None, None


def effective_method(request):
    method = request.method.upper()
    if method == "POST":
        override = request.META.get("HTTP_X_HTTP_METHOD_OVERRIDE") or request.GET.get("_method")
        if override and override.upper() in OVERRIDABLE:
            return override.upper()
    if method == "HEAD":
        return "GET"
    return method


def render(response):
    """Give a DRF Response produced outside a view the renderer it needs."""
    if isinstance(response, Response) and not getattr(response, "accepted_renderer", None):
        response.accepted_renderer = WPJSONRenderer()
        response.accepted_media_type = WPJSONRenderer.media_type
        response.renderer_context = {}
    return response


@csrf_exempt
def rest_dispatch(request, path=""):
    """The single entry point of the REST root (`{root}`, i.e. `/wp-json/`).

    An answer from the read cache comes finished (WordPress headers, validators and caching rules
    were stored with it), so a hit, and above all a 304, costs one cache round trip and no more.
    """
    original_method = request.method.upper()
    cacheable = read_cache.is_cacheable(request)
    response = read_cache.fetch(request) if cacheable else None
    if response is None:
        api_context(request).rest_root = request.build_absolute_uri(request.path[: len(request.path) - len(path)])
        response = _answered(request, "/" + path.strip("/"), original_method)
        if cacheable:
            read_cache.store(request, response)
    if original_method in ("GET", "HEAD"):
        response = conditional.not_modified_or(request, response)
    _add_cors_headers(request, response)
    if original_method == "HEAD":
        response.content = b""
    return response


def _answered(request, route_path, original_method):
    """The rendered answer to the request, with its WordPress headers and, for reads, validators.

    The dispatch runs within the request's time budget inside the `try`, so that its interruption
    is answered like any other fault, by an answer that is itself never interrupted
    (events/deadline.py).
    """
    try:
        response = deadline.within_budget(
            partial(_dispatch, request, route_path), write=effective_method(request) in conditional.WRITE_METHODS
        )
    except errors.ApiError as error:
        response = error.as_response()
    except errors.DATABASE_FAILURES as error:
        response = errors.database_failure(request, error).as_response()
    except Exception:  # noqa: BLE001 - the contract promises a JSON error, never an HTML 500
        errors.logger.exception("Unhandled error while serving %s %s", request.method, request.get_full_path())
        response = errors.internal_error().as_response()
    response = render(response)
    _add_wordpress_headers(request, response)
    if isinstance(response, Response):
        response = _apply_global_params(request, response)
    if hasattr(response, "render"):
        response.render()
    if original_method in ("GET", "HEAD"):
        caller = api_context(request).caller
        signed_in = bool(caller is not None and caller.is_authenticated) or "HTTP_AUTHORIZATION" in request.META
        conditional.add_validators(request, response, signed_in)
    return response


def _dispatch(request, route_path):
    if not events_settings.REST_API_ENABLED:
        raise errors.no_route()
    if route_path == "/":
        from .views.discovery import root_index

        return root_index(request)
    route, kwargs = match_route(route_path)
    if route is None:
        raise errors.no_route()
    method = effective_method(request)
    context = api_context(request)
    context.route = route
    if method == "OPTIONS":
        return _options_answer(request, route, kwargs)
    endpoint = route.endpoint_for(method)
    if endpoint is None:
        raise errors.no_route()
    request.method = method
    return idempotency.once(request, route_path, lambda: _run(request, route_path, route, endpoint, kwargs))


def _run(request, route_path, route, endpoint, kwargs):
    context = api_context(request)
    if_match = conditional.if_match_holds(request, route_path, _dispatch) if route.has_path_variable else nullcontext()
    reading = list_versions.state_per_read() if request.method == "GET" else nullcontext()
    with if_match, reading:
        context.raw_params = collect_params(request, kwargs)
        with translation.override(_requested_language(context.raw_params)):
            response = route.views[endpoint.action](request, **kwargs)
            if isinstance(response, Response):
                # Render inside the language override: lazy strings resolve in the request's language.
                response.render()
    return response


def _options_answer(request, route, path_params):
    """The route's index entry, its descriptions in the language a GET would use.

    WordPress answers OPTIONS before validating parameters, so an invalid language value is not
    refused here: the path's language applies.
    """
    from .views.discovery import route_entry

    with translation.override(_requested_language(collect_params(request, path_params))):
        return Response(route_entry(request, route))


def _requested_language(params):
    """The language parameter overrides the path's language; an invalid value is refused later."""
    value = params.get(events_settings.language_param)
    if isinstance(value, str) and value.lower() in LANGUAGE_CODES:
        return value.lower()
    return translation.get_language()


def _add_wordpress_headers(request, response):
    context = api_context(request)
    response["Link"] = f'<{context.rest_root}>; rel="https://api.w.org/"'
    response["X-Content-Type-Options"] = "nosniff"
    response["X-Robots-Tag"] = "noindex"
    if context.route is not None:
        response["Allow"] = ", ".join(_allowed_methods(request, context.route))


def _add_cors_headers(request, response):
    """CORS headers, which depend on the request's Origin and so are never stored with a read."""
    origin = request.META.get("HTTP_ORIGIN")
    if origin:
        # Every origin may read what anonymous clients read (and sign with Basic credentials of its
        # own); only the listed ones may have the browser attach the visitor's session cookie.
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Allow-Methods"] = "OPTIONS, GET, POST, PUT, PATCH, DELETE"
        if origin in events_settings.CORS_CREDENTIALS_ORIGINS:
            response["Access-Control-Allow-Credentials"] = "true"
        response["Access-Control-Expose-Headers"] = "X-WP-Total, X-WP-TotalPages, Link, ETag, Retry-After"
        response["Access-Control-Allow-Headers"] = CORS_ALLOW_HEADERS
        patch_vary_headers(response, ("Origin",))


def _allowed_methods(request, route):
    """Methods of the matched route whose permission check the caller passes (WordPress `Allow`).

    Worked out for every answer, an anonymous caller's too: it costs about 15 µs, under 1 % of the
    cheapest API read (docs/architecture-memories.md, "Measured, and removed")."""
    user = api_context(request).caller or getattr(request, "user", None)
    return _methods_allowed_to(request, route, user)


def _methods_allowed_to(request, route, user):
    """Methods of the matched route whose permission check `user` passes (WordPress `Allow`)."""
    drf_request = drf_request_as(request, user)
    allowed = []
    for endpoint in route.endpoints:
        try:
            permitted = route.viewset.allows(endpoint.action, drf_request)
        except Exception:  # noqa: BLE001 - a header must never turn a response into an error
            permitted = False
        if permitted:
            allowed.extend(method for method in endpoint.methods if method not in allowed)
    return allowed


def _apply_global_params(request, response):
    """`_fields` (keep these top-level keys) and `_envelope` (always 200, status in the body)."""
    try:
        query = request.GET
    except TooManyFieldsSent:
        return response  # the refusal of the query string itself (collect_params), or of its route
    data, fields, envelope = response.data, query.get("_fields"), "_envelope" in query
    if isinstance(data, JSONText) and (fields or envelope):
        data = json.loads(data)
    selected = fields and isinstance(data, dict) and response.status_code < 400
    if not (selected or envelope):
        return response
    if selected:
        wanted = [name.strip() for name in fields.split(",") if name.strip()]
        data = {key: value for key, value in data.items() if key in wanted}
    headers = {key: value for key, value in response.items() if key.lower() not in ("content-type", "content-length")}
    if envelope:
        data = {"body": data, "status": response.status_code, "headers": headers}
    rebuilt = render(Response(data, status=200 if envelope else response.status_code))
    for key, value in headers.items():
        rebuilt[key] = value
    rebuilt.render()
    return rebuilt
