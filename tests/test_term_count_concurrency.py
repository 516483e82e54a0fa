"""Two writers linking events to one term at once on PostgreSQL: the later recount sees the earlier's link."""

import threading
import time

import pytest
from django.db import connection, transaction

from .conftest import API
from .factories import make_event, make_tag

pytestmark = pytest.mark.django_db(transaction=True)

# Bounds on waiting for the other thread; the test asserts states, never durations.
WAIT_SECONDS = 30


def waiting_on_a_lock():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def in_thread(target, errors):
    def run():
        try:
            target()
        except Exception as error:  # noqa: BLE001 - reported by the test's assertion
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_concurrent_links_to_one_term_are_both_counted(api, on_postgres):
    if not on_postgres:
        pytest.skip("SQLite lets one writer at a time in: there is no interleaving to test")
    tag = make_tag("Contended")
    first, second = make_event(), make_event()
    first_recounted, first_may_commit = threading.Event(), threading.Event()
    errors = []

    def first_writer():
        with transaction.atomic():
            first.terms.add(tag)
            first_recounted.set()
            first_may_commit.wait(WAIT_SECONDS)

    def second_writer():
        with transaction.atomic():
            second.terms.add(tag)

    threads = [in_thread(first_writer, errors)]
    assert first_recounted.wait(WAIT_SECONDS)
    threads.append(in_thread(second_writer, errors))
    # The second writer's recount waits for the first writer's lock on the term row.
    for _ in range(WAIT_SECONDS * 20):
        if waiting_on_a_lock() or not threads[1].is_alive():
            break
        time.sleep(0.05)
    assert waiting_on_a_lock() == 1
    first_may_commit.set()
    for thread in threads:
        thread.join(WAIT_SECONDS)
    assert errors == []
    assert api.get(f"{API}/tags/{tag.pk}").json()["count"] == 2
