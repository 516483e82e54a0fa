"""Event list totals remembered per PostgreSQL snapshot: counted once, exact after every commit."""
import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from events.api.pagination import snapshot_totals

from .conftest import API, post_json
from .factories import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 30


def listed_total(api, **query):
    with CaptureQueriesContext(connection) as queries:
        response = api.get(f"{API}/events", query)
    assert response.status_code == 200
    counted = any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    return response.json()["total"], int(response["X-TEC-Total"]), counted


@pytest.fixture(autouse=True)
def fresh_totals():
    snapshot_totals.clear()


def remembered_on_a_quiet_moment(api, **query):
    """Whether a list read right after another is answered from memory.

    Any transaction ending anywhere on the server (another database's included: the test suite's
    other worker) gives the next statement a new snapshot, so a pair of reads may straddle one; a
    few pairs find a quiet moment.
    """
    for _ in range(ATTEMPTS):
        listed_total(api, **query)
        if not listed_total(api, **query)[2]:
            return True
    return False


ATTEMPTS = 30


def test_a_total_is_remembered_until_something_commits(api, editor):
    for _ in range(3):
        make_event()
    assert listed_total(api)[:2] == (3, 3)
    assert remembered_on_a_quiet_moment(api)
    assert remembered_on_a_quiet_moment(api, per_page=2)  # the page size does not change the total
    assert listed_total(api, featured="true")[:2] == (0, 0)
    created = post_json(editor, "/events", {"title": "New", "start_date": "tomorrow 10:00", "end_date": "tomorrow 11:00", "status": "publish"})
    assert created.status_code == 201
    # The commit gave the next statement a new snapshot: counted again, and exact.
    assert listed_total(api) == (4, 4, True)
    assert remembered_on_a_quiet_moment(api)


def test_a_new_list_query_is_counted(api):
    make_event()
    listed_total(api)
    assert listed_total(api, featured="true") == (0, 0, True)


def test_a_write_still_open_elsewhere_is_not_counted_and_is_once_committed(api):
    make_event()
    assert listed_total(api)[0] == 1
    written, may_commit, errors = threading.Event(), threading.Event(), []

    def other_process_writes():
        try:
            with transaction.atomic():
                make_event("Elsewhere")
                written.set()
                may_commit.wait(WAIT_SECONDS)
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    writer = threading.Thread(target=other_process_writes)
    writer.start()
    assert written.wait(WAIT_SECONDS)
    assert listed_total(api)[0] == 1
    may_commit.set()
    writer.join(WAIT_SECONDS)
    assert errors == []
    assert listed_total(api)[0] == 2


def test_requests_that_miss_together_count_once(api):
    """After a commit every request of a list misses at once; one counts and the others wait for it."""
    for _ in range(3):
        make_event()
    readers = 4

    def counts_when_all_miss_together():
        snapshot_totals.clear()
        # A reader about to count waits (briefly) for the others to be about to count too: without
        # a single count per process they all get there, with it only one ever does.
        about_to_count = threading.Barrier(readers, timeout=0.5)
        counted, answers = [], []

        def meet_before_counting(execute, sql, params, many, context):
            if "COUNT(" in sql.upper():
                try:
                    about_to_count.wait()
                except threading.BrokenBarrierError:
                    pass
            return execute(sql, params, many, context)

        def read():
            try:
                with connection.execute_wrapper(meet_before_counting):
                    total, header, was_counted = listed_total(api)
                answers.append((total, header))
                counted.append(was_counted)
            finally:
                connection.close()

        threads = [threading.Thread(target=read) for _ in range(readers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT_SECONDS)
        assert answers == [(3, 3)] * readers
        return sum(counted)

    # A commit elsewhere between two readers' statements gives them different snapshots (and two counts).
    assert any(counts_when_all_miss_together() == 1 for _ in range(ATTEMPTS // 3))
