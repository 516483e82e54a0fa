"""Event writes (docs/contract/events.md §4-§6): an event with its image, venue, organizers and terms, in one transaction.

Shared by the API and the admin. Fields are keyed by their domain names (the API's parameter
names where they are the same) and hold validated values: what events.api.parameters.event_writes
makes of a request, or what the admin's form cleaned (`title` and the other texts may then be
{language: text}, times datetimes, the venue and organizers records); only the fields given change.
"""

import datetime as dt

from django.db import DatabaseError
from django.utils import timezone

from .. import dates, pipeline
from ..cost import CostInput
from ..dates import site_zone_name, wall_clock, zone_for
from ..exceptions import CREATE, DATABASE_FAULTS, DELETE, CouldNotWrite, InTrash, InvalidValue
from ..models import Event, EventOrganizer, Organizer, PostStatus, Taxonomy, Venue
from ..numbers import is_ascii_digits
from . import linked, posts, recurrence
from .images import delete_files
from .schedule import apply_publication_date, set_event_times
from .terms import resolve_terms

CURRENCY_SYMBOL_MAX_LENGTH = Event._meta.get_field("currency_symbol").max_length
FLAGS = ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured")
# Stored as given: fields only the admin edits.
PLAIN_FIELDS = (*posts.PLAIN_FIELDS, "post_parent", "currency_code")


class SeveralVenues(tuple):
    """More than one venue for one event: the plugin validates such a list, then cannot link it."""


# --- the public entry points --------------------------------------------------------------------


def create_event(user, fields, event=None):
    """A new event from `fields` (title, start_date and end_date required); the caller's defaults fill the rest.

    `event`, an unsaved Event, is the one to fill instead of a new one (the admin's form instance,
    which the form's organizer rows already point at).
    """
    return _save(event if event is not None else Event(), user, fields, creating=True)


def update_event(event, user, fields, scope=None):
    """Change only the `fields` given (the Recommended column of docs/contract/events.md §5).

    For an occurrence of a series, `scope` says what else changes (services.recurrence): nothing
    but a note of what was edited here (`this`, the default), the following occurrences, or all.
    """
    return _save(event, user, fields, creating=False, scope=scope)


def restore_event(event, user):
    """Out of the trash, to the status it had (a draft if none is known), as an update asking for
    that status would: scaled to `user`'s rights, scheduled, the old slug made unique again.
    An event restored meanwhile is left as it is."""
    with pipeline.unit():
        # The status it had is read in the write's turn, not before it.
        recurrence.take_turn(event)
        if event.status != PostStatus.TRASH:
            return event
        return update_event(event, user, {"status": event.status_before_trash or PostStatus.DRAFT})


def trash_event(event, user=None, scope=None):
    """Move to the trash (the slug gets WordPress's `__trashed` suffix); links to venue, organizers and terms stay.

    An occurrence of a series goes alone (`scope` this: its start joins the exclusions), with the
    following ones, or with all of them (services.recurrence.trash_in_series). An event already in
    the trash, or moved there meanwhile, is refused (InTrash).
    """
    try:
        with pipeline.unit():
            # The series first, as every write to it does, so that writers of two occurrences never
            # hold each other's rows; then what is trashed is the event as it now is (services.recurrence).
            scope = recurrence.take_turn(event, scope)
            if event.status == PostStatus.TRASH:
                raise InTrash("event", event.pk)
            posts.move_to_trash(event)
            event.save()
            if event.series_id is not None:
                recurrence.trash_in_series(event, user, scope)
    except DATABASE_FAULTS:
        raise
    except DatabaseError as error:
        raise CouldNotWrite("event", DELETE) from error
    return event


def duplicate_event(event, user):
    """A draft copy of `event` made by `user`: every translation, the times, venue, organizers in
    order, categories, tags and image. The copy has no slug yet (drafts get theirs when published)."""
    with pipeline.unit() as work:
        copy = Event.objects.get(pk=event.pk)
        terms = list(copy.terms.all())
        organizer_ids = list(copy.organizer_links.values_list("organizer_id", flat=True))
        copy.id = None
        copy.status, copy.slug = PostStatus.DRAFT, ""
        copy.status_before_trash = copy.slug_before_trash = ""
        copy.author, copy.date = user, timezone.now()
        copy.save()
        copy.terms.set(terms)
        EventOrganizer.objects.bulk_create(
            EventOrganizer(event=copy, organizer_id=organizer_id, position=position)
            for position, organizer_id in enumerate(organizer_ids)
        )
        # Bulk link writes send no model signal.
        work.links_changed([copy.pk])
    return copy


# --- saving -------------------------------------------------------------------------------------


def _save(event, user, fields, creating, scope=None):
    if isinstance(fields.get("venue"), SeveralVenues):
        raise CouldNotWrite("venue", CREATE)
    imported = []
    try:
        with pipeline.unit():
            if not creating:
                # Everything the write decides on is read in its turn (services.recurrence.take_turn).
                scope = recurrence.take_turn(event, scope)
            posts.check_author(event, user, fields, creating)
            _write(event, user, fields, creating, imported, scope)
    except BaseException:
        # Files of an image imported by a write that did not happen would be orphans.
        for attachment in imported:
            delete_files(attachment)
        raise
    return event


def _write(event, user, fields, creating, imported, scope=None):
    before = None if creating else recurrence.snapshot_if_in_series(event)
    now = timezone.now()
    posts.apply_author(event, user, fields, creating)
    for name in ("title", "description", "excerpt"):
        posts.write_html_text(event, user, fields, name, creating)
    _apply_schedule(event, fields, creating, now)
    _apply_cost(event, fields)
    _apply_website(event, fields, creating)
    for name in FLAGS:
        if name in fields:
            setattr(event, name, bool(fields[name]))
        elif creating:
            # A REST-created event stores false for the map flags unless true is sent (docs/contract/events.md §4.1).
            setattr(event, name, False)
    posts.apply_plain_fields(event, fields, PLAIN_FIELDS)
    apply_publication_date(event, fields, now)
    posts.apply_image(event, fields, user, imported)
    if "venue" in fields:
        event.venue = _resolve_venue(fields["venue"], user, imported)
    organizers = _resolve_organizers(fields["organizer"], user, imported) if "organizer" in fields else None
    # An event write that names neither the status nor the date keeps its status as it is.
    rescheduling = creating or any(name in fields for name in ("status", "date", "date_utc"))
    posts.apply_status(event, user, fields, creating, now, reschedule=rescheduling)
    posts.apply_slug(event, fields)
    recurrence.check_may_rejoin(event, before)
    event.save()
    posts.slug_from_id_if_none(event)
    if organizers is not None:
        _link_organizers(event, organizers, creating)
    for name, taxonomy in (("categories", Taxonomy.CATEGORY), ("tags", Taxonomy.TAG)):
        if name in fields:
            _link_terms(event, resolve_terms(fields[name], taxonomy), taxonomy, creating)
    if "recurrence" in fields:
        recurrence.set_recurrence(event, fields["recurrence"], user)
    recurrence.after_update(event, user, before, scope)


# --- time -----------------------------------------------------------------------------------------


def _is_epoch(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return is_ascii_digits(value.strip()) if isinstance(value, str) else False


def _wall_clock(name, value, zone, now):
    """A start/end input as a naive wall-clock time of the event zone.

    A naive datetime is that wall clock already, an aware one an instant shown on the event's
    clock. Epoch seconds become their UTC wall clock, then count as local time (source quirk,
    docs/contract/events.md §4.1); an input with its own offset names an instant, shown on the event's clock.
    """
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None) if value.tzinfo is None else value.astimezone(zone).replace(tzinfo=None)
    try:
        parsed = dates.parse_date_input(value, zone, now)
        if _is_epoch(value):
            return parsed.local.astimezone(dt.UTC).replace(tzinfo=None)
        if parsed.explicit_zone:
            return parsed.local.astimezone(zone).replace(tzinfo=None)
        return parsed.local.replace(tzinfo=None)
    except (ValueError, OverflowError) as error:
        raise InvalidValue(name) from error


def _apply_schedule(event, fields, creating, now):
    """Time zone, all-day and the start/end pair; the pair moves only when both ends are given (docs/contract/events.md §5)."""
    zone_name = None
    if "timezone" in fields:
        zone_name = fields["timezone"] or site_zone_name()
    elif creating:
        zone_name = site_zone_name()
    moving = "start_date" in fields and "end_date" in fields
    if not (creating or moving or zone_name is not None or "all_day" in fields):
        return
    zone = zone_for(zone_name if zone_name is not None else event.timezone_name)
    if moving:
        start = _wall_clock("start_date", fields["start_date"], zone, now)
        end = _wall_clock("end_date", fields["end_date"], zone, now)
    else:
        # A new zone or all-day setting keeps the wall clock: the event still starts at 10:00 there.
        start, end = wall_clock(event.start_local), wall_clock(event.end_local)
    all_day = fields.get("all_day", False if creating else None)
    widened = event.all_day if all_day is None else all_day
    # Each end must exist in UTC too; a wall clock at the calendar's very ends may not.
    for name, wall, day_end in (("start_date", start, dt.time(0, 0)), ("end_date", end, dt.time(23, 59, 59))):
        if widened:
            wall = dt.datetime.combine(wall.date(), day_end)
        try:
            wall.replace(tzinfo=zone).astimezone(dt.UTC)
        except (ValueError, OverflowError) as error:
            raise InvalidValue(name if moving else "timezone" if zone_name is not None else "all_day") from error
    set_event_times(event, start, end, zone_name, all_day)


# --- attributes ---------------------------------------------------------------------------------


def _apply_cost(event, fields):
    if "cost" not in fields:
        return
    cost = fields["cost"] or CostInput()
    event.cost = list(cost.values)
    event.currency_symbol = cost.currency_symbol[:CURRENCY_SYMBOL_MAX_LENGTH]
    event.currency_position = cost.currency_position if event.currency_symbol else ""


def _apply_website(event, fields, creating):
    """Absent or empty on create stores nothing, so the website reads as the event page (docs/contract/events.md §4.1)."""
    if "website" in fields:
        website = fields["website"] or ""
        event.website = None if creating and not website else website
    elif creating:
        event.website = None


# --- linked records -----------------------------------------------------------------------------


def _resolve_venue(value, user, imported):
    """None, an existing venue, or the venue made (or reused) from nested fields."""
    if value is None or isinstance(value, Venue):
        return value
    return linked.save_venue(value, user, imported=imported)


def _resolve_organizers(values, user, imported):
    """Existing organizers and those made (or reused) from nested fields, in order, without repeats."""
    found, seen = [], set()
    for value in values or ():
        organizer = value if isinstance(value, Organizer) else linked.save_organizer(value, user, imported=imported)
        if organizer.pk not in seen:
            seen.add(organizer.pk)
            found.append(organizer)
    return found


def _link_organizers(event, organizers, creating):
    if not creating:
        EventOrganizer.objects.filter(event=event).delete()
    EventOrganizer.objects.bulk_create(
        EventOrganizer(event=event, organizer=organizer, position=position)
        for position, organizer in enumerate(organizers)
    )
    pipeline.current().links_changed([event.pk])


def _link_terms(event, terms, taxonomy, creating):
    """Replace the event's terms of one taxonomy; the other taxonomy's stay."""
    links = Event.terms.through.objects
    unlinked = []
    if not creating:
        replaced = links.filter(event_id=event.pk, term__taxonomy=taxonomy)
        unlinked = list(replaced.values_list("term_id", flat=True))
        replaced.delete()
    links.bulk_create(links.model(event_id=event.pk, term_id=term.pk) for term in terms)
    # Bulk link writes send no m2m signal: the counts of both the old and the new terms move.
    pipeline.current().links_changed([event.pk], [*unlinked, *(term.pk for term in terms)])
