"""Appending to the change log in the writer's transaction, in the order writers commit.

What each write does to which record is recorded in its unit of work (events.pipeline); when the
unit finishes, still inside its transaction, its records are appended here as log entries, so a
record a write touches several times gets one entry, and the entries are in the same transaction as
the write: a rollback removes them with it.

Commit order: a reader of the log must never find an entry appear behind a position it has
already handed out as a cursor. Positions come from a sequence, and a sequence value is taken when
the row is inserted, not when its transaction commits: two writers could commit in the other
order and a reader between the two commits would skip the later-numbered entry... then see the
earlier one appear. On PostgreSQL the insert therefore takes a transaction-scoped advisory lock
first, in the same statement: writers append one after the other, each holding the lock until it
commits, so positions are taken in commit order. The lock is taken at the very end of a write, and
held only for its commit. SQLite lets one writer in at a time, which gives the same order.
"""

from django.conf import settings
from django.db import connections
from django.utils import timezone

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


def _language_order():
    # Read each time, not cached: settings.LANGUAGES is the site's to change (tests override it).
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


def add(actions, languages, key, action, key_languages):
    """Record `action` with `key_languages` for `key` ((kind, ID)) in these {key: action} and
    {key: languages}, merged with what is there."""
    actions[key] = merged(actions[key], action) if key in actions else action
    languages[key] = languages.get(key, NO_LANGUAGES) | key_languages


def append(actions, languages, logged, using):
    """Append an entry per record of `actions` ({(kind, ID): action}, a TERM's kind looked up now),
    naming its `languages`; `logged` ({(kind, ID): (action, languages, position)}) holds the entries
    appended earlier in the same transaction. Returns what to add to `logged`."""
    actions, languages = _terms_resolved(actions, languages, using)
    entries, appended = [], {}
    for (kind, record_id), action in sorted(actions.items(), key=lambda item: (_KIND_ORDER[item[0][0]], item[0][1])):
        if action is None:
            continue
        entry_languages = languages.get((kind, record_id), NO_LANGUAGES)
        already = logged.get((kind, record_id))
        # Once per record and transaction: an entry appended by an earlier unit of the same
        # transaction stands, unless this write did something stronger than an update; it then
        # names the languages this write changed too (rewritten before anyone can read it).
        if already is not None and action in (UPDATED, already[0]):
            if not entry_languages <= already[1]:
                widened = already[1] | entry_languages
                ChangeEntry.objects.using(using).filter(pk=already[2]).update(languages=languages_text(widened))
                appended[(kind, record_id)] = (already[0], widened, already[2])
            continue
        entries.append((kind, record_id, action, entry_languages))
    if entries:
        positions = _insert(entries, using)
        for kind, record_id, action, entry_languages in entries:
            appended[(kind, record_id)] = (action, entry_languages, positions.get((str(kind), record_id)))
    return appended


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
        add(resolved, resolved_languages, (kind, record_id), action, key_languages)
    return resolved, resolved_languages


def _insert(entries, using):
    """Append the entries; returns {(kind, ID): position}."""
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
