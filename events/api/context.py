"""What the API knows about one request beyond Django's own attributes, kept in one object under
`request.events_api` (docs/architecture-request.md says what each field holds and who sets it)."""

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
        self.raw_params = NO_PARAMS
        self.rest_root = self.route = self.caller = self.read_cache_entry = self.global_id_base = None


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
