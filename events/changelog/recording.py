"""Appending to the change log in the writer's transaction, in the order writers commit.

The receivers (effects.py) note what each write does to which record while it runs; the notes
are appended as log entries when the write is complete (`events.changes.finished()`, the last step
of every service's transaction, or the end of a `changes.batch()`), so a record a write touches
several times gets one entry, and the entries are in the same transaction as the write: a
rollback removes them with it.

Commit order: a reader of the log must never find an entry appear behind a position it has
already handed out as a cursor. Positions come from a sequence, and a sequence value is taken when
the row is inserted, not when its transaction commits: two writers could commit in the other
order and a reader between the two commits would skip the later-numbered entry... then see the
earlier one appear. On PostgreSQL the insert therefore takes a transaction-scoped advisory lock
first, in the same statement: writers append one after the other, each holding the lock until it
commits, so positions are taken in commit order. The lock is taken at the very end of a write, and
held only for its commit. SQLite lets one writer in at a time, which gives the same order.
"""

import threading
from functools import cache

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from .. import changes
from ..models import ChangeAction, ChangeEntry, ChangeKind, Taxonomy, Term
from ..services.locks import advisory_key

CREATED, UPDATED, TRASHED, RESTORED, DELETED = (
    ChangeAction.CREATED,
    ChangeAction.UPDATED,
    ChangeAction.TRASHED,
    ChangeAction.RESTORED,
    ChangeAction.DELETED,
)
TAXONOMY_KINDS = {Taxonomy.CATEGORY: ChangeKind.CATEGORY, Taxonomy.TAG: ChangeKind.TAG}
# A term noted by ID alone; its taxonomy is looked up when the entries are made.
TERM = "term"
# Records whose change changes what the events that embed them show.
VENUE_LINK, ORGANIZER_LINK, TERM_LINK, IMAGE_LINK = "venue", "organizer", "term", "image"
NO_LANGUAGES = frozenset()

_LOCK = advisory_key("events", "change-log")
# PostgreSQL takes at most 65,535 parameters a statement, five an entry here: a write that changes
# more records (a category shown by 20,000 events renamed) appends in several statements.
ENTRIES_PER_STATEMENT = 10_000
_INSERT_POSTGRESQL = (
    "INSERT INTO events_changeentry (kind, record_id, action, time, languages) "
    "SELECT given.kind, given.record_id, given.action, clock_timestamp(), given.languages "
    "FROM (SELECT pg_advisory_xact_lock(%s)) AS serialised, "
    "(VALUES {rows}) AS given(ordinal, kind, record_id, action, languages) "
    "ORDER BY given.ordinal RETURNING id, kind, record_id"
)
# {event ID: languages} of the events showing linked records ({VENUE_LINK: {ID: languages}, ...}):
# what shows what is effects.py's to say (look_up_showing).
_showing = None


def look_up_showing(function):
    global _showing
    _showing = function


@cache
def _language_order():
    return {code: order for order, (code, _name) in enumerate(settings.LANGUAGES)}


def languages_text(languages):
    """The `languages` column: the codes in the site's order (settings.LANGUAGES), space-separated."""
    order = _language_order()
    return " ".join(sorted(languages, key=lambda code: (order.get(code, len(order)), code)))


def merged(before, after):
    """The action of a record a write touched with `before`, then `after` (None: no entry at all)."""
    if before is None or before == after:
        return after
    if after == UPDATED:
        return before
    if before == CREATED:
        # Made and deleted in one transaction: nobody could ever have seen it.
        return None if after == DELETED else CREATED
    if {before, after} == {TRASHED, RESTORED}:
        return UPDATED
    return after


class _Notes:
    """What one transaction noted at one savepoint level. It is registered with on_commit: a
    rollback makes Django forget it (and this module with it), and a commit runs it, appending
    what no `finished()` appended (writes made outside the services) right after the commit."""

    def __init__(self, using, block, savepoints):
        self.using, self.block, self.savepoints = using, block, savepoints
        self.actions = {}
        # {(kind, ID): languages} of the noted records; {VENUE_LINK: {ID: languages}...} of the
        # records whose showing events changed with them.
        self.languages = {}
        self.linked = {}
        # {(kind, ID): (action, languages, position)} of the entries appended in this transaction.
        self.logged = {}

    def note(self, kind, record_id, action, languages):
        key = (kind, record_id)
        if key in self.actions:
            action = merged(self.actions[key], action)
        self.actions[key] = action
        self.languages[key] = self.languages.get(key, NO_LANGUAGES) | languages

    def __call__(self):
        if self.actions or self.linked:
            with transaction.atomic(using=self.using):
                _append([self], [], self.using)


_threads = threading.local()


def _notes_of(using):
    if not hasattr(_threads, "notes"):
        _threads.notes = {}
    return _threads.notes.setdefault(using, [])


def _outermost_block(connection):
    """The outermost atomic block that is not a test case's (Django's TestCase wraps each test in
    its own): the transaction a write commits with. Private: Atomic._from_testcase, which Django
    itself reads for `durable` (tests/test_changelog.py fails if it moves)."""
    return next((block for block in connection.atomic_blocks if not getattr(block, "_from_testcase", False)), None)


def _still_pending(connection, notes):
    """Whether `notes` belong to the running transaction: Django drops the on_commit callbacks of
    what a rollback (of the transaction or of a savepoint) undid. Private: run_on_commit's
    entries, tuples whose second item is the callback (tests/test_changelog.py checks it)."""
    return any(entry[1] is notes for entry in connection.run_on_commit)


def _live(using):
    """This thread's notes that belong to the running transaction."""
    connection = connections[using]
    live = _notes_of(using)
    live[:] = [notes for notes in live if _still_pending(connection, notes)]
    return live


def _ended(connection, notes):
    """Whether the block `notes` were taken in has ended with neither commit nor rollback: only a
    test case's transaction goes on around it (in production its end commits, and the notes go
    with that commit); its notes are then the next finished()'s."""
    return notes.block is None or notes.block not in connection.atomic_blocks


def _current(using):
    connection = connections[using]
    savepoints = tuple(connection.savepoint_ids)
    block = _outermost_block(connection)
    live = _live(using)
    for notes in reversed(live):
        if notes.block is block and notes.savepoints == savepoints:
            return notes
    notes = _Notes(using, block, savepoints)
    transaction.on_commit(notes, using=using)
    live.append(notes)
    return notes


def note(kind, record_ids, action, using, linked=None, languages=NO_LANGUAGES):
    """Record that this transaction did `action` to these records of `kind` (a ChangeKind, TERM, or
    None for a record the log does not list, an image), changing their text in `languages`;
    `linked` (VENUE_LINK...) when the records showing them changed with them, in those languages."""
    record_ids = [record_id for record_id in record_ids if record_id is not None]
    if not record_ids or (kind is None and not linked):
        return
    autocommit = not connections[using].in_atomic_block
    # Autocommit: the write is committed already, alone; its entry follows it at once.
    notes = _Notes(using, None, ()) if autocommit else _current(using)
    if kind is not None:
        for record_id in record_ids:
            notes.note(kind, record_id, action, languages)
    if linked:
        shown = notes.linked.setdefault(linked, {})
        for record_id in record_ids:
            shown[record_id] = shown.get(record_id, NO_LANGUAGES) | languages
    if autocommit:
        notes()


def append_pending(using):
    """Append what this write noted, at this savepoint level and deeper (called by `finished()`)."""
    connection = connections[using]
    if not connection.in_atomic_block:
        return
    savepoints = tuple(connection.savepoint_ids)
    block = _outermost_block(connection)
    live = _live(using)
    # What an enclosing level noted is appended when that level finishes, so that a rollback of
    # this savepoint cannot take the entries of writes that stay.
    finishing = [
        notes
        for notes in live
        if (notes.block is block and notes.savepoints[: len(savepoints)] == savepoints) or _ended(connection, notes)
    ]
    if any(notes.actions or notes.linked for notes in finishing):
        _append(finishing, [notes for notes in live if notes.block is block], using)


def _add(actions, languages, key, action, key_languages):
    actions[key] = merged(actions[key], action) if key in actions else action
    languages[key] = languages.get(key, NO_LANGUAGES) | key_languages


def _append(finishing, same_transaction, using):
    actions, languages, linked = {}, {}, {}
    for notes in finishing:
        for key, action in notes.actions.items():
            _add(actions, languages, key, action, notes.languages.get(key, NO_LANGUAGES))
        for source, records in notes.linked.items():
            shown = linked.setdefault(source, {})
            for record_id, record_languages in records.items():
                shown[record_id] = shown.get(record_id, NO_LANGUAGES) | record_languages
        notes.actions, notes.languages, notes.linked = {}, {}, {}
    if linked:
        for event_id, event_languages in _showing(linked, using).items():
            _add(actions, languages, (ChangeKind.EVENT, event_id), UPDATED, event_languages)
    actions, languages = _terms_resolved(actions, languages, using)
    logged = {}
    for notes in same_transaction:
        logged.update(notes.logged)
    entries, widened = [], []
    for (kind, record_id), action in sorted(actions.items(), key=lambda item: (_KIND_ORDER[item[0][0]], item[0][1])):
        if action is None:
            continue
        entry_languages = languages.get((kind, record_id), NO_LANGUAGES)
        already = logged.get((kind, record_id))
        # Once per record and transaction: an entry appended by an earlier finished() of the same
        # transaction stands, unless this write did something stronger than an update; it then
        # names the languages this write changed too (rewritten before anyone can read it).
        if already is not None and action in (UPDATED, already[0]):
            if not entry_languages <= already[1]:
                widened.append(((kind, record_id), already[0], already[1] | entry_languages, already[2]))
            continue
        entries.append((kind, record_id, action, entry_languages))
    keeper = next((notes for notes in reversed(finishing) if notes in same_transaction), finishing[-1])
    for key, action, key_languages, position in widened:
        ChangeEntry.objects.using(using).filter(pk=position).update(languages=languages_text(key_languages))
        keeper.logged[key] = (action, key_languages, position)
    if not entries:
        return
    positions = _insert(entries, using)
    for kind, record_id, action, entry_languages in entries:
        keeper.logged[(kind, record_id)] = (action, entry_languages, positions.get((str(kind), record_id)))


_KIND_ORDER = {kind: order for order, kind in enumerate(ChangeKind.values)}


def _terms_resolved(actions, languages, using):
    unresolved = [record_id for (kind, record_id) in actions if kind == TERM]
    if not unresolved:
        return actions, languages
    taxonomies = dict(Term.objects.using(using).filter(pk__in=unresolved).values_list("pk", "taxonomy"))
    resolved, resolved_languages = {}, {}
    for (kind, record_id), action in actions.items():
        key_languages = languages.get((kind, record_id), NO_LANGUAGES)
        if kind == TERM:
            if record_id not in taxonomies:
                continue
            kind = TAXONOMY_KINDS[taxonomies[record_id]]
        _add(resolved, resolved_languages, (kind, record_id), action, key_languages)
    return resolved, resolved_languages


def _insert(entries, using):
    """Append the entries; returns {(kind, ID): position}."""
    changes.log_appended.send(sender=None, using=using)
    connection = connections[using]
    if connection.vendor == "postgresql":
        positions = {}
        # In statements of ENTRIES_PER_STATEMENT, one after the other: each takes the lock again
        # (it is held until the commit already), so the positions still follow the entries' order.
        for start in range(0, len(entries), ENTRIES_PER_STATEMENT):
            chunk = entries[start : start + ENTRIES_PER_STATEMENT]
            rows = ", ".join(["(%s, %s, %s::bigint, %s, %s)"] * len(chunk))
            params = [_LOCK]
            for ordinal, (kind, record_id, action, languages) in enumerate(chunk):
                params += [ordinal, str(kind), record_id, str(action), languages_text(languages)]
            with connection.cursor() as cursor:
                cursor.execute(_INSERT_POSTGRESQL.format(rows=rows), params)
                positions.update(((str(kind), record_id), position) for position, kind, record_id in cursor.fetchall())
        return positions
    now = timezone.now()
    made = ChangeEntry.objects.using(using).bulk_create(
        ChangeEntry(kind=kind, record_id=record_id, action=action, time=now, languages=languages_text(languages))
        for kind, record_id, action, languages in entries
    )
    return {(str(entry.kind), entry.record_id): entry.pk for entry in made}
