"""Parameters of the venue and organizer routes (docs/contract/venues-organizers.md §2-§6), declared once for both kinds.

The create declarations also validate the venue/organizer objects nested in event writes
(`nested_linked_fields`).
"""

from functools import partial
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import URLValidator
from django.utils.translation import gettext_lazy as _

from ... import roles
from ...conf import events_settings
from ...models import Organizer, PostKind, PostStatus, Venue
from ...numbers import is_ascii_digits
from ...queries.params import (
    coordinate,
    existing_record_id,
    record_id_for_slug,
)
from ...queries.syntax import is_truthy
from ...services.images import ImageChoice, find_attachment
from .fields import (
    DateParam,
    Params,
    RawParam,
    StringParam,
    first_error,
)

MODELS = {PostKind.VENUE: Venue, PostKind.ORGANIZER: Organizer}


def _column_length(model, name):
    return model._meta.get_field(name).max_length


# --- the record behind a path ID or slug ----------------------------------------------------------


def existing_kind_id(field, value):
    """§3 step 1: the ID of a record of the route's kind, whatever its status (trash included)."""
    return field.parsed(partial(existing_record_id, MODELS[field.parent.kind].objects.all()), value)


def kind_id_for_slug(field, value):
    """docs/contract/README.md §6: the path segment as the ID of the record of the route's kind it names, any status."""
    return field.parsed(partial(record_id_for_slug, MODELS[field.parent.kind]), value)


# --- write parameters ---------------------------------------------------------------------------


def existing_user_id(field, value):
    """`author`: WordPress's user-ID validator runs before the integer type check, so any refusal is generic."""
    return field.parsed(partial(existing_record_id, get_user_model().objects.all()), value)


def registered_status(field, value):
    if not isinstance(value, str) or value not in PostStatus.registered():
        field.refuse()
    return value


_URL_VALIDATOR = URLValidator(schemes=["http", "https", "ftp", "ftps"])


def website_or_empty(field, value):
    """A valid absolute URL, or empty (which clears the website)."""
    if not isinstance(value, str):
        field.refuse()
    text = value.strip()
    if text == "":
        return ""
    try:
        _URL_VALIDATOR(text)
    except DjangoValidationError:
        field.refuse()
    if len(text) > _column_length(MODELS[field.parent.kind], "website"):
        field.refuse()
    return text


def image_reference(field, value):
    """`image`: empty, an attachment ID or URL, or (callers who may upload files) a URL to import.

    The download happens when the record is saved, after the permission checks.
    """
    if not isinstance(value, str):
        field.type_error()
    text = value.strip()
    if text == "":
        return ImageChoice()
    request = field.context.get("request")
    if not is_ascii_digits(text) and not roles.has_capability(getattr(request, "user", None), roles.UPLOAD_FILES):
        # Any URL needs the upload right, even one of an image already stored here (docs/contract/auth.md §2).
        field.refuse(_("Sorry, you are not allowed to upload files."))
    attachment = find_attachment(text, request)
    if attachment is not None:
        return ImageChoice(attachment=attachment)
    if is_ascii_digits(text):
        field.refuse()
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        field.refuse()
    return ImageChoice(import_url=text)


class MapFlagParam(StringParam):
    """`show_map`/`show_map_link`: typed string, then read as truthy; nested in an event write, any JSON type."""

    def to_internal_value(self, data):
        if not self.context.get("nested"):
            data = super().to_internal_value(data)
        return is_truthy(data)


class RequiredWithNullDefault(StringParam):
    """The organizer name: required, yet declared with a `null` default in the index (docs/contract/discovery.md §1).

    DRF refuses both at construction; the default only feeds the index, since a required
    parameter is never defaulted.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, required=True, **kwargs)
        self.default = None


def _text(model, column, help_text):
    """A stored text field: empty allowed (it clears the field), declared with a `null` default."""
    return StringParam(max_length=_column_length(model, column), default=None, help_text=help_text)


# --- venues -------------------------------------------------------------------------------------


class VenueFields(Params):
    """Every venue field of §4.1, none required (the update declarations)."""

    kind = PostKind.VENUE

    # server_checked: a name the sanitizing reduces to nothing (tags, percent-encoded octets) is refused.
    venue = StringParam(
        non_empty=True,
        server_checked=True,
        max_length=_column_length(Venue, "title"),
        help_text=_("The venue name."),
    )
    author = RawParam(validator=existing_user_id, wp_type="integer", help_text=_("The ID of the venue's author."))
    date = DateParam(typed=True, help_text=_("The publication date, in the site's time zone."))
    date_utc = DateParam(typed=True, help_text=_("The publication date, in UTC."))
    description = StringParam(default=None, help_text=_("The venue description, as HTML."))
    status = RawParam(validator=registered_status, wp_type="string", help_text=_("The venue's status."))
    show_map = MapFlagParam(default=None, help_text=_("Whether the venue map is shown."))
    show_map_link = MapFlagParam(default=None, help_text=_("Whether the link to the venue map is shown."))
    address = _text(Venue, "address", _("The venue's street address."))
    city = _text(Venue, "city", _("The venue's city."))
    country = _text(Venue, "country", _("The venue's country."))
    province = _text(Venue, "province", _("The venue's province."))
    state = _text(Venue, "state", _("The venue's state."))
    zip = _text(Venue, "zip", _("The venue's postal code."))
    phone = _text(Venue, "phone", _("The venue's phone number."))
    stateprovince = _text(Venue, "stateprovince", _("The venue's state or province."))
    website = RawParam(validator=website_or_empty, wp_type="string", default=None, help_text=_("The venue's website."))
    image = RawParam(
        validator=image_reference, wp_type="string", default=None, help_text=_("The featured image of the venue.")
    )
    geo_lat = RawParam(
        parse=coordinate(90, empty_clears=True),
        wp_format="double",
        help_text=_("The venue's latitude, in decimal degrees."),
    )
    geo_lng = RawParam(
        parse=coordinate(180, empty_clears=True),
        wp_format="double",
        help_text=_("The venue's longitude, in decimal degrees."),
    )


class VenueParams(VenueFields):
    """`POST /venues` (and venue objects nested in event writes)."""

    venue = StringParam(
        non_empty=True,
        required=True,
        server_checked=True,
        max_length=_column_length(Venue, "title"),
        help_text=_("The venue name."),
    )


# --- organizers ---------------------------------------------------------------------------------


class OrganizerFields(Params):
    """Every organizer field of §4.2, none required (the update declarations)."""

    kind = PostKind.ORGANIZER

    # server_checked: a name the sanitizing reduces to nothing (tags, percent-encoded octets) is refused.
    organizer = StringParam(
        non_empty=True,
        default=None,
        server_checked=True,
        max_length=_column_length(Organizer, "title"),
        help_text=_("The organizer name."),
    )
    author = RawParam(
        validator=existing_user_id, wp_type="integer", default=None, help_text=_("The ID of the organizer's author.")
    )
    date = DateParam(typed=True, default=None, help_text=_("The publication date, in the site's time zone."))
    date_utc = DateParam(typed=True, default=None, help_text=_("The publication date, in UTC."))
    description = StringParam(default=None, help_text=_("The organizer description, as HTML."))
    status = RawParam(
        validator=registered_status, wp_type="string", default=None, help_text=_("The organizer's status.")
    )
    phone = _text(Organizer, "phone", _("The organizer's phone number."))
    website = RawParam(
        validator=website_or_empty, wp_type="string", default=None, help_text=_("The organizer's website.")
    )
    email = _text(Organizer, "email", _("The organizer's email address."))
    image = RawParam(
        validator=image_reference, wp_type="string", default=None, help_text=_("The featured image of the organizer.")
    )


class OrganizerParams(OrganizerFields):
    """`POST /organizers` (and organizer objects nested in event writes)."""

    organizer = RequiredWithNullDefault(
        non_empty=True,
        server_checked=True,
        max_length=_column_length(Organizer, "title"),
        help_text=_("The organizer name."),
    )


# --- the routes of both kinds -------------------------------------------------------------------


def route_params(fields, create, id_help, slug_help):
    """The Params class of each action of one kind's routes, `fields` being its update declaration.

    The path variable leads the arguments, as WordPress lists them: a base class's fields come first.
    """
    kind, prefix = fields.kind, fields.__name__.removesuffix("Fields")

    def declare(name, bases, /, **declared):
        return type(f"{prefix}{name}", bases, {"kind": kind, **declared})

    by_id = declare(
        "IdParams",
        (Params,),
        id=RawParam(validator=existing_kind_id, wp_type="integer", required=True, help_text=id_help),
    )
    by_slug = declare(
        "SlugParams",
        (Params,),
        slug=RawParam(validator=kind_id_for_slug, wp_type="string", required=True, help_text=slug_help),
    )

    def with_password(name, base):
        password = _("The password of a password-protected record, to read it unblanked.")
        return declare(name, (base,), password=StringParam(non_empty=True, help_text=password))

    return {
        "create": create,
        "retrieve": with_password("ReadParams", by_id),
        "update": declare("UpdateParams", (by_id, fields)),
        "destroy": by_id,
        "retrieve_by_slug": with_password("SlugReadParams", by_slug),
        "update_by_slug": declare("SlugUpdateParams", (by_slug, fields)),
        "destroy_by_slug": by_slug,
    }


ROUTE_PARAMS = {
    PostKind.VENUE: route_params(VenueFields, VenueParams, _("The venue ID."), _("The venue slug.")),
    PostKind.ORGANIZER: route_params(
        OrganizerFields, OrganizerParams, _("The organizer ID."), _("The organizer slug.")
    ),
}


# --- what a write changes -----------------------------------------------------------------------

CREATE_PARAMS = {PostKind.VENUE: VenueParams, PostKind.ORGANIZER: OrganizerParams}


def linked_fields(kind, validated, sent):
    """The write fields of `kind` the client actually sent (declared `null` defaults left out), by the
    names the services take."""
    written = (name for name in CREATE_PARAMS[kind].declared() if name != events_settings.language_param)
    return {name: validated[name] for name in written if name in sent and name in validated}


def nested_linked_fields(kind, data, request):
    """The fields of a venue/organizer object nested in an event write (None when it is not an object;
    NestedParamsInvalid, saying why, when its fields are refused).

    Same rules as `POST /venues|organizers` (name required and non-empty), except that the map
    flags accept any JSON type (docs/contract/README.md §3.2).
    """
    if not isinstance(data, dict):
        return None
    params = CREATE_PARAMS[kind](data=data, context={"request": request, "nested": True})
    if not params.is_valid():
        raise NestedParamsInvalid(params.errors)
    return linked_fields(kind, params.validated_data, data)


class NestedParamsInvalid(Exception):
    """A venue or organizer object nested in an event write failed its own parameters' rules."""

    def __init__(self, errors):
        super().__init__(errors)
        self.errors = errors

    def reason(self, outer_name):
        """`venue[phone]: phone is not of type string.` for each failing field, in WordPress's words."""
        missing = [name for name, messages in self.errors.items() if first_error(messages).code == "required"]
        if missing:
            return _("Missing parameter(s): %(names)s") % {
                "names": ", ".join(f"{outer_name}[{name}]" for name in missing)
            }
        return " ".join(f"{outer_name}[{name}]: {first_error(messages)}" for name, messages in self.errors.items())
