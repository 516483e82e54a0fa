"""Counts the SQL queries each request runs and reports them in the `X-Bench-Queries` header (and
the change-log appends among them in `X-Bench-Log-Inserts`), and names the server process that
answered in `X-Bench-Worker`."""

import os

from django.db import connection

QUERIES_HEADER = "X-Bench-Queries"
WORKER_HEADER = "X-Bench-Worker"
LOG_INSERTS_HEADER = "X-Bench-Log-Inserts"
LOG_INSERT_PREFIXES = ('INSERT INTO "events_changeentry"', "INSERT INTO events_changeentry")


class QueryCounter:
    def __init__(self):
        self.count = 0
        self.log_inserts = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        self.log_inserts += sql.startswith(LOG_INSERT_PREFIXES)
        return execute(sql, params, many, context)


class QueryCountMiddleware:
    """Works with DEBUG off: an execute wrapper costs far less than Django's debug query log."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        counter = QueryCounter()
        with connection.execute_wrapper(counter):
            response = self.get_response(request)
        response[QUERIES_HEADER] = str(counter.count)
        response[LOG_INSERTS_HEADER] = str(counter.log_inserts)
        response[WORKER_HEADER] = str(os.getpid())
        return response
