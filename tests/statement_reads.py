"""What a list statement's SQL reads, parsed, against what its code declares (ListStatement.reads).

A remembered total or page is valid under the versions of the tables its statement declares it
reads (events.list_versions.Reads). A join added to a list without its table in the declaration
would let a total outlive a change to what it counts; the suite's fixture `declared_reads_hold`
(conftest.py) checks every list statement any test builds with `undeclared()`.
"""

import importlib
import re

from django.apps import apps
from django.core.exceptions import EmptyResultSet

from events.list_versions import Reads

# The triggers' display columns (migration 0007): changes to them bump a table's `:display` version.
DISPLAY_COLUMNS = re.compile(importlib.import_module("events.migrations.0007_list_versions").DISPLAY_COLUMNS)
# Django quotes every table and column name it writes.
_QUOTED_NAME = re.compile(r'"([^"]+)"')


def read_by(sql):
    """The tables `sql` reads, and whether it names a display column (of any of them)."""
    names = set(_QUOTED_NAME.findall(sql))
    models = {model._meta.db_table for model in apps.get_models(include_auto_created=True)}
    return Reads(frozenset(names & models), any(DISPLAY_COLUMNS.match(name) for name in names))


def undeclared(statement, queryset):
    """What the SQL of `queryset` (the statement's) reads beyond `statement.reads`, or None."""
    try:
        sql, _params = queryset.query.sql_with_params()
    except EmptyResultSet:
        return None
    read, declared = read_by(sql), statement.reads
    missing = Reads(read.tables - declared.tables, read.display and not declared.display)
    if missing.tables or missing.display:
        return f"{statement.key or statement.build} reads {missing} beyond its declared {declared}:\n{sql}"
    return None
