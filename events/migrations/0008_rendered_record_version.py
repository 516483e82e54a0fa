"""PostgreSQL: the rendering store gets a version too (events.list_versions), so that a process may
remember stored rows between requests and know, from one small read, whether they are still current.

The functions come from 0007; the rendering store has no display columns, so every change to it
bumps its one version. SQLite has no triggers here: there, stored rows are read on every request.
"""
from django.db import migrations

# Read by events.list_versions with 0007's (a test checks they agree).
VERSIONED_TABLES = ("events_renderedrecord",)

INSTALL = [
    statement
    for table in VERSIONED_TABLES
    for statement in (
        f"CREATE CONSTRAINT TRIGGER events_list_version AFTER INSERT OR UPDATE OR DELETE ON {table} "
        f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_list_row_changed()",
        f"CREATE TRIGGER events_list_version_truncate AFTER TRUNCATE ON {table} "
        f"FOR EACH STATEMENT EXECUTE FUNCTION events_list_truncated()",
    )
]

UNINSTALL = [
    statement
    for table in VERSIONED_TABLES
    for statement in (
        f"DROP TRIGGER IF EXISTS events_list_version ON {table}",
        f"DROP TRIGGER IF EXISTS events_list_version_truncate ON {table}",
    )
]


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in INSTALL:
            schema_editor.execute(statement)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in UNINSTALL:
            schema_editor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0007_list_versions"),
    ]

    operations = [migrations.RunPython(install, uninstall)]
