"""Settings of the benchmarked site: the production settings plus the floor view, query counting and
the memories switched off (bench/run.py --without-memory)."""

import os

from calendar_site.settings import *  # noqa: F401,F403
from calendar_site.settings import ALLOWED_HOSTS, EVENTS, MIDDLEWARE

DEBUG = False
# The load comes from 127.0.0.1 whatever the deployment's host list says.
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "127.0.0.1"]
ROOT_URLCONF = "bench.urls"
# Outermost, so the count covers every query a request causes, middleware included.
MIDDLEWARE = ["bench.middleware.QueryCountMiddleware", *MIDDLEWARE]
# Names of events.memory memories that always miss, or "all": what each memory buys is the difference.
EVENTS = {
    **EVENTS,
    "FORGETFUL_MEMORIES": [name for name in os.environ.get("EVENTS_FORGETFUL_MEMORIES", "").split(",") if name],
}
