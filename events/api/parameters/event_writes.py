"""Parameters of the event write routes (docs/contract/events.md §4-§6): create, update by ID or slug, trash."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import URLValidator
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ... import dates
from ...cost import parse_cost_input
from ...models import Event, Organizer, PostKind, Venue
from ...numbers import is_ascii_digits
from ...queries.params import parse_record_id, too_many
from ...queries.syntax import split_list
from ...services.events import SeveralVenues
from .events import event_for_slug
from .fields import (
    MAX_ORGANIZERS_PER_WRITE,
    MAX_TERMS_PER_WRITE,
    BooleanParam,
    DateParam,
    IntegerParam,
    Params,
    RawParam,
    StringParam,
)
from .linked import (
    NestedParamsInvalid,
    existing_user_id,
    image_reference,
    nested_linked_fields,
    registered_status,
)

TITLE_MAX_LENGTH = Event._meta.get_field("title").max_length
TIMEZONE_MAX_LENGTH = Event._meta.get_field("timezone_name").max_length
WEBSITE_MAX_LENGTH = Event._meta.get_field("website").max_length

# The event attributes a write may change, as the service takes them (API parameter names).
WRITE_FIELDS = (
    "author",
    "date",
    "date_utc",
    "title",
    "description",
    "excerpt",
    "slug",
    "status",
    "timezone",
    "all_day",
    "start_date",
    "end_date",
    "image",
    "cost",
    "website",
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
    "categories",
    "tags",
    "venue",
    "organizer",
    "recurrence",
)


def written_fields(validated, sent, exclude=()):
    """The write fields the client actually sent (declared defaults are not writes)."""
    return {
        name: validated[name] for name in WRITE_FIELDS if name in sent and name in validated and name not in exclude
    }


# --- validators ---------------------------------------------------------------------------------


def _is_empty(value):
    return value is None or value in ("", 0, "0", [], {}) and not isinstance(value, bool)


def _items(value):
    """A venue/organizer value as a list of items: lists, PHP-style numbered objects and CSV strings unfold."""
    if isinstance(value, dict):
        if value and all(is_ascii_digits(str(key)) for key in value):
            value = [value[key] for key in sorted(value, key=lambda key: int(key))]
        else:
            # A bare object of fields is one item (the Recommended reading of docs/contract/events.md §4.2).
            return [value]
    if not isinstance(value, (list, tuple)):
        value = [value]
    items = []
    for item in value:
        if isinstance(item, str) and "," in item:
            items.extend(part.strip() for part in item.split(","))
        else:
            items.append(item)
    return [item for item in items if not _is_empty(item)]


def _linked_item(field, item, kind, model):
    """One venue/organizer item: an existing record (by ID or `{"id": N}`) or the validated fields of a new one."""
    if isinstance(item, dict) and not _is_empty(item.get("id")):
        item = item["id"]
    if isinstance(item, dict):
        try:
            fields = nested_linked_fields(
                kind, {key: value for key, value in item.items() if key != "id"}, field.context.get("request")
            )
        except NestedParamsInvalid as invalid:
            # WordPress says why in data.params and data.details (its rest_invalid_param).
            raise serializers.ValidationError(invalid.reason(field.field_name), code="rest_invalid_param") from None
        if fields is None:
            field.refuse()
        return fields
    record_id = parse_record_id(item)
    if record_id is None:
        field.refuse()
    # The shared ID sequence means any other kind's ID (an event's, say) is simply not found here.
    record = model.objects.filter(pk=record_id).first()
    if record is None:
        field.refuse()
    return record


def venue_reference(field, value):
    """docs/contract/events.md §4.2: empty (no venue), an ID, `{"id": N}`, an object of venue fields, or a one-item list of those.

    Longer lists validate item by item and are refused when saving (could-not-create-venue).
    """
    if isinstance(value, bool):
        field.refuse()
    items = [_linked_item(field, item, PostKind.VENUE, Venue) for item in _items(value)]
    if not items:
        return None
    if len(items) == 1:
        return items[0]
    return SeveralVenues(items)


def organizer_references(field, value):
    """docs/contract/events.md §4.2: IDs, `{"id": N}` items and objects of organizer fields, in a list, a CSV or alone; order kept."""
    if isinstance(value, bool):
        field.refuse()
    items = _items(value)
    if len(items) > MAX_ORGANIZERS_PER_WRITE:
        field.refuse(too_many(field.field_name, MAX_ORGANIZERS_PER_WRITE))
    return [_linked_item(field, item, PostKind.ORGANIZER, Organizer) for item in items]


def term_references(field, value):
    """Term IDs, slugs or names (docs/contract/events.md §4): unknown IDs, booleans and nulls are skipped, but an
    object or a list among the items names no term at all and is refused (the plugin fails on it).

    Each name may create a term, so one write may name at most MAX_TERMS_PER_WRITE of them.
    """
    items = split_list(value)
    if len(items) > MAX_TERMS_PER_WRITE:
        field.refuse(too_many(field.field_name, MAX_TERMS_PER_WRITE))
    if any(isinstance(item, (dict, list)) for item in items):
        field.refuse()
    return value


def cost_input(field, value):
    """One cost string (or number) or a list of them; the currency mark is read from them."""
    try:
        return parse_cost_input([] if value is None else value)
    except ValueError:
        field.refuse()


def time_zone_or_empty(field, value):
    """An IANA zone name, "UTC" or a "UTC+5"-style offset; empty means the site zone."""
    if not isinstance(value, str):
        field.type_error()
    if value == "":
        return value
    if len(value) > TIMEZONE_MAX_LENGTH or not dates.is_zone_name(value):
        field.refuse()
    return value


_URL_VALIDATOR = URLValidator(schemes=["http", "https", "ftp", "ftps"])


def event_website(field, value):
    """An absolute URL or empty (`null` reads as empty); the same rule as venue and organizer websites."""
    if value is None:
        return ""
    if not isinstance(value, str):
        field.refuse()
    text = value.strip()
    if text == "":
        return ""
    if len(text) > WEBSITE_MAX_LENGTH:
        field.refuse()
    try:
        _URL_VALIDATOR(text)
    except DjangoValidationError:
        field.refuse()
    return text


def recurrence_object(field, value):
    """`null` or an object; what its rules and dates mean is the service's to judge (services.recurrence)."""
    if value is not None and not isinstance(value, dict):
        field.type_error()
    return value


def event_author(field, value):
    return existing_user_id(field, value)


def event_status(field, value):
    if not isinstance(value, str):
        field.type_error()
    return registered_status(field, value)


# --- the declarations ---------------------------------------------------------------------------


class EventFields(Params):
    """Every writable event field of docs/contract/events.md §4, in the plugin's declaration order."""

    author = RawParam(
        validator=event_author, wp_type="integer", help_text=_("The ID of the event's author; by default the caller.")
    )
    date = DateParam(typed=True, help_text=_("The publication date, in the site's time zone."))
    date_utc = DateParam(typed=True, help_text=_("The publication date, in UTC."))
    title = StringParam(non_empty=True, max_length=TITLE_MAX_LENGTH, help_text=_("The event title."))
    description = StringParam(non_empty=True, help_text=_("The event description."))
    excerpt = StringParam(non_empty=True, help_text=_("The event excerpt."))
    slug = StringParam(non_empty=True, help_text=_("The event slug."))
    status = RawParam(
        validator=event_status,
        wp_type="string",
        help_text=_("The event status; scaled down for callers who may not publish."),
    )
    timezone = RawParam(
        validator=time_zone_or_empty,
        wp_type="string",
        help_text=_("The event time zone: an IANA name or a UTC offset such as UTC+5; empty for the site zone."),
    )
    all_day = BooleanParam(default=False, help_text=_("Whether the event lasts whole days."))
    start_date = DateParam(
        help_text=_(
            "The start, read in the event time zone. An update moves the event only when it sends start_date "
            "and end_date together: either one alone changes nothing."
        )
    )
    end_date = DateParam(
        help_text=_(
            "The end, read in the event time zone. An update moves the event only when it sends start_date "
            "and end_date together: either one alone changes nothing."
        )
    )
    image = RawParam(
        validator=image_reference,
        wp_type="string",
        help_text=_("The featured image: an image ID or URL (a new URL is imported); empty removes it."),
    )
    cost = RawParam(
        validator=cost_input, allow_null=True, help_text=_("The cost: one string or a list of strings, such as $10.")
    )
    website = RawParam(
        validator=event_website, allow_null=True, default=None, help_text=_("The event website (a URL, or empty).")
    )
    show_map = BooleanParam(help_text=_("Whether the event page shows a map of the venue."))
    show_map_link = BooleanParam(help_text=_("Whether the event page links to a map of the venue."))
    hide_from_listings = BooleanParam(help_text=_("Whether the event is left out of event lists."))
    sticky = BooleanParam(help_text=_("Whether the event is pinned in month views."))
    featured = BooleanParam(help_text=_("Whether the event is featured."))
    categories = RawParam(
        validator=term_references,
        allow_null=True,
        default=None,
        help_text=_("Event categories: IDs, slugs or names (unknown names are created); empty for none."),
    )
    tags = RawParam(
        validator=term_references,
        allow_null=True,
        default=None,
        help_text=_("Tags: IDs, slugs or names (unknown names are created); empty for none."),
    )
    venue = RawParam(
        validator=venue_reference,
        allow_null=True,
        default=None,
        help_text=_(
            "The venue: an ID or an object of venue fields (an existing venue of that name is reused); empty for none."
        ),
    )
    organizer = RawParam(
        validator=organizer_references,
        allow_null=True,
        default=None,
        help_text=_("The organizers, in order: IDs or objects of organizer fields; empty for none."),
    )
    recurrence = RawParam(
        validator=recurrence_object,
        wp_type="object",
        allow_null=True,
        default=None,
        help_text=_(
            "Makes the event a recurring series, or changes its rules (on the series' first occurrence): an object "
            "of rules (RFC 5545 RRULE values such as FREQ=WEEKLY;BYDAY=TU), dates (extra starts, Y-m-d H:i:s in the "
            "event time zone) and exclusions (starts left out); null ends the recurrence."
        ),
    )


# On updates and deletes of an occurrence of a series: how much of the series the write is for.
RECURRENCE_SCOPE_HELP = _(
    "For an occurrence of a recurring series: this (the default: this occurrence only), following (this and the "
    "later ones, which become a new series) or all (every occurrence not edited on its own)."
)


def recurrence_scope_param():
    return StringParam(choices=("this", "following", "all"), help_text=RECURRENCE_SCOPE_HELP)


class EventCreateParams(EventFields):
    """`POST /events`: title, start_date and end_date required."""

    def get_fields(self):
        fields = super().get_fields()
        for name in ("title", "start_date", "end_date"):
            fields[name].required = True
        return fields


class EventUpdateParams(EventFields):
    """`POST|PUT|PATCH /events/{id}`: the create fields, none required, after the path ID."""

    def get_fields(self):
        fields = super().get_fields()
        return {
            "id": IntegerParam(required=True, help_text=_("The event ID.")),
            **fields,
            "recurrence_scope": recurrence_scope_param(),
        }


class EventSlugUpdateParams(EventFields):
    """`POST|PUT|PATCH /events/by-slug/{slug}`: the create `slug` stands in for the path one (docs/contract/events.md §5)."""

    recurrence_scope = recurrence_scope_param()


class EventDeleteParams(Params):
    """`DELETE /events/{id}`."""

    id = IntegerParam(required=True, help_text=_("The event ID."))
    recurrence_scope = recurrence_scope_param()


class EventSlugDeleteParams(Params):
    """`DELETE /events/by-slug/{slug}`: the slug must name an event (else 400), the validated value is the event ID."""

    slug = RawParam(required=True, validator=event_for_slug, wp_type="string", help_text=_("The event slug."))
    recurrence_scope = recurrence_scope_param()
