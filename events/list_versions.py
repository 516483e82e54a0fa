"""What a list's total and rows depend on: the versions of the tables its statement reads (PostgreSQL).

Migration 0007's triggers bump a table's version (or its `:display` version, for changes to display
columns only) in the committing transaction, so a statement's snapshot sees the changed rows and
the new version together, or neither: a total, page or stored row read under some versions holds
for every later statement that sees the same versions of the tables it reads (Reads), in every
process alike (docs/decisions.md, docs/architecture-memories.md). A statement that reads a table
without a version depends on the whole snapshot instead.
"""

import json
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property

from django.db import connections, router

RENDERED_TABLE = "events_renderedrecord"
VERSIONED_TABLES = (
    "events_event",
    "events_event_terms",
    "events_eventorganizer",
    "events_venue",
    "events_organizer",
    "events_term",
    "events_attachment",
    RENDERED_TABLE,  # the last one since migration 0008
)
DISPLAY = ":display"
# What the page and count statements read beside their rows: the snapshot, and the versions
# (the snapshot is the key of statements that read an unversioned table).
STATE_SQL = "pg_current_snapshot()::text || ' ' || coalesce((SELECT versions::text FROM events_list_version), '')"


@dataclass(frozen=True)
class Reads:
    """What a statement reads, as the code that builds it declares: its tables, and whether it reads
    a display column (migration 0007's DISPLAY_COLUMNS) of any of them. tests/statement_reads.py
    checks every list statement the suite builds against its declaration."""

    tables: frozenset = frozenset()
    display: bool = False

    @classmethod
    def of(cls, *models, display=False):
        return cls(frozenset(model._meta.db_table for model in models), display)

    def __or__(self, other):
        return Reads(self.tables | other.tables, self.display or other.display)

    @cached_property
    def names(self):
        """The version names what the statement reads depends on, or None: it reads an unversioned
        table (and depends on the whole snapshot). A statement reading a display column depends on
        the display versions of every table it reads: one too many at worst, never too few."""
        if not self.tables <= set(VERSIONED_TABLES):
            return None
        display = {f"{table}{DISPLAY}" for table in self.tables} if self.display else set()
        return tuple(sorted(self.tables | display))


# The states read so far by the read request in progress, by database (state_per_read).
_read_states = ContextVar("events_read_states", default=None)


@contextmanager
def state_per_read():
    """Within a read (a GET), the versions are read once, at first need, and checked against by
    everything the request recalls: what it reads after that is at least as new as they say.
    A write must not: what it reads after its own commit would be checked against older versions."""
    token = _read_states.set({})
    try:
        yield
    finally:
        _read_states.reset(token)


def read_state(connection):
    """The value of STATE_SQL now, in a statement of its own: what remembered rows are checked against."""
    states = _read_states.get()
    if states is not None and connection.alias in states:
        return states[connection.alias]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {STATE_SQL}")
        state = cursor.fetchone()[0]
    if states is not None:
        states[connection.alias] = state
    return state


def recalled(lookups, model, key, read):
    """`read()` (a lookup in `model`'s table), recalled from `lookups` (an events.memory) when this
    process made it under the current version of that table. Only within a read request on
    PostgreSQL outside a transaction (state_per_read); everywhere else it is made every time."""
    connection = connections[router.db_for_read(model)]
    if _read_states.get() is None or connection.vendor != "postgresql" or connection.in_atomic_block:
        return read()
    version = tables_key((model._meta.db_table,), read_state(connection))
    key = (connection.alias, *key)
    value = lookups.recall(key, version)
    if value is None:
        value = read()
        lookups.remember(key, version, value)
    return value


def store_version(state):
    """The rendering store's version in `state`: what its rows, and what is made of them, are valid for."""
    return tables_key((RENDERED_TABLE,), state)


def tables_key(names, state):
    """The versions `names` have in `state`; `state` itself (the snapshot) when a name has none
    (None: the statement reads an unversioned table), or no versions were read."""
    snapshot, _, versions = state.partition(" ")
    if names is None or not versions:
        return state
    known = json.loads(versions)
    return tuple(known.get(name) for name in names)
