"""The private internals of Django, DRF, redis-py and CPython behind events.internals: each still where it is read."""

import threading

import pytest
from django.core.cache.backends.redis import RedisCache
from django.db import connection, connections, transaction
from django.test import RequestFactory
from rest_framework.request import Request

from events.internals import (
    atomic_block_open,
    commit_hooks,
    drf_wrapped_request,
    forget_prefetched,
    open_savepoints,
    redis_backend,
    redis_loads,
    transaction_block,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_redis_backend_hands_out_pooled_clients_and_reads_what_django_stored():
    cache = RedisCache("redis://127.0.0.1:1/0", {})
    backend = redis_backend(cache)
    # What the read cache's one-round-trip lookup takes from it (no connection is made here).
    assert callable(backend.get_client)
    assert redis_loads(backend, backend._serializer.dumps({"a": [1, 2]})) == {"a": [1, 2]}
    # Integers are stored as plain digits by Django's serializer, and must come back as integers.
    assert redis_loads(backend, backend._serializer.dumps(7)) == 7


def test_commit_hooks_lists_the_hooks_waiting_for_this_transaction_only():
    def hook():
        pass

    with transaction.atomic():
        assert hook not in commit_hooks(connection)
        transaction.on_commit(hook)
        assert commit_hooks(connection).count(hook) == 1
    assert hook not in commit_hooks(connection)
    with transaction.atomic():
        assert hook not in commit_hooks(connection)


def test_the_transaction_s_own_block_is_told_from_a_test_case_s_and_its_savepoints_are_read():
    from django.test import TestCase

    assert transaction_block(connection) is None and open_savepoints(connection) == ()
    # What Django's TestCase opens around a test (marked `_from_testcase`) is never the writer's block.
    test_blocks = TestCase._enter_atomics()
    try:
        assert transaction_block(connection) is None
        with transaction.atomic():
            block = transaction_block(connection)
            assert block is connection.atomic_blocks[-1] and atomic_block_open(connection, block)
            with transaction.atomic():
                assert transaction_block(connection) is block
                assert len(open_savepoints(connection)) == 2
                with transaction.atomic(savepoint=False):
                    assert len(open_savepoints(connection)) == 2
        assert not atomic_block_open(connection, block)
    finally:
        TestCase._rollback_atomics(test_blocks)
    with transaction.atomic():
        assert transaction_block(connection) is connection.atomic_blocks[0] and open_savepoints(connection) == ()


def test_drf_s_request_keeps_the_django_request_it_wraps():
    http_request = RequestFactory().get("/")
    assert drf_wrapped_request(Request(http_request)) is http_request


def test_a_drf_request_can_be_made_for_another_user_without_touching_the_django_request(rf):
    from django.contrib.auth.models import AnonymousUser

    from events.internals import drf_request_as

    http_request = rf.get("/")
    http_request.user = AnonymousUser()
    editor = object()
    drf_request = drf_request_as(http_request, editor)
    assert drf_request.user is editor and drf_request.auth is None
    assert isinstance(http_request.user, AnonymousUser)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="COPY is PostgreSQL's")
def test_a_django_cursor_reaches_psycopg_s_copy():
    from events.internals import copy_rows

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE copied (word text, number bigint) ON COMMIT DROP")
        copy_rows(cursor, "COPY copied (word, number) FROM STDIN", [["tab\there", 1], ['"quoted"\n', None]])
        cursor.execute("SELECT word, number FROM copied ORDER BY word")
        assert cursor.fetchall() == [('"quoted"\n', None), ("tab\there", 1)]


class Stop(Exception):
    pass


def test_an_exception_raised_in_another_thread_stops_its_python_loop():
    from events.internals import raise_in_thread

    outcome, running = [], threading.Event()

    def loop():
        running.set()
        try:
            while True:
                pass
        except Stop:
            outcome.append("stopped")

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    running.wait()
    assert raise_in_thread(thread.ident, Stop) == 1
    thread.join(10)
    assert outcome == ["stopped"]


def test_an_exception_raised_in_another_thread_can_be_cancelled_before_it_is_delivered():
    from events.internals import raise_in_thread

    outcome, waiting, go_on = [], threading.Event(), threading.Event()

    def wait_in_c():
        waiting.set()
        try:
            go_on.wait()  # a lock held in C code: nothing is delivered until it returns
            outcome.append("went on")
        except Stop:
            outcome.append("stopped")

    thread = threading.Thread(target=wait_in_c, daemon=True)
    thread.start()
    waiting.wait()
    assert raise_in_thread(thread.ident, Stop) == 1
    assert raise_in_thread(thread.ident, None) == 1
    go_on.set()
    thread.join(10)
    assert outcome == ["went on"]


def test_an_exception_for_a_thread_that_is_gone_reaches_nothing():
    from events.internals import raise_in_thread

    thread = threading.Thread(target=lambda: None)
    thread.start()
    thread.join()
    assert raise_in_thread(thread.ident, Stop) == 0


def test_the_hook_before_each_commit_runs_in_the_transaction_and_may_prevent_its_commit():
    from django.contrib.auth.models import Group
    from django.db import DatabaseError

    from events.internals import call_before_each_commit

    calls, refusing = [], []

    def hook():
        calls.append(Group.objects.filter(name="kept").exists())
        if refusing:
            raise DatabaseError("refused")

    try:
        call_before_each_commit(connections["default"], hook)
        call_before_each_commit(connections["default"], hook)  # once is enough
        with transaction.atomic():
            Group.objects.create(name="kept")
            with transaction.atomic():  # a savepoint's release is no commit
                Group.objects.create(name="inner")
        assert calls == [True]  # once, in the transaction, before its commit
        refusing.append(True)
        with pytest.raises(DatabaseError), transaction.atomic():
            Group.objects.create(name="refused")
    finally:
        del connections["default"].commit
    written = Group.objects.filter(name__in=["kept", "inner", "refused"])
    assert sorted(written.values_list("name", flat=True)) == ["inner", "kept"]
    assert not connection.in_atomic_block


def test_a_wrapper_of_every_statement_runs_first_and_outlives_the_blocks_of_other_wrappers():
    from events.internals import wrap_every_statement

    seen = []

    def every(execute, sql, params, many, context):
        seen.append("every")
        return execute(sql, params, many, context)

    def block(execute, sql, params, many, context):
        seen.append("block")
        return execute(sql, params, many, context)

    wrappers = connections["default"].execute_wrappers
    try:
        with connection.execute_wrapper(block):
            wrap_every_statement(connections["default"], every)
            wrap_every_statement(connections["default"], every)
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        assert seen == ["every", "block"]
        assert wrappers.count(every) == 1 and block not in wrappers
    finally:
        wrappers.remove(every)


@pytest.mark.postgres
def test_a_forgotten_connection_is_replaced_whatever_django_believes_of_its_transaction():
    """An in-memory SQLite database is never closed (it would be lost), hence PostgreSQL only."""
    from events.internals import forget_connection
    from events.models import Tag

    block = transaction.atomic()
    block.__enter__()  # a block never exited, as an exception within Django's bookkeeping may leave one
    Tag.objects.create(name="abandoned", slug="abandoned")
    forget_connection(connection)
    assert not Tag.objects.filter(slug="abandoned").exists()
    assert not connection.in_atomic_block and connection.get_autocommit()
    with transaction.atomic():
        Tag.objects.create(name="written", slug="written")
    assert Tag.objects.filter(slug="written").exists()


def test_django_s_model_backend_takes_the_rights_it_is_handed_and_reads_no_others(django_assert_num_queries):
    from events.internals import keep_model_backend_rights, model_backend_rights_known

    from .factories import make_user

    user = make_user("author")
    fresh = type(user).objects.get(pk=user.pk)
    assert not model_backend_rights_known(fresh)
    keep_model_backend_rights(fresh, {"events.handed_in"})
    assert model_backend_rights_known(fresh)
    with django_assert_num_queries(0):
        assert fresh.has_perm("events.handed_in")
        assert not fresh.has_perm("events.add_event")
    # And what ModelBackend reads itself is where the calendar looks for it.
    other = type(user).objects.get(pk=user.pk)
    other.has_perm("events.add_event")
    assert model_backend_rights_known(other)


def test_the_redis_backend_reads_through_a_redis_py_pool_of_its_own_location():
    import redis

    from events.internals import redis_connection_pool

    pool = redis_connection_pool(redis_backend(RedisCache("redis://127.0.0.1:1/3", {})))
    # What the read cache's held connection is taken from (no connection is made here).
    assert isinstance(pool, redis.ConnectionPool)
    assert (pool.connection_kwargs["port"], pool.connection_kwargs["db"]) == (1, 3)


@pytest.mark.django_db
def test_forgetting_what_was_prefetched_makes_the_related_manager_read_again(django_assert_num_queries):
    from events.models import Event

    from .factories import make_category, make_event

    event = make_event("Prefetched")
    loaded = Event.objects.prefetch_related("terms").get(pk=event.pk)
    with django_assert_num_queries(0):
        assert list(loaded.terms.all()) == []
    event.terms.add(make_category("Jazz"))
    forget_prefetched(loaded)
    with django_assert_num_queries(1):
        assert [term.name for term in loaded.terms.all()] == ["Jazz"]
