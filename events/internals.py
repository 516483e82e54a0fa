"""The private internals of Django, DRF and redis-py the calendar relies on, each behind one function.

Each exists for a measured reason given where it is used; tests/test_internals.py fails as soon as
a new release moves one, so an upgrade finds out in the suite rather than in production.
"""


def redis_backend(cache):
    """The redis-py side of Django's RedisCache: what hands out its client and (de)serialises values.

    Django keeps it as `RedisCache._cache` (a `RedisCacheClient` with `get_client()` and
    `_serializer`); there is no public way to reach the client it pools connections with.
    """
    return cache._cache


def redis_loads(backend, value):
    """A value stored by Django's RedisCache, as `cache.get()` would return it."""
    return backend._serializer.loads(value)


def commit_hooks(connection):
    """The callables registered with `transaction.on_commit` on `connection` and not run yet.

    Django keeps them as `(savepoint ids, callable, robust)` triples in `connection.run_on_commit`;
    there is no public way to ask whether a hook is already waiting for this transaction's commit.
    """
    return [hook for _savepoints, hook, _robust in connection.run_on_commit]


def drf_wrapped_request(request):
    """The Django HttpRequest that DRF's `Request` wraps.

    DRF keeps it as `Request._request` and names it nowhere else: its own authentication reads the
    Django request's user and CSRF state through that attribute, and so must the API's.
    """
    return request._request


def drf_request_as(request, user):
    """A DRF `Request` wrapping `request` (an HttpRequest) that is already authenticated as `user`.

    What a caller may do is asked of DRF permissions, which take a DRF request. The public `user`
    setter would also overwrite the Django request's own `user`, so the result is set where DRF
    keeps it (`_user`, `_auth`), leaving the request being answered untouched.
    """
    from rest_framework.request import Request

    drf_request = Request(request)
    drf_request._user = user
    drf_request._auth = None
    return drf_request


def copy_rows(cursor, statement, rows):
    """Send `rows` (sequences of values) through psycopg's COPY `statement` (… FROM STDIN).

    Django has no COPY; psycopg's `Cursor.copy()` is reached through the wrapped DB-API cursor,
    `CursorWrapper.cursor`. Django's execute wrappers do not see the statement.
    """
    with cursor.cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
