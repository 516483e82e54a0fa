"""Reading the store: the statements that fetch stored rows of the current epoch.

Plain SQL: stored reads run these on every request, and the ORM would spend longer compiling a
statement than the database spends answering it.
"""

from django.db import DEFAULT_DB_ALIAS, connections

from ..models import RenderedRecord
from .epoch import current_epoch
from .rows import ORGANIZER, VENUE


def fetch_rows(keys, language):
    """[(row kind, record ID, body, sort name)] of the current epoch, in one query."""
    wanted = sorted({(kind, int(record_id)) for kind, record_id in keys})
    if not wanted:
        return []
    connection = connections[DEFAULT_DB_ALIAS]
    table = connection.ops.quote_name(RenderedRecord._meta.db_table)
    if connection.vendor == "postgresql":
        # One statement whatever the keys (so it runs prepared), looked up key by key in the unique
        # index; two array parameters rather than one per key, as binding them costs more than
        # the lookups.
        prefix, source = "", "unnest(%s::text[], %s::bigint[]) AS wanted(kind, record_id)"
        params = [[kind for kind, _ in wanted], [record_id for _, record_id in wanted]]
    else:  # no arrays: a pair of parameters per key
        prefix, source = f"WITH wanted(kind, record_id) AS (VALUES {', '.join(['(%s, %s)'] * len(wanted))}) ", "wanted"
        params = [value for key in wanted for value in key]
    sql = (
        f"{prefix}SELECT r.kind, r.record_id, r.body, r.sort_name FROM {table} r JOIN {source} "
        f"ON r.kind = wanted.kind AND r.record_id = wanted.record_id WHERE r.language = %s AND r.epoch = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, language, current_epoch()])
        return cursor.fetchall()


def stored_with_linked_sql(table, own_condition, json_ld):
    """PostgreSQL: the rows `own_condition` selects, plus every row their events refer to (their
    `links`) and, with `json_ld`, the JSON-LD rows of their venues and organizers, in one round
    trip. Named parameters: language, epoch, and those of `own_condition`."""
    linked_ld = (
        f"UNION ALL SELECT kind || '_ld', record_id FROM linked WHERE kind IN ('{VENUE}', '{ORGANIZER}')"
        if json_ld
        else ""
    )
    return (
        f"WITH own AS (SELECT kind, record_id, body, sort_name, links FROM {table} "
        f"WHERE {own_condition} AND language = %(language)s AND epoch = %(epoch)s), "
        f"linked AS (SELECT DISTINCT split_part(link, ':', 1) AS kind, split_part(link, ':', 2)::bigint AS record_id "
        f"FROM own, unnest(string_to_array(own.links, ' ')) AS link WHERE own.links <> ''), "
        f"wanted AS (SELECT kind, record_id FROM linked {linked_ld}) "
        f"SELECT kind, record_id, body, sort_name FROM own UNION ALL "
        f"SELECT r.kind, r.record_id, r.body, r.sort_name FROM {table} r "
        f"JOIN wanted ON r.kind = wanted.kind AND r.record_id = wanted.record_id "
        f"WHERE r.language = %(language)s AND r.epoch = %(epoch)s"
    )
