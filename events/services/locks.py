"""Serialising writers that could race on something no constraint covers (a slug, a linked record's name)."""

import hashlib

from django.db import connection


def lock_until_commit(*key):
    """Hold a PostgreSQL advisory lock on `key` until the current transaction ends.

    Concurrent writers with the same key run one after the other; each then sees what the previous
    one committed. SQLite already lets one writer in at a time, so there is nothing to do there.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [advisory_key(*key)])


def advisory_key(*key):
    """The PostgreSQL advisory lock number of `key` (parts joined by colons)."""
    digest = hashlib.blake2b(":".join(str(part) for part in key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)
