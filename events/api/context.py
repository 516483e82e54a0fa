"""What the API knows about one request beyond Django's own attributes: the rendering context of
events.presentation, and what only the API learns (docs/architecture-request.md says what each
field holds and who sets it)."""

import copy

from ..presentation.rendering import CONTEXT_ATTRIBUTE, RenderingContext, rendering_context


class ApiContext(RenderingContext):
    """One request's facts, as the API learns them (None until then)."""

    __slots__ = ("route", "caller", "read_cache_entry")

    def __init__(self):
        super().__init__()
        self.route = self.caller = self.read_cache_entry = None


def api_context(request):
    """The ApiContext of `request`, made on first use."""
    return rendering_context(request, ApiContext)


def request_copy(request):
    """A shallow copy of the Django `request` with a copy of its context: what answering the copy
    learns (its parameters, its caller) stays the copy's own."""
    copied = copy.copy(request)
    setattr(copied, CONTEXT_ATTRIBUTE, copy.copy(api_context(request)))
    return copied
