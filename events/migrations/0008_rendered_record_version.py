"""PostgreSQL: the rendering store gets a version too (events.list_versions), so that a process may
remember stored rows between requests and know, from one small read, whether they are still current.

The functions and the trigger statements are 0007's; the rendering store has no display columns,
so every change to it bumps its one version. SQLite has no triggers here: there, stored rows are
read on every request.
"""
from importlib import import_module

from django.db import migrations

# 0007's own statements (a migration, not the app's code: they stay what 0007 installed).
list_versions_migration = import_module("events.migrations.0007_list_versions")

# Read by events.list_versions with 0007's (a test checks they agree).
VERSIONED_TABLES = ("events_renderedrecord",)


def install(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql":
        for table in VERSIONED_TABLES:
            for statement in list_versions_migration.table_triggers(connection, table):
                schema_editor.execute(statement)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in VERSIONED_TABLES:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS events_list_version ON {table}")
            schema_editor.execute(f"DROP TRIGGER IF EXISTS events_list_version_truncate ON {table}")


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0007_list_versions"),
    ]

    operations = [migrations.RunPython(install, uninstall)]
