"""An optional shared cache of anonymous API reads, emptied in effect by every calendar write.

Off unless `EVENTS["READ_CACHE_SECONDS"]` is above 0. When on, a GET or HEAD sent without
credentials is answered from the cache if the same URL (scheme, host, path with its language
prefix, query string) was answered with 200 less than that many seconds ago and nothing in the
calendar has been written since. Every save or delete of an event, venue, organizer, term or image,
and every change of an event's links, replaces the calendar version stored with each entry, so a
write shows at once in every process that shares the cache. What changes with time alone (the
default date window moving on, a scheduled event going live) shows within READ_CACHE_SECONDS.

The cache must be shared by all the site's processes (Redis, Memcached, the database cache) as soon
as more than one serves requests: a per-process cache would miss the other processes' writes.
"""
import hashlib
import uuid

from django.conf import settings
from django.core import checks
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpResponse
from django.utils import translation

from .. import changes
from ..conf import events_settings

VERSION_KEY = "events:read-cache:version"
# Query parameters whose effect is applied after the cached part of the response is produced.
UNCACHED_PARAMS = ("_fields", "_envelope", "_jsonp")
# Response headers the dispatcher adds per request; they are never stored.
PER_REQUEST_HEADERS = {"link", "allow", "vary", "x-content-type-options", "x-robots-tag", "content-length"}


def enabled():
    return events_settings.READ_CACHE_SECONDS > 0


def _cache():
    return caches[events_settings.READ_CACHE_ALIAS]


def is_cacheable(request):
    """Anonymous reads only: what a signed-in caller sees depends on their role."""
    return (
        enabled()
        and request.method in ("GET", "HEAD")
        and "HTTP_AUTHORIZATION" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and not any(name in request.GET for name in UNCACHED_PARAMS)
    )


def _key(request):
    url = f"{request.scheme}://{request.get_host()}{request.get_full_path()}|{translation.get_language()}"
    return f"events:read-cache:{hashlib.sha256(url.encode()).hexdigest()}"


def fetch(request):
    """The cached response to this request, or None.

    The calendar version and the entry are read in one round trip; an entry stored under another
    version is a miss. The version is read before the view reads the database, so rows read before
    a write commits are always stored under the version that write replaces.
    """
    cache = _cache()
    key = _key(request)
    found = _get_many(cache, [VERSION_KEY, key])
    version = found.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, uuid.uuid4().hex, None)
        version = cache.get(VERSION_KEY)
    request.read_cache_entry = (key, version)
    stored = found.get(key)
    if stored is None or stored[0] != version:
        return None
    _version, status, content, headers = stored
    response = HttpResponse(content, status=status)
    for name, value in headers:
        response[name] = value
    return response


# One Redis client per process and cache: Django's RedisCache builds a new client object for every
# operation, which costs more than the round trip it makes (the client's pool is thread-safe).
_redis_clients = {}


def _get_many(cache, keys):
    """`cache.get_many(keys)`, reusing one Redis client when the cache is Django's RedisCache."""
    if not isinstance(cache, RedisCache):
        return cache.get_many(keys)
    backend = cache._cache
    client = _redis_clients.get(id(backend))
    if client is None:
        client = _redis_clients[id(backend)] = backend.get_client(None)
    values = client.mget([cache.make_and_validate_key(key) for key in keys])
    return {key: backend._serializer.loads(value) for key, value in zip(keys, values) if value is not None}


def store(request, response):
    """Keep a successful response of a request `fetch` missed."""
    entry = getattr(request, "read_cache_entry", None)
    if entry is None or response.status_code != 200 or response.has_header("Set-Cookie"):
        return
    key, version = entry
    headers = [(name, value) for name, value in response.items() if name.lower() not in PER_REQUEST_HEADERS]
    _cache().set(key, (version, response.status_code, response.content, headers), events_settings.READ_CACHE_SECONDS)


def invalidate(**kwargs):
    """Start a new calendar version: every stored read becomes a miss (and expires by itself).

    Replaced at once, for the writer's own next read, and again after the commit, because a reader
    between the two could have stored the old rows under the first new version.
    """
    if not enabled():
        return

    def new_version():
        _cache().set(VERSION_KEY, uuid.uuid4().hex, None)

    new_version()
    transaction.on_commit(new_version)


def connect_invalidation():
    """Invalidate on every write of the calendar's records and of event-term links (from `ready`).

    Bulk writes send no model signal: queryset updates and the services' bulk link writes announce
    themselves (events.changes). Link tables are left out so that deleting them stays a single SQL
    statement.
    """
    from ..models import Attachment, Category, Event, Organizer, Tag, Term, Venue

    for model in (Event, Venue, Organizer, Term, Category, Tag, Attachment):
        post_save.connect(invalidate, sender=model, dispatch_uid=f"events.read_cache.save.{model.__name__}")
        post_delete.connect(invalidate, sender=model, dispatch_uid=f"events.read_cache.delete.{model.__name__}")
    m2m_changed.connect(invalidate, sender=Event.terms.through, dispatch_uid="events.read_cache.terms")
    changes.records_changed.connect(invalidate, dispatch_uid="events.read_cache.changed")


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
