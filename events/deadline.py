"""A time budget for every request: past REQUEST_SECONDS it is stopped wherever it is, answered 503, and has written nothing.

Every parser and expander is capped (docs/configuration.md), and each statement by the database's
statement timeout, so in normal operation nothing reaches the budget: it is the last line of
defence. Two things end a request past it:

- the statement check: before each database statement, a comparison of two floats; a request past
  its budget raises RequestTimedOut there, before the statement is sent;
- the watchdog: one thread per process, started on first use, keeps the running requests'
  deadlines in a heap and, when one passes, raises RequestInterrupted (a RequestTimedOut) inside
  the request's thread (events.internals.raise_in_thread), so a loop in Python that runs no SQL is
  stopped too. CPython raises it when the thread next steps through Python bytecode: C code that
  holds on (a long regular expression, a C parser, a statement the database is still running) is
  stopped when it returns, which is why every parser is capped as well.

Either way the exception unwinds the request's atomic blocks, which roll back what they began; the
API answers 503 rest_request_timeout with Retry-After, a public page or calendar file 503.

Why an interruption never lands where it would lie or break something:

1. It is aimed at a watch, not at a thread. Each request has its own watch; the watchdog raises only
   for a watch that has not ended and is still its thread's current one, checked under the
   watchdog's lock. A thread that moved on to its next request (gthread's pool reuses thread ids)
   ended the old watch first, so it is never hit.
2. It stops as soon as the request's work does. The work runs inside `within_budget()`, a plain
   function (not a context manager, whose exit is a fresh call that a pending exception would
   skip), and the first statement of its `finally` marks the watch ended: a store, at which
   CPython delivers nothing, after which the watchdog raises no more. An exception raised before
   it and not delivered yet comes out at the next step, within the `finally`, which is why the
   rest of it, ending the watch for good, runs twice: once is always whole. Ending the watch also
   cancels an exception raised and not yet delivered (`raise_in_thread(…, None)`), so once
   `within_budget()` is left, nothing is pending and nothing can come.
3. A write's commit ends its budget. Before the first commit of a write request (POST, PUT, PATCH,
   DELETE), and before a statement outside a transaction that does more than read (it commits as it
   runs), the watch is ended; had it fired, the commit is refused with RequestTimedOut instead and
   the transaction rolls back. Past its commit a write is answered for what it did: no interruption,
   no statement check, never a 503 for a write that was saved. A read's commits (the rendering
   store's fills) do not end its budget: an interrupted fill is kept or not, and the store is right
   either way.
4. The budget ends where its exception is answered: the router runs the dispatch of the request
   within it, inside the code that turns errors into answers (a public page, inside its view's
   error handling), so the 503 is built after the watch has ended and is never itself interrupted.
5. The connection is not trusted after an interruption: it may have landed in the middle of a
   psycopg call (a statement sent, its result unread) or of Django's transaction bookkeeping (an
   atomic block half exited). Once its watch has fired, the request's connection is closed and
   Django made to open a new one on next use (events.internals.forget_connection); the database
   rolls back whatever the closed one left open.
6. An interruption may be swallowed: by code that catches Exception, or because CPython delivered
   it inside a finalizer (a `__del__`, a weak reference's callback), which ignores it. So until the
   watch ends, the watchdog raises again every INTERRUPT_AGAIN_SECONDS, and the statement check
   refuses every statement.

The statement check and the hook before a commit are installed once on each thread's connection
(events.internals.wrap_every_statement, call_before_each_commit) and read the thread's current
watch; a request arms and ends its watch, and nothing else.
"""

import heapq
import itertools
import os
import threading
import time

from django.db import DEFAULT_DB_ALIAS, OperationalError, connections

from .conf import events_settings
from .internals import call_before_each_commit, forget_connection, raise_in_thread, wrap_every_statement


class RequestTimedOut(OperationalError):
    """The request's time budget ran out. An OperationalError, so that every path treating a
    database fault (503, nothing written) treats this one alike."""


class RequestInterrupted(RequestTimedOut):
    """RequestTimedOut raised by the watchdog inside the request's thread, wherever it was."""

    def __init__(self, *args):
        # CPython makes it without arguments.
        super().__init__(*(args or ("the request ran past its budget and was interrupted",)))


_ENDINGS = ("ROLLBACK", "RELEASE", "SAVEPOINT", "COMMIT")
# Statements outside an atomic block that commit nothing: a read, and SQLite's start of a transaction.
_UNCOMMITTED = ("SELECT", "BEGIN")
# Seconds between the watchdog's interruptions of a request that goes on after one (point 6).
INTERRUPT_AGAIN_SECONDS = 0.1
# The statement check's clock, which tests move; the watchdog keeps real time.
_clock = time.monotonic


class Watch:
    """One request's budget: its deadlines, whether it writes, and whether the watchdog fired
    (`fired`) or may no longer fire (`ended`), which change under the watchdog's lock."""

    __slots__ = ("ended", "fired", "thread_id", "deadline", "statement_deadline", "seconds", "write")

    def __init__(self, seconds, write):
        self.ended = False
        self.fired = False
        self.thread_id = threading.get_ident()
        self.deadline = time.monotonic() + seconds
        self.statement_deadline = _clock() + seconds
        self.seconds = seconds
        self.write = write


class Watchdog:
    """The process's one thread that interrupts the requests past their deadline."""

    def __init__(self):
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._due = []  # (time, order, watch), the earliest first; ended watches leave it lazily
        self._order = itertools.count()
        self._current = {}  # thread id -> the watch of the request the thread is answering
        self._thread = None
        # When the watchdog wakes by itself (None: only when woken). Waking it for each request
        # would hand it the GIL each time; a request's deadline is mostly later than those before.
        self._sleeping_until = None

    def current(self):
        """The watch of the request this thread is answering, or None."""
        return self._current.get(threading.get_ident())

    def watch(self, watch):
        """Watch this thread's request: interrupt it once `watch.deadline` has passed."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="events-request-watchdog", daemon=True)
                self._thread.start()
            self._current[watch.thread_id] = watch
            heapq.heappush(self._due, (watch.deadline, next(self._order), watch))
            if self._sleeping_until is None or watch.deadline < self._sleeping_until:
                self._wake.notify()

    def end(self, watch):
        """Stop `watch` (this thread's) from firing, cancel what it fired and was not delivered
        yet; whether it fired (module docstring, point 2)."""
        with self._lock:
            watch.ended = True
            fired = watch.fired
            # Requests mostly end in the order they began: the heap keeps only the running ones.
            due = self._due
            while due and due[0][2].ended:
                heapq.heappop(due)
        if fired:
            raise_in_thread(watch.thread_id, None)
        return fired

    def release(self, watch):
        """The request of `watch` is answered: its thread may take another."""
        with self._lock:
            if self._current.get(watch.thread_id) is watch:
                del self._current[watch.thread_id]

    def _run(self):
        with self._lock:
            while True:
                now = time.monotonic()
                due = self._due
                while due and due[0][0] <= now:
                    _time, _order, watch = heapq.heappop(due)
                    if watch.ended or self._current.get(watch.thread_id) is not watch:
                        continue
                    watch.fired = True
                    raise_in_thread(watch.thread_id, RequestInterrupted)
                    heapq.heappush(due, (now + INTERRUPT_AGAIN_SECONDS, next(self._order), watch))
                self._sleeping_until = due[0][0] if due else None
                self._wake.wait(due[0][0] - now if due else None)


_watchdog = Watchdog()


def _after_fork_in_child():
    # The parent's watchdog thread does not exist in a forked child, and its lock may be held.
    global _watchdog
    _watchdog = Watchdog()


os.register_at_fork(after_in_child=_after_fork_in_child)


def within_budget(work, write=False):
    """The result of `work()` (a function of no argument), stopped by RequestTimedOut wherever it is
    once it has run REQUEST_SECONDS.

    `write`: the request writes, and its first commit ends the budget (module docstring, point 3).
    Call it where its exception is answered (point 4); within a budget, another is no budget.
    """
    seconds = events_settings.REQUEST_SECONDS
    watchdog = _watchdog
    if not seconds or watchdog.current() is not None:
        return work()
    connection = connections[DEFAULT_DB_ALIAS]
    wrap_every_statement(connection, _check_statement)
    call_before_each_commit(connection, _end_before_commit)
    in_outer_transaction = connection.in_atomic_block
    watch = Watch(seconds, write)
    try:
        watchdog.watch(watch)
        return work()
    finally:
        watch.ended = True
        try:
            _end(watchdog, watch, connection, in_outer_transaction)
        finally:
            _end(watchdog, watch, connection, in_outer_transaction)


def _end(watchdog, watch, connection, in_outer_transaction):
    """End the budget for good; each step does nothing the second time, so a run cut short by the
    one exception still pending (module docstring, point 2) is completed by the next."""
    watchdog.end(watch)
    watchdog.release(watch)
    if watch.fired:
        # A transaction begun before the budget (ATOMIC_REQUESTS) is its own block's to end.
        if in_outer_transaction:
            connection.close()
        else:
            forget_connection(connection)


def _check_statement(execute, sql, params, many, context):
    watch = _watchdog.current()
    if watch is not None and not watch.ended:
        # Ending a transaction or a savepoint is how the work stops: always let it through.
        if _clock() > watch.statement_deadline and not sql.lstrip()[:9].upper().startswith(_ENDINGS):
            raise RequestTimedOut(f"the request ran past its budget of {watch.seconds} s")
        if (
            watch.write
            and not context["connection"].in_atomic_block
            and not sql.lstrip()[:6].upper().startswith(_UNCOMMITTED)
        ):
            _end_before_commit()
    return execute(sql, params, many, context)


def _end_before_commit():
    watch = _watchdog.current()
    if watch is not None and watch.write and not watch.ended and _watchdog.end(watch):
        raise RequestTimedOut(f"the request ran past its budget of {watch.seconds} s before its commit")
