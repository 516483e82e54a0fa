"""What the API knows about one request beyond Django's own attributes, kept in one object.

The dispatcher, the viewsets, the authentication and the read cache each learn something about the
request being answered, and the serializers and link builders read it back. It travels as one
ApiContext under `request.events_api` (as Django keeps `request.user`), reached only through
api_context(), which accepts Django's HttpRequest, DRF's Request around one, and the store's
rendering stand-in alike. docs/architecture-request.md says who sets each field.
"""
import copy
from types import MappingProxyType

from rest_framework.request import Request

from ..internals import drf_wrapped_request

# Read-only: a request the dispatcher did not route (a public page, a store rendering) sent none.
NO_PARAMS = MappingProxyType({})


class ApiContext:
    """One request's facts, as the API learns them (None until then)."""

    __slots__ = ("raw_params", "rest_root", "route", "caller", "read_cache_entry", "global_id_base")

    def __init__(self):
        # The parameters as sent, path, query string and body merged WordPress's way (events.api.parsing).
        self.raw_params = NO_PARAMS
        # The absolute REST root the request's links start from (`…/zh-hans/wp-json/`).
        self.rest_root = None
        # The events.api.routes.Route the path matched.
        self.route = None
        # The user the viewset authenticated (Basic, session with nonce, token), not Django's session user.
        self.caller = None
        # (cache key, calendar version) of an anonymous read the read cache missed, to store its answer under.
        self.read_cache_entry = None
        # (REST root, `{host}{path}` of global IDs): worked out once per request and REST root.
        self.global_id_base = None


def api_context(request):
    """The ApiContext of `request`, made on first use."""
    if isinstance(request, Request):
        request = drf_wrapped_request(request)
    context = getattr(request, "events_api", None)
    if context is None:
        context = request.events_api = ApiContext()
    return context


def request_copy(request):
    """A shallow copy of the Django `request` with a copy of its context: what answering the copy
    learns (its parameters, its caller) stays the copy's own."""
    copied = copy.copy(request)
    copied.events_api = copy.copy(api_context(request))
    return copied
