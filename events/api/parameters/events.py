"""Parameters of the event read routes (list, by ID, by slug) and the event lookups they share with writes."""

from functools import partial

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ...exceptions import InvalidValue
from ...models import Event, PostIdentity, PostKind
from ...queries import events as event_queries
from ...queries.params import (
    MAX_RECORD_ID,
    default_per_page,
    existing_event_id,
    no_tickets,
    positive_ids,
    record_id_for_slug,
)
from .. import errors
from .fields import (
    ID_ITEMS,
    INVALID,
    BooleanParam,
    DateParam,
    IntegerParam,
    ListParam,
    Params,
    PositiveIntegerParam,
    RawParam,
    StringParam,
    status_filter,
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


# --- list parameter validators ------------------------------------------------------------------


class TicketedParam(BooleanParam):
    """`ticketed=true` needs a ticketing add-on this service does not have; `false` filters nothing."""

    openapi_schema = {"type": "boolean", "enum": [False]}

    def to_internal_value(self, data):
        return self.parsed(no_tickets, data)


# --- the parameter declarations -----------------------------------------------------------------


class EventReadParams(Params):
    """`GET /events/{id}`."""

    id = IntegerParam(required=True, help_text=_("The event ID."))
    password = StringParam(non_empty=True, help_text=_("The password of a password-protected event."))


class EventSlugReadParams(Params):
    """`GET /events/by-slug/{slug}`: the validated `slug` is the event ID."""

    slug = RawParam(required=True, validator=event_for_slug, wp_type="string", help_text=_("The event slug."))
    password = StringParam(non_empty=True, help_text=_("The password of a password-protected event."))


class EventListParams(Params):
    """`GET /events` (docs/contract/events.md §2.1)."""

    kind = PostKind.EVENT

    page = PositiveIntegerParam(default=1, help_text=_("The page of results to return."))
    per_page = PositiveIntegerParam(
        default=default_per_page, help_text=_("The number of events to return on each page (at most 50).")
    )
    start_date = DateParam(
        default=event_queries.FILTER_DEFAULTS["start_date"],
        help_text=_(
            "Events that start on or after this date (any date strtotime() reads; a whole day unless strict_dates)."
        ),
    )
    end_date = DateParam(
        default=event_queries.FILTER_DEFAULTS["end_date"],
        help_text=_("Events that end on or before this date (a whole day unless strict_dates)."),
    )
    starts_before = DateParam(help_text=_("Events that start before this date; drops the default date window."))
    starts_after = DateParam(help_text=_("Events that start after this date; drops the default date window."))
    ends_before = DateParam(help_text=_("Events that end before this date; drops the default date window."))
    ends_after = DateParam(help_text=_("Events that end after this date; drops the default date window."))
    strict_dates = StringParam(
        non_empty=True,
        default=event_queries.FILTER_DEFAULTS["strict_dates"],
        help_text=_("Whether dates are used as given (true) instead of being widened to whole days (false)."),
    )
    search = StringParam(
        non_empty=True,
        max_length=event_queries.MAX_SEARCH_LENGTH,
        help_text=_("Words the event title, excerpt or description must contain."),
    )
    categories = ListParam(
        parse=event_queries.category_selection,
        wp_items=ID_ITEMS,
        help_text=_("Events in any of these event categories (slugs or IDs)."),
    )
    tags = ListParam(
        parse=event_queries.tag_selection,
        wp_items=ID_ITEMS,
        help_text=_("Events with any of these tags (slugs or IDs)."),
    )
    venue = ListParam(
        parse=event_queries.venue_ids, wp_items=ID_ITEMS, help_text=_("Events at any of these venues (IDs).")
    )
    organizer = ListParam(
        parse=event_queries.organizer_ids, wp_items=ID_ITEMS, help_text=_("Events with any of these organizers (IDs).")
    )
    featured = BooleanParam(help_text=_("Only featured events (true) or only events that are not featured (false)."))
    status = ListParam(
        validator=status_filter,
        wp_format="string",
        help_text=_("Event statuses to list; only publish unless the caller may edit events."),
    )
    geoloc = BooleanParam(help_text=_("Only events whose venue has coordinates (true) or has none (false)."))
    geoloc_lat = RawParam(
        parse=event_queries.latitude,
        wp_format="double",
        help_text=_("Latitude of the point events must be near (with geoloc_lng)."),
    )
    geoloc_lng = RawParam(
        parse=event_queries.longitude,
        wp_format="double",
        help_text=_("Longitude of the point events must be near (with geoloc_lat)."),
    )
    include = ListParam(
        parse=positive_ids,
        wp_items=ID_ITEMS,
        help_text=_("Only these event IDs, whatever their dates, ordered by publication date."),
    )
    post_parent = RawParam(
        parse=existing_event_id, wp_type="integer", help_text=_("Events whose parent is this event (ID).")
    )
    ticketed = TicketedParam(help_text=_("Filter by tickets; not available on this site (only false is accepted)."))

    def validate(self, attrs):
        try:
            event_queries.check_point(attrs)
        except InvalidValue as missing:
            raise serializers.ValidationError(
                {missing.field: [serializers.ErrorDetail(str(INVALID), code="invalid")]}
            ) from None
        return attrs
