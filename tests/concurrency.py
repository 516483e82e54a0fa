"""Concurrent callers for the race tests: each in a thread with its own database connection."""

import threading

from django.db import connection

WAIT_SECONDS = 60


def all_at_once(calls, wait_seconds=WAIT_SECONDS):
    """Run each of `calls` (functions of no argument) in a thread of its own, all released together;
    their results, in the order they finished. An exception in any of them fails the test."""
    start = threading.Barrier(len(calls))
    results, failures = [], []

    def run(call):
        try:
            start.wait(wait_seconds)
            results.append(call())
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(wait_seconds)
    assert failures == []
    assert len(results) == len(calls), "a caller did not finish in time"
    return results
