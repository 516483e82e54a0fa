"""gunicorn's settings for serving the site in production (docs/deployment.md).

gunicorn reads this file from its working directory: `gunicorn calendar_site.wsgi`. The environment
chooses the address and the sizes; the rest is what the calendar needs.
"""

import gc
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Threads share a process's memories (docs/architecture-memories.md) and wait on the database
# without holding the CPU; one process per core uses the cores.
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 2))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# Each worker listens on a socket of its own on the same port, and the kernel deals new connections
# out among them by a hash of the client's address and port. With one shared socket, the worker
# idling in its poll wins every accept: a proxy filling its keep-alive pool, or eight HTTP/1.1
# clients, landed on one process for as long as they kept their connections, while the other
# cores idled (half the throughput on two cores, bench/README.md "Keep-alive spread"). A cap on
# connections per worker (`worker_connections`) was measured and refused: once the capped workers
# hold idle keep-alive connections, a new client waits for one of them to time out (75 s).
# A worker that stops drops the connections still queued on its socket; gunicorn replaces workers
# only when told to or when one dies (no max_requests).
reuse_port = True

# An idle keep-alive connection stays open longer than any client or load balancer keeps one to
# reuse it. gunicorn's default (2 s) is shorter than Node's fetch (4 s) and most balancers (60 s):
# a client then sends its next request on a socket the server has just closed, and fails without
# the server ever seeing the request. Behind a balancer, keep this above the balancer's idle timeout.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "75"))

# A request the database does not answer is ended by its statement timeout (DATABASE_STATEMENT_TIMEOUT,
# 30 s), a request busy past REQUEST_SECONDS (20 s) by the calendar's watchdog, each with a 503; this
# only ends a worker that stopped answering its arbiter altogether (a gthread worker's busy thread never does).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30

# Behind a proxy on another host, name it so that X-Forwarded-Proto and X-Forwarded-For are believed.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn's control socket lives at one path per user by default, so a second instance on the
# same host (another site, or a second node in a test) would take over the first one's. Off unless
# GUNICORN_CONTROL_SOCKET names this instance's own path.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "")
control_socket_disable = not control_socket

# "-" writes the access log to standard output; an empty value turns it off.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None


def post_worker_init(worker):
    """Everything the worker loaded lives as long as it does: frozen out of the garbage collector's
    way, a full collection (which a request making thousands of objects, such as a series of
    occurrences, sets off) walks only what requests made, not the whole application each time."""
    gc.freeze()
