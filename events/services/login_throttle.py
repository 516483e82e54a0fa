"""Login throttling: after repeated failed sign-ins, an account or a client address is refused for a while.

One throttle for every way in: the API's HTTP Basic (events.api.authentication) and every sign-in
through Django's `authenticate()`, such as the admin's login form (events.backends), count the same
failures and honour the same locks.

Failures are counted in the cache, so every process of a site (sharing Redis) counts the same ones;
an account and an address each have their own counter. When a counter reaches its limit
(LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ADDRESS) the account or the address is locked for
LOGIN_LOCKOUT_SECONDS: every sign-in with a password it names is then refused before the password is
looked at, so a guess costs the server a cache read instead of the password hasher's half second.
A sign-in whose password is checked and right clears its account's count. (Over HTTP Basic, a
password this process verified lately is recalled without the hasher and without the cache: it
neither clears the count nor is refused during a lockout.)

Application passwords are not throttled on the way in: 24 random characters cannot be guessed, and
checking one costs what a lock check costs. Their failures still count.

When the cache fails, sign-ins go on unthrottled (logged): refusing everyone would turn a cache
outage into a site outage.
"""

import hashlib
import logging
import time

from django.core.cache import caches

from ..conf import events_settings
from ..exceptions import TooManyFailedLogins

logger = logging.getLogger(__name__)

_PREFIX = "events:login-throttle"


def client_address(meta):
    """The client's address: REMOTE_ADDR, or behind TRUSTED_PROXIES proxies the address the
    outermost of them saw in X-Forwarded-For (the entries before it are the client's to write)."""
    proxies = events_settings.TRUSTED_PROXIES
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        addresses = [address.strip() for address in forwarded.split(",")]
        return addresses[-min(proxies, len(addresses))]
    return meta.get("REMOTE_ADDR", "")


def _keys(username, address):
    """(count key, lock key, limit) of the account and of the address (None: a sign-in made without
    a request, which has none): a digest keeps any text a client sends out of the cache's key space."""
    account = hashlib.sha256(username.encode("utf-8", "surrogatepass")).hexdigest()
    keys = [
        (
            f"{_PREFIX}:account:{account}",
            f"{_PREFIX}:account-lock:{account}",
            events_settings.LOGIN_FAILURES_PER_ACCOUNT,
        )
    ]
    if address is not None:
        keys.append(
            (
                f"{_PREFIX}:address:{address}",
                f"{_PREFIX}:address-lock:{address}",
                events_settings.LOGIN_FAILURES_PER_ADDRESS,
            )
        )
    return keys


def _cache():
    return caches[events_settings.LOGIN_THROTTLE_CACHE_ALIAS]


def refuse_if_locked(username, address):
    """Raise TooManyFailedLogins if the account or the address is locked now."""
    if not events_settings.LOGIN_LOCKOUT_SECONDS:
        return
    locks = [lock for _count, lock, limit in _keys(username, address) if limit]
    try:
        locked_until = _cache().get_many(locks).values()
    except Exception as error:  # noqa: BLE001 — any cache failure: go on unthrottled
        logger.warning("Login throttling skipped, the cache failed: %s", error)
        return
    if locked_until:
        raise TooManyFailedLogins(max(1, round(max(locked_until) - time.time())))


def record_failure(username, address):
    """Count a failed sign-in against the account and the address; lock what reached its limit."""
    seconds = events_settings.LOGIN_LOCKOUT_SECONDS
    if not seconds:
        return
    try:
        cache = _cache()
        for count_key, lock_key, limit in _keys(username, address):
            if not limit:
                continue
            # add() starts the window; incr() is atomic, so concurrent guesses all count.
            cache.add(count_key, 0, timeout=seconds)
            if cache.incr(count_key) >= limit:
                cache.set(lock_key, time.time() + seconds, timeout=seconds)
                cache.delete(count_key)
    except Exception as error:  # noqa: BLE001
        logger.warning("A failed sign-in was not counted, the cache failed: %s", error)


def record_success(username, address):
    """A successful sign-in ends its account's run of failures."""
    if not events_settings.LOGIN_LOCKOUT_SECONDS:
        return
    try:
        _cache().delete(_keys(username, address)[0][0])
    except Exception as error:  # noqa: BLE001
        logger.warning("A sign-in's failures were not cleared, the cache failed: %s", error)
