"""Django's PostgreSQL backend with a health check that costs no round trip on a sound connection.

`CONN_HEALTH_CHECKS` makes Django test a kept connection before each request uses it, with a
`SELECT 1`: a round trip on every request, about a tenth of a stored single read's time. A server
that ends a session (a restart, a failover, `pg_terminate_backend`, an idle-session timeout) sends
its notice and closes the socket, which then polls readable; a sound idle connection has nothing to
read. So only a connection with something to read pays for the full check.
"""

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self):
        connection = self.connection
        if connection is None or connection.closed:
            return False
        poller = select.poll()
        try:
            poller.register(connection.fileno(), select.POLLIN)
        except (OSError, ValueError):
            return False
        if poller.poll(0):
            return super().is_usable()
        return True
