"""The private internals of Django and redis-py behind events.internals: each still where it is read."""
import pytest
from django.core.cache.backends.redis import RedisCache
from django.db import connection, transaction

from events.internals import commit_hooks, redis_backend, redis_loads

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
