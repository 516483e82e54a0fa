"""Parameters of the event read routes (list, by ID, by slug) and the event lookups they share with writes."""
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ... import list_versions
from ...memory import VersionedValues
from ...models import Event, Organizer, PostIdentity, PostKind, Taxonomy, Term, Venue
from ...queries.params import MAX_RECORD_ID, default_per_page
from ...queries.window import default_end_date, default_start_date
from ...services import visibility
from ...text import normalize_lookup_slug
from ...numbers import is_ascii_digits
from .. import errors
from ..params import (
    INVALID, BooleanParam, DateParam, IntegerParam, ListParam, Params, PositiveIntegerParam, RawParam,
    StringParam, coordinate,
)

ID_ITEMS = {"type": "integer"}


# --- the event behind an ID or a slug -------------------------------------------------------------


def event_not_found(record_id):
    return errors.ApiError(
        "rest-event-not-found", _("No event was found with the ID %(id)s.") % {"id": record_id}, 404
    )


def not_an_event(record_id):
    return errors.ApiError(
        "rest-invalid-event-id", _("The record with the ID %(id)s is not an event.") % {"id": record_id}, 400
    )


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
        return not_an_event(record_id)
    return event_not_found(record_id)


@dataclass(frozen=True)
class SlugMatch:
    """A by-slug path segment and the event it names."""

    slug: str
    event_id: int


def event_for_slug(field, value):
    """README §6: the segment normalised like a WordPress slug, then an exact match, any status."""
    if not isinstance(value, str):
        field.type_error()
    slug = normalize_lookup_slug(value)
    # An empty normalised slug must not match the drafts that have no slug yet.
    event_id = list_versions.recalled(
        _lookups, Event, ("event slug", slug), lambda: Event.objects.filter(slug=slug).order_by("pk").values_list("pk", flat=True).first()
    ) if slug else None
    if event_id is None:
        field.refuse()
    return SlugMatch(slug=slug, event_id=event_id)


# --- list parameter validators ------------------------------------------------------------------


def _as_record_id(item):
    """A positive integer from an int or a digit string, else None."""
    if isinstance(item, bool):
        return None
    if isinstance(item, int):
        return item if item > 0 else None
    if isinstance(item, float) and item.is_integer():
        return int(item) if item > 0 else None
    if isinstance(item, str) and is_ascii_digits(item.strip()):
        number = int(item.strip())
        return number if number > 0 else None
    return None


def positive_ids(field, items):
    """`include`: every item a positive integer (no existence check)."""
    ids = [_as_record_id(item) for item in items]
    if any(record_id is None for record_id in ids):
        field.refuse()
    return ids


# What list filters name (slugs, IDs), looked up once per version of the table they name.
_lookups = VersionedValues(max_entries=1024)


def _existing(model, ids):
    return list_versions.recalled(
        _lookups, model, ("ids", model._meta.db_table, frozenset(ids)),
        lambda: frozenset(model.objects.filter(pk__in=ids).values_list("pk", flat=True)),
    )


def existing_ids(model):
    """Every item the ID of an existing record of `model`, in one query."""

    def validate(field, items):
        ids = positive_ids(field, items)
        wanted = {record_id for record_id in ids if record_id <= MAX_RECORD_ID}
        if len(wanted) != len(set(ids)):
            field.refuse()
        if wanted and len(_existing(model, wanted)) != len(wanted):
            field.refuse()
        return ids

    return validate


@dataclass(frozen=True)
class TermSelection:
    """Terms named by a `categories`/`tags` filter: the items as the client wrote them, and their IDs."""

    given: list
    ids: list


def existing_terms(taxonomy):
    """Every item an existing term slug or ID (slug tried first), in one query."""

    def validate(field, items):
        if any(isinstance(item, (bool, list, dict)) or item is None for item in items):
            field.refuse()
        texts = [str(item).strip() for item in items]
        slugs = {text for text in texts} | {normalize_lookup_slug(text) for text in texts}
        numbers = {int(text) for text in texts if is_ascii_digits(text) and int(text) <= MAX_RECORD_ID}
        found = list_versions.recalled(
            _lookups, Term, ("terms", taxonomy, frozenset(slugs), frozenset(numbers)),
            lambda: tuple(Term.objects.filter(taxonomy=taxonomy).filter(Q(slug__in=slugs) | Q(pk__in=numbers)).values_list("pk", "slug")),
        )
        by_slug, by_id = {}, set()
        for pk, slug in found:
            by_slug[slug] = pk
            by_id.add(pk)
        ids = []
        for text in texts:
            term_id = by_slug.get(text) or by_slug.get(normalize_lookup_slug(text))
            if term_id is None and is_ascii_digits(text) and int(text) in by_id:
                term_id = int(text)
            if term_id is None:
                field.refuse()
            ids.append(term_id)
        return TermSelection(given=texts, ids=ids)

    return validate


def event_status_filter(field, items):
    """auth.md §2.2: `publish` only for callers without the edit right; registered statuses for others."""
    request = field.context.get("request")
    user = getattr(request, "user", None)
    if not visibility.check_status_filter(user, PostKind.EVENT, items):
        field.refuse()
    return items


def existing_event_id(field, value):
    record_id = _as_record_id(value)
    if record_id is None or record_id > MAX_RECORD_ID or not Event.objects.filter(pk=record_id).exists():
        field.refuse()
    return record_id


class TicketedParam(BooleanParam):
    """`ticketed=true` needs a ticketing add-on this service does not have; `false` filters nothing."""

    openapi_schema = {"type": "boolean", "enum": [False]}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if value:
            self.refuse(_("Ticketing support is not active on this site, so events cannot be filtered by tickets."))
        return value


# --- the parameter declarations -----------------------------------------------------------------


class EventReadParams(Params):
    """`GET /events/{id}`."""

    id = IntegerParam(required=True, help_text=_("The event ID."))
    password = StringParam(non_empty=True, help_text=_("The password of a password-protected event."))


class EventSlugReadParams(Params):
    """`GET /events/by-slug/{slug}`: the validated `slug` is a SlugMatch."""

    slug = RawParam(required=True, validator=event_for_slug, wp_type="string", help_text=_("The event slug."))
    password = StringParam(non_empty=True, help_text=_("The password of a password-protected event."))


class EventListParams(Params):
    """`GET /events` (events.md §2.1)."""

    page = PositiveIntegerParam(default=1, help_text=_("The page of results to return."))
    per_page = PositiveIntegerParam(
        default=default_per_page, help_text=_("The number of events to return on each page (at most 50).")
    )
    start_date = DateParam(
        default=default_start_date,
        help_text=_("Events that start on or after this date (any date strtotime() reads; a whole day unless strict_dates)."),
    )
    end_date = DateParam(
        default=default_end_date,
        help_text=_("Events that end on or before this date (a whole day unless strict_dates)."),
    )
    starts_before = DateParam(help_text=_("Events that start before this date; drops the default date window."))
    starts_after = DateParam(help_text=_("Events that start after this date; drops the default date window."))
    ends_before = DateParam(help_text=_("Events that end before this date; drops the default date window."))
    ends_after = DateParam(help_text=_("Events that end after this date; drops the default date window."))
    strict_dates = StringParam(
        non_empty=True,
        default="false",
        help_text=_("Whether dates are used as given (true) instead of being widened to whole days (false)."),
    )
    search = StringParam(non_empty=True, help_text=_("Words the event title, excerpt or description must contain."))
    categories = ListParam(
        item_validator=existing_terms(Taxonomy.CATEGORY),
        wp_items=ID_ITEMS,
        help_text=_("Events in any of these event categories (slugs or IDs)."),
    )
    tags = ListParam(
        item_validator=existing_terms(Taxonomy.TAG),
        wp_items=ID_ITEMS,
        help_text=_("Events with any of these tags (slugs or IDs)."),
    )
    venue = ListParam(
        item_validator=existing_ids(Venue), wp_items=ID_ITEMS, help_text=_("Events at any of these venues (IDs).")
    )
    organizer = ListParam(
        item_validator=existing_ids(Organizer),
        wp_items=ID_ITEMS,
        help_text=_("Events with any of these organizers (IDs)."),
    )
    featured = BooleanParam(help_text=_("Only featured events (true) or only events that are not featured (false)."))
    status = ListParam(
        item_validator=event_status_filter,
        wp_format="string",
        help_text=_("Event statuses to list; only publish unless the caller may edit events."),
    )
    geoloc = BooleanParam(help_text=_("Only events whose venue has coordinates (true) or has none (false)."))
    geoloc_lat = RawParam(
        validator=coordinate(90),
        wp_format="double",
        help_text=_("Latitude of the point events must be near (with geoloc_lng)."),
    )
    geoloc_lng = RawParam(
        validator=coordinate(180),
        wp_format="double",
        help_text=_("Longitude of the point events must be near (with geoloc_lat)."),
    )
    include = ListParam(
        item_validator=positive_ids,
        wp_items=ID_ITEMS,
        help_text=_("Only these event IDs, whatever their dates, ordered by publication date."),
    )
    post_parent = RawParam(
        validator=existing_event_id, wp_type="integer", help_text=_("Events whose parent is this event (ID).")
    )
    ticketed = TicketedParam(help_text=_("Filter by tickets; not available on this site (only false is accepted)."))

    def validate(self, attrs):
        # The pair is one point: half of it cannot filter anything.
        if ("geoloc_lat" in attrs) != ("geoloc_lng" in attrs):
            missing = "geoloc_lng" if "geoloc_lat" in attrs else "geoloc_lat"
            raise serializers.ValidationError({missing: [serializers.ErrorDetail(str(INVALID), code="invalid")]})
        return attrs
