"""An optional shared cache of anonymous API reads, emptied in effect by every calendar write.

Off unless `EVENTS["READ_CACHE_SECONDS"]` is above 0 (docs/decisions.md, "Caching API reads"). Every
write replaces the calendar version stored with each entry (events.read_cache_version, a step of
events.pipeline), so it shows at once in every process that shares the cache, which must therefore
be shared by all the site's processes (Redis).
"""

import hashlib
import logging
import os
import threading
import uuid

from django.conf import settings
from django.core import checks
from django.core.cache.backends.redis import RedisCache
from django.http import HttpResponse
from django.utils import translation

from ..conf import events_settings
from ..internals import redis_backend, redis_connection_pool, redis_loads
from ..memory import ALWAYS, memory
from ..read_cache_version import VERSION_KEY, enabled
from ..read_cache_version import read_cache as _cache
from . import conditional
from .context import api_context

try:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError
except ImportError:  # redis is needed only by a site whose cache is Redis
    RedisConnectionError = RedisTimeoutError = OSError

logger = logging.getLogger("events.read_cache")

# Query parameters whose effect is applied after the cached part of the response is produced.
UNCACHED_PARAMS = ("_fields", "_envelope", "_jsonp")
# An entry is the answer as the dispatcher finished it (WordPress headers, ETag, Vary, Cache-Control),
# which the URL alone decides for an anonymous caller. Only the CORS headers depend on the request:
# they are added after the entry is stored or read. The length is the server's business.
UNSTORED_HEADERS = {"content-length"}
# Part of every entry's key: entries an older release stored in another shape are never read.
ENTRY_FORMAT = 3
# What each memory holds, under what key and why it cannot answer stale: docs/architecture-memories.md.
_bodies = memory("read-cache-bodies", max_entries=4096, max_bytes=32 * 1024 * 1024)


def is_cacheable(request):
    """Anonymous reads only: what a signed-in caller sees depends on their role."""
    return (
        enabled()
        and request.method in ("GET", "HEAD")
        and "HTTP_AUTHORIZATION" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and not _names_uncached_param(request)
    )


def _names_uncached_param(request):
    # The query string is parsed only if it could hold one: a hit needs nothing else of it.
    query = request.META.get("QUERY_STRING", "")
    return any(name in query for name in UNCACHED_PARAMS) and any(name in request.GET for name in UNCACHED_PARAMS)


def _key(request):
    """The URL as sent (path and query string undecoded) and the language."""
    url = f"{request.scheme}://{request.get_host()}{request.path}?{request.META.get('QUERY_STRING', '')}|{translation.get_language()}"
    return f"events:read-cache:{ENTRY_FORMAT}:{hashlib.sha256(url.encode()).hexdigest()}"


def _body_key(key, etag):
    return f"{key}:body:{etag}"


def fetch(request):
    """The cached response to this request, or None.

    The calendar version and the entry's head (version, status, headers) are read in one round
    trip; an entry stored under another version is a miss. The body is stored apart, under its
    ETag, and read only when this process does not hold it already. The version is read before
    the view reads the database, so rows read before a write commits are always stored under the
    version that write replaces.
    """
    cache = _cache()
    key = _key(request)
    try:
        found = _get_many(cache, [VERSION_KEY, key])
        version = found.get(VERSION_KEY)
        if version is None:
            cache.add(VERSION_KEY, uuid.uuid4().hex, None)
            version = cache.get(VERSION_KEY)
    except Exception:  # noqa: BLE001 - the cache only saves work: when it fails, the read goes on without it
        logger.warning("The read cache could not be read; answering without it.", exc_info=True)
        return None
    api_context(request).read_cache_entry = (key, version)
    stored = found.get(key)
    if stored is None or stored[0] != version:
        return None
    _version, status, headers = stored
    etag = headers["ETag"]
    if conditional.matches(request.META.get("HTTP_IF_NONE_MATCH"), etag):
        return conditional.not_modified(headers)
    content = _bodies.recall((key, etag), ALWAYS)
    if content is None:
        try:
            content = _get_many(cache, [_body_key(key, etag)]).get(_body_key(key, etag))
        except Exception:  # noqa: BLE001 - see above
            logger.warning("The read cache could not be read; answering without it.", exc_info=True)
            return None
        if content is None:  # expired since its head was read
            return None
        _bodies.remember((key, etag), ALWAYS, content)
    return HttpResponse(content, status=status, headers=headers)


def _get_many(cache, keys):
    """`cache.get_many(keys)`, in one Redis round trip on a connection this thread keeps.

    Every hit makes this one call, and the way through Django's and redis-py's layers (a client
    made per call, the pool's checkout and release, retries) costs more than the round trip itself.
    Measured in one process against a local Redis, two keys (docs/architecture-memories.md): Django's
    `get_many` 310–370 µs, redis-py's `mget` 150 µs, a connection held per thread 50–75 µs.
    """
    if not isinstance(cache, RedisCache):
        return cache.get_many(keys)
    backend = redis_backend(cache)
    # The keys are this module's own (a fixed prefix and a hex digest): nothing to validate.
    values = _mget(backend, [cache.make_key(key) for key in keys])
    return {key: redis_loads(backend, value) for key, value in zip(keys, values) if value is not None}


_held = threading.local()


def _mget(backend, names):
    held = _held.__dict__.setdefault("connections", {})
    kept = held.get(id(backend))
    if kept is None or kept[0] is not backend or kept[1] != os.getpid():
        # A fork (a preloading server) must not share the parent's socket.
        kept = held[id(backend)] = (backend, os.getpid(), redis_connection_pool(backend).get_connection())
    connection = kept[2]
    try:
        connection.send_command("MGET", *names)
        return connection.read_response()
    except (RedisConnectionError, RedisTimeoutError, OSError):
        # Redis restarted, or the connection idled out: connect again once.
        connection.disconnect()
        connection.send_command("MGET", *names)
        return connection.read_response()


def store(request, response):
    """Keep a successful, finished response of a request `fetch` missed."""
    entry = api_context(request).read_cache_entry
    if entry is None or response.status_code != 200 or response.has_header("Set-Cookie"):
        return
    key, version = entry
    headers = {name: value for name, value in response.items() if name.lower() not in UNSTORED_HEADERS}
    etag = headers.get("ETag")
    if etag is None:
        return
    entry = {key: (version, response.status_code, headers), _body_key(key, etag): response.content}
    try:
        _cache().set_many(entry, events_settings.READ_CACHE_SECONDS)
    except Exception:  # noqa: BLE001 - see fetch
        logger.warning("The read cache could not store an answer.", exc_info=True)
        return
    _bodies.remember((key, etag), ALWAYS, response.content)


@checks.register(checks.Tags.caches)
def check_shared_cache(app_configs=None, **kwargs):
    """Warn when reads would be cached per process, where other processes' writes cannot reach them."""
    if not enabled():
        return []
    backend = settings.CACHES.get(events_settings.READ_CACHE_ALIAS, {}).get("BACKEND", "")
    if backend.endswith(("LocMemCache", "DummyCache")):
        return [
            checks.Warning(
                f"EVENTS['READ_CACHE_SECONDS'] is on but the {events_settings.READ_CACHE_ALIAS!r} cache is {backend}.",
                hint="Use a cache shared by every process (Redis, Memcached, database) when more than one serves requests.",
                id="events.W001",
            )
        ]
    return []
