"""Venue and organizer writes (docs/contract/venues-organizers.md §4-§6), shared by their routes and nested event writes."""

from collections.abc import Mapping
from dataclasses import dataclass

from django.db import DatabaseError
from django.db.models import Q
from django.utils import timezone
from modeltranslation.settings import AVAILABLE_LANGUAGES
from modeltranslation.utils import build_localized_fieldname

from .. import pipeline, roles
from ..conf import events_settings
from ..exceptions import CREATE, DATABASE_FAULTS, DELETE, UPDATE, CouldNotWrite, InvalidValue
from ..models import Event, EventOrganizer, Organizer, PostKind, PostStatus, Venue
from ..text import sanitize_text_field
from . import posts
from .images import delete_files
from .languages import write_translated
from .locks import lock_until_commit
from .schedule import apply_publication_date


@dataclass(frozen=True)
class LinkedKind:
    """What differs between venues and organizers."""

    kind: str
    model: type
    name_key: str
    # Stored as sanitised plain text; empty clears them.
    text_fields: tuple


VENUE = LinkedKind(
    kind=PostKind.VENUE,
    model=Venue,
    name_key="venue",
    text_fields=("address", "city", "country", "province", "state", "zip", "phone"),
)
ORGANIZER = LinkedKind(
    kind=PostKind.ORGANIZER,
    model=Organizer,
    name_key="organizer",
    text_fields=("phone", "email"),
)
# Which fields re-derive a venue's stateprovince when they change (the Recommended rule of §5).
STATEPROVINCE_SOURCES = ("state", "province", "country")


# --- the public entry points --------------------------------------------------------------------


def save_venue(fields, user, *, instance=None, imported=None):
    """Create a venue (or reuse a duplicate, §4.3), or update `instance` with only the `fields` given.

    `fields` maps domain names (the API's parameter names, `venue` for the name) to validated
    values: what events.api.parameters.linked makes of a request, or what the admin's form
    cleaned (the name, description and excerpt may then be {language: text}). An unsaved
    `instance` is created as it is, never swapped for a namesake: the admin asks its user first.
    `imported`, a list, receives the attachment of an image this write imported, so that an
    enclosing write (an event with a nested venue) can delete its files if it fails later.
    """
    return _save(VENUE, fields, user, instance, imported)


def save_organizer(fields, user, *, instance=None, imported=None):
    """Create an organizer (or reuse a duplicate, §4.3), or update `instance` with only the `fields` given."""
    return _save(ORGANIZER, fields, user, instance, imported)


def restore_venue(venue, user):
    """Out of the trash, to the status it had, as an update asking for that status would."""
    return save_venue({"status": _status_before_trash(venue)}, user, instance=venue)


def restore_organizer(organizer, user):
    """Out of the trash, to the status it had, as an update asking for that status would."""
    return save_organizer({"status": _status_before_trash(organizer)}, user, instance=organizer)


def _status_before_trash(record):
    return record.status_before_trash or PostStatus.DRAFT


def trash_venue(venue):
    """Move to the trash and unlink from every event (§6)."""
    return _trash(VENUE, venue)


def trash_organizer(organizer):
    """Move to the trash and remove just the links to it, from every event (the Recommended rule of §6)."""
    return _trash(ORGANIZER, organizer)


# --- saving -------------------------------------------------------------------------------------


def _save(spec, fields, user, instance, imported):
    action = CREATE if instance is None or instance._state.adding else UPDATE
    imported_here = []
    try:
        with pipeline.unit():
            record = _write(spec, fields, user, instance, imported_here)
    except BaseException as error:
        # Files of an image imported by a write that did not happen would be orphans.
        for attachment in imported_here:
            delete_files(attachment)
        if isinstance(error, DatabaseError) and not isinstance(error, DATABASE_FAULTS):
            raise CouldNotWrite(spec.model._meta.model_name, action) from error
        raise
    if imported is not None:
        imported.extend(imported_here)
    return record


def _write(spec, fields, user, instance, imported):
    creating = instance is None or instance._state.adding
    record = instance
    if instance is None:
        name = clean_name(spec, fields[spec.name_key])
        record = find_duplicate(spec, name, fields.get("description"), user)
        if record is not None:
            # A duplicate the caller may not edit is handed back as it is (docs/contract/auth.md §3.2 still holds).
            if not roles.can_edit(user, record):
                return record
            creating = False
        else:
            record = spec.model()
            write_translated(record, "title", name, creating=True)
    elif spec.name_key in fields:
        write_translated(record, "title", clean_name(spec, fields[spec.name_key]), creating)

    posts.check_author(record, user, fields, creating)
    posts.apply_author(record, user, fields, creating)
    for name in ("description", "excerpt"):
        posts.write_html_text(record, user, fields, name, creating)
    posts.apply_plain_fields(record, fields)
    for name in spec.text_fields:
        if name in fields:
            setattr(record, name, sanitize_text_field(fields[name] or ""))
    if "website" in fields:
        record.website = fields["website"] or ""
    if spec is VENUE:
        _apply_venue_fields(record, fields, creating)
    # One clock for the whole write, so a date "+1 minute" is exactly one minute ahead when scheduling.
    now = timezone.now()
    apply_publication_date(record, fields, now)
    posts.apply_image(record, fields, user, imported)
    trashing = posts.apply_status(record, user, fields, creating, now, reschedule=True)
    posts.apply_slug(record, fields)
    record.save()
    posts.slug_from_id_if_none(record)
    if trashing:
        _unlink(spec, record)
    return record


def clean_name(spec, value):
    """The name as stored (plain text), or {language: name} for names given per language;
    InvalidValue when nothing is left of it."""
    if isinstance(value, Mapping):
        names = {language: sanitize_text_field(str(text)) for language, text in value.items()}
        if any(names.values()):
            return names
    else:
        name = sanitize_text_field(str(value))
        if name:
            return name
    raise InvalidValue(spec.name_key)


def _same_text(field, value):
    """`field` equals `value` case-insensitively in any language: a name names one record whatever the reader's language."""
    condition = Q()
    for language in AVAILABLE_LANGUAGES:
        condition |= Q(**{f"{build_localized_fieldname(field, language)}__iexact": value})
    return condition


def find_duplicate(spec, name, description, user):
    """§4.3: a non-trashed record with this name (and this description, when one is given).

    Only records the caller may read count, so a create never reveals someone else's draft. With
    AVOID_DUPLICATE_LINKED_RECORDS off (the plugin's setting of that name) there is never one.
    """
    if not events_settings.AVOID_DUPLICATE_LINKED_RECORDS:
        return None
    # Concurrent writes naming the same new record take turns until commit, so the later ones find
    # the record the first one made instead of making their own.
    lock_until_commit(spec.model.KIND, "name", name.casefold())
    candidates = spec.model.objects.not_trashed().filter(_same_text("title", name))
    if description:
        candidates = candidates.filter(_same_text("description", description))
    for candidate in candidates.select_related("image").order_by("pk"):
        if roles.can_read(user, candidate):
            return candidate
    return None


def readable_namesakes(model, name, user):
    """Non-trashed venues or organizers named `name` in any language that `user` may read: what the
    admin warns about before making a record the API would have reused (§4.3)."""
    candidates = model.objects.not_trashed().filter(_same_text("title", name)).order_by("pk")
    return [candidate for candidate in candidates if roles.can_read(user, candidate)]


def _apply_venue_fields(venue, fields, creating):
    for name in ("show_map", "show_map_link"):
        if name in fields:
            setattr(venue, name, bool(fields[name]))
        elif creating:
            setattr(venue, name, True)
    for name in ("geo_lat", "geo_lng"):
        if name in fields:
            setattr(venue, name, fields[name])
    given = sanitize_text_field(fields.get("stateprovince") or "")
    if given:
        venue.stateprovince = given
    elif creating or "stateprovince" in fields or any(name in fields for name in STATEPROVINCE_SOURCES):
        venue.stateprovince = Venue.derive_stateprovince(venue.state, venue.province, venue.country)


# --- trash --------------------------------------------------------------------------------------


def _unlink(spec, record):
    if spec is VENUE:
        Event.objects.filter(venue_id=record.pk).update(venue=None)
    else:
        EventOrganizer.objects.filter(organizer_id=record.pk).delete()


def _trash(spec, record):
    try:
        with pipeline.unit():
            posts.move_to_trash(record)
            record.save()
            _unlink(spec, record)
    except DATABASE_FAULTS:
        raise
    except DatabaseError as error:
        raise CouldNotWrite(spec.model._meta.model_name, DELETE) from error
    return record
