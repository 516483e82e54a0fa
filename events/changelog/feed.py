"""Reading the change log in order: the cursor a reader keeps, and the entries after it.

A cursor is the position of the last entry a reader was given and a time no later than that of
any entry after it (the last entry's time while more follow, the time of reading once caught up),
written as one opaque word; entries are removed by age, so the cursor lives as long as they do. Entries become visible in position order (recording.py), so the entries
after a cursor are all a reader has not seen. A cursor older than the retention may point before
entries already removed: it is refused rather than answered with a gap.
"""

import base64
import binascii
import datetime as dt
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connections, router
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from ..conf import events_settings
from ..exceptions import CursorExpired, InvalidValue
from ..models import ChangeEntry, ChangeKind, Event, Organizer, Venue

# Entries are removed a little later than cursors expire: an entry committed just after a reader
# was given a cursor may carry a time slightly before the cursor's own.
REMOVAL_GRACE = dt.timedelta(hours=1)
# A reader that has caught up is given the time of reading to the hour below: its `next` stays the
# same while nothing is written, so the answer keeps its ETag and a follower asking "anything new?"
# with If-None-Match gets 304; its cursor expires at most an hour sooner.
CAUGHT_UP_CLOCK_SECONDS = 3600


@dataclass(frozen=True)
class Cursor:
    position: int
    # Unix seconds: no entry after `position` is older.
    given_at: int

    def __str__(self):
        return base64.urlsafe_b64encode(f"{self.position}.{self.given_at}".encode()).decode().rstrip("=")

    @classmethod
    def parse(cls, text):
        """The cursor written as `text`; InvalidValue("since") for a word that is not one of ours."""
        try:
            decoded = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("ascii")
            position, given_at = decoded.split(".")
            if not (position.isdigit() and given_at.isdigit()):
                raise ValueError(decoded)
            return cls(int(position), int(given_at))
        except (ValueError, binascii.Error, UnicodeError):
            raise InvalidValue("since", _("since is not a cursor of this changes feed.")) from None


def retention():
    return dt.timedelta(days=events_settings.CHANGES_RETENTION_DAYS)


class Entry(NamedTuple):
    """An entry of the log, with what the read rules look at of the event, venue or organizer it is
    about: its status, author and password, all None for a term or a record that no longer exists."""

    pk: int
    kind: str
    record_id: int
    action: str
    time: dt.datetime
    languages: str
    status: str | None
    author_id: int | None
    password: str | None


# The kinds of records the read rules judge by their columns, and their tables.
RECORD_TABLES = {ChangeKind.EVENT: Event, ChangeKind.VENUE: Venue, ChangeKind.ORGANIZER: Organizer}


def entries_after(cursor, count):
    """([Entry], next Cursor): up to `count` entries after `cursor` (None: from the oldest kept), in
    position order. Raises CursorExpired for a cursor older than the retention."""
    now = timezone.now()
    if cursor is not None and cursor.given_at < (now - retention()).timestamp():
        raise CursorExpired()
    after = cursor.position if cursor is not None else 0
    entries = _read_entries(after, count)
    if len(entries) == count:
        # More may follow, written since the last one given: they are kept as long as it is.
        return entries, Cursor(entries[-1].pk, int(entries[-1].time.timestamp()))
    # Caught up: whatever comes next is written from now on.
    read_at = int(now.timestamp()) // CAUGHT_UP_CLOCK_SECONDS * CAUGHT_UP_CLOCK_SECONDS
    return entries, Cursor(entries[-1].pk if entries else after, read_at)


def _read_entries(after, count):
    """[Entry] in one plain statement, each record's columns joined on its primary key: model
    instances of a page's entries and records would cost several times what the database does."""
    connection = connections[router.db_for_read(ChangeEntry)]
    quote = connection.ops.quote_name
    aliases = {kind: f"r{number}" for number, kind in enumerate(RECORD_TABLES)}
    joins = " ".join(
        f"LEFT JOIN {quote(model._meta.db_table)} {aliases[kind]} "
        f"ON c.kind = '{kind}' AND {aliases[kind]}.{quote(model._meta.pk.column)} = c.record_id"
        for kind, model in RECORD_TABLES.items()
    )
    # At most one of the joined records exists: its columns are the first that are not NULL.
    facts = ", ".join(
        f"COALESCE({', '.join(f'{alias}.{quote(column)}' for alias in aliases.values())})"
        for column in ("status", "author_id", "password")
    )
    sql = (
        f"SELECT c.id, c.kind, c.record_id, c.action, c.time, c.languages, {facts} "
        f"FROM {quote(ChangeEntry._meta.db_table)} c {joins} WHERE c.id > %s ORDER BY c.id LIMIT %s"
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            from psycopg.types.datetime import TimestamptzLoader  # the driver, only where it is used

            # psycopg's own loader, compiled, rather than the one Django registers for the ORM (which
            # only sets the connection's zone, in Python): 0.5 ms of every page of 100 entries.
            cursor.cursor.adapters.register_loader("timestamptz", TimestamptzLoader)
        cursor.execute(sql, [after, count])
        return [Entry(*row[:4], _utc(row[4], connection), *row[5:]) for row in cursor.fetchall()]


def _utc(value, connection):
    """A time read without the ORM, in UTC: SQLite gives it as it stores it, in the connection's
    zone without saying so; PostgreSQL in the session's zone."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, connection.timezone)
    return value.astimezone(dt.UTC)


def remove_expired(now=None):
    """Delete the entries no valid cursor can still need; returns how many went."""
    now = now or timezone.now()
    deleted, _by_model = ChangeEntry.objects.filter(time__lt=now - retention() - REMOVAL_GRACE).delete()
    return deleted
