"""What rendering a record reads of a request beyond Django's own attributes: one context, kept
under one attribute of the request (docs/architecture-request.md)."""

from types import MappingProxyType

from rest_framework.request import Request

from ..internals import drf_wrapped_request

# Read-only: a request nobody routed (a public page, a store rendering, a webhook payload) sent none.
NO_PARAMS = MappingProxyType({})
CONTEXT_ATTRIBUTE = "events_context"


class RenderingContext:
    """The request facts records are rendered from: where their links start, the host of their
    global IDs, and the parameters sent (a record's password and `context=edit` unlock it)."""

    __slots__ = ("raw_params", "rest_root", "global_id_base")

    def __init__(self):
        self.raw_params = NO_PARAMS
        self.rest_root = self.global_id_base = None

    def take_over(self, other):
        """Adopt what `other` (a context of the same request made before this one) learnt."""
        for name in RenderingContext.__slots__:
            setattr(self, name, getattr(other, name))


def rendering_context(request, kind=RenderingContext):
    """The context of `request` (Django's, or DRF's around one), made on first use as a `kind`: a
    context of another kind made before keeps what it learnt in the new one."""
    if isinstance(request, Request):
        request = drf_wrapped_request(request)
    context = getattr(request, CONTEXT_ATTRIBUTE, None)
    if not isinstance(context, kind):
        made = kind()
        if context is not None:
            made.take_over(context)
        context = made
        setattr(request, CONTEXT_ATTRIBUTE, context)
    return context
