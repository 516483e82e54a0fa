"""Writing what a source holds: each remote event created, updated, trashed or left alone through
the event services (so the store, the change log, webhooks and term counts follow), each in its own
unit of work, and the counts of what was done."""

import copy
import datetime as dt
import hashlib
import json
import logging
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from .. import pipeline
from ..exceptions import DATABASE_FAULTS, CalendarError
from ..kses import filter_post_html, filter_title_html
from ..models import Event, ImportedRecord, ImportPolicy, PostStatus, Series, Taxonomy
from ..services import linked, recurrence
from ..services.events import create_event, restore_event, trash_event, update_event
from ..services.terms import resolve_terms
from .fetch import SourceUnreadable

logger = logging.getLogger(__name__)

# A run's history keeps this many lines of what was skipped or refused.
MAX_MESSAGES = 200
# The fields whose local values tell an editor's change from the import's (policy keep_local):
# each group is written, or kept, as a whole.
FIELD_GROUPS = {
    "title": ("title",),
    "description": ("description",),
    "schedule": ("start_date", "end_date", "all_day", "timezone"),
    "website": ("website",),
    "venue": ("venue",),
    "organizer": ("organizer",),
    "categories": ("categories",),
    "tags": ("tags",),
    "cost": ("cost",),
    "recurrence": ("recurrence",),
}


@dataclass
class Outcome:
    created: int = 0
    updated: int = 0
    trashed: int = 0
    unchanged: int = 0
    skipped: int = 0
    errors: int = 0
    messages: list = field(default_factory=list)

    def note(self, where, reason):
        if len(self.messages) < MAX_MESSAGES:
            self.messages.append(f"{where}: {reason}")

    def summary(self):
        return (
            f"imported: {self.created} created, {self.updated} updated, {self.trashed} trashed, "
            f"{self.unchanged} unchanged, {self.skipped} skipped, {self.errors} errors"
        )


def apply_reading(source, reading, user, still_running=None):
    """Write `reading` (items.Reading) for `source` with `user`'s rights; an Outcome of what was done.

    Events are written BATCH_SIZE at a time in one unit, so that the store renders and the change
    log appends them together; a batch in which one event is refused is rolled back and written
    again one event per unit, so the refused event alone is left out, whole. `still_running` is
    called before each batch (the run renews its claim on the source there).
    """
    outcome = Outcome(errors=len(reading.problems))
    for problem in reading.problems:
        outcome.note(_("skipped"), problem)
    records = {record.remote_key: record for record in source.records.select_related("event", "venue", "organizer")}
    seen, state = set(), _RunState(source, user, records, outcome)
    unique = []
    for remote in reading.events:
        if remote.key in seen:
            outcome.note(remote.key, _("given twice; the first one was imported."))
            outcome.skipped += 1
            continue
        seen.add(remote.key)
        unique.append(remote)
    for first in range(0, len(unique), BATCH_SIZE):
        if still_running is not None:
            still_running()
        batch = unique[first : first + BATCH_SIZE]
        if not _write_batch(state, batch):
            for remote in batch:
                _write_alone(state, remote)
    if reading.complete and source.policy != ImportPolicy.NEW_ONLY:
        _trash_gone(source, records, seen, user, outcome)
    return outcome


BATCH_SIZE = 50
REFUSALS = (CalendarError, ValueError, SourceUnreadable)


@dataclass
class _RunState:
    source: object
    user: object
    records: dict
    outcome: Outcome
    rewritten_series: set = field(default_factory=set)
    linked_records: object = None

    def __post_init__(self):
        self.linked_records = LinkedRecords(self.user)

    def saved(self):
        return (dict(self.records), set(self.rewritten_series), copy.copy(self.outcome), list(self.outcome.messages))

    def restore(self, saved, keys):
        """As before a rolled-back batch: its records read again, since the batch changed them in memory."""
        records, self.rewritten_series, outcome, messages = saved
        self.outcome.__dict__.update(outcome.__dict__)
        self.outcome.messages = messages
        self.records.clear()
        self.records.update(records)
        for key in keys:
            self.records.pop(key, None)
        found = self.source.records.filter(remote_key__in=keys).select_related("event", "venue", "organizer")
        self.records.update({record.remote_key: record for record in found})
        self.linked_records.forget()


def _write(state, remotes):
    """Write `remotes` in one unit, or none of them: on a refusal or a database fault the unit rolls
    back, and so do the run's counts and what it holds in memory of those records."""
    saved = state.saved()
    try:
        with pipeline.unit():
            for remote in remotes:
                _apply_one(
                    state.source,
                    remote,
                    state.records,
                    state.user,
                    state.outcome,
                    state.rewritten_series,
                    state.linked_records,
                )
    except (*DATABASE_FAULTS, *REFUSALS):
        state.restore(saved, [remote.key for remote in remotes])
        raise


def _write_batch(state, batch):
    """Write `batch` in one unit; False (nothing written, nothing counted) when one of it is refused."""
    try:
        _write(state, batch)
    except REFUSALS:
        return False
    return True


def _write_alone(state, remote):
    """Write one record in a unit of its own; a refusal is counted and reported, and nothing of it stays."""
    try:
        _write(state, [remote])
    except REFUSALS as refusal:
        state.outcome.errors += 1
        state.outcome.note(remote.key[:200], _refusal_text(refusal))


def _refusal_text(refusal):
    message = getattr(refusal, "message", None)
    if callable(message):
        message = message()
    reason = getattr(refusal, "reason", None)
    return str(reason or message or refusal)


def _apply_one(source, remote, records, user, outcome, rewritten_series, linked_records):
    record = records.get(remote.key)
    if remote.kind != "event":
        _apply_linked(source, remote, record, records, user, outcome)
        return
    if record is not None and record.ignored:
        outcome.skipped += 1
        return
    event = record.event if record is not None else None
    if record is not None and (event is None or (event.status == PostStatus.TRASH and not record.trashed_by_import)):
        # An editor deleted it: remembered, never brought back.
        record.ignored = True
        record.save(update_fields=["ignored", "last_imported"])
        outcome.skipped += 1
        return
    if remote.cancelled:
        _cancel(source, remote, record, records, user, outcome)
        return
    fields = _fields(source, remote)
    if record is None:
        _create(source, remote, fields, records, user, outcome, rewritten_series, linked_records)
        return
    if source.policy == ImportPolicy.NEW_ONLY:
        outcome.skipped += 1
        return
    reapply = remote.series_key and remote.series_key in rewritten_series
    if record.content_hash == _digest(source, remote) and not record.trashed_by_import and not reapply:
        outcome.unchanged += 1
        return
    _update(source, remote, fields, record, user, outcome, rewritten_series, linked_records)


def _author_html(fields):
    """Texts filtered as an author's HTML whoever the import writes as: a source is not a trusted author."""
    for name, html_filter in (
        ("title", filter_title_html),
        ("description", filter_post_html),
        ("excerpt", filter_post_html),
    ):
        if fields.get(name):
            fields[name] = html_filter(fields[name])
    return fields


def _digest(source, remote):
    """What the source says of the record and what the source's own settings add to every record."""
    return hashlib.sha256(f"{remote.content_hash}{json.dumps(source.categories)}".encode()).hexdigest()


def _fields(source, remote):
    fields = _author_html(dict(remote.fields))
    extra = [name for name in source.categories if name not in fields.get("categories", [])]
    if extra:
        fields["categories"] = [*fields.get("categories", []), *extra]
    if remote.series_key:
        fields.pop("recurrence", None)
    return fields


def _create(source, remote, fields, records, user, outcome, rewritten_series, linked_records):
    with pipeline.unit():
        fields = linked_records.resolved(fields)
        if remote.series_key:
            event = _occurrence(remote, records)
            if event is None:
                outcome.skipped += 1
                outcome.note(remote.key[:200], _("its series, or this occurrence of it, is not in the calendar."))
                return
            update_event(event, user, fields, scope=recurrence.THIS)
        else:
            event = create_event(user, {**fields, "status": source.status})
        record = ImportedRecord(source=source, remote_key=remote.key, event=event, content_hash=_digest(source, remote))
        record.written = _written(source, event)
        record.save()
    records[remote.key] = record
    if remote.series_key:
        outcome.updated += 1
    else:
        outcome.created += 1
        if fields.get("recurrence"):
            rewritten_series.add(remote.key)


def _update(source, remote, fields, record, user, outcome, rewritten_series, linked_records):
    event = record.event
    if source.policy == ImportPolicy.KEEP_LOCAL:
        fields = _without_local_edits(fields, record.written, local_values(event))
    series_first = event.series_id is not None and event.series_id == event.pk
    with pipeline.unit():
        fields = linked_records.resolved(fields)
        if record.trashed_by_import:
            event = restore_event(event, user)
        if not remote.series_key and "recurrence" in fields and not fields["recurrence"] and event.series_id is None:
            # Nothing to end: an ordinary event stays one.
            fields.pop("recurrence")
        scope = recurrence.THIS if remote.series_key else (recurrence.ALL if series_first else None)
        update_event(event, user, fields, scope=scope)
        event = _reloaded(event)
        record.event = event
        record.content_hash = _digest(source, remote)
        record.trashed_by_import = False
        record.written = _written(source, event)
        record.save()
    outcome.updated += 1
    if event.series_id is not None and not remote.series_key:
        rewritten_series.add(remote.key)


def _apply_linked(source, remote, record, records, user, outcome):
    """A venue or organizer row: made (or found by name, as every write finds them), then updated as the source changes."""
    if record is not None and (
        record.content_hash == _digest(source, remote) or source.policy == ImportPolicy.NEW_ONLY
    ):
        outcome.unchanged += 1
        return
    save = linked.save_venue if remote.kind == "venue" else linked.save_organizer
    current = None if record is None else getattr(record, remote.kind)
    with pipeline.unit():
        saved = save(_author_html(dict(remote.fields)), user, instance=current)
        record = record or ImportedRecord(source=source, remote_key=remote.key)
        setattr(record, remote.kind, saved)
        record.content_hash = _digest(source, remote)
        record.save()
    records[remote.key] = record
    if current is None:
        outcome.created += 1
    else:
        outcome.updated += 1


class LinkedRecords:
    """The venues, organizers and terms a run has found or made, by what the source says of them:
    each is written once per run, not once per event naming it (and its page and every event
    showing it rendered again each time). Forgotten when a write fails, since its rollback may
    have taken what it made."""

    def __init__(self, user):
        self.user = user
        self.found = {}

    def forget(self):
        self.found.clear()

    def _one(self, kind, value, save):
        key = (kind, json.dumps(value, sort_keys=True, default=str))
        if key not in self.found:
            self.found[key] = save(value)
        return self.found[key]

    def resolved(self, fields):
        fields = dict(fields)
        if isinstance(fields.get("venue"), dict):
            fields["venue"] = self._one("venue", fields["venue"], lambda value: linked.save_venue(value, self.user))
        if fields.get("organizer"):
            fields["organizer"] = [
                self._one("organizer", value, lambda value: linked.save_organizer(value, self.user))
                if isinstance(value, dict)
                else value
                for value in fields["organizer"]
            ]
        for name, taxonomy in (("categories", Taxonomy.CATEGORY), ("tags", Taxonomy.TAG)):
            if fields.get(name):
                fields[name] = [
                    term
                    for value in fields[name]
                    for term in [self._one(name, value, lambda value, taxonomy=taxonomy: _term(value, taxonomy))]
                    if term is not None
                ]
        return fields


def _term(name, taxonomy):
    found = resolve_terms([name], taxonomy)
    return found[0] if found else None


def _cancel(source, remote, record, records, user, outcome):
    """A cancelled event (or occurrence) to the trash; one never imported is not made only to be trashed."""
    event = record.event if record is not None else _occurrence(remote, records) if remote.series_key else None
    if event is None or event.status == PostStatus.TRASH:
        if record is not None and record.trashed_by_import:
            outcome.unchanged += 1
        else:
            outcome.skipped += 1
        return
    with pipeline.unit():
        _trash(event, user)
        record = record or ImportedRecord(source=source, remote_key=remote.key, event=event)
        record.content_hash = _digest(source, remote)
        record.trashed_by_import = True
        record.save()
    records[remote.key] = record
    outcome.trashed += 1


def _trash(event, user):
    in_series = event.series_id is not None
    scope = recurrence.ALL if in_series and event.series_id == event.pk else recurrence.THIS if in_series else None
    trash_event(event, user, scope=scope)


def _trash_gone(source, records, seen, user, outcome):
    """Events no longer in the source go to the trash; an edited occurrence no longer in it stays as it is."""
    for key, record in records.items():
        if key in seen or record.ignored or record.trashed_by_import or record.event_id is None:
            continue
        event = record.event
        if event.status == PostStatus.TRASH:
            continue
        if event.series_id is not None and event.series_id != event.pk:
            record.delete()
            continue
        try:
            with pipeline.unit():
                _trash(event, user)
                record.trashed_by_import = True
                record.save(update_fields=["trashed_by_import", "last_imported"])
        except DATABASE_FAULTS:
            raise
        except CalendarError as refusal:
            outcome.errors += 1
            outcome.note(key[:200], _refusal_text(refusal))
            continue
        outcome.trashed += 1


def _occurrence(remote, records):
    """The occurrence a RECURRENCE-ID names, in the series its master made."""
    master = records.get(remote.series_key)
    if master is None or master.event is None:
        return None
    series_id = master.event.series_id or master.event_id
    return (
        Event.objects.filter(series_id=series_id, occurrence_start=remote.occurrence_start.replace(tzinfo=dt.UTC))
        .exclude(status=PostStatus.TRASH)
        .first()
    )


def _reloaded(event):
    return Event.objects.select_related("venue").get(pk=event.pk)


# --- local edits ----------------------------------------------------------------------------------


def _written(source, event):
    """The local values as this write left them, kept only where the policy compares them (keep_local)."""
    return local_values(_reloaded(event)) if source.policy == ImportPolicy.KEEP_LOCAL else {}


def local_values(event):
    """What an editor could change of each field group, as comparable JSON."""
    links = Event.terms.through.objects.filter(event_id=event.pk)
    categories = sorted(links.filter(term__taxonomy=Taxonomy.CATEGORY).values_list("term_id", flat=True))
    tags = sorted(links.filter(term__taxonomy=Taxonomy.TAG).values_list("term_id", flat=True))
    series = None
    if event.series_id is not None and event.series_id == event.pk:
        found = Series.objects.filter(pk=event.pk).first()
        series = [found.rules, found.dates, found.exclusions] if found is not None else None
    return {
        "title": event.title or "",
        "description": event.description or "",
        "schedule": [event.start_local.isoformat(), event.end_local.isoformat(), event.all_day, event.timezone_name],
        "website": event.website or "",
        "venue": event.venue_id,
        "organizer": list(event.organizer_links.order_by("position").values_list("organizer_id", flat=True)),
        "categories": categories,
        "tags": tags,
        "cost": event.cost,
        "recurrence": series,
    }


def _without_local_edits(fields, written, now):
    edited = {group for group, value in now.items() if group in written and written[group] != value}
    dropped = {name for group in edited for name in FIELD_GROUPS[group]}
    return {name: value for name, value in fields.items() if name not in dropped}
