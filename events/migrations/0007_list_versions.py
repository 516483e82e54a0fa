"""PostgreSQL: versions of the tables lists count over, kept by triggers (events.list_versions).

A list's remembered total is valid while the versions of the tables its statement reads stay the
same. Every transaction that inserts, deletes or changes rows of a versioned table bumps that
table's version when it commits; one that changes only display columns (titles, excerpts,
descriptions, the modification time) bumps the table's `:display` version instead, which only
statements reading such a column depend on. SQLite has no triggers here: there, lists count
alongside their page.
"""
import re

from django.db import migrations

# Read by events.list_versions (a test checks both agree): tables and display columns.
VERSIONED_TABLES = (
    "events_event",
    "events_event_terms",
    "events_eventorganizer",
    "events_venue",
    "events_organizer",
    "events_term",
    "events_attachment",
)
DISPLAY_COLUMNS = r"^((title|excerpt|description)(_[a-z0-9_]+)?|modified)$"

INSTALL = [
    "CREATE SEQUENCE events_list_version_seq",
    # One row: committing writers take its lock in turn, from their deferred trigger (the last
    # thing they do) to the end of the commit, so two of them never hold one version each while
    # waiting for the other's.
    "CREATE TABLE events_list_version (id integer PRIMARY KEY CHECK (id = 1), versions jsonb NOT NULL)",
    "INSERT INTO events_list_version (id, versions) VALUES (1, '{}')",
    """
    CREATE FUNCTION events_list_bump(names text[]) RETURNS void LANGUAGE sql AS $$
        UPDATE events_list_version
        SET versions = versions || (
            SELECT jsonb_object_agg(name, nextval('events_list_version_seq')) FROM unnest(names) AS name
        )
        WHERE id = 1
    $$
    """,
    # Deferred to the commit, once per version name and transaction: the bumped names are kept in
    # a transaction-local setting (rolled back with a savepoint, as the rows it stands for are).
    # The trigger's arguments are the table's display columns.
    """
    CREATE FUNCTION events_list_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        bumped text := coalesce(nullif(current_setting('events.list_bumped', true), ''), ' ');
        display_name text := TG_TABLE_NAME || ':display';
        -- TG_ARGV is null, not empty, for a trigger without arguments.
        display_columns text[] := coalesce(TG_ARGV, '{}');
        names text[] := '{}';
        old_row jsonb;
        new_row jsonb;
        display_column text;
    BEGIN
        IF TG_OP <> 'UPDATE' THEN
            IF position(' ' || TG_TABLE_NAME || ' ' IN bumped) = 0 THEN
                names := ARRAY[TG_TABLE_NAME];
            END IF;
        ELSE
            old_row := to_jsonb(OLD);
            new_row := to_jsonb(NEW);
            IF position(' ' || TG_TABLE_NAME || ' ' IN bumped) = 0
               AND (old_row - display_columns) IS DISTINCT FROM (new_row - display_columns) THEN
                names := names || TG_TABLE_NAME;
            END IF;
            IF position(' ' || display_name || ' ' IN bumped) = 0 THEN
                FOREACH display_column IN ARRAY display_columns LOOP
                    IF (old_row -> display_column) IS DISTINCT FROM (new_row -> display_column) THEN
                        names := names || display_name;
                        EXIT;
                    END IF;
                END LOOP;
            END IF;
        END IF;
        IF cardinality(names) > 0 THEN
            PERFORM events_list_bump(names);
            PERFORM set_config('events.list_bumped', bumped || array_to_string(names, ' ') || ' ', true);
        END IF;
        RETURN NULL;
    END
    $$
    """,
    # TRUNCATE has no rows to defer a trigger on: it bumps at once (it holds the table exclusively anyway).
    """
    CREATE FUNCTION events_list_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM events_list_bump(ARRAY[TG_TABLE_NAME]);
        RETURN NULL;
    END
    $$
    """,
]


def table_triggers(connection, table):
    """The two triggers of a table. A display column added later counts as any other column (its
    changes bump the table's version) until the triggers are installed again."""
    with connection.cursor() as cursor:
        columns = [column.name for column in connection.introspection.get_table_description(cursor, table)]
    display = ", ".join(f"'{column}'" for column in columns if re.match(DISPLAY_COLUMNS, column))
    return [
        f"CREATE CONSTRAINT TRIGGER events_list_version AFTER INSERT OR UPDATE OR DELETE ON {table} "
        f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_list_row_changed({display})",
        f"CREATE TRIGGER events_list_version_truncate AFTER TRUNCATE ON {table} "
        f"FOR EACH STATEMENT EXECUTE FUNCTION events_list_truncated()",
    ]


UNINSTALL = [
    *(f"DROP TRIGGER IF EXISTS events_list_version ON {table}" for table in VERSIONED_TABLES),
    *(f"DROP TRIGGER IF EXISTS events_list_version_truncate ON {table}" for table in VERSIONED_TABLES),
    "DROP FUNCTION IF EXISTS events_list_truncated()",
    "DROP FUNCTION IF EXISTS events_list_row_changed()",
    "DROP FUNCTION IF EXISTS events_list_bump(text[])",
    "DROP TABLE IF EXISTS events_list_version",
    "DROP SEQUENCE IF EXISTS events_list_version_seq",
]


def install(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    for statement in INSTALL:
        schema_editor.execute(statement)
    for table in VERSIONED_TABLES:
        for statement in table_triggers(connection, table):
            schema_editor.execute(statement)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in UNINSTALL:
            schema_editor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0006_rendered_record_links"),
    ]

    operations = [migrations.RunPython(install, uninstall)]
