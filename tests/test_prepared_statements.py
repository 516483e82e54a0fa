"""On PostgreSQL a read's statements run prepared (DATABASE_PREPARED_STATEMENTS, on by default),
and the setting turns it off for poolers that cannot keep prepared statements."""

import os

import pytest
from django.db import connection

from .conftest import API
from .factories import make_event
from .processes import site_process_output

pytestmark = pytest.mark.postgres


def prepared_on_this_connection():
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


def test_a_stored_single_read_runs_prepared_from_its_second_time(db, api):
    event = make_event("Open day")
    path = f"{API}/events/{event.pk}"
    for _ in range(3):
        assert api.get(path).status_code == 200
    statements = prepared_on_this_connection()
    assert any("events_renderedrecord" in statement and "$1" in statement for statement in statements), statements


def test_the_setting_turns_prepared_statements_off():
    """A fresh process with DATABASE_PREPARED_STATEMENTS=false binds parameters itself and prepares nothing."""
    script = (
        "import django; django.setup()\n"
        "from django.db import connection\n"
        "for _ in range(3):\n"
        "    with connection.cursor() as cursor:\n"
        "        cursor.execute('SELECT %s::int + 1', [1])\n"
        "with connection.cursor() as cursor:\n"
        "    cursor.execute('SELECT count(*) FROM pg_prepared_statements')\n"
        "    print(cursor.fetchone()[0], type(cursor.cursor).__name__)\n"
    )
    output = site_process_output(script, DATABASE_URL=os.environ["DATABASE_URL"], DATABASE_PREPARED_STATEMENTS="false")
    count, cursor_class = output.split()
    assert count == "0"
    assert cursor_class != "ServerBindingCursor"
