"""A time budget for every API request: past REQUEST_SECONDS, its next database statement ends it with a 503.

Parsing is linear in the body and the body is capped, and each statement is capped by the
database's statement timeout; what is left to bound is a request that runs many statements. The
budget is checked before each statement (a comparison of two floats), so a request past it stops
at its next statement, rolls back what it began, and is answered 503 rest_request_timeout with
Retry-After: a worker is never held much past the budget, and no write is left half done.
"""

import time
from contextlib import contextmanager

from django.db import OperationalError, connection

from ..conf import events_settings


class RequestTimedOut(OperationalError):
    """The request's time budget ran out. An OperationalError, so that every path treating a
    database fault (503, nothing written) treats this one alike."""


_ENDINGS = ("ROLLBACK", "RELEASE", "SAVEPOINT", "COMMIT")
_clock = time.monotonic


@contextmanager
def budget():
    seconds = events_settings.REQUEST_SECONDS
    if not seconds:
        yield
        return
    deadline = _clock() + seconds

    def before_each_statement(execute, sql, params, many, context):
        # Ending a transaction or a savepoint is how the work stops: always let it through.
        if _clock() > deadline and not sql.lstrip()[:9].upper().startswith(_ENDINGS):
            raise RequestTimedOut(f"the request ran past its budget of {seconds} s")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(before_each_statement):
        yield
