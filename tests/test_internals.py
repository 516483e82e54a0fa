"""The private internals of Django, DRF and redis-py behind events.internals: each still where it is read."""

import pytest
from django.core.cache.backends.redis import RedisCache
from django.db import connection, transaction
from django.test import RequestFactory
from rest_framework.request import Request

from events.internals import commit_hooks, drf_wrapped_request, redis_backend, redis_loads

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
