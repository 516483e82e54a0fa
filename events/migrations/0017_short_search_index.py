"""PostgreSQL: one index per record kind for the search terms migration 0015's indexes cannot
answer (events.queries.search, docs/architecture-queries.md, "Search").

A term with no three letters or digits in a row and no CJK character (`ja`, `5k`, `R&B`, `"a b"`,
`да`) has no trigram and no CJK pair, so before this every such term read the whole table, found or
not. Per record kind, one GIN index over `events_short_grams` of one document holding every
language's searched columns: each character and each pair of neighbouring characters of the
upper-cased text, whatever its script. The term's characters and pairs, computed by the same
`upper()`, are in the array of every record whose text holds the term in some language; the exact
column test keeps those holding it in the request's language. One document for every language, not
one per language, so a write computes one array.
"""

from django.db import migrations

FALLBACK_LANGUAGE = "en"

# Built from C functions only (a loop over the characters in SQL costs three times as much): the
# characters, then the pairs starting at odd and at even positions. Duplicates are left to GIN,
# which keeps each key once per row.
SHORT_GRAMS = r"""
CREATE FUNCTION events_short_grams(document text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT string_to_array(upper_text, NULL)
        || ARRAY(SELECT pair[1] FROM regexp_matches(upper_text, '(..)', 'g') AS pair)
        || ARRAY(SELECT pair[1] FROM regexp_matches(substr(upper_text, 2), '(..)', 'g') AS pair)
    FROM (SELECT upper(document) AS upper_text) AS upper_cased
$$
"""
# What a term looks up: its characters and pairs without white space (every text has those), and
# only the pairs when it has any (they imply the characters).
TERM_GRAMS = r"""
CREATE FUNCTION events_short_term_grams(term text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(
        array_agg(DISTINCT gram) FILTER (WHERE char_length(gram) = 2),
        array_agg(DISTINCT gram),
        '{}'
    )
    FROM unnest(events_short_grams(term)) AS gram
    WHERE gram !~ '\s'
$$
"""
# The searched columns of each table, as in migration 0015 (copied: a migration keeps its own).
SEARCH_DOCUMENTS = {
    "events_event": (("title", "excerpt", "description"), ()),
    "events_venue": (
        ("title", "description", "excerpt"),
        ("address", "city", "province", "state", "stateprovince", "zip", "phone"),
    ),
    "events_organizer": (("title", "description", "excerpt"), ("phone", "email", "website")),
}


def languages(connection, table):
    """The languages of `table`'s translated columns (title_en, title_zh_hans …): English, then the others by name."""
    with connection.cursor() as cursor:
        columns = [column.name for column in connection.introspection.get_table_description(cursor, table)]
    found = [column.removeprefix("title_") for column in columns if column.startswith("title_")]
    return sorted(found, key=lambda language: (language != FALLBACK_LANGUAGE, language))


def every_language_document(connection, table):
    """`table`'s searched columns in every language, in events.queries.search's order: each
    translated field in each language, then the plain fields."""
    translated, plain = SEARCH_DOCUMENTS[table]
    columns = [f"{field}_{language}" for field in translated for language in languages(connection, table)]
    return f"events_search_document({', '.join([*columns, *plain])})"


def install(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    schema_editor.execute(SHORT_GRAMS)
    schema_editor.execute(TERM_GRAMS)
    # Building reads every record once (a few tenths of a millisecond each): more than a request's
    # statement timeout on a large calendar, and a migration is not a request.
    schema_editor.execute("SET LOCAL statement_timeout = 0")
    for table in SEARCH_DOCUMENTS:
        document = every_language_document(connection, table)
        schema_editor.execute(f"CREATE INDEX {table}_search_short ON {table} USING gin (events_short_grams({document}))")


def uninstall(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    for table in SEARCH_DOCUMENTS:
        schema_editor.execute(f"DROP INDEX IF EXISTS {table}_search_short")
    schema_editor.execute("DROP FUNCTION IF EXISTS events_short_term_grams(text)")
    schema_editor.execute("DROP FUNCTION IF EXISTS events_short_grams(text)")


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0016_imports"),
    ]

    operations = [migrations.RunPython(install, uninstall)]
