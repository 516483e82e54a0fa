"""Recurring events (docs/recurrence.md): a series' rules expanded into occurrences that are ordinary events.

The rules are RFC 5545 values read by python-dateutil (`rrulestr`, `rruleset`), expanded on the
first occurrence's wall clock so that a 19:00 class stays at 19:00 across daylight-saving changes.
Occurrences are written in bulk (one ID allocation, one insert, one link copy per kind) and the
rendering store renders them in bulk when the write's unit of work finishes (events.pipeline).

Every write to a series or to one of its occurrences takes its turn first (`take_turn`): its
series' first occurrence's row locked, then the event's own, and the event read again under them.
Concurrent rule saves, scope writes, moves, deletions, restores and the daily extension run one
after the other, and each decides on what the one before it left (a partial unique index on
(series, start) backs it).
"""

import datetime as dt
import re
from dataclasses import dataclass

from dateutil.rrule import DAILY, rrulestr
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .. import pipeline, roles
from ..conf import events_settings
from ..dates import format_wp, wall_clock, zone_for
from ..exceptions import InvalidValue, NotPermitted, RecordGone
from ..internals import forget_prefetched
from ..models import Event, EventOrganizer, PostIdentity, PostStatus, Series
from ..text import SLUG_MAX_LENGTH, sanitize_title, truncate_post_slug
from . import posts, recurrence_rules
from .recurrence_rules import RuleError, canonical_rule
from .schedule import set_occurrence_times

FIELD = "recurrence"
SCOPE_FIELD = "recurrence_scope"
THIS, FOLLOWING, ALL = "this", "following", "all"
SCOPES = (THIS, FOLLOWING, ALL)
# The keys a client writes; `series` and `position` are read-only.
WRITTEN_KEYS = ("rules", "dates", "exclusions")
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
# What a new occurrence does not take from the series' first occurrence: its identity, its own
# times, slug and place in the series, and what the database keeps for itself.
UNCOPIED = {
    "id",
    "slug",
    "start_utc",
    "end_utc",
    "start_local",
    "end_local",
    "timezone_abbr",
    "post_parent",
    "series",
    "series_position",
    "occurrence_start",
    "series_edits",
    "modified",
    "status_before_trash",
    "slug_before_trash",
}
# Columns a series-wide change never copies: each occurrence keeps its own time, slug and place.
OWN_COLUMNS = UNCOPIED | {"timezone_name", "all_day", "date"}
TERMS, ORGANIZERS = "terms", "organizers"
_UNTIL = re.compile(r"(?<![A-Z])UNTIL=(\d{8})(?:T(\d{6}))?(Z?)", re.IGNORECASE)


@dataclass(frozen=True)
class Recurrence:
    """A series' validated rules, extra dates and exclusions (naive wall clocks of its zone)."""

    rules: tuple
    dates: tuple
    exclusions: tuple

    @classmethod
    def of(cls, series):
        return cls(
            tuple(series.rules),
            tuple(_read_date(text) for text in series.dates),
            tuple(_read_date(text) for text in series.exclusions),
        )

    def store(self, series):
        series.rules = list(self.rules)
        # The API's own form, so that every record of the series shows them as they are kept.
        series.dates = [format_wp(date) for date in self.dates]
        series.exclusions = [format_wp(date) for date in self.exclusions]

    @property
    def open_ended(self):
        return any(not rule_parts(rule).keys() & {"COUNT", "UNTIL"} for rule in self.rules)


# --- reading what a client writes ---------------------------------------------------------------


def _refuse(reason):
    raise InvalidValue(FIELD, reason)


def parse_recurrence(value, first):
    """A client's `recurrence` ({rules, dates, exclusions}) for a series starting as `first` does, or
    None for `null`; InvalidValue("recurrence") says what is wrong."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {*WRITTEN_KEYS, "series", "position"}:
        _refuse(_("Send an object with rules, dates and exclusions."))
    lists = {}
    for key, most in (
        ("rules", events_settings.RECURRENCE_MAX_RULES),
        ("dates", events_settings.RECURRENCE_MAX_DATES),
        ("exclusions", events_settings.RECURRENCE_MAX_DATES),
    ):
        items = value.get(key) or []
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            _refuse(_("%(key)s must be a list of strings.") % {"key": key})
        # Counted before anything is read: every occurrence's record shows these lists.
        if len(items) > most:
            _refuse(_("%(key)s holds at most %(count)s items.") % {"key": key, "count": most})
        lists[key] = items
    start = wall_clock(first.start_local)
    rules = tuple(_checked_rule(text, start, zone_for(first.timezone_name)) for text in lists["rules"])
    dates = _checked_dates(lists["dates"], first)
    exclusions = _checked_dates(lists["exclusions"], first)
    if not rules and not dates:
        _refuse(_("A recurrence needs at least one rule or one date."))
    if any(date < start for date in dates):
        _refuse(_("Extra dates must not come before the first occurrence."))
    if any(date > search_end(start) for date in dates):
        _refuse(_too_long())
    if start in exclusions:
        _refuse(_("The first occurrence cannot be excluded: it is the series itself."))
    return Recurrence(rules, dates, exclusions)


def rule_parts(text):
    parts = {}
    for part in text.split(";"):
        name, _sep, value = part.partition("=")
        parts[name.strip().upper()] = value.strip()
    return parts


rule_text = recurrence_rules.rule_text


def _checked_rule(text, start, zone):
    """A client's rule in its canonical text, once its grammar is read (services.recurrence_rules)
    and its dates are found within the series' span: one date at least, all of its COUNT, none past
    the span when it ends."""
    parts = _rule_grammar(text)
    if int(parts.get("COUNT", 0)) > events_settings.MAX_OCCURRENCES_PER_SERIES:
        _refuse(recurrence_rules.too_many_occurrences())
    found = 0
    for moment in rule_moments(parts, start, zone):
        if moment > search_end(start):
            if "COUNT" in parts or "UNTIL" in parts:
                _refuse(_too_long())
            break
        found += 1
        if found > events_settings.MAX_OCCURRENCES_PER_SERIES or ("COUNT" not in parts and "UNTIL" not in parts):
            # Enough: the expansion refuses a series past its limit, in its own words.
            break
    if not found and "UNTIL" in parts and _until_wall_clock(parts["UNTIL"], zone) < start:
        _refuse(_("The rule ends (UNTIL) before the first occurrence starts."))
    if not found:
        _refuse(
            _("The rule “%(rule)s” gives no date within %(years)s years of the first occurrence.")
            % {"rule": rule_text(parts), "years": events_settings.RECURRENCE_MAX_YEARS}
        )
    if found < int(parts.get("COUNT", 1)):
        _refuse(
            _(
                "The rule “%(rule)s” gives only %(found)s of its %(count)s dates within %(years)s years of "
                "the first occurrence and before the year 10000."
            )
            % {
                "rule": rule_text(parts),
                "found": found,
                "count": parts["COUNT"],
                "years": events_settings.RECURRENCE_MAX_YEARS,
            }
        )
    return rule_text(parts)


def _rule_grammar(text):
    try:
        return canonical_rule(text)
    except RuleError as error:
        _refuse(_("The rule “%(rule)s” is refused: %(reason)s") % {"rule": text.strip()[:100], "reason": error})


def _too_long():
    return _(
        "A series ends within %(years)s years of its first occurrence (and before the year 10000): "
        "end it sooner (COUNT or UNTIL)."
    ) % {"years": events_settings.RECURRENCE_MAX_YEARS}


def utc_until(text, zone):
    """RFC 5545 wants UNTIL in UTC when the start has a zone; a floating UNTIL is read as the
    event's wall clock, a date as the end of that day."""

    def in_utc(match):
        day, clock, utc = match.groups()
        if utc:
            return match.group(0)
        local = dt.datetime.strptime(day + (clock or "235959"), "%Y%m%d%H%M%S").replace(tzinfo=zone)
        return "UNTIL=" + local.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")

    return _UNTIL.sub(in_utc, text)


def _rule(text, start, zone):
    rule = rrulestr(utc_until(text, zone), dtstart=start.replace(tzinfo=zone))
    if getattr(rule, "_freq", DAILY) > DAILY:
        # Finer than daily: refused by the caller, never expanded (it could make millions).
        raise ValueError(text)
    return rule


def _checked_dates(items, first):
    dates = set()
    start = wall_clock(first.start_local)
    for text in items:
        date = _client_date(text, start)
        if first.all_day:
            date = dt.datetime.combine(date.date(), dt.time(0, 0))
        dates.add(date)
    return tuple(sorted(dates))


def _client_date(text, start):
    """ "Y-m-d H:i:s" (seconds optional, "T" allowed) in the event's zone; a date alone starts at the series' time."""
    text = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return dt.datetime.combine(dt.date.fromisoformat(text), start.time())
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?", text):
            raise ValueError(text)
        return dt.datetime.fromisoformat(text.replace(" ", "T"))
    except ValueError:
        _refuse(_("“%(date)s” is not a date of the form Y-m-d H:i:s.") % {"date": text})


def _read_date(text):
    return dt.datetime.fromisoformat(text)


# --- expansion ------------------------------------------------------------------------------------


def horizon(first):
    """How far open-ended rules are materialised: RECURRENCE_HORIZON_MONTHS from today, on the event's clock."""
    today = timezone.now().astimezone(zone_for(first.timezone_name)).date()
    months = today.month - 1 + events_settings.RECURRENCE_HORIZON_MONTHS
    year, month = today.year + months // 12, months % 12 + 1
    day = min(today.day, 28)
    return dt.datetime(year, month, day, 23, 59, 59)


def search_end(start):
    """The last wall clock a series starting at `start` may reach: RECURRENCE_MAX_YEARS later, within year 9999."""
    year = start.year + events_settings.RECURRENCE_MAX_YEARS
    if year > dt.MAXYEAR:
        return dt.datetime(dt.MAXYEAR, 12, 31, 23, 59, 59)
    try:
        return start.replace(year=year)
    except ValueError:
        # 29 February of a year without one.
        return start.replace(year=year, day=28)


# The Gregorian calendar, weekdays and leap days included, repeats every 400 years (146,097 days).
CALENDAR_CYCLE_YEARS = 400


def rule_moments(parts, start, zone):
    """The starts (naive wall clocks, in order) one rule (its canonical parts) gives a series
    starting at `start`, to its COUNT or UNTIL; an open-ended rule's may go on past search_end().

    dateutil ends a rule that gives no further date only at the year 9999, walking every period
    on the way (millions of days from today). So the rule is expanded a whole number of calendar
    cycles later, where the year 9999 falls less than 400 years past the series' span, and its
    dates moved back: every walk ends within 400 years of the span. COUNT and UNTIL are applied
    here, so dateutil is never asked for the date after the last.
    """
    parts = dict(parts)
    count = int(parts.pop("COUNT")) if "COUNT" in parts else None
    last = _until_wall_clock(parts.pop("UNTIL"), zone) if "UNTIL" in parts else None
    shift = (dt.MAXYEAR - search_end(start).year) // CALENDAR_CYCLE_YEARS * CALENDAR_CYCLE_YEARS
    for moment in rrulestr(rule_text(parts), dtstart=start.replace(year=start.year + shift)):
        moment = moment.replace(year=moment.year - shift)
        if last is not None and moment > last:
            return
        yield moment
        if count is not None:
            count -= 1
            if not count:
                return


def _until_wall_clock(text, zone):
    """UNTIL on the event's wall clock: a UTC time shown there, a floating time as it is, a date as its last second."""
    if text.endswith("Z"):
        moment = dt.datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC)
        try:
            return moment.astimezone(zone).replace(tzinfo=None)
        except OverflowError:
            return dt.datetime.max
    if "T" in text:
        return dt.datetime.strptime(text, "%Y%m%dT%H%M%S")
    return dt.datetime.strptime(text + "235959", "%Y%m%d%H%M%S")


def expand(recurrence, first, until, limit=None):
    """The starts (naive wall clocks) of the series, in order, up to `until` (None: all of them).

    More than `limit` (default MAX_OCCURRENCES_PER_SERIES) is refused, never cut short; so is a
    rule that, as stored, is no longer read (InvalidValue, for the callers showing a stored series).
    """
    limit = events_settings.MAX_OCCURRENCES_PER_SERIES if limit is None else limit
    zone = zone_for(first.timezone_name)
    start = wall_clock(first.start_local)
    end = search_end(start) if until is None else min(until, search_end(start))
    excluded = set(recurrence.exclusions)
    # The first occurrence is always one, as RFC 5545 counts DTSTART.
    starts = {start, *(date for date in recurrence.dates if date <= end)}
    # Each rule stops once it alone passes the limit, whatever the exclusions take off.
    most = limit + len(excluded) + len(starts)
    for text in recurrence.rules:
        parts = _rule_grammar(text)
        for moment in rule_moments(parts, start, zone):
            if moment > end:
                if until is None and moment > search_end(start):
                    _refuse(_too_long())
                break
            starts.add(moment)
            if len(starts) > most:
                break
    starts = sorted(starts - excluded)
    if len(starts) > limit:
        _refuse(recurrence_rules.too_many_occurrences(limit))
    return starts


# --- writing a series ----------------------------------------------------------------------------


def series_events(series_id, lock=True):
    """The occurrences of a series (trashed ones too), its first occurrence's row locked."""
    if lock:
        lock_series(series_id)
    return list(Event.objects.filter(series_id=series_id).order_by("occurrence_start", "pk"))


def lock_series(series_id):
    """Serialise every write to this series (module docstring); taken before any other row of it."""
    if series_id is not None and connection.features.has_select_for_update:
        list(Event.objects.select_for_update(of=("self",)).filter(pk=series_id).values_list("pk", flat=True))


def lock_turn(event_id, series_id):
    """Lock what a write to event `event_id` must hold, in the one order every writer takes: the
    first occurrence of its series (`series_id`, as last read; an event outside a series is its
    own), then its own row. The event's row as read under its lock, or None when it is gone.

    An occurrence changes series only under its old series' lock (a split, the end of a
    recurrence), so the series read once that lock is held is final; read before, it may be
    stale, and the series it is now in is locked in turn. Each such step follows a split or an
    end that committed meanwhile, always towards a later first occurrence or none. An event that
    is its series' first occurrence, or in none, is locked and read in one statement.
    """
    locked = series_id or event_id
    while locked != event_id:
        lock_series(locked)
        found = list(Event.objects.filter(pk=event_id).values_list("series_id", flat=True))
        if not found:
            return None
        current = found[0] or event_id
        if current == locked:
            break
        locked = current
    rows = Event.objects.select_for_update(of=("self",)) if connection.features.has_select_for_update else Event.objects
    return rows.filter(pk=event_id).first()


def take_turn(event, scope=None):
    """Wait for the turn of a write to `event` (lock_turn), then take what it holds now: the write
    decides on what the writers before it left, never on what was read before the turn came (the
    event may have been trashed, moved, split off into another series or left its series meanwhile).

    The scope for what `event` now is: a scope sent for an occurrence that left its series
    meanwhile is dropped (it is written as the ordinary event it now is); sent for an event that
    was in no series, it is refused.
    """
    addressed = event.series_id
    current = lock_turn(event.pk, addressed)
    if current is None:
        raise RecordGone("event", event.pk)
    # What refresh_from_db() does, without its statement: the row was just read under the lock.
    for field in Event._meta.concrete_fields:
        value = getattr(current, field.attname)
        if field.is_relation and field.is_cached(event) and getattr(event, field.attname) != value:
            field.delete_cached_value(event)
        setattr(event, field.attname, value)
    forget_prefetched(event)
    if scope is not None and event.series_id is None and addressed is not None:
        return None
    check_scope(event, scope)
    return scope


def check_may_edit_series(user, occurrences):
    """Whoever may not edit every occurrence of a series may not change it as a whole."""
    if any(not roles.can_edit(user, occurrence) for occurrence in occurrences):
        raise NotPermitted()


def set_recurrence(event, value, user):
    """Make `event` a series with the recurrence `value` (a client's), change its series' rules, or
    end its recurrence (`None`: the first occurrence stays, an ordinary event; the others go to the trash)."""
    if event.series_id is not None and event.series_id != event.pk:
        _refuse(_("Change the rules on the series' first occurrence (ID %(id)s).") % {"id": event.series_id})
    occurrences = series_events(event.pk) if event.series_id is not None else [event]
    check_may_edit_series(user, occurrences)
    recurrence = parse_recurrence(value, event)
    if recurrence is None:
        if event.series_id is not None:
            _end_series(event, occurrences)
        return
    series = Series.objects.filter(pk=event.pk).first() or Series(first=event)
    recurrence.store(series)
    series.save()
    others = [occurrence for occurrence in occurrences if occurrence.pk != event.pk]
    materialise(series, event, recurrence, [*others, event])


def first_moved(event):
    """After a write that may have moved the first occurrence of a series: the rules' start moved
    with it, so the series is made again (occurrences whose start stays are kept)."""
    if event.series_id != event.pk or event.occurrence_start == event.start_local:
        return
    occurrences = series_events(event.pk)
    series = Series.objects.get(pk=event.pk)
    others = [occurrence for occurrence in occurrences if occurrence.pk != event.pk]
    materialise(series, event, Recurrence.of(series), [*others, event])


def extend_open_series():
    """Materialise every open-ended series up to today's horizon (the daily events_extend_series).

    Each series in its own transaction; one that would pass MAX_OCCURRENCES_PER_SERIES is left as
    it is and returned with the refusal, for the command to report. ([extended IDs], [(ID, refusal)]).
    """
    extended, refused = [], []
    for series_id in Series.objects.exclude(rules=[]).order_by("pk").values_list("pk", flat=True):
        try:
            with pipeline.unit():
                lock_series(series_id)
                # Read under the lock: the series may have been ended or given other rules meanwhile.
                series = Series.objects.filter(pk=series_id).first()
                if series is None or not Recurrence.of(series).open_ended:
                    continue
                occurrences = series_events(series_id, lock=False)
                first = next(occurrence for occurrence in occurrences if occurrence.pk == series_id)
                if first.status == PostStatus.TRASH:
                    continue
                materialise(series, first, Recurrence.of(series), occurrences)
        except InvalidValue as refusal:
            refused.append((series_id, refusal))
            continue
        extended.append(series_id)
    return extended, refused


def materialise(series, first, recurrence, occurrences, until=None):
    """Make the occurrences the rules give, keep those whose start stays (IDs, individual edits),
    trash those that vanished, renumber them all, and have the store render the whole series again."""
    if recurrence.open_ended:
        # The first occurrence is one even past the horizon (a series starting in three years).
        until = max(
            until or horizon(first),
            wall_clock(series.materialised_until) if series.materialised_until else dt.datetime.min,
            wall_clock(first.start_local),
        )
    else:
        until = None
    starts = expand(recurrence, first, until)
    series.materialised_until = until.replace(tzinfo=dt.UTC) if until is not None else None
    series.save(update_fields=["materialised_until"])
    positions = {start: position for position, start in enumerate(starts, start=1)}
    # The first occurrence's start is the rules' DTSTART: another live occurrence there (the first
    # moved onto it) has vanished.
    kept, vanished = {wall_clock(first.start_local): first}, []
    for occurrence in occurrences:
        if occurrence.pk == first.pk:
            continue
        start = wall_clock(occurrence.occurrence_start)
        if occurrence.status != PostStatus.TRASH and start in positions and start not in kept:
            kept[start] = occurrence
        elif occurrence.status != PostStatus.TRASH:
            vanished.append(occurrence)
    _trash(vanished)
    if (first.series_id, first.occurrence_start, first.series_position) != (series.pk, first.start_local, 1):
        # Only now, with no other live occurrence at its start (the unique index on series and start).
        first.series, first.occurrence_start, first.series_position = series, first.start_local, 1
        first.save(update_fields=["series", "occurrence_start", "series_position"])
    # The rules wait with a first occurrence in the trash: nothing new is made until it is restored.
    missing = [start for start in starts if start not in kept] if first.status != PostStatus.TRASH else []
    made = _create(first, series, missing, positions)
    renumbered = [occurrence for start, occurrence in kept.items() if occurrence.series_position != positions[start]]
    for start, occurrence in kept.items():
        occurrence.series_position = positions[start]
    Event.objects.bulk_update(renumbered, ["series_position"])
    # Every record of the series, trashed ones too, shows its rules and its place: all of them are rendered again.
    work = pipeline.current()
    work.changed(Event, {first.pk, *(occurrence.pk for occurrence in occurrences), *(event.pk for event in made)})
    work.made(Event, made)
    return made


def _create(first, series, starts, positions):
    """New occurrences at `starts`, copies of the first occurrence, written in bulk."""
    if not starts:
        return []
    zone_name = first.timezone_name
    length = first.end_local - first.start_local
    # Positional, in the order of the columns, as Django builds instances it reads: keyword
    # arguments cost several times more per instance, each name rewritten by the translation layer.
    values = [
        field.get_default() if field.attname in UNCOPIED or field.name in UNCOPIED else getattr(first, field.attname)
        for field in Event._meta.concrete_fields
    ]
    ids = PostIdentity.allocate(Event.KIND, len(starts))
    slugs = _occurrence_slugs(first, starts)
    made = []
    for record_id, start, slug in zip(ids, starts, slugs):
        occurrence = Event(*values)
        occurrence.id = record_id
        set_occurrence_times(occurrence, start, length, zone_name, first.all_day)
        occurrence.slug = slug
        occurrence.post_parent_id = first.pk
        occurrence.series_id = series.pk
        occurrence.series_position = positions[start]
        occurrence.occurrence_start = start.replace(tzinfo=dt.UTC)
        occurrence.series_edits = []
        made.append(occurrence)
    Event.objects.bulk_create(made)
    _copy_links(first, [occurrence.pk for occurrence in made])
    return made


def _copy_links(source, target_ids, replace=False, kinds=(TERMS, ORGANIZERS)):
    """Give these events the terms and/or organizers of `source` (all of them in a few statements)."""
    if not target_ids:
        return
    term_links = Event.terms.through.objects
    relinked = []
    if TERMS in kinds:
        term_ids = list(term_links.filter(event_id=source.pk).values_list("term_id", flat=True))
        unlinked = []
        if replace:
            replaced = term_links.filter(event_id__in=target_ids)
            unlinked = list(replaced.values_list("term_id", flat=True).distinct())
            replaced.delete()
        term_links.bulk_create(
            [term_links.model(event_id=target, term_id=term) for target in target_ids for term in term_ids]
        )
        relinked = [*term_ids, *unlinked]
    if ORGANIZERS in kinds:
        links = list(EventOrganizer.objects.filter(event_id=source.pk).values_list("organizer_id", "position"))
        if replace:
            EventOrganizer.objects.filter(event_id__in=target_ids).delete()
        EventOrganizer.objects.bulk_create(
            [
                EventOrganizer(event_id=target, organizer_id=organizer, position=position)
                for target in target_ids
                for organizer, position in links
            ]
        )
    pipeline.current().links_changed(target_ids, relinked)


def _occurrence_slugs(first, starts):
    """`<series slug>-<YYYY-MM-DD>` for each start, made unique (-2, -3…) against every event."""
    base = first.slug or sanitize_title(first.title_en or first.title or "") or str(first.pk)
    base = truncate_post_slug(base, SLUG_MAX_LENGTH - len("-2027-01-05-99"))
    posts.lock_slug(first, base)
    wanted = [f"{base}-{start.date().isoformat()}" for start in starts]
    taken = set(Event.objects.filter(slug__in=set(wanted)).values_list("slug", flat=True))
    slugs = []
    for slug in wanted:
        candidate, suffix = slug, 2
        while candidate in taken:
            candidate, suffix = f"{slug}-{suffix}", suffix + 1
            if candidate not in taken and Event.objects.filter(slug=candidate).exists():
                taken.add(candidate)
        taken.add(candidate)
        slugs.append(candidate)
    return slugs


def _trash(occurrences):
    """Occurrences to the trash, as trash_event moves one, in one statement."""
    if not occurrences:
        return
    for occurrence in occurrences:
        posts.move_to_trash(occurrence)
    # An update of the calendar's querysets (bulk_update makes one) records the new status: the
    # unit of work recounts the terms of these events.
    Event.objects.bulk_update(occurrences, ["status", "status_before_trash", "slug", "slug_before_trash"])


def _end_series(first, occurrences):
    _trash(
        [
            occurrence
            for occurrence in occurrences
            if occurrence.pk != first.pk and occurrence.status != PostStatus.TRASH
        ]
    )
    others = [occurrence.pk for occurrence in occurrences if occurrence.pk != first.pk]
    # The trashed occurrences stay in the trash as ordinary events.
    Event.objects.filter(pk__in=others).update(
        series=None, series_position=None, occurrence_start=None, series_edits=[]
    )
    first.series, first.series_position, first.occurrence_start, first.series_edits = None, None, None, []
    first.save(update_fields=["series", "series_position", "occurrence_start", "series_edits"])
    Series.objects.filter(pk=first.pk).delete()


# --- scopes: this occurrence, this and the following, all ---------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """An event's columns and links before a write, to tell what the write changed."""

    columns: dict
    terms: frozenset
    organizers: tuple

    @classmethod
    def of(cls, event):
        return cls(
            {field.attname: getattr(event, field.attname) for field in Event._meta.concrete_fields},
            frozenset(Event.terms.through.objects.filter(event_id=event.pk).values_list("term_id", flat=True)),
            tuple(
                EventOrganizer.objects.filter(event_id=event.pk)
                .order_by("position", "id")
                .values_list("organizer_id", flat=True)
            ),
        )

    def changes(self, event):
        """(columns, link kinds) that differ now; what each occurrence keeps is judged on these."""
        after = Snapshot.of(event)
        columns = [
            name for name, value in self.columns.items() if after.columns[name] != value and name not in ("modified",)
        ]
        links = [
            kind
            for kind, differs in ((TERMS, after.terms != self.terms), (ORGANIZERS, after.organizers != self.organizers))
            if differs
        ]
        return columns, links


TIME_COLUMNS = {"start_utc", "end_utc", "start_local", "end_local"}


def check_scope(event, scope):
    """A scope names how much of a series a write is for: only events of a series have one."""
    if scope is not None and event.series_id is None:
        raise InvalidValue(SCOPE_FIELD, _("The event is not part of a recurring series."))


def snapshot_if_in_series(event):
    return Snapshot.of(event) if event.series_id is not None else None


def after_update(event, user, before, scope):
    """After `event` was written: remember what was edited on this occurrence alone (`this`), or
    carry the change to the following occurrences (split into a new series) or to all of them."""
    if before is None or event.series_id is None:
        return
    if before.columns["status"] == PostStatus.TRASH and event.status != PostStatus.TRASH:
        _rejoin(event)
    columns, links = before.changes(event)
    scope = scope or THIS
    if scope == THIS:
        edited = sorted(
            {*event.series_edits, *(name for name in columns if name not in UNCOPIED - TIME_COLUMNS), *links}
        )
        if edited != event.series_edits:
            event.series_edits = edited
            event.save(update_fields=["series_edits"])
        first_moved(event)
        return
    if event.pk != event.series_id:
        if TIME_COLUMNS & set(columns) and scope == ALL:
            raise InvalidValue(
                SCOPE_FIELD, _("To move every occurrence, move the first one (ID %(id)s).") % {"id": event.series_id}
            )
        if scope == FOLLOWING:
            split(event, user)
    first_moved(event)
    _propagate(event, [name for name in columns if name not in OWN_COLUMNS], links, user)


def check_may_rejoin(event, before):
    """An occurrence leaving the trash takes its start in its series back: refused while another
    live occurrence holds that start (made there after the start left the exclusions), which
    would otherwise be two occurrences of one start."""
    if before is None or event.series_id is None or before.columns["status"] != PostStatus.TRASH:
        return
    if event.status == PostStatus.TRASH:
        return
    holder = (
        Event.objects.filter(series_id=event.series_id, occurrence_start=event.occurrence_start)
        .exclude(status=PostStatus.TRASH)
        .exclude(pk=event.pk)
        .values_list("pk", flat=True)
        .first()
    )
    if holder is not None:
        raise InvalidValue(
            "status",
            _("Occurrence %(id)s of the series now starts at the time this one had: trash it first.") % {"id": holder},
        )


def _rejoin(event):
    """An occurrence restored from the trash is in its series again: its start leaves the
    exclusions, and the series (its numbering, every record's `recurrence`) is made again. A first
    occurrence brings the rules back from the trash: what they waited to make is made."""
    series = Series.objects.get(pk=event.series_id)
    recurrence = Recurrence.of(series)
    if event.pk != event.series_id:
        start = wall_clock(event.occurrence_start)
        if start not in recurrence.exclusions:
            return
        exclusions = tuple(date for date in recurrence.exclusions if date != start)
        recurrence = Recurrence(recurrence.rules, recurrence.dates, exclusions)
        recurrence.store(series)
        series.save()
    occurrences = series_events(series.pk, lock=False)
    first = event if event.pk == series.pk else next(o for o in occurrences if o.pk == series.pk)
    materialise(series, first, recurrence, occurrences)


def _propagate(event, columns, links, user):
    """The values `event` now has in `columns` and `links`, written to every other occurrence of
    its series that was not edited there alone, a few statements for the whole series."""
    others = [
        occurrence
        for occurrence in series_events(event.series_id)
        if occurrence.pk != event.pk and occurrence.status != PostStatus.TRASH
    ]
    check_may_edit_series(user, others)
    groups = {}
    for occurrence in others:
        kept = set(occurrence.series_edits)
        key = (tuple(name for name in columns if name not in kept), tuple(kind for kind in links if kind not in kept))
        groups.setdefault(key, []).append(occurrence.pk)
    now = timezone.now()
    for (group_columns, group_links), ids in groups.items():
        if group_columns:
            # A new status is recorded with the update: the unit of work recounts these events' terms.
            Event.objects.filter(pk__in=ids).update(
                modified=now, **{name: getattr(event, name) for name in group_columns}
            )
        if group_links:
            _copy_links(event, ids, replace=True, kinds=group_links)


def split(event, user):
    """`event` and the occurrences after it leave their series for a new one that `event` starts;
    the old series' rules end before it."""
    old_first = Event.objects.get(pk=event.series_id)
    occurrences = series_events(old_first.pk)
    check_may_edit_series(
        user, [occurrence for occurrence in occurrences if occurrence.occurrence_start >= event.occurrence_start]
    )
    old_series = Series.objects.get(pk=old_first.pk)
    recurrence = Recurrence.of(old_series)
    cut = wall_clock(event.occurrence_start)
    earlier, later = _cut(recurrence, old_first, cut)
    earlier.store(old_series)
    old_series.save()
    new_series = Series(first=event)
    later.store(new_series)
    new_series.save()
    moving = [
        occurrence.pk
        for occurrence in occurrences
        if wall_clock(occurrence.occurrence_start) >= cut and occurrence.pk != event.pk
    ]
    Event.objects.filter(pk__in=moving).update(series=new_series, post_parent=event)
    event.series, event.post_parent = new_series, None
    event.series_edits = []
    event.save(update_fields=["series", "post_parent", "series_edits"])
    staying = [occurrence for occurrence in occurrences if wall_clock(occurrence.occurrence_start) < cut]
    materialise(old_series, next(o for o in staying if o.pk == old_first.pk), earlier, staying)
    moved = series_events(event.pk, lock=False)
    materialise(new_series, event, later, moved)


def _cut(recurrence, first, cut):
    """(the recurrence up to `cut`, the recurrence from `cut` on, with `cut` its start)."""
    zone = zone_for(first.timezone_name)
    start = wall_clock(first.start_local)
    until = (cut - dt.timedelta(seconds=1)).replace(tzinfo=zone).astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    earlier_rules, later_rules = [], []
    for text in recurrence.rules:
        parts = rule_parts(text)
        moments = (
            [
                moment.replace(tzinfo=None)
                for moment in _rule(text, start, zone).xafter(cut.replace(tzinfo=zone), count=None, inc=True)
            ]
            if "COUNT" in parts
            else None
        )
        later_parts = dict(parts)
        if moments is not None:
            later_parts["COUNT"] = str(len(moments))
        if moments != []:
            later_rules.append(rule_text(later_parts))
        earlier_parts = {name: value for name, value in parts.items() if name != "COUNT"}
        earlier_parts["UNTIL"] = until
        earlier_rules.append(rule_text(earlier_parts))
    earlier = Recurrence(
        tuple(earlier_rules),
        tuple(date for date in recurrence.dates if date < cut),
        tuple(date for date in recurrence.exclusions if date < cut),
    )
    later = Recurrence(
        tuple(later_rules),
        tuple(date for date in recurrence.dates if date > cut),
        tuple(date for date in recurrence.exclusions if date > cut),
    )
    return earlier, later


def trash_in_series(event, user, scope):
    """Delete an occurrence (`this`: its start joins the exclusions), it and the following ones
    (the rules end before it), or every occurrence of its series (`all`)."""
    occurrences = series_events(event.series_id)
    first = next(occurrence for occurrence in occurrences if occurrence.pk == event.series_id)
    scope = scope or THIS
    if scope == FOLLOWING and event.pk == first.pk:
        scope = ALL
    if scope == ALL:
        check_may_edit_series(user, occurrences)
        _trash(
            [
                occurrence
                for occurrence in occurrences
                if occurrence.status != PostStatus.TRASH and occurrence.pk != event.pk
            ]
        )
        return
    series = Series.objects.get(pk=first.pk)
    recurrence = Recurrence.of(series)
    if scope == THIS:
        if event.pk != first.pk:
            start = wall_clock(event.occurrence_start)
            recurrence = Recurrence(recurrence.rules, recurrence.dates, tuple(sorted({*recurrence.exclusions, start})))
            # Trashed first, so that the series made again does not count it as vanished.
            occurrences = [occurrence for occurrence in occurrences if occurrence.pk != event.pk]
    else:
        cut = wall_clock(event.occurrence_start)
        check_may_edit_series(user, [o for o in occurrences if wall_clock(o.occurrence_start) >= cut])
        recurrence, _later = _cut(recurrence, first, cut)
        occurrences = [occurrence for occurrence in occurrences if occurrence.pk != event.pk]
    recurrence.store(series)
    series.save()
    materialise(series, first, recurrence, occurrences)


# --- the record's field -----------------------------------------------------------------------
