"""What a write sets off: the unit of work every write runs in, and what its end hands on, in order.

A service opens a unit (`with pipeline.unit() as work:`); what the write creates, updates, trashes,
restores and deletes is recorded there. When the outermost unit ends without an error it finishes,
still inside its transaction, in this order:

1. term counts (events.term_counts): the terms whose links, or whose linked events' status, changed
   are recounted, once each (every term after `work.recount_all_terms()`). First, because a recount
   writes the terms' `count`: their records change too, and the steps below follow them.
2. the rendering store (events.store): the records whose rows the writes dropped are rendered again.
3. the change log (events.changelog.recording): one entry per record changed, naming the languages
   whose text changed, and the events that show a changed venue, organizer, term or image. It takes
   its advisory lock last, held only until the commit (see recording.py on commit order).
4. the read cache's calendar version (events.read_cache_version): replaced now, and once more after
   the commit.
5. after the commit, when the log took entries: the webhook workers are woken if a subscription is
   active (events.notifications).

What a write did is recorded two ways. Per-record ORM writes (save, delete, the `terms` links) are
learnt from Django's model signals by the receivers at the end of this module, connected once by
`connect_receivers()`; bulk writes record themselves: `work.made(Model, records)` after a
bulk_create, `work.links_changed(event_ids, term_ids)` after bulk link writes,
`work.changed(Model, ids, fields)` after raw SQL, and the calendar's querysets
(models.AnnouncedUpdates) call `current(using).changed(...)` in their `update()`.
A unit opened inside another joins it as a savepoint layer: when the layer raises, its records go
with its savepoint; when it ends, they join the enclosing unit, finished once at the outermost end
(an admin bulk action is one unit around several service writes). A part of a write that may fail
and be caught while the write goes on is such a layer, not a bare `transaction.atomic()`, whose
rollback the unit would not see.

The state is the transaction's, kept on its connection object (`connections[using]`): no
thread-local carries it.

Writes outside any unit (a site's own ORM code) are caught by one fallback: the receivers record
into an implicit unit of the running transaction, at its savepoint level, which is finished right
after that transaction commits, in its own short transaction (in autocommit, right after the write).
A rollback drops it with the savepoint it was taken at. Until then, a reader in the transaction
still sees the truth: the stale store rows are gone at once, term counts are recounted at once and
the read cache's version is replaced at once. A unit that finishes in the same transaction takes
over what the fallback recorded there before it. Bulk writes that record nothing (`update()` on a
queryset that is not the calendar's, raw SQL) are not seen: follow them with `work.changed(...)`
(docs/install.md, "Writing from your own code").
"""

import logging
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models.signals import m2m_changed, post_delete, post_init, post_save, pre_delete

from . import store, term_counts
from .changelog import recording
from .changelog.languages import NONE, changed_languages, content_languages, field_languages, remember_texts
from .changelog.recording import (
    CREATED,
    DELETED,
    IMAGE_LINK,
    ORGANIZER_LINK,
    RESTORED,
    TAXONOMY_KINDS,
    TERM,
    TERM_LINK,
    TRASHED,
    UPDATED,
    VENUE_LINK,
)
from .internals import atomic_block_open, commit_hooks, open_savepoints, transaction_block
from .models import Attachment, Category, ChangeKind, Event, EventOrganizer, Organizer, PostStatus, Tag, Term, Venue
from .notifications import wake_if_subscribed
from .read_cache_version import retire_cached_reads

logger = logging.getLogger("events.pipeline")

POSTS = (Event, Venue, Organizer)
# The change-log kind of each source model (a term's is its taxonomy's, TERM when only its ID is known).
LOG_KINDS = {Event: ChangeKind.EVENT, Venue: ChangeKind.VENUE, Organizer: ChangeKind.ORGANIZER, Term: TERM}
# What events show of each kind of record, and how an event refers to it.
LINKS = {Venue: VENUE_LINK, Organizer: ORGANIZER_LINK, Term: TERM_LINK, Attachment: IMAGE_LINK}
EVENT_LOOKUPS = {
    VENUE_LINK: "venue_id",
    ORGANIZER_LINK: "organizer_links__organizer_id",
    TERM_LINK: "terms__pk",
    IMAGE_LINK: "image_id",
}
TermLink = Event.terms.through

# Attributes of ours on the connection object: the open units, innermost last, and the fallback's
# layers of the running transaction (see current()).
_OPEN_UNITS = "events_open_units"
_LAYERS = "events_fallback_layers"


class UnitOfWork:
    """What one write did, recorded as it runs, and handed on in order when it finishes."""

    def __init__(self, using=DEFAULT_DB_ALIAS, fallback=False, alone=False):
        self.using = using
        # The fallback's: counts and the read cache's version follow each record at once; `alone`,
        # a write in autocommit, committed already: the unit finishes as soon as it is recorded.
        self.fallback, self.alone = fallback, alone
        # {store kind: IDs} whose rows were dropped, to render again.
        self.stale = {}
        # {(log kind, ID): action}, {(log kind, ID): languages}, and {VENUE_LINK...: {ID: languages}}
        # of the records whose showing events changed with them.
        self.actions, self.languages, self.linked = {}, {}, {}
        # Terms to recount, and events whose status changed (their terms are recounted).
        self.term_ids, self.events_restatused = set(), set()
        self.every_term = False
        self.wrote = False

    # --- recording: what services and the receivers call --------------------------------------------

    def saved(self, instance, created=False, update_fields=None):
        """A per-record save of `instance` (an event, venue, organizer, term or image)."""
        model = _source_model(type(instance))
        if model is Attachment:
            self._changed(Attachment, [instance.pk], UPDATED, shown=True)
            self._holders_changed([instance.pk])
        elif model is Term:
            kind = TAXONOMY_KINDS[instance.taxonomy]
            if created:
                self._changed(Term, [instance.pk], CREATED, content_languages(instance), kind=kind)
            else:
                languages = changed_languages(instance, update_fields)
                self._changed(Term, [instance.pk], UPDATED, languages, shown=True, kind=kind)
                self._descendants_changed([instance.pk])
        else:
            # A new, trashed or restored record changes in every language it has; an update in those it rewrote.
            languages = changed_languages(instance, update_fields)
            action = _post_action(instance, created)
            if action != UPDATED:
                languages = content_languages(instance)
            self._changed(model, [instance.pk], action, languages, shown=not created)
            if model is Event and _status_changed(instance, created, update_fields):
                self.events_restatused.add(instance.pk)
        self._recorded()

    def deleting(self, instance):
        """What shows a record about to go: the deletion rewrites the references to it without
        signals, so the events showing it (and an event's terms) are found now, while they exist."""
        model = _source_model(type(instance))
        if model is Event:
            if not self.every_term:
                self.term_ids.update(term_counts.linked_term_ids([instance.pk], self.using))
            return
        # The events lose a link; their own text stays (no language), as when a trash unlinks them.
        showing = events_showing({LINKS[model]: {instance.pk: NONE}}, self.using)
        self._changed(Event, list(showing), UPDATED)
        if model is Attachment:
            self._holders_changed([instance.pk])
        elif model is Term:
            self._descendants_changed([instance.pk])

    def deleted(self, instance):
        """A per-record deletion of `instance`."""
        model = _source_model(type(instance))
        if model is Attachment:
            self._changed(Attachment, [instance.pk], DELETED)
        else:
            kind = TAXONOMY_KINDS[instance.taxonomy] if model is Term else None
            self._changed(model, [instance.pk], DELETED, content_languages(instance), kind=kind)
        self._recorded()

    def changed(self, model, ids, fields=None):
        """After a bulk write to these records of `model` (a queryset update, bulk link writes, raw
        SQL); `fields`: the names of the fields written, or None when not known."""
        ids = [record_id for record_id in ids if record_id is not None]
        if ids:
            self._bulk_changed(_source_model(model), ids, fields)
        self._recorded()

    def made(self, model, records):
        """After a bulk create of `records` (and every link it gives them, recorded with changed()):
        each is a creation, with the languages it has text in, whatever this unit recorded for it
        before; the store renders them from these instances now rather than read them back (a
        series' new occurrences). A later write to them records itself again, as any does."""
        if not records:
            return
        model = _source_model(model)
        kind = store.SOURCE_KINDS[model]
        by_languages = {}
        for record in records:
            by_languages.setdefault(content_languages(record), []).append(record.pk)
        for languages, ids in by_languages.items():
            self._note(LOG_KINDS.get(model), ids, CREATED, languages)
        store.render_made(kind, records, self.using)
        self.stale.get(kind, set()).difference_update(record.pk for record in records)
        self.wrote = True
        self._recorded()

    def links_changed(self, event_ids, term_ids=()):
        """After bulk writes of these events' links (organizers, or terms: then `term_ids`, the
        terms linked and unlinked, are recounted). The links are the events' own: their text and
        status stay."""
        self.term_ids.update(term_ids)
        self._changed(Event, list(event_ids), UPDATED)
        self._recorded()

    def terms_to_recount(self, term_ids):
        """Recount these terms when the unit finishes (a link to them appeared or went)."""
        self.term_ids.update(term_ids)

    def recount_all_terms(self):
        """Recount every term when the unit finishes, instead of the terms each write touched (a bulk
        load or clear: no per-event lookup of the terms it had)."""
        self.every_term = True

    # --- what a write changes ---------------------------------------------------------------------

    def _bulk_changed(self, model, ids, fields):
        if model is Attachment:
            self._changed(Attachment, ids, UPDATED, shown=True)
            self._holders_changed(ids)
            return
        # A stored count follows the events' statuses (a derived number): the term's own record
        # says it, and the events that embed the term are not each told (docs/decisions.md).
        count_only = fields is not None and set(fields) <= {"count"}
        self._changed(model, ids, UPDATED, field_languages(model, fields), shown=not count_only)
        if model is Term and (fields is None or {"slug", "parent", "parent_id"} & set(fields)):
            self._descendants_changed(ids)
        if model is Event and (fields is None or "status" in fields):
            self.events_restatused.update(ids)

    def _changed(self, model, ids, action, languages=NONE, shown=False, kind=None):
        """These records of `model` changed: the store drops their rows now (rendered again when the
        unit finishes); the log notes them and, when `shown`, the events showing them."""
        ids = [record_id for record_id in ids if record_id is not None]
        if not ids:
            return
        store_kind = store.SOURCE_KINDS[model]
        store.drop_rows(store_kind, ids, self.using)
        self.stale.setdefault(store_kind, set()).update(ids)
        self._note(kind or LOG_KINDS.get(model), ids, action, languages, linked=LINKS.get(model) if shown else None)
        self.wrote = True

    def _note(self, kind, ids, action, languages, linked=None):
        if kind is not None:
            for record_id in ids:
                recording.add(self.actions, self.languages, (kind, record_id), action, languages)
        if linked:
            shown = self.linked.setdefault(linked, {})
            for record_id in ids:
                shown[record_id] = shown.get(record_id, NONE) | languages

    def _holders_changed(self, image_ids):
        """Venues and organizers carry their image inline: their records change with it."""
        for model in (Venue, Organizer):
            holders = model.objects.using(self.using).filter(image_id__in=image_ids).values_list("pk", flat=True)
            self._changed(model, list(holders), UPDATED, shown=True)

    def _descendants_changed(self, term_ids):
        """A category's record URL holds its ancestors' slugs."""
        self._changed(Term, Term.descendant_ids(term_ids, self.using), UPDATED)

    def _recorded(self):
        """After each record: the fallback keeps counts and the read cache true at once (no unit's
        end will); alone (autocommit), the write is committed already and finishes now."""
        if not self.fallback:
            return
        self._recount_terms()
        if self.wrote:
            retire_cached_reads(self.using)
        if self.alone:
            _finish_committed(self)

    # --- joining ----------------------------------------------------------------------------------

    def absorb(self, later):
        """Take in what `later` (a unit whose writes came after this one's) recorded."""
        for kind, ids in later.stale.items():
            self.stale.setdefault(kind, set()).update(ids)
        for key, action in later.actions.items():
            recording.add(self.actions, self.languages, key, action, later.languages.get(key, NONE))
        for source, records in later.linked.items():
            shown = self.linked.setdefault(source, {})
            for record_id, languages in records.items():
                shown[record_id] = shown.get(record_id, NONE) | languages
        self.term_ids |= later.term_ids
        self.events_restatused |= later.events_restatused
        self.every_term = self.every_term or later.every_term
        self.wrote = self.wrote or later.wrote

    def take_earlier(self, earlier):
        """Put first what `earlier` recorded, before this unit's writes (the fallback's records of
        the same transaction, taken over when this unit finishes)."""
        earlier.absorb(self)
        for name in ("stale", "actions", "languages", "linked", "term_ids", "events_restatused", "every_term", "wrote"):
            setattr(self, name, getattr(earlier, name))

    def is_empty(self):
        return not (self.wrote or self.stale or self.actions or self.linked or self.term_ids or self.every_term)

    # --- finishing: the order of what a write sets off ---------------------------------------------

    def finish(self, logged=None):
        """Hand what the unit recorded on, in order (inside its transaction); returns what the log
        appended ({(kind, ID): (action, languages, position)})."""
        self._recount_terms()
        self._render_stale()
        appended = self._append_to_log(logged or {})
        if self.wrote and not self.fallback:
            retire_cached_reads(self.using)
        if appended:
            # After the commit: a worker must find the entries, and a rolled-back write wakes nobody.
            transaction.on_commit(wake_if_subscribed, using=self.using)
        return appended

    def _recount_terms(self):
        if self.every_term:
            self.every_term, self.term_ids, self.events_restatused = False, set(), set()
            term_counts.recount_all_terms(self.using)
            return
        if self.events_restatused:
            self.term_ids.update(term_counts.linked_term_ids(self.events_restatused, self.using))
            self.events_restatused = set()
        term_ids, self.term_ids = self.term_ids, set()
        term_counts.recount_terms(term_ids, self.using)

    def _render_stale(self):
        while self.stale:
            kind, ids = self.stale.popitem()
            if not self.fallback:
                store.render(kind, ids, self.using, delete_first=False)
                continue
            # After a commit: a failure must not report the committed write failed, nor keep its
            # entries from the log. The rows stay missing; the next read renders and stores them.
            try:
                store.render(kind, ids, self.using, delete_first=False)
            except Exception:  # noqa: BLE001 - the render's own savepoint has rolled back
                logger.warning("The store could not render %s records after a commit.", kind, exc_info=True)

    def _append_to_log(self, logged):
        actions, languages = self.actions, self.languages
        if self.linked:
            for event_id, event_languages in events_showing(self.linked, self.using).items():
                recording.add(actions, languages, (ChangeKind.EVENT, event_id), UPDATED, event_languages)
        self.actions, self.languages, self.linked = {}, {}, {}
        if not actions:
            return {}
        return recording.append(actions, languages, logged, self.using)


# --- the unit's place: on the transaction's connection ----------------------------------------------


@contextmanager
def unit(using=DEFAULT_DB_ALIAS):
    """Open a unit of work in a transaction (`transaction.atomic(using)`); see the module's docstring."""
    connection = connections[using]
    units = connection.__dict__.setdefault(_OPEN_UNITS, [])
    # Where the unit starts: the fallback's records of this level and deeper are its own.
    entered_in = (transaction_block(connection), open_savepoints(connection))
    with transaction.atomic(using=using):
        work = UnitOfWork(using)
        units.append(work)
        try:
            yield work
            if len(units) > 1:
                units[-2].absorb(work)
            else:
                _finish_outermost(work, connection, entered_in)
        finally:
            units.remove(work)


def current(using=DEFAULT_DB_ALIAS):
    """The unit recording writes on `using` now: the innermost open unit(), else the fallback's
    unit of the running transaction at its savepoint level (of the one write, in autocommit).

    The calendar's querysets (models.AnnouncedUpdates) record their update() here; so does any
    code that writes in bulk without a unit of its own at hand."""
    connection = connections[using]
    units = connection.__dict__.get(_OPEN_UNITS)
    if units:
        return units[-1]
    if not connection.in_atomic_block:
        return UnitOfWork(using, fallback=True, alone=True)
    return _layer(connection, using).work


def _finish_outermost(work, connection, entered_in):
    block, savepoints = entered_in
    running = transaction_block(connection)
    logged = {}
    for layer in _live_layers(connection):
        ended = not atomic_block_open(connection, layer.block)
        if not layer.work.is_empty() and (
            ended or (layer.block is block and layer.savepoints[: len(savepoints)] == savepoints)
        ):
            work.take_earlier(layer.work)
            layer.work = UnitOfWork(work.using, fallback=True)
        if layer.block is running:
            logged.update(layer.logged)
    appended = work.finish(logged)
    if appended:
        _layer(connection, work.using).logged.update(appended)


class _Layer:
    """The fallback's records at one savepoint level of one transaction, and the log entries the
    transaction appended there (so that a record gets one entry however many units it saw).
    Registered with on_commit: a rollback makes Django forget it, a commit calls it."""

    def __init__(self, using, block, savepoints):
        self.using, self.block, self.savepoints = using, block, savepoints
        self.work = UnitOfWork(using, fallback=True)
        self.logged = {}

    def __call__(self):
        if not self.work.is_empty():
            _finish_committed(self.work)


def _finish_committed(work):
    """Finish the fallback's unit of a committed write, in a short transaction of its own. The write
    has committed: a failure here is logged, never reported as the write's."""
    try:
        with transaction.atomic(using=work.using):
            work.finish()
    except Exception:  # noqa: BLE001 - see above
        logger.exception("What a committed write sets off could not be finished.")


def _live_layers(connection):
    """The fallback's layers that belong to the running transaction (Django drops the on_commit
    hooks of what a rollback, of the transaction or of a savepoint, undid)."""
    layers = connection.__dict__.setdefault(_LAYERS, [])
    hooks = commit_hooks(connection)
    layers[:] = [layer for layer in layers if any(hook is layer for hook in hooks)]
    return layers


def _layer(connection, using):
    block, savepoints = transaction_block(connection), open_savepoints(connection)
    layers = _live_layers(connection)
    for layer in reversed(layers):
        if layer.block is block and layer.savepoints == savepoints:
            return layer
    layer = _Layer(using, block, savepoints)
    transaction.on_commit(layer, using=using)
    layers.append(layer)
    return layer


# --- what shows what ---------------------------------------------------------------------------------


def events_showing(linked, using):
    """{event ID: languages} of the events showing one of the `linked` records ({VENUE_LINK: {ID:
    languages}, ...}), each with the languages changed in the records it shows: one statement per
    kind of link."""
    shown = {}
    events = Event.objects.using(using).order_by()
    for source, lookup in EVENT_LOOKUPS.items():
        records = linked.get(source)
        if records:
            rows = events.filter(**{f"{lookup}__in": list(records)}).values_list("pk", lookup).distinct()
            for event_id, record_id in rows:
                shown[event_id] = shown.get(event_id, NONE) | records[record_id]
    return shown


def _source_model(sender):
    for model in (*POSTS, Term, Attachment):
        if issubclass(sender, model):
            return model
    raise LookupError(sender)


def _post_action(instance, created):
    """created, trashed, restored or updated, from the status the record was read with."""
    before = instance.__dict__.get("status_in_database")
    after = instance.status
    if created:
        return CREATED
    if after == PostStatus.TRASH and before != PostStatus.TRASH:
        return TRASHED
    if before == PostStatus.TRASH and after != PostStatus.TRASH:
        return RESTORED
    return UPDATED


def _status_changed(event, created, update_fields):
    """Whether a save moves the event in or out of its terms' counts. A new event has no links yet;
    an event read from the database (Event.from_db) and saved with the same status moves nothing."""
    if created or (update_fields is not None and "status" not in update_fields):
        return False
    return getattr(event, "status_in_database", None) != event.status


# --- the receivers: per-record ORM writes, recorded into the current unit ---------------------------


def _saved(sender, instance, created, using, update_fields=None, **kwargs):
    current(using).saved(instance, created, update_fields)


def _deleting(sender, instance, using, **kwargs):
    current(using).deleting(instance)


def _deleted(sender, instance, using, **kwargs):
    current(using).deleted(instance)


def _organizer_link_changed(sender, instance, using, **kwargs):
    current(using).changed(Event, [instance.event_id])


def _term_links_changed(sender, instance, action, reverse, pk_set, using, **kwargs):
    """add/remove/set/clear on `event.terms` or on `term.events`: the events change, and the counts
    of the terms linked or unlinked (for a clear, every term the event had just before)."""
    work = current(using)
    if action == "pre_clear":
        if reverse:
            work.changed(Event, list(instance.events.using(using).values_list("pk", flat=True)))
        else:
            work.terms_to_recount(term_counts.linked_term_ids([instance.pk], using))
        return
    if not action.startswith("post_"):
        return
    work.links_changed((pk_set or ()) if reverse else [instance.pk], [instance.pk] if reverse else (pk_set or ()))


def _author_deleting(sender, instance, using, **kwargs):
    """Deleting a user sets `author` to none on their records, without signals."""
    work = current(using)
    for model in POSTS:
        work.changed(model, list(model.objects.using(using).filter(author_id=instance.pk).values_list("pk", flat=True)))


def connect_receivers():
    """Follow every per-record write of the records the store renders and the log lists (from `ready`)."""
    for model in (*POSTS, Term, Category, Tag):
        post_init.connect(remember_texts, sender=model, dispatch_uid=f"events.pipeline.texts.{model.__name__}")
    for model in (*POSTS, Attachment, Term, Category, Tag):
        name = model.__name__
        post_save.connect(_saved, sender=model, dispatch_uid=f"events.pipeline.save.{name}")
        pre_delete.connect(_deleting, sender=model, dispatch_uid=f"events.pipeline.deleting.{name}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"events.pipeline.delete.{name}")
    post_save.connect(
        _organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.pipeline.organizer_link.save"
    )
    post_delete.connect(
        _organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.pipeline.organizer_link.delete"
    )
    m2m_changed.connect(_term_links_changed, sender=TermLink, dispatch_uid="events.pipeline.term_links")
    pre_delete.connect(_author_deleting, sender=get_user_model(), dispatch_uid="events.pipeline.author")
