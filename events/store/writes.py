"""Writing the store: records rendered into rows, dropped by a write, rendered again when its unit of
work finishes (events.pipeline)."""

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import prefetch_related_objects

from ..internals import copy_rows
from ..models import RenderedRecord, link_prefetches, links_prefetched
from .epoch import current_epoch, languages
from .registry import rendered_texts
from .rows import EVENT, IMAGE, ORGANIZER, ROW_KINDS, SOURCE_KINDS, SOURCE_OF_ROW, TERM, VENUE, references_in

# Reads, deletes and renders in slices of records, whatever a bulk change marks: SQLite caps the
# parameters of a statement; PostgreSQL takes a whole series (MAX_OCCURRENCES_PER_SERIES, 1,000 by
# default) in one statement, so that a series' writes run the same statements whatever its length.
SLICE = 500
LARGE_SLICE = 5000
# PostgreSQL takes more rows than this by COPY (a series' occurrences): binding every value of
# a multi-row INSERT costs several times what COPY does (bench/README.md, "Series writes").
COPY_FROM_ROWS = 200
STORED_COLUMNS = ("kind", "record_id", "language", "epoch", "body", "sort_name", "links")
UNIQUE_COLUMNS = ("kind", "record_id", "language")


# What the renderers of each kind read beside the record, selected with it when records are read,
# prefetched onto them when they are in hand (render_made); an event also its links.
SOURCE_MODELS = {kind: model for model, kind in SOURCE_KINDS.items()}
RELATED = {EVENT: ("image", "series"), VENUE: ("image",), ORGANIZER: ("image",), IMAGE: (), TERM: ()}


def _source_records(kind, ids, using, lock=False):
    queryset = SOURCE_MODELS[kind].objects.all()
    if RELATED[kind]:
        # Never select_related() with no names: Django then follows every non-null foreign key.
        queryset = queryset.select_related(*RELATED[kind])
    if kind == EVENT:
        queryset = links_prefetched(queryset)
    queryset = queryset.using(using).filter(pk__in=ids).order_by("pk")
    features = connections[using].features
    if lock and features.has_select_for_update_of:
        # Serialises this rendering with any writer of the same rows: it reads them after that
        # writer commits, so a rendering made after a commit always shows that commit. NO KEY
        # UPDATE, as writers take it, so that inserting links to these rows (KEY SHARE) still goes on.
        queryset = queryset.select_for_update(of=("self",), no_key=features.has_select_for_no_key_update)
    return list(queryset)


def rendered_rows(kind, ids, using=DEFAULT_DB_ALIAS, lock=False, only_language=None):
    """The rows (unsaved RenderedRecords) of these records of source `kind`, in every language or
    `only_language`, as the registered renderers write them now."""
    made = []
    for record_slice in _slices(sorted(ids), using):
        made += _rendered(kind, _source_records(kind, record_slice, using, lock), only_language)
    return made


def _rendered(kind, records, only_language=None):
    epoch = current_epoch()
    made = []
    for language in [only_language] if only_language else languages():
        for (row_kind, record_id), (body, sort_name) in rendered_texts(kind, records, language).items():
            links = (
                " ".join(f"{ref_kind}:{ref_id}" for ref_kind, ref_id in references_in(body))
                if row_kind == EVENT
                else ""
            )
            # Positional (id first), as Django builds what it reads: a series makes thousands.
            made.append(RenderedRecord(None, row_kind, record_id, language, epoch, body, sort_name[:200], links))
    return made


def render(kind, ids, using=DEFAULT_DB_ALIAS, delete_first=True):
    """Store again what these records (all of them still existing) look like, in every language.
    Without `delete_first`, their rows are known to be gone already (drop_rows deleted them):
    the rows rendered now replace any a reader stored since."""
    ids = set(ids)
    if not ids:
        return
    with transaction.atomic(using=using):
        if delete_first:
            _delete_rows(kind, ids, using)
        _store(rendered_rows(kind, ids, using, lock=True), using)


def render_made(kind, records, using=DEFAULT_DB_ALIAS):
    """Store what these records, just created in bulk by this transaction, look like, rendered from
    the instances as written rather than read back (a series' occurrences: reading 730 back cost a
    seventh of making them). No other transaction sees them, so
    nothing is locked; a later write to them in this transaction marks them stale again, as any
    write does, and a rollback takes their rows with it."""
    if not records:
        return
    prefetch_related_objects(records, *RELATED[kind], *(link_prefetches() if kind == EVENT else ()))
    _store(_rendered(kind, records), using)


def render_all(using=DEFAULT_DB_ALIAS, stdout=None):
    """Rebuild the whole store (management command `events_render`, seeding)."""
    RenderedRecord.objects.using(using).exclude(epoch=current_epoch()).delete()
    for model, kind in SOURCE_KINDS.items():
        ids = list(model.objects.using(using).order_by("pk").values_list("pk", flat=True))
        for id_slice in _slices(ids, using):
            render(kind, id_slice, using)
        if stdout is not None:
            stdout.write(f"{kind}: {len(ids)}")
    connection = connections[using]
    if connection.vendor == "postgresql":
        # Every row was just written: with statistics from before, the planner would take the
        # store for as small as it was and scan it where it should look rows up (a list's events).
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(RenderedRecord._meta.db_table)}")


def stale_rows(using=DEFAULT_DB_ALIAS):
    """[(row kind, record ID, language)] of stored rows that differ from a fresh rendering: none,
    as long as every write keeps the store true (tests and `events_render --check` ask)."""
    stored = {
        (kind, record_id, language): (body, sort_name, links)
        for kind, record_id, language, body, sort_name, links in RenderedRecord.objects.using(using)
        .filter(epoch=current_epoch())
        .values_list("kind", "record_id", "language", "body", "sort_name", "links")
    }
    by_source = {}
    for kind, record_id, _language in stored:
        by_source.setdefault(SOURCE_OF_ROW[kind], set()).add(record_id)
    fresh = {}
    for source, ids in by_source.items():
        for row in rendered_rows(source, ids, using, lock=False):
            fresh[(row.kind, row.record_id, row.language)] = (row.body, row.sort_name, row.links)
    return sorted(key for key, value in stored.items() if fresh.get(key) != value)


def keep_if_absent(kind, ids, language, using=DEFAULT_DB_ALIAS):
    """A reader's fill: render these records in one language and store rows that do not exist yet."""
    rows = rendered_rows(kind, ids, using, lock=False, only_language=language)
    if rows:
        # Rows of an older epoch are in the way (a writer's rows always have the current one).
        _delete_rows(kind, ids, using, language)
        RenderedRecord.objects.using(using).bulk_create(rows, batch_size=SLICE, ignore_conflicts=True)


def _store(rows, using):
    """Insert these rows, replacing any already stored (a reader's fill made since the delete)."""
    connection = connections[using]
    if connection.vendor == "postgresql" and len(rows) >= COPY_FROM_ROWS:
        _store_by_copy(rows, connection)
        return
    RenderedRecord.objects.using(using).bulk_create(
        rows,
        batch_size=SLICE,
        update_conflicts=True,
        unique_fields=UNIQUE_COLUMNS,
        update_fields=[column for column in STORED_COLUMNS if column not in UNIQUE_COLUMNS],
    )


def _store_by_copy(rows, connection):
    """PostgreSQL: COPY the rows into a table of this transaction, then move them into the store
    in one INSERT that replaces conflicting rows as bulk_create does. The table is dropped at the
    commit (nothing outlives the transaction, so a pooler in transaction mode is safe) and emptied
    by the move, so a second call in the same transaction starts from nothing."""
    quote = connection.ops.quote_name
    table = quote(RenderedRecord._meta.db_table)
    columns = ", ".join(quote(column) for column in STORED_COLUMNS)
    unique = ", ".join(quote(column) for column in UNIQUE_COLUMNS)
    replaced = ", ".join(
        f"{quote(column)} = EXCLUDED.{quote(column)}" for column in STORED_COLUMNS if column not in UNIQUE_COLUMNS
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS events_rows_in ON COMMIT DROP "
            f"AS SELECT {columns} FROM {table} WITH NO DATA"
        )
        copy_rows(
            cursor,
            f"COPY events_rows_in ({columns}) FROM STDIN",
            ([getattr(row, column) for column in STORED_COLUMNS] for row in rows),
        )
        cursor.execute(
            f"WITH moved AS (DELETE FROM events_rows_in RETURNING {columns}) "
            f"INSERT INTO {table} ({columns}) SELECT {columns} FROM moved "
            f"ON CONFLICT ({unique}) DO UPDATE SET {replaced}"
        )


def _delete_rows(kind, ids, using, language=None):
    """Every row of these records or, with `language`, their rows in it of another epoch."""
    for id_slice in _slices(sorted(ids), using):
        rows = RenderedRecord.objects.using(using).filter(kind__in=ROW_KINDS[kind], record_id__in=id_slice)
        if language is not None:
            rows = rows.filter(language=language).exclude(epoch=current_epoch())
        rows.delete()


def _slices(items, using):
    size = SLICE if connections[using].features.max_query_params else LARGE_SLICE
    items = list(items)
    return [items[start : start + size] for start in range(0, len(items), size)]


# --- dropping stale rows -----------------------------------------------------------------------------


def drop_rows(kind, ids, using=DEFAULT_DB_ALIAS):
    """Forget the stored renderings of these records now (a write changed them): a reader in the
    meantime renders them itself; the write's unit of work renders them again when it finishes."""
    ids = {record_id for record_id in ids if record_id is not None}
    if ids:
        _delete_rows(kind, ids, using)
