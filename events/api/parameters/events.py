"""Parameters of the event read routes (by ID, by slug) and the event lookups they share with writes."""

from functools import partial

from django.utils.translation import gettext_lazy as _

from ...models import Event, PostIdentity, PostKind
from ...queries.params import (
    MAX_RECORD_ID,
    record_id_for_slug,
)
from .. import errors
from .fields import (
    IntegerParam,
    Params,
    RawParam,
    StringParam,
)

# --- the event behind an ID or a slug -------------------------------------------------------------


def event_not_found(record_id):
    return errors.ApiError("rest-event-not-found", _("No event was found with the ID %(id)s.") % {"id": record_id}, 404)


def find_event(queryset, record_id):
    """The event with `record_id` from `queryset`, else 404 rest-event-not-found or 400 rest-invalid-event-id."""
    if 0 < record_id <= MAX_RECORD_ID:
        # Unordered: one row at most, and ordering a wide select_related query costs Django a lot of compiling.
        event = next(iter(queryset.filter(pk=record_id).order_by()[:1]), None)
        if event is not None:
            return event
    raise missing_event(record_id)


def missing_event(record_id):
    """400 rest-invalid-event-id when the ID is another kind of record's, else 404 rest-event-not-found."""
    kind = PostIdentity.kind_of(record_id) if 0 < record_id <= MAX_RECORD_ID else None
    if kind is not None and kind != PostKind.EVENT:
        message = _("The record with the ID %(id)s is not an event.") % {"id": record_id}
        return errors.ApiError("rest-invalid-event-id", message, 400)
    return event_not_found(record_id)


def event_for_slug(field, value):
    """The by-slug routes' `slug`, validated to the ID of the event it names (any status)."""
    return field.parsed(partial(record_id_for_slug, Event, remembered=True), value)


# --- the parameter declarations -----------------------------------------------------------------


class EventReadParams(Params):
    """`GET /events/{id}`."""

    id = IntegerParam(required=True, help_text=_("The event ID."))
    password = StringParam(non_empty=True, help_text=_("The password of a password-protected event."))


class EventSlugReadParams(Params):
    """`GET /events/by-slug/{slug}`: the validated `slug` is the event ID."""

    slug = RawParam(required=True, validator=event_for_slug, wp_type="string", help_text=_("The event slug."))
    password = StringParam(non_empty=True, help_text=_("The password of a password-protected event."))
