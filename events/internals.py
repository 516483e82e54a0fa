"""The private internals of Django, DRF, redis-py and CPython the calendar relies on, each behind one function.

Each exists for a measured reason given where it is used; tests/test_internals.py fails as soon as
a new release moves one, so an upgrade finds out in the suite rather than in production.
"""

import ctypes


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


def raise_in_thread(thread_id, exception_type):
    """Raise `exception_type` in the thread `thread_id` at its next step through Python bytecode;
    with None, cancel one raised there and not delivered yet. Returns how many threads it reached
    (0: no such thread).

    CPython's `PyThreadState_SetAsyncExc` is the only way to stop another thread where it is:
    signals reach the main thread only, and a server answers requests in others. It is a C API
    function with no Python binding, reached through ctypes. The exception (a class, instantiated
    without arguments) waits while the thread runs C code, a long regular expression or a wait on
    the database, and is raised when that code returns to Python (events/deadline.py).
    """
    exception = None if exception_type is None else ctypes.py_object(exception_type)
    reached = ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), exception)
    if reached > 1:
        # What CPython's documentation asks of a caller that reached more than one thread state.
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), None)
        raise SystemError(f"an exception meant for thread {thread_id} reached {reached} threads")
    return reached


def call_before_each_commit(connection, hook):
    """From now on, call `hook()` before each commit of a transaction on `connection` (a
    DatabaseWrapper); a hook that raises a DatabaseError prevents the commit, and the atomic block
    rolls back. Calling it again with the same hook changes nothing.

    Django sends nothing before a commit (`transaction.on_commit` runs after it), but every commit it
    makes, the outermost atomic block's as `transaction.commit()`, calls the connection's `commit()`
    method: it is replaced on the connection object.
    """
    if getattr(connection.__dict__.get("commit"), "hook", None) is hook:
        return
    committing = connection.commit

    def commit():
        hook()
        return committing()

    commit.hook = hook
    connection.commit = commit


def wrap_every_statement(connection, wrapper):
    """From now on, run every statement of `connection` (a DatabaseWrapper) through `wrapper` (as
    `connection.execute_wrapper()` takes it), before any other wrapper. Calling it again with the
    same wrapper changes nothing.

    Django's `execute_wrapper()` installs one for the duration of a block, and takes it off by
    popping the last of `connection.execute_wrappers`; the first of that list runs first. One that
    stays for the connection's life is put first, so the blocks' own still come off in order.
    """
    if wrapper not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, wrapper)


def forget_connection(connection):
    """Close `connection` (a DatabaseWrapper), so that its next use opens a new one, whatever Django
    believes of its transaction.

    Django's `close()` keeps the object of a connection it believes is inside an atomic block, for
    that block to end, and every later use then fails on the closed connection. The outermost
    block's `Atomic.__exit__` ends it by setting `in_atomic_block` to False and `connection` to
    None: the next use connects afresh, and `connect()` resets the rest of the transaction
    bookkeeping (savepoint ids, atomic blocks, `needs_rollback`). An in-memory SQLite database,
    which closing would destroy, stays open, as Django's own `close()` leaves it.
    """
    connection.close()
    if connection.closed_in_transaction:
        connection.in_atomic_block = False
        connection.connection = None


# --- Django's ModelBackend ------------------------------------------------------------------------


def model_backend_rights_known(user):
    """Whether Django's ModelBackend already holds `user`'s rights for this request."""
    return hasattr(user, "_perm_cache")


def keep_model_backend_rights(user, rights):
    """Give Django's ModelBackend `rights` ("app_label.codename" texts: the user's own permissions
    and their groups') as the ones it would read for `user`, for as long as the object lives.

    ModelBackend reads them in two statements on the first `has_perm()` of a request and keeps the
    set as `_perm_cache` on the user object; there is no public way to hand it a set read otherwise.
    events.roles reads the same set in the statement that authenticates a signed request, so a
    signed read saves a round trip and the ORM's compilation of two statements.
    """
    user._perm_cache = rights


# --- Django's RedisCache --------------------------------------------------------------------------


def redis_connection_pool(backend):
    """The redis-py connection pool that `backend` (redis_backend()) reads through.

    Django's `RedisCacheClient.get_client()` builds a redis-py client on that pool for each call,
    choosing a replica for reads; the read cache takes a connection from the pool once per thread
    and keeps it, which makes a hit's lookup several times faster (events/api/read_cache.py).
    """
    return backend.get_client(None).connection_pool


def transaction_block(connection):
    """The outermost atomic block on `connection` that is not a test case's: the block whose exit
    commits the running transaction (None outside one).

    Django keeps the open blocks in `connection.atomic_blocks` and marks those its TestCase opens
    around each test with `Atomic._from_testcase` (which it reads itself for `durable`); there is no
    public way to tell which block's end is the commit.
    """
    return next((block for block in connection.atomic_blocks if not getattr(block, "_from_testcase", False)), None)


def atomic_block_open(connection, block):
    """Whether `block` (from transaction_block) is still open on `connection`: in `atomic_blocks`."""
    return block is not None and any(open_block is block for open_block in connection.atomic_blocks)


def open_savepoints(connection):
    """The savepoints open on `connection`, outermost first, as a tuple: they name the savepoint
    level a write is made at. Django keeps them as `connection.savepoint_ids`, with None for a block
    opened with `savepoint=False` (which has no savepoint of its own to roll back to); it has no
    public way to read them."""
    return tuple(savepoint for savepoint in connection.savepoint_ids if savepoint is not None)


def forget_prefetched(instance):
    """Drop what `prefetch_related()` cached on `instance` (a model instance), so that its related
    managers read again, as `refresh_from_db()` does.

    Django keeps those results in `instance._prefetched_objects_cache`, a dict by relation name,
    and names no public way to empty it short of `refresh_from_db()`, which reads the row again:
    a series write has just read it under its lock (events/services/recurrence.py, take_turn).
    """
    instance._prefetched_objects_cache = {}
