"""The calendar version that the API's optional read cache stores with each answer: every write
replaces it, so an answer stored before the write is a miss in every process sharing the cache
(docs/decisions.md, "Caching API reads"; events.api.read_cache fetches and stores the answers)."""

import logging
import uuid

from django.core.cache import caches
from django.db import transaction

from .conf import events_settings
from .exceptions import ReadCacheUnavailable
from .internals import commit_hooks

logger = logging.getLogger("events.read_cache")

VERSION_KEY = "events:read-cache:version"


def enabled():
    return events_settings.READ_CACHE_SECONDS > 0


def read_cache():
    return caches[events_settings.READ_CACHE_ALIAS]


def retire_cached_reads(using):
    """Start a new calendar version: every stored read becomes a miss (and expires by itself).

    Replaced at once, for the writer's own next read, and again after the commit, because a reader
    between the two could have stored the old rows under the first new version; the one after the
    commit is registered once per transaction. A cache that cannot take the new version refuses
    the write (ReadCacheUnavailable): written anyway, the change would hide behind answers cached
    before it.
    """
    if not enabled():
        return
    try:
        _new_version()
    except Exception as error:  # noqa: BLE001 - whatever the cache raises, the write must not go on
        logger.warning("The read cache could not take a new version; the write is refused.", exc_info=True)
        raise ReadCacheUnavailable from error
    # After the commit nothing can be undone: a failure there is logged, and the version replaced
    # before the commit already retires what was cached before the write.
    connection = transaction.get_connection(using)
    if not any(hook is _new_version for hook in commit_hooks(connection)):
        transaction.on_commit(_new_version, using=using, robust=True)


def _new_version():
    read_cache().set(VERSION_KEY, uuid.uuid4().hex, None)
