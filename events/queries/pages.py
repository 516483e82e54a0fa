"""One page of a list and the list's total, in as few statements as the database allows, and what
a process remembers of its lists (their statements, totals and page rows)."""

import math
import threading
from contextlib import contextmanager
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db import DatabaseError, connections, router
from django.db.models import F, Func, Subquery
from django.db.models.expressions import RawSQL
from django.utils import translation

from .. import list_versions
from ..conf import settings_version
from ..memory import memory
from .params import MAX_RECORD_ID


@dataclass
class Page:
    rows: list
    page: int
    per_page: int
    total: int
    # What the rows were read under (list_versions.STATE_SQL), on PostgreSQL outside a transaction:
    # the rendering store's rows remembered under the same versions are current too.
    state: str = None
    # The versions of the tables the page's statement reads, when its rows and total may be
    # remembered (a list with a ListStatement key): what the list's body is remembered under.
    versions: tuple = None

    @property
    def total_pages(self):
        return math.ceil(self.total / self.per_page) if self.total else 0

    @property
    def has_next(self):
        return self.page < self.total_pages


class ListStatement:
    """A list's query, built from the ORM only when this process has not compiled it already.

    Building a filtered queryset and compiling it costs more than a stored page's statements and
    joins (about 0.9 ms of an events page, against 0.2 ms for the database to answer), and the
    statements depend only on the `key` a view gives (everything its queryset is built from: the
    filter values, the caller's visibility condition, the ordering), the database and the
    language. `build` returns a values() queryset of plain columns, whose rows are read without
    the ORM; a view with no key gives None, and its queryset is compiled every time. `reads` (a
    list_versions.Reads) declares what the statement reads; `searched`, that a search narrows it
    (_sorted_from_the_index).
    """

    def __init__(self, model, key, build, *, reads, plain_columns=True, searched=False):
        self.build = build
        self.reads = reads
        self.searched = searched
        self.plain_columns = plain_columns
        self.db = router.db_for_read(model)
        self.key = None if key is None else (self.db, translation.get_language(), *key)
        self._queryset = None

    @classmethod
    def of(cls, queryset, *, reads, plain_columns):
        """A list of the rows `queryset` reads: plain columns (dicts) when the caller made it a
        values() queryset and says so, model instances otherwise."""
        return cls(queryset.model, None, lambda: queryset, reads=reads, plain_columns=plain_columns)

    @property
    def queryset(self):
        if self._queryset is None:
            self._queryset = self.build()
        return self._queryset

    def compiled(self, name, compile_queryset):
        """(sql, params) of the statement `name`, compiled at most once per key."""
        if self.key is None:
            return compile_queryset(self.queryset)
        key, shaped_by = (*self.key, name), settings_version()
        found = compiled_statements.recall(key, shaped_by)
        if found is None:
            found = compile_queryset(self.queryset)
            compiled_statements.remember(key, shaped_by, found)
        return found


def _compiled(queryset):
    """(sql, params); no SQL when the query can match nothing (`pk__in=[]`)."""
    try:
        return queryset.query.sql_with_params()
    except EmptyResultSet:
        return None, ()


def fetch_page(statement, page, per_page):
    """The rows of one page (events, venues, organizers, terms) of a ListStatement and the list's
    exact total: model instances, or dicts when the query is a `values()` queryset.

    Counting an event list is the dearest part of it (an index-only scan of some 74,000 entries,
    about 25 ms, at 100,000 events), and most requests count what the previous one counted. On
    PostgreSQL, outside a transaction, the total is therefore remembered per list query under the
    versions of the tables it reads (events.list_versions), and so are a keyed list's page rows
    (_remembered_page): read again under the same versions, a page costs one small statement that
    reads them. Elsewhere (SQLite, or inside a transaction that may see its own writes) the count
    rides along with the page rows as an uncorrelated subquery of the same statement.
    """
    connection = connections[statement.db]
    with _planned_for_its_values(connection, statement), _sorted_from_the_index(connection, statement):
        return _fetch_page(statement, page, per_page)


# No walk of an index in list order, and room for the bitmap of the rows the search index finds:
# at 4 MB (PostgreSQL's default) the bitmap of a common pair ANDed with the status index turns
# lossy at about a million events, and every row of a lossy page has its characters and pairs
# computed again (1.2 s for `ja` at 1,000,000 events; 0.2 s with 16 MB, which holds about 1.5
# million events exactly). A site's larger work_mem is kept.
SEARCH_PLANNER_SETTINGS = (
    "SELECT set_config('enable_indexscan', 'off', false), set_config('work_mem', CASE"
    " WHEN pg_size_bytes(current_setting('work_mem')) < pg_size_bytes('16MB') THEN '16MB'"
    " ELSE current_setting('work_mem') END, false)"
)
# Back to the session's own values, as RESET gives them.
SESSION_PLANNER_SETTINGS = (
    "SELECT set_config(name, reset_val, false) FROM pg_settings WHERE name IN ('enable_indexscan', 'work_mem')"
)


@contextmanager
def _planned_for_its_values(connection, statement):
    """Statements reading display columns (a search's, and the public pages' cards) planned for
    their values each time, never prepared: a search costs what its words find, and a generic plan, blind to the
    words and to the status asked for, ANDs the status index into the search index's rows
    (1.1 s instead of 40 ms at 1,000,000 events; bench/README.md, "Search"). Planning one costs
    about a millisecond."""
    if not statement.reads.display or connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    driver = connection.connection
    if driver.prepare_threshold is None:
        yield
        return
    threshold, driver.prepare_threshold = driver.prepare_threshold, None
    try:
        yield
    finally:
        driver.prepare_threshold = threshold


@contextmanager
def _sorted_from_the_index(connection, statement):
    """A searched list's statements planned with SEARCH_PLANNER_SETTINGS, and the session's own
    settings back after them.

    The planner's guess of how many records hold a rare pair of letters is far too high, so it
    read the list in start order until ten were found, which for a pair found nowhere is the whole
    list (1.7 s at 1,000,000 events). Sorted from the rows the search index finds, which the exact
    total reads anyway, a search costs what its words find (bench/README.md, "Short terms")."""
    if not statement.searched or connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute(SEARCH_PLANNER_SETTINGS)
    try:
        yield
    except BaseException:
        # In a transaction, its rollback undoes the settings; in autocommit they were committed.
        if not connection.in_atomic_block:
            _session_settings_back(connection)
        raise
    _session_settings_back(connection)


def _session_settings_back(connection):
    try:
        with connection.cursor() as cursor:
            cursor.execute(SESSION_PLANNER_SETTINGS)
    except DatabaseError:
        # A session left without index scans would slow every later request on it: start anew.
        connection.close()


def _fetch_page(statement, page, per_page):
    offset = (page - 1) * per_page
    if offset > MAX_RECORD_ID:  # the databases refuse offsets past the 64-bit range
        return Page(rows=[], page=page, per_page=per_page, total=0)
    connection = connections[statement.db]
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return _page_counted_alongside(statement, connection, offset, page, per_page)
    # The statement is also the key of the remembered total (the ordering and the state column
    # are the same for every request of a list, so they do not blur the key).
    if statement.plain_columns:
        sql, params = statement.compiled("page", lambda queryset: _compiled(_with_state(queryset)))
    else:
        listed = _with_state(statement.queryset)
        sql, params = _compiled(listed)
    if sql is None:
        return Page(rows=[], page=page, per_page=per_page, total=0)
    key = repr((sql, params))
    rows, state = _remembered_page(statement, connection, key, offset, per_page)
    if rows is None:
        if statement.plain_columns:
            rows = _column_rows(connection, sql, params, offset, per_page)
        else:
            rows = list(listed[offset : offset + per_page])
        state = _field(rows[0], "listed_state") if rows else None
        if rows and statement.key is not None:
            remembered_pages.remember((key, offset, per_page), versions_of(statement, state), rows)
    versions = versions_of(statement, state) if state is not None else None
    total = remembered_totals.recall(key, versions) if versions is not None else None
    if total is None:
        # After a commit that changed what the list reads, every request of it misses at once: the
        # first thread of the process counts, the others wait for its total instead of each
        # running the same count.
        with _counting_locks[hash(key) % len(_counting_locks)]:
            total = remembered_totals.recall(key, versions) if versions is not None else None
            if total is None:
                count_sql, count_params = statement.compiled(
                    "count", lambda queryset: _compiled(queryset.order_by().values("pk"))
                )
                with connection.cursor() as cursor:
                    cursor.execute(
                        f"SELECT COUNT(*), {list_versions.STATE_SQL} FROM ({count_sql}) AS listed", count_params
                    )
                    total, counted_at = cursor.fetchone()
                remembered_totals.remember(key, versions_of(statement, counted_at), total)
    # Only a list with a key (rows read as plain columns) has its body remembered (remembered_list).
    remembered = statement.key is not None and statement.plain_columns
    return Page(
        rows=rows, page=page, per_page=per_page, total=total, state=state, versions=versions if remembered else None
    )


def _remembered_page(statement, connection, key, offset, per_page):
    """(rows, state): the page this process read last under the versions of the tables its statement
    reads, when they are still the current ones (one small statement reads them), else (None, None).

    Only lists with a key (ListStatement) are remembered: a list whose statement reads the clock
    is never asked for twice. The rows are shared between requests and threads: read-only.
    """
    if statement.key is None or not remembered_pages.holds((key, offset, per_page)):
        return None, None  # never remembered here: no need to read the versions
    state = list_versions.read_state(connection)
    rows = remembered_pages.recall((key, offset, per_page), versions_of(statement, state))
    return (rows, state) if rows is not None else (None, None)


def versions_of(statement, state):
    """What a total or page of `statement` read under `state` (the value of STATE_SQL) is valid for."""
    return list_versions.tables_key(statement.reads.names, state)


def _with_state(queryset):
    return queryset.annotate(listed_state=RawSQL(list_versions.STATE_SQL, ()))


def _column_rows(connection, sql, params, offset, per_page):
    """The page of a values() statement as dicts; LIMIT and OFFSET as literals, which the planner
    then sees (and the statement text stays the same for every page of a size)."""
    with connection.cursor() as cursor:
        cursor.execute(f"{sql} LIMIT {int(per_page)} OFFSET {int(offset)}", params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]


def _page_counted_alongside(statement, connection, offset, page, per_page):
    """One query for the page rows and the total: the count rides along as an uncorrelated subquery.

    Both databases evaluate that subquery once, and the page itself can still be read in index
    order. An empty page has no row to carry the total: past the first page it is counted on its
    own (a page past the last still reports the list's total).
    """

    def with_total(queryset):
        total = queryset.order_by().annotate(listed=Func(F("pk"), function="COUNT")).values("listed")
        return queryset.annotate(listed_total=Subquery(total))

    if statement.plain_columns:
        sql, params = statement.compiled("page counted alongside", lambda queryset: _compiled(with_total(queryset)))
        rows = _column_rows(connection, sql, params, offset, per_page) if sql is not None else []
    else:
        rows = list(with_total(statement.queryset)[offset : offset + per_page])
    if rows:
        return Page(rows=rows, page=page, per_page=per_page, total=_field(rows[0], "listed_total"))
    return Page(rows=rows, page=page, per_page=per_page, total=statement.queryset.count() if page > 1 else 0)


def _field(row, name):
    """A value of a page row: a model instance, or a dict from a `values()` queryset."""
    return row[name] if isinstance(row, dict) else getattr(row, name)


# What each memory holds, under what key and why it cannot answer stale: docs/architecture-memories.md.
remembered_totals = memory("list-totals", max_entries=512)
remembered_pages = memory("list-pages", max_entries=512)
compiled_statements = memory("list-statements", max_entries=512)
# A few locks shared by all lists (by the hash of the list's key) rather than one per list, so
# that their number stays bounded; two lists that share one only count one after the other.
_counting_locks = [threading.Lock() for _ in range(32)]
