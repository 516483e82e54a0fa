"""PostgreSQL: indexes that answer the lists' `search` (events.queries.search, docs/architecture-queries.md).

Every search term is a substring of a record's text in the request's language (its translation,
else English). Per record kind and language, two GIN indexes over one document (the searched
columns, language-resolved, joined by spaces): `pg_trgm` trigrams for terms with three or more
letters or digits in a row, and the document's CJK characters and pairs of characters for Chinese
(or Japanese) terms of one or two characters, which have no trigram. Both only narrow the rows:
the exact substring test runs on what they find. SQLite keeps scanning.
"""

import re

from django.db import migrations

# Read by events.queries.search (a test checks both agree, by the plans): per table, the translated
# columns and the plain ones, in the order of the document's parts.
SEARCH_DOCUMENTS = {
    "events_event": (("title", "excerpt", "description"), ()),
    "events_venue": (
        ("title", "description", "excerpt"),
        ("address", "city", "province", "state", "stateprovince", "zip", "phone"),
    ),
    "events_organizer": (("title", "description", "excerpt"), ("phone", "email", "website")),
}
FALLBACK_LANGUAGE = "en"
# Han (with its extensions and compatibility ideographs), kana: scripts written without spaces.
CJK_CHARACTERS = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"

FUNCTIONS = [
    # A translated column as records show it: the translation, else English (queries.filtering.localized_text).
    """
    CREATE FUNCTION events_shown_text(shown text, fallback text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT coalesce(nullif(shown, ''), fallback, '') $$
    """,
    # array_to_string is only STABLE for any array; for text[] its result depends on nothing else.
    """
    CREATE FUNCTION events_search_document(VARIADIC parts text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT array_to_string(parts, ' ') $$
    """,
    f"""
    CREATE FUNCTION events_cjk_grams(document text) RETURNS text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT coalesce(array_agg(DISTINCT gram), '{{}}')
        FROM regexp_matches(document, '[{CJK_CHARACTERS}]+', 'g') AS run,
        LATERAL (
            SELECT substr(run[1], position, size) AS gram
            FROM generate_series(1, char_length(run[1])) AS position, (VALUES (1), (2)) AS sizes (size)
            WHERE position + size - 1 <= char_length(run[1])
        ) AS grams
    $$
    """,
]


def languages(connection, table):
    """The languages of `table`'s translated columns (title_en, title_zh_hans …), English first."""
    with connection.cursor() as cursor:
        columns = [column.name for column in connection.introspection.get_table_description(cursor, table)]
    found = [match.group(1) for column in columns if (match := re.fullmatch(r"title_([a-z0-9_]+)", column))]
    return sorted(found, key=lambda language: language != FALLBACK_LANGUAGE)


def document(table, language):
    translated, plain = SEARCH_DOCUMENTS[table]
    parts = [
        f"{field}_{FALLBACK_LANGUAGE}"
        if language == FALLBACK_LANGUAGE
        else f"events_shown_text({field}_{language}, {field}_{FALLBACK_LANGUAGE})"
        for field in translated
    ]
    return f"events_search_document({', '.join([*parts, *plain])})"


def indexes(connection):
    for table in SEARCH_DOCUMENTS:
        for language in languages(connection, table):
            text = document(table, language)
            yield f"{table}_search_trgm_{language}", f"USING gin (upper({text}) gin_trgm_ops)", table
            yield f"{table}_search_cjk_{language}", f"USING gin (events_cjk_grams({text}))", table


def install(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    # Imported here: django.contrib.postgres needs psycopg, which a SQLite site may not have. The
    # extension is created when the database user may (pg_trgm is trusted from PostgreSQL 13: the
    # database's owner may); else a superuser creates it first (docs/install.md). Migrating back
    # keeps it: other schemas of the database may use it.
    from django.contrib.postgres.operations import TrigramExtension

    TrigramExtension().database_forwards("events", schema_editor, None, None)
    for statement in FUNCTIONS:
        schema_editor.execute(statement)
    for name, definition, table in indexes(connection):
        schema_editor.execute(f"CREATE INDEX {name} ON {table} {definition}")


def uninstall(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    for name, _definition, _table in indexes(connection):
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")
    for function in ("events_cjk_grams(text)", "events_search_document(text[])", "events_shown_text(text, text)"):
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}")


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0014_webhook_delivery_claim"),
    ]

    operations = [migrations.RunPython(install, uninstall)]
