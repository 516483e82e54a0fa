"""Benchmark: seed a calendar, serve it with gunicorn, drive it with concurrent clients, print figures.

    python bench/run.py [--events 10000] [--database-url URL] [--duration 5] [--concurrency 1,8]
                        [--workers 2] [--reuse] [--endpoints NAME,...] [--explain] [--json FILE]
                        [--without-memory NAME,...|all]

See bench/README.md for what each column means and the figures measured.
"""

import argparse
import base64
import datetime as dt
import http.client
import itertools
import json
import math
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_MODULE = "bench.settings"
HOST = "127.0.0.1"
FLOOR = "floor"
# Seconds of floor measured just before each row (at most --duration).
FLOOR_CHECK_SECONDS = 2.0
QUERIES_HEADER = "X-Bench-Queries"
WORKER_HEADER = "X-Bench-Worker"
# Connections a client opens at most to land on a server process with room (ConnectionSpread).
MAX_CONNECT_ATTEMPTS = 50
# Databases the benchmark must never seed nor empty: the test suite's and the maintenance ones.
PROTECTED_DATABASES = {"test", "postgres", "template0", "template1"}
# Generous, so that a slow endpoint is measured as slow rather than cut off.
REQUEST_TIMEOUT = 120
READY_TIMEOUT = 60
# Bounds on every client loop, whatever the duration: a runaway loop stops here.
MAX_REQUESTS_PER_CLIENT = 1_000_000
MAX_ERRORS_PER_CLIENT = 100
SAMPLE_EVENT_IDS = 200
# Reads of each list page before its warm query count is taken (list_query_counts).
WARM_READS = 4
# The signed rows' users and their login password; their application passwords are new each run.
BENCH_READER, BENCH_WRITER = "bench-subscriber", "bench-editor"
BENCH_PASSWORD = "bench-login-password"
APP_PASSWORD, LOGIN_PASSWORD = "app password", "login password"
LOG_INSERTS_HEADER = "X-Bench-Log-Inserts"
# The write rows' series: daily for two years, the issue's measure of a bulk write.
SERIES_RULE = "FREQ=DAILY;COUNT=730"
SMALL_SERIES_RULE = "FREQ=DAILY;COUNT=10"
# Entries of the changes-feed row's pages, measured against a v1 list page of 50 records.
CHANGES_PER_PAGE = 100
# Different pages the walking rows read, one after the other (the feed's, and the v1 list's).
WALKED_PAGES = 200
# Search rows (bench/README.md, "Search"): words of the seeded calendar, found by an index on PostgreSQL.
SEARCHES = {
    "events?search=jazz": ("", "jazz"),
    'events?search="evening jazz"': ("", '"evening jazz"'),
    "events?search=爵 [zh-hans]": ("/zh-hans", "爵"),
    "events?search=爵士 [zh-hans]": ("/zh-hans", "爵士"),
    # Two letters, too few for a trigram: a pair most texts hold, and one none holds.
    "events?search=ja": ("", "ja"),
    "events?search=qz": ("", "qz"),
}
# A word no event holds, a different one each request, as a loop of random words sends them.
MISSED_WORDS = 200
# Two letters no event holds (the seeded texts have no Q), a different pair each request: no trigram.
MISSED_PAIRS = [f"q{character}" for character in "abcdefghijklmnoprstvwxyz0123456789"]

# Run as a script, Python puts bench/ itself first on the path; the project root is what imports need.
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)


# --- command line and database ---------------------------------------------------------------


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000, help="events to seed (default 10000)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL"),
        help="default: $DATABASE_URL, else a fresh SQLite file in a temporary folder",
    )
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per measurement (default 5)")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of unmeasured load per endpoint (default 1)")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="do not read each path once before the warm-up: measure records not in the rendering store yet",
    )
    parser.add_argument("--concurrency", default="1,8", help="client counts, comma-separated (default 1,8)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers (default: CPU count)"
    )
    parser.add_argument("--worker-class", default="gthread", choices=["gthread", "sync"], help="gunicorn worker class")
    parser.add_argument("--threads", type=int, default=4, help="threads per gthread worker (default 4)")
    parser.add_argument("--reuse", action="store_true", help="keep the calendar already in the database, if any")
    parser.add_argument(
        "--series-share",
        type=float,
        default=0.0,
        metavar="FRACTION",
        help="when seeding, this share of the events are occurrences of weekly series (default 0)",
    )
    parser.add_argument("--endpoints", default="", help="measure only these endpoint names (comma-separated)")
    parser.add_argument("--explain", action="store_true", help="print each endpoint's SQL with timings and plans")
    parser.add_argument("--json", dest="json_path", help="also write the figures to this JSON file")
    parser.add_argument(
        "--background-writes",
        action="store_true",
        help="while measuring, an editor updates two events and one venue per second through the API",
    )
    parser.add_argument(
        "--read-cache",
        type=int,
        default=0,
        metavar="SECONDS",
        help="serve anonymous reads from the shared read cache for this long (default 0: off)",
    )
    parser.add_argument(
        "--without-memory",
        default="",
        metavar="NAME[,NAME]",
        help="the server's process memories that always miss (names of events.memory, or all), to measure what each buys",
    )
    parser.add_argument(
        "--keep-alive-spread",
        type=int,
        default=0,
        metavar="RUNS",
        help="instead of the table: RUNS measurements of the chosen endpoints at the largest --concurrency, each "
        "with new keep-alive connections left where the server puts them, with each worker's share of the requests",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="the shared cache used with --read-cache (default: $REDIS_URL, else redis://127.0.0.1:6379/0)",
    )
    parser.add_argument(
        "--import-feed",
        type=int,
        default=0,
        metavar="N",
        help="also import an iCalendar feed of N events (drafts) twice and compare each event's cost with POST events",
    )
    args = parser.parse_args(argv)
    try:
        args.concurrency = sorted({int(c) for c in args.concurrency.split(",") if c.strip()})
    except ValueError:
        parser.error("--concurrency takes integers, e.g. 1,8")
    if not args.concurrency or min(args.concurrency) < 1:
        parser.error("--concurrency needs positive integers")
    if args.events < 1 or args.duration <= 0 or args.workers < 1 or args.threads < 1:
        parser.error("--events, --duration, --workers and --threads must be positive")
    if args.keep_alive_spread < 0:
        parser.error("--keep-alive-spread takes a number of runs")
    if not 0 <= args.series_share < 1:
        parser.error("--series-share is a fraction from 0 up to, not including, 1")
    args.without_memory = [name.strip() for name in args.without_memory.split(",") if name.strip()]
    return args


def resolve_database_url(url):
    """The URL to use, and the temporary folder created for a fresh SQLite file (or None)."""
    if url:
        return url, None
    folder = tempfile.mkdtemp(prefix="calendar-bench-")
    return f"sqlite:///{Path(folder) / 'bench.sqlite3'}", folder


def check_database(config):
    name = str(config.get("NAME") or "")
    if "postgresql" in config["ENGINE"] and (name in PROTECTED_DATABASES or name.startswith("test_")):
        sys.exit(f"Refusing to seed the database {name!r}: use a database of its own, e.g. .../bench_db")


def ensure_postgres_database(config):
    """Create the benchmark database on first use, through the `postgres` maintenance database."""
    import psycopg
    from psycopg import sql

    options = {
        "dbname": "postgres",
        "host": config.get("HOST") or None,
        "port": config.get("PORT") or None,
        "user": config.get("USER") or None,
        "password": config.get("PASSWORD") or None,
    }
    with psycopg.connect(**{k: v for k, v in options.items() if v}, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [config["NAME"]]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(config["NAME"])))
            print(f"created database {config['NAME']}")


def memory_names():
    """The name of every memory the app makes (events.memory), once all its modules are imported."""
    import importlib
    import pkgutil

    import events
    from events.memory import MEMORIES

    for module in pkgutil.walk_packages(events.__path__, "events."):
        if ".migrations" not in module.name:
            importlib.import_module(module.name)
    return sorted(MEMORIES)


def check_memory_names(names):
    unknown = set(names) - {"all", *memory_names()}
    if unknown:
        sys.exit(f"unknown memories {sorted(unknown)}; known: {', '.join(memory_names())} (or all)")


def setup_django(database_url):
    import dj_database_url

    config = dj_database_url.parse(database_url)
    check_database(config)
    if "postgresql" in config["ENGINE"]:
        ensure_postgres_database(config)
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS_MODULE
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# --- data ------------------------------------------------------------------------------------


@dataclass
class Calendar:
    events: int
    venues: int
    organizers: int
    categories: int
    tags: int
    published_listed: int
    event_ids: list
    venue_ids: list
    category_slug: str
    start_date: str
    series: int = 0
    occurrences: int = 0
    # Positions of the change log the changes-feed row reads after, spread over the whole log.
    change_positions: list = field(default_factory=list)
    # The log's last position before the run wrote anything.
    log_end: int = 0


def prepare_calendar(n_events, reuse, series_share):
    from django.core.management import call_command
    from django.db import connection

    from bench import seed
    from events.models import ChangeEntry, Event

    call_command("migrate", verbosity=0, interactive=False)
    existing = Event.objects.count()
    if reuse and existing:
        print(
            f"reusing the {existing:,} events already seeded"
            + ("" if existing == n_events else f" (asked for {n_events:,})")
        )
    else:
        if existing:
            print(f"emptying the calendar ({existing:,} events)")
            seed.wipe_calendar()
        started = time.perf_counter()

        interactive = sys.stdout.isatty()

        def progress(done, total):
            if interactive:
                print(f"\r  seeded {done:,}/{total:,} events", end="", flush=True)
            elif done == total or done % 25_000 == 0:
                print(f"  seeded {done:,}/{total:,} events", flush=True)

        series = seed.series_count(n_events, series_share)
        # Each series turns one seeded event into SERIES_LENGTH occurrences.
        summary = seed.seed_calendar(n_events - series * (seed.SERIES_LENGTH - 1), progress=progress)
        if interactive:
            print()
        print(f"seeded in {time.perf_counter() - started:.1f} s: {asdict(summary)}")
        seed.seed_change_log()
        if series:
            started = time.perf_counter()
            seed.seed_series(series)
            print(f"made {series:,} series of {seed.SERIES_LENGTH} in {time.perf_counter() - started:.1f} s")
    if not ChangeEntry.objects.exists():
        # A calendar seeded before the change log existed.
        seed.seed_change_log()
    if connection.vendor == "postgresql":
        seed.vacuum_analyze()
    return describe_calendar()


def last_log_position():
    """The position of the change log's last entry (0 when it is empty)."""
    from events.models import ChangeEntry

    return ChangeEntry.objects.order_by("-id").values_list("id", flat=True).first() or 0


def describe_calendar():
    from events.models import Category, Event, Organizer, PostStatus, Series, Tag, Venue

    last_change = last_log_position()
    listed = Event.objects.filter(status=PostStatus.PUBLISH, hide_from_listings=False, password="")
    ids = list(listed.filter(venue__isnull=False).order_by("id").values_list("id", flat=True))
    step = max(1, len(ids) // SAMPLE_EVENT_IDS)
    busiest = Category.objects.filter(children__isnull=True).order_by("-count", "id").first()
    return Calendar(
        events=Event.objects.count(),
        venues=Venue.objects.count(),
        organizers=Organizer.objects.count(),
        categories=Category.objects.count(),
        tags=Tag.objects.count(),
        published_listed=listed.count(),
        event_ids=ids[::step][:SAMPLE_EVENT_IDS] or list(Event.objects.values_list("id", flat=True)[:1]),
        venue_ids=list(
            Venue.objects.filter(status=PostStatus.PUBLISH).order_by("id").values_list("id", flat=True)[:50]
        ),
        category_slug=busiest.slug if busiest else "",
        start_date=(dt.date.today() + dt.timedelta(days=30)).isoformat(),
        series=Series.objects.count(),
        occurrences=Event.objects.filter(series__isnull=False).count(),
        change_positions=list(range(0, last_change, max(1, last_change // WALKED_PAGES)))[:WALKED_PAGES],
        log_end=last_change,
    )


@dataclass
class Load:
    """What one endpoint's clients send: the paths they cycle through, headers, and a body maker."""

    paths: list
    headers: dict = field(default_factory=dict)
    method: str = "GET"
    # body(n) → bytes of the n-th request of a client (writes need distinct records).
    body: object = None
    # Revalidating rows: each path is sent with If-None-Match: the ETag its first answer carried.
    revalidate: bool = False
    path_headers: dict = field(default_factory=dict)
    # Series writes: the same write on a series of 10 rather than 730 (write_query_counts).
    small_series: object = None

    @property
    def anonymous(self):
        return not self.headers and self.method == "GET"


def signers():
    """HTTP Basic headers of the signed rows: {row label: (reader's headers, writer's headers)}.

    The reader is a subscriber, who sees exactly what an anonymous client sees, so a signed read
    differs from the anonymous one only by what authentication costs; the writer is an editor.
    Login passwords go through the site's real password hasher (PBKDF2 at Django's default
    iterations), as in production.
    """
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from events.models import ApplicationPassword
    from events.services import credentials

    headers = {APP_PASSWORD: [], LOGIN_PASSWORD: []}
    for username, role in ((BENCH_READER, "subscriber"), (BENCH_WRITER, "editor")):
        call_command(
            "events_user", username, "--role", role, "--password", BENCH_PASSWORD, stdout=open(os.devnull, "w")
        )
        user = get_user_model().objects.get(username=username)
        ApplicationPassword.objects.filter(user=user).delete()
        secret = credentials.issue_application_password(ApplicationPassword(user=user, name="bench"))
        headers[APP_PASSWORD].append({"Authorization": basic_header(username, secret)})
        headers[LOGIN_PASSWORD].append({"Authorization": basic_header(username, BENCH_PASSWORD)})
    return {label: tuple(pair) for label, pair in headers.items()}


def basic_header(username, password):
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def new_event_body(n, recurrence=None):
    # Drafts: creating them leaves the lists measured in the same run as they were.
    day = dt.date.today() + dt.timedelta(days=400 + n % 300)
    body = {
        "title": f"Bench event {n}",
        "status": "draft",
        "start_date": f"{day} 10:00:00",
        "end_date": f"{day} 12:00:00",
    }
    if recurrence:
        body["recurrence"] = {"rules": [recurrence]}
    return json.dumps(body).encode()


def new_series_body(n):
    return new_event_body(n, SERIES_RULE)


def new_title_body(n, scope=None):
    return json.dumps({"title": f"Bench title {n}", **({"recurrence_scope": scope} if scope else {})}).encode()


def new_series_title_body(n):
    return new_title_body(n, "all")


def import_feed_text(n):
    """An iCalendar feed of `n` events over the year after next, each what a `POST events` row
    sends (a title, a start and an end) and a description, so that the two rows compare the same
    writes."""
    first_day = dt.date(dt.date.today().year + 2, 1, 1)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//import//EN", "X-WR-TIMEZONE:Europe/Berlin"]
    for number in range(n):
        day = first_day + dt.timedelta(days=number % 365)
        lines += [
            "BEGIN:VEVENT",
            f"UID:bench-{number}@feed.example",
            f"DTSTART;TZID=Europe/Berlin:{day:%Y%m%d}T{10 + number % 8:02d}0000",
            f"DTEND;TZID=Europe/Berlin:{day:%Y%m%d}T{11 + number % 8:02d}3000",
            f"SUMMARY:Imported event {number}",
            f"DESCRIPTION:Description of imported event {number}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"


def measure_import(n):
    """Seconds of a first import of a feed of `n` events, then of the same feed again (all
    unchanged), written as drafts by the bench's editor (removed with the other bench writes)."""
    from django.contrib.auth import get_user_model

    from events.imports.run import run_source
    from events.models import ImportSource

    path = Path(tempfile.gettempdir()) / f"calendar-bench-feed-{os.getpid()}.ics"
    path.write_text(import_feed_text(n))
    editor = get_user_model().objects.get(username=BENCH_WRITER)
    source = ImportSource.objects.create(path=str(path), status="draft", owner=editor, interval_minutes=0)
    try:
        timings = []
        for _attempt in range(2):
            started = time.perf_counter()
            run = run_source(source, conditional=False)
            timings.append((time.perf_counter() - started, run))
    finally:
        source.delete()
        path.unlink(missing_ok=True)
    return timings


def print_import(n, timings, measurements):
    (first, first_run), (again, again_run) = timings
    create = next(
        (m for m in measurements if m.endpoint == f"POST events [{APP_PASSWORD}]" and m.concurrency == 1), None
    )
    print()
    print(f"{'import (iCalendar feed)':<42} {'events':>7} {'seconds':>8} {'ms/event':>9} {'vs POST events p50':>19}")
    for label, seconds, run in (("first import", first, first_run), ("again, unchanged", again, again_run)):
        per_event = seconds * 1000 / n
        ratio = f"{per_event / create.p50_ms * 100:.0f}%" if create and create.p50_ms else "-"
        print(f"{label:<42} {n:>7} {seconds:>8.1f} {per_event:>9.2f} {ratio:>19}")
        if run.failure or run.errors:
            print(f"  (the run reported: {run.failure or run.messages[:3]})")


def remove_bench_writes(log_end):
    """Delete what the bench's editor wrote (the write rows' drafts and series) and every change-log
    entry after `log_end` (those writes' and their deletion's), so that the next `--reuse` run reads
    the calendar and the log that were seeded: else the changes-feed row would read pages of
    tombstones of the write rows' series, which cost a fraction of a page of events."""
    from events.models import ChangeEntry, Event

    removed, _ = Event.objects.filter(author__username=BENCH_WRITER).delete()
    ChangeEntry.objects.filter(pk__gt=log_end).delete()
    return removed


def bench_drafts():
    """A draft event and a draft daily series of two years, written by the bench's editor, whose
    titles the write rows change: {"event": id, "series": id}."""
    from django.contrib.auth import get_user_model

    from events.services.events import create_event

    editor = get_user_model().objects.get(username=BENCH_WRITER)
    made = {}
    for name, rule in (("event", None), ("series", SERIES_RULE), ("small series", SMALL_SERIES_RULE)):
        made[name] = create_event(editor, json.loads(new_event_body(0, rule))).pk
    return made


def endpoints_for(calendar, signed):
    """Endpoint name → the load its clients send. Writes come last, so reads see the seeded calendar."""
    from events.conf import events_settings

    api = f"/wp-json/{events_settings.namespace}"
    # Many IDs rather than one, so the figure is not one hot row's.
    single_paths = [f"{api}/events/{event_id}" for event_id in calendar.event_ids]
    # Written before any row is measured, whatever the order of the rows: drafts no anonymous read shows.
    drafts = bench_drafts()
    endpoints = {
        FLOOR: Load(["/bench/floor"]),
        "events?per_page=10": Load([f"{api}/events?per_page=10"]),
        "events?per_page=50": Load([f"{api}/events?per_page=50"]),
        "events/{id}": Load(single_paths),
        "events?categories=X&start_date=Y": Load(
            [f"{api}/events?{urlencode({'categories': calendar.category_slug, 'start_date': calendar.start_date})}"]
        ),
        "venues?per_page=50": Load([f"{api}/venues?per_page=50"]),
        "organizers?per_page=50": Load([f"{api}/organizers?per_page=50"]),
        "categories?per_page=50": Load([f"{api}/categories?per_page=50"]),
    }
    for name, (prefix, words) in SEARCHES.items():
        endpoints[name] = Load([f"{prefix}{api}/events?{urlencode({'search': words})}"])
    endpoints["events?search=<miss>"] = Load(
        [f"{api}/events?{urlencode({'search': f'qzxv{n:04d}'})}" for n in range(MISSED_WORDS)]
    )
    endpoints["events?search=<two-letter miss>"] = Load(
        [f"{api}/events?{urlencode({'search': pair})}" for pair in MISSED_PAIRS]
    )
    for credential, (reader, _writer) in signed.items():
        endpoints[f"events/{{id}} [{credential}]"] = Load(single_paths, reader)
        endpoints[f"events?per_page=10 [{credential}]"] = Load([f"{api}/events?per_page=10"], reader)
    # A sync client asking "anything new?": the 304 must cost far less than the answer itself.
    endpoints["events?per_page=10 [If-None-Match]"] = Load([f"{api}/events?per_page=10"], revalidate=True)
    endpoints["events/{id} [If-None-Match]"] = Load(single_paths, revalidate=True)
    endpoints[f"changes?per_page={CHANGES_PER_PAGE}"] = Load(changes_paths(calendar))
    # A follower that has caught up asks "anything new?" with the cursor it was given last: after
    # the entries of the drafts written above (else each request would read 100 of them, left out).
    endpoints[f"changes?per_page={CHANGES_PER_PAGE} [caught up]"] = Load(changes_paths(calendar, [last_log_position()]))
    # A v1 client walking the whole list, as the feed row walks the log: a different page each time
    # (each read once only with the page memories off: bench/README.md, "What it does").
    endpoints[f"events?per_page=50&page=1…{WALKED_PAGES}"] = Load(
        [f"{api}/events?per_page=50&page={page}" for page in range(1, WALKED_PAGES + 1)]
    )
    for credential, (_reader, writer) in signed.items():
        endpoints[f"POST events [{credential}]"] = Load(
            [f"{api}/events"], {**writer, "Content-Type": "application/json"}, "POST", new_event_body
        )
    # Series writes, against one event's: the same editor, application password.
    writer = {**signed[APP_PASSWORD][1], "Content-Type": "application/json"}
    endpoints["POST events [series of 730]"] = Load(
        [f"{api}/events"],
        writer,
        "POST",
        new_series_body,
        small_series=([f"{api}/events"], lambda n: new_event_body(n, SMALL_SERIES_RULE)),
    )
    endpoints["PATCH events/{id} [title]"] = Load([f"{api}/events/{drafts['event']}"], writer, "PATCH", new_title_body)
    endpoints["PATCH events/{id} [title of series of 730]"] = Load(
        [f"{api}/events/{drafts['series']}"],
        writer,
        "PATCH",
        new_series_title_body,
        small_series=([f"{api}/events/{drafts['small series']}"], new_series_title_body),
    )
    return endpoints


def changes_paths(calendar, positions=None):
    """Pages of the changes feed after `positions` (by default spread over the log), each with a
    fresh cursor."""
    from events.changelog.feed import Cursor

    now = int(time.time())
    namespace = "/wp-json/events-calendar/v1"
    return [
        f"{namespace}/changes?{urlencode({'per_page': CHANGES_PER_PAGE, 'since': str(Cursor(position, now))})}"
        for position in positions or calendar.change_positions or [0]
    ]


# --- server ----------------------------------------------------------------------------------


def free_port():
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn serving the bench settings on a free local port, as a child process."""

    def __init__(self, database_url, workers, worker_class, threads, log_path):
        self.port = free_port()
        self.log_path = log_path
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "calendar_site.wsgi:application",
            "--bind",
            f"{HOST}:{self.port}",
            "--worker-class",
            worker_class,
            "--chdir",
            str(ROOT),
            "--log-level",
            "warning",
            "--timeout",
            str(REQUEST_TIMEOUT),
        ]
        # The sizes go through the environment gunicorn.conf.py reads (docs/deployment.md), so that
        # the settings it derives from them (connections per worker) follow as in production.
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE,
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "WEB_CONCURRENCY": str(workers),
            "GUNICORN_THREADS": str(threads if worker_class == "gthread" else 1),
        }
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self):
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                status, _, _ = fetch(self.port, "/bench/floor")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn not ready after {READY_TIMEOUT} s:\n{self.log_tail()}")

    def log_tail(self, lines=30):
        self.log.flush()
        return "\n".join(Path(self.log_path).read_text(errors="replace").splitlines()[-lines:])

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()


def fetch(port, path, headers=None, etag=None):
    """One GET on a new connection: (status, queries header, body), or its ETag when `etag` is set."""
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        conn.request("GET", path, headers={"Accept": "application/json", **(headers or {})})
        response = conn.getresponse()
        body = response.read()
        if etag:
            return response.getheader("ETag")
        return response.status, response.getheader(QUERIES_HEADER), body
    finally:
        conn.close()


# --- load ------------------------------------------------------------------------------------


@dataclass
class ClientTally:
    latencies: list = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    queries: Counter = field(default_factory=Counter)
    # Requests answered per server process (X-Bench-Worker).
    workers: Counter = field(default_factory=Counter)
    closed: int = 0
    errors: int = 0
    started: float = 0.0
    finished: float = 0.0


@dataclass
class Measurement:
    endpoint: str
    concurrency: int
    requests: int
    errors: int
    seconds: float
    statuses: dict
    queries: dict
    p50_ms: float
    p99_ms: float
    # The floor measured just before this row at the same concurrency (FLOOR_CHECK_SECONDS long).
    adjacent_floor_rps: float = None
    floor_ratio: float = None
    # Signed rows: req/s as a share of the same anonymous endpoint's at the same concurrency.
    anonymous_ratio: float = None
    # Requests answered, and clients' connections held, per server process.
    workers: dict = field(default_factory=dict)
    connections: dict = field(default_factory=dict)
    # Answers after which the server closed the connection.
    closed: int = 0

    @property
    def rps(self):
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def status_label(self):
        label = "/".join(str(code) for code, _ in sorted(self.statuses.items(), key=lambda kv: -kv[1]))
        if self.errors:
            label = f"{label}+{self.errors}err" if label else f"{self.errors}err"
        return label or "-"

    @property
    def queries_label(self):
        if not self.queries:
            return "-"
        low, high = min(self.queries), max(self.queries)
        return str(low) if low == high else f"{low}-{high}"


def percentile(sorted_values, fraction):
    if not sorted_values:
        return math.nan
    index = min(len(sorted_values) - 1, max(0, math.ceil(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


class ConnectionSpread:
    """Spreads a measurement's keep-alive connections evenly over the server's worker processes.

    A worker keeps each connection it accepted, and which one accepts a new connection is a race:
    eight clients could land six on one worker and two on the other, and a row's throughput at
    eight clients then swung by a fifth between runs (the floor's too, measured apart). Each
    client asks the floor which process answered it, and connects again while that process
    already holds its share.
    """

    def __init__(self, port, concurrency, workers):
        self.port = port
        self.share = math.ceil(concurrency / max(workers, 1))
        self.held = Counter()
        self.lock = threading.Lock()

    def connect(self):
        for _attempt in range(MAX_CONNECT_ATTEMPTS):
            conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
            try:
                conn.request("GET", "/bench/floor")
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                continue
            worker = response.getheader(WORKER_HEADER)
            with self.lock:
                if worker is None or self.held[worker] < self.share:
                    self.held[worker] += 1
                    return conn
            conn.close()
        # Past the attempts, an uneven spread rather than no client.
        return http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)


def client_loop(port, load, slot, stride, duration, barrier, tally, spread):
    """One keep-alive client: requests back to back until the duration is spent."""
    paths = load.paths
    headers = {"Accept": "application/json", **load.headers}
    conn = spread.connect()
    barrier.wait()
    tally.started = time.perf_counter()
    deadline = tally.started + duration
    index = slot
    while len(tally.latencies) < MAX_REQUESTS_PER_CLIENT:
        sent = time.perf_counter()
        if sent >= deadline:
            break
        path = paths[index % len(paths)]
        body = load.body(next(BODY_NUMBERS)) if load.body else None
        index += stride
        try:
            conn.request(load.method, path, body=body, headers={**headers, **load.path_headers.get(path, {})})
            response = conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            tally.errors += 1
            if tally.errors >= MAX_ERRORS_PER_CLIENT:
                break
            continue
        tally.latencies.append(time.perf_counter() - sent)
        tally.statuses[response.status] += 1
        tally.workers[response.getheader(WORKER_HEADER)] += 1
        # The server ended the connection after this answer: the client connects again.
        tally.closed += response.will_close
        queries = response.getheader(QUERIES_HEADER)
        if queries is not None and queries.isdigit():
            tally.queries[int(queries)] += 1
    tally.finished = time.perf_counter()
    conn.close()


class ServerPlacement:
    """Connections left where the server's processes accepted them, as any HTTP client leaves them:
    what `--keep-alive-spread` measures (the other rows place theirs with ConnectionSpread)."""

    def __init__(self, port):
        self.port = port

    def connect(self):
        return http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)


# Numbers of the write bodies, unique across clients and runs of one process.
BODY_NUMBERS = itertools.count(int(time.time()))


def drive(port, endpoint, load, concurrency, duration, workers, spread=None):
    tallies = [ClientTally() for _ in range(concurrency)]
    barrier = threading.Barrier(concurrency)
    spread = spread or ConnectionSpread(port, concurrency, workers)
    threads = [
        threading.Thread(
            target=client_loop, args=(port, load, slot, concurrency, duration, barrier, tally, spread), daemon=True
        )
        for slot, tally in enumerate(tallies)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(duration + REQUEST_TIMEOUT + 30)
    latencies = sorted(latency for tally in tallies for latency in tally.latencies)
    statuses, queries, answered_by = Counter(), Counter(), Counter()
    for tally in tallies:
        statuses.update(tally.statuses)
        queries.update(tally.queries)
        answered_by.update(tally.workers)
    started = min(tally.started for tally in tallies)
    finished = max(tally.finished for tally in tallies)
    return Measurement(
        endpoint=endpoint,
        concurrency=concurrency,
        requests=len(latencies),
        errors=sum(tally.errors for tally in tallies),
        seconds=max(finished - started, 1e-9),
        statuses=dict(statuses),
        queries=dict(queries),
        p50_ms=percentile(latencies, 0.50) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        workers=dict(answered_by),
        # The process each client's connection was answered by first (it keeps it until it closes).
        connections=dict(Counter(next(iter(tally.workers)) for tally in tallies if tally.workers)),
        closed=sum(tally.closed for tally in tallies),
    )


def with_per_page(path, per_page):
    parts = urlsplit(path)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "per_page"] + [("per_page", str(per_page))]
    return urlunsplit(parts._replace(query=urlencode(query)))


def list_query_counts(port, endpoints):
    """Queries of every list at per_page=1 and per_page=50, its records stored: they must be equal (no N+1)."""
    rows = []
    for number, (name, load) in enumerate(endpoints.items()):
        if name == FLOOR or load.method != "GET" or load.revalidate or "?" not in load.paths[0]:
            continue
        counts = []
        for per_page in (1, 50):
            # An unknown parameter (ignored by the API) makes a URL the read cache has never answered.
            path = f"{with_per_page(load.paths[0], per_page)}&bench_uncached={number}"
            # The first read stores the page's records in the rendering store. A total is
            # remembered per server process, so the fewest queries of a few later reads (each
            # worker answering at least once) is what every warm read of the page costs.
            fetch(port, f"{path}-first", load.headers)
            answers = [fetch(port, path, load.headers)[:2] for _ in range(WARM_READS)]
            counts.append(min(answers, key=lambda answer: int(answer[1] or 0)))
        rows.append((name, counts))
    return rows


def send(port, method, path, headers, body):
    """One request on a new connection: (status, queries, change-log inserts, milliseconds)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        started = time.perf_counter()
        conn.request(method, path, body=body, headers={"Accept": "application/json", **headers})
        response = conn.getresponse()
        response.read()
        elapsed = (time.perf_counter() - started) * 1000
        return response.status, response.getheader(QUERIES_HEADER), response.getheader(LOG_INSERTS_HEADER), elapsed
    finally:
        conn.close()


def write_query_counts(port, endpoints):
    """Statements (and change-log appends) of one write of each kind, a series of 10 beside one of
    730: a series' statements must not grow with its occurrences, and a write of one event must
    append one log entry."""
    rows = []
    writes = {name: load for name, load in endpoints.items() if load.method != "GET"}
    for name, load in writes.items():
        rows.append((name, send(port, load.method, load.paths[0], load.headers, load.body(next(BODY_NUMBERS)))))
        if load.small_series:
            paths, body = load.small_series
            label = name.replace("series of 730", "series of 10")
            rows.append((label, send(port, load.method, paths[0], load.headers, body(next(BODY_NUMBERS)))))
    return rows


class BackgroundWriter:
    """An editor's client updating two events and one venue per second, as a site with editors at work.

    Bounded: it stops when told to, or after `limit_seconds` whatever happens, and sends at most
    three requests a second.
    """

    def __init__(self, port, calendar, headers, limit_seconds):
        from events.conf import events_settings

        self.port, self.headers, self.limit_seconds = (
            port,
            {**headers, "Content-Type": "application/json"},
            limit_seconds,
        )
        api = f"/wp-json/{events_settings.namespace}"
        self.events = [f"{api}/events/{event_id}" for event_id in calendar.event_ids]
        self.venues = [f"{api}/venues/{venue_id}" for venue_id in calendar.venue_ids]
        self.stop_event = threading.Event()
        self.statuses = Counter()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        started = time.monotonic()
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        second = 0
        while not self.stop_event.is_set() and time.monotonic() - started < self.limit_seconds:
            writes = [
                (self.events[(2 * second + k) % len(self.events)], {"excerpt": f"Updated {second}-{k}"}) for k in (0, 1)
            ]
            if self.venues:
                writes.append((self.venues[second % len(self.venues)], {"phone": f"+1 555 {second:04d}"}))
            for path, body in writes:
                try:
                    conn.request("POST", path, body=json.dumps(body).encode(), headers=self.headers)
                    response = conn.getresponse()
                    response.read()
                    self.statuses[response.status] += 1
                except (OSError, http.client.HTTPException):
                    conn.close()
                    self.statuses["error"] += 1
            second += 1
            self.stop_event.wait(max(0.0, started + second - time.monotonic()))
        conn.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop_event.set()
        self.thread.join(REQUEST_TIMEOUT)


# --- EXPLAIN ---------------------------------------------------------------------------------


def explain_endpoints(endpoints):
    """Every endpoint's SQL run in-process, with its time, and the plan of the slowest statements."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from events.queries.pages import SEARCH_PLANNER_SETTINGS, SESSION_PLANNER_SETTINGS

    client = Client(raise_request_exception=False, HTTP_HOST=HOST)
    for name, load in endpoints.items():
        if name == FLOOR or load.method != "GET":
            continue
        paths = load.paths
        headers = {f"HTTP_{key.upper().replace('-', '_')}": value for key, value in load.headers.items()}
        client.get(paths[0], **headers)  # warm caches first, so the timings are steady-state ones
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(paths[0], **headers)
            total = time.perf_counter() - started
        timed = [(float(query["time"]), query["sql"]) for query in captured.captured_queries]
        in_sql = sum(seconds for seconds, _ in timed)
        print(
            f"\n== {name}  ({response.status_code}, {len(timed)} queries, {total * 1000:.1f} ms in all, "
            f"{in_sql * 1000:.1f} ms in SQL)  {paths[0]}"
        )
        for seconds, sql in timed:
            print(f"  {seconds * 1000:8.2f} ms  {sql[:160]}")
        # The planner settings the request set for its statements (a search's), so the plans are its own.
        planner_settings = [sql for _, sql in timed if sql == SEARCH_PLANNER_SETTINGS]
        for seconds, sql in sorted(timed, reverse=True)[:2]:
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            prefix = "EXPLAIN (ANALYZE, BUFFERS) " if connection.vendor == "postgresql" else "EXPLAIN QUERY PLAN "
            with connection.cursor() as cursor:
                for setting in planner_settings:
                    cursor.execute(setting)
                try:
                    cursor.execute(prefix + sql)
                    plan = [" ".join(str(col) for col in row) for row in cursor.fetchall()]
                except Exception as exc:  # a statement whose logged form does not re-parse
                    print(f"  (no plan: {exc})")
                    continue
                finally:
                    if planner_settings:
                        cursor.execute(SESSION_PLANNER_SETTINGS)
            print(f"  -- plan of the {seconds * 1000:.2f} ms statement:\n     {sql}")
            for line in plan:
                print(f"     {line}")


# --- report ----------------------------------------------------------------------------------


def add_floor_ratios(measurements):
    floors = {m.concurrency: m.rps for m in measurements if m.endpoint == FLOOR}
    by_name = {(m.endpoint, m.concurrency): m.rps for m in measurements}
    for m in measurements:
        floor_rps = m.adjacent_floor_rps or floors.get(m.concurrency)
        m.floor_ratio = m.rps / floor_rps if floor_rps else None
        anonymous_rps = by_name.get((m.endpoint.split(" [")[0], m.concurrency)) if " [" in m.endpoint else None
        m.anonymous_ratio = m.rps / anonymous_rps if anonymous_rps else None


def hasher_milliseconds():
    """What one verification of a login password costs with the site's first password hasher."""
    from django.contrib.auth.hashers import check_password, make_password

    encoded = make_password("bench-login-password")
    started = time.perf_counter()
    check_password("bench-login-password", encoded)
    return (time.perf_counter() - started) * 1000


def print_header(args, database_url, calendar):
    import django
    import gunicorn
    from django.db import connection

    database = connection.settings_dict["NAME"]
    threads = f" × {args.threads} threads" if args.worker_class == "gthread" else ""
    print()
    print(f"Calendar benchmark, {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC")
    print(
        f"  machine:  {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, Django {django.get_version()}"
    )
    # Other work on the machine skews every figure (the floor included): the load says how much.
    print(f"  load:     {args.load_before:.2f} before, {os.getloadavg()[0]:.2f} after (1-minute average)")
    vacuum = ""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW autovacuum")
            # Off or on, its rule was applied before each row (seed.autovacuum_now).
            vacuum = f", autovacuum {cursor.fetchone()[0]}"
    print(f"  database: {connection.vendor} ({Path(str(database)).name}{vacuum})")
    print(
        f"  calendar: {calendar.events:,} events ({calendar.published_listed:,} listed), {calendar.venues:,} venues, "
        f"{calendar.organizers:,} organizers, {calendar.categories} categories, {calendar.tags} tags"
    )
    print(f"  series:   {calendar.series:,} ({calendar.occurrences:,} occurrences)")
    print(f"  server:   gunicorn {gunicorn.__version__}, {args.workers} workers ({args.worker_class}{threads})")
    print(
        f"  clients:  keep-alive HTTP/1.1 on 127.0.0.1, {args.duration:g} s per measurement after {args.warmup:g} s warm-up"
    )
    print(f"  hasher:   {args.hasher_ms:.0f} ms per login password verification (what each signed request cost before)")
    cache = f"on, {args.read_cache} s, {args.redis_url}" if args.read_cache > 0 else "off"
    print(f"  read cache: {cache}")
    print(f"  memories: {'all on' if not args.without_memory else 'forgetful: ' + ', '.join(args.without_memory)}")
    if args.background_writes:
        print(
            f"  background writes: 2 events + 1 venue per second through the API, answered {dict(args.writer_statuses)}"
        )
    print(f"  X = {calendar.category_slug}, Y = {calendar.start_date}")


def print_table(measurements):
    print()
    header = (
        f"{'endpoint':<42} {'conc':>4}  {'status':<10} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'queries':>7} "
        f"{'vs floor':>8} {'vs anon':>7}"
    )
    print(header)
    print("-" * len(header))
    for m in measurements:
        ratio = f"{m.floor_ratio * 100:.0f}%" if m.floor_ratio is not None else "-"
        anonymous = f"{m.anonymous_ratio * 100:.0f}%" if m.anonymous_ratio is not None else "-"
        print(
            f"{m.endpoint:<42} {m.concurrency:>4}  {m.status_label:<10} {m.rps:>9.1f} {m.p50_ms:>8.2f} "
            f"{m.p99_ms:>8.2f} {m.queries_label:>7} {ratio:>8} {anonymous:>7}"
        )


def print_list_queries(rows):
    if not rows:
        return
    print()
    print(f"{'list':<34} {'queries at per_page=1':>22} {'per_page=50':>12}  constant")
    for name, ((status_1, q_1), (status_50, q_50)) in rows:
        verdict = (
            "yes"
            if q_1 == q_50 and status_1 == status_50 == 200
            else ("NO" if status_1 == status_50 == 200 else f"({status_1}/{status_50})")
        )
        print(f"{name:<34} {q_1 or '-':>22} {q_50 or '-':>12}  {verdict}")


def print_write_queries(rows):
    if not rows:
        return
    print()
    print(f"{'write (once)':<42} {'status':>6} {'statements':>10} {'log inserts':>11} {'ms':>8}")
    for name, (status, queries, log_inserts, ms) in rows:
        print(f"{name:<42} {status:>6} {queries or '-':>10} {log_inserts or '-':>11} {ms:>8.1f}")


def keep_alive_spread(port, endpoints, runs, concurrency, duration, worker_pids):
    """Each endpoint `runs` times with new keep-alive connections placed by the server alone: each
    run's throughput and each server process's share of the requests (docs/deployment.md,
    "Connections spread over the workers")."""
    rows = []
    for name, load in endpoints.items():
        if (name == FLOOR and len(endpoints) > 1) or load.method != "GET":
            continue
        for run in range(1, runs + 1):
            print(f"measuring {name}, run {run} ...", flush=True)
            measured = drive(port, name, load, concurrency, duration, len(worker_pids), ServerPlacement(port))
            rows.append((run, measured))
    return rows


def server_worker_pids(server, workers):
    """The worker processes' ids, as X-Bench-Worker names them: the arbiter's children (Linux's /proc)."""
    deadline = time.monotonic() + READY_TIMEOUT
    children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
    while time.monotonic() < deadline:
        pids = sorted(children.read_text().split())
        if len(pids) >= workers:
            return pids
        time.sleep(0.2)
    sys.exit(f"gunicorn started {len(pids)} of {workers} workers")


def print_spread(rows, worker_pids):
    print()
    shares = "  ".join(f"{'worker ' + str(n):>9}" for n in range(1, len(worker_pids) + 1))
    header = f"{'endpoint':<34} {'run':>3} {'conc':>4}  {'status':<8} {'req/s':>9} {'p99 ms':>8}  {shares}  connections  closed"
    print(header)
    print("-" * len(header))
    for run, m in rows:
        total = sum(m.workers.values()) or 1
        cells = "  ".join(f"{m.workers.get(pid, 0) / total * 100:>8.0f}%" for pid in worker_pids)
        held = "/".join(str(m.connections.get(pid, 0)) for pid in worker_pids)
        print(
            f"{m.endpoint:<34} {run:>3} {m.concurrency:>4}  {m.status_label:<8} {m.rps:>9.1f} {m.p99_ms:>8.2f}  "
            f"{cells}  {held:>11}  {m.closed:>6}"
        )
    for name in dict.fromkeys(m.endpoint for _, m in rows):
        rates = [m.rps for _, m in rows if m.endpoint == name]
        if rates and min(rates):
            print(
                f"{name}: req/s from {min(rates):.1f} to {max(rates):.1f} (highest / lowest {max(rates) / min(rates):.2f})"
            )


def finish_spread(args, calendar, rows, worker_pids):
    args.writer_statuses = {}
    print_header(args, None, calendar)
    print_spread(rows, worker_pids)
    if args.json_path:
        payload = {
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "server": {"workers": args.workers, "worker_class": args.worker_class, "threads": args.threads},
            "load_average": [args.load_before, os.getloadavg()[0]],
            "keep_alive_spread": [
                {"run": run, **asdict(m), "rps": m.rps, "workers": [m.workers.get(pid, 0) for pid in worker_pids]}
                for run, m in rows
            ],
        }
        Path(args.json_path).write_text(json.dumps(payload, indent=2))
    return 0


def main(argv=None):
    args = parse_args(argv)
    database_url, temporary_folder = resolve_database_url(args.database_url)
    if args.read_cache > 0:
        # Environment, so that the gunicorn workers read the same settings.
        os.environ["REDIS_URL"] = args.redis_url
        os.environ["EVENTS_READ_CACHE_SECONDS"] = str(args.read_cache)
    if args.without_memory:
        # Read by bench/settings.py, in this process and the server's, before any memory is made.
        os.environ["EVENTS_FORGETFUL_MEMORIES"] = ",".join(args.without_memory)
    setup_django(database_url)
    check_memory_names(args.without_memory)
    calendar = prepare_calendar(args.events, args.reuse, args.series_share)
    if args.read_cache > 0:
        from django.db import DEFAULT_DB_ALIAS

        from events.read_cache_version import retire_cached_reads

        # A calendar reused from an earlier run: start from a fresh calendar version.
        retire_cached_reads(DEFAULT_DB_ALIAS)
    signed = signers()
    endpoints = endpoints_for(calendar, signed)
    if args.keep_alive_spread and not args.endpoints:
        # The issue's measure: one record read again and again by eight keep-alive clients.
        args.endpoints = "events/{id}"
    if args.endpoints:
        wanted = {name.strip() for name in args.endpoints.split(",")}
        unknown = wanted - set(endpoints)
        if unknown:
            sys.exit(f"unknown endpoints {sorted(unknown)}; known: {', '.join(endpoints)}")
        endpoints = {name: load for name, load in endpoints.items() if name == FLOOR or name in wanted}
    if args.explain:
        explain_endpoints(endpoints)

    from django.db import connections

    from bench import seed

    connections.close_all()
    args.hasher_ms = hasher_milliseconds()
    args.load_before = os.getloadavg()[0]
    log_path = Path(tempfile.gettempdir()) / f"calendar-bench-gunicorn-{os.getpid()}.log"
    server = Server(database_url, args.workers, args.worker_class, args.threads, log_path)
    measurements = []
    writer = None
    spread_rows = None
    try:
        server.wait_ready()
        if args.keep_alive_spread:
            worker_pids = server_worker_pids(server, args.workers)
            for load in endpoints.values():
                if load.method == "GET" and not args.cold:
                    for path in load.paths:
                        fetch(server.port, path, headers=load.headers)
            spread_rows = keep_alive_spread(
                server.port, endpoints, args.keep_alive_spread, max(args.concurrency), args.duration, worker_pids
            )
            return finish_spread(args, calendar, spread_rows, worker_pids)
        if args.background_writes:
            limit = (len(endpoints) * (args.warmup + args.duration * len(args.concurrency)) + 60) * 2
            writer = BackgroundWriter(server.port, calendar, signed[APP_PASSWORD][1], limit).__enter__()
        for name, load in endpoints.items():
            if load.revalidate:
                load.path_headers = {
                    path: {"If-None-Match": fetch(server.port, path, etag=True)} for path in load.paths
                }
            print(f"measuring {name} ...", flush=True)
            seed.autovacuum_now()
            if load.method == "GET" and not args.cold:
                # Each path once, so that the records it shows are in the rendering store, as
                # they are on a live site (writes render, and the first read of a seeded record stores it).
                for path in load.paths:
                    fetch(server.port, path, headers=load.headers)
                seed.autovacuum_now()
            if args.warmup > 0:
                drive(server.port, name, load, max(args.concurrency), args.warmup, args.workers)
            for concurrency in args.concurrency:
                # The floor again, just before the row: the machine's speed drifts over a run of
                # several minutes, and a row is compared with the floor of its own moment.
                adjacent_floor = None
                if name != FLOOR:
                    adjacent_floor = drive(
                        server.port,
                        FLOOR,
                        endpoints[FLOOR],
                        concurrency,
                        min(args.duration, FLOOR_CHECK_SECONDS),
                        args.workers,
                    )
                measured = drive(server.port, name, load, concurrency, args.duration, args.workers)
                measured.adjacent_floor_rps = adjacent_floor.rps if adjacent_floor else None
                measurements.append(measured)
        query_rows = list_query_counts(server.port, endpoints)
        write_rows = write_query_counts(server.port, endpoints)
        if args.import_feed > 0:
            print(f"importing a feed of {args.import_feed} events ...", flush=True)
            import_timings = measure_import(args.import_feed)
    finally:
        if writer is not None:
            writer.__exit__(None, None, None)
        server.stop()
        remove_bench_writes(calendar.log_end)
        if temporary_folder:
            shutil.rmtree(temporary_folder, ignore_errors=True)
        if spread_rows is not None:
            log_path.unlink(missing_ok=True)
    log_path.unlink(missing_ok=True)
    args.writer_statuses = writer.statuses if writer is not None else {}
    add_floor_ratios(measurements)
    print_header(args, database_url, calendar)
    print_table(measurements)
    print_list_queries(query_rows)
    print_write_queries(write_rows)
    if args.import_feed > 0:
        print_import(args.import_feed, import_timings, measurements)
    if args.json_path:
        payload = {
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "calendar": {k: v for k, v in asdict(calendar).items() if k != "event_ids"},
            "server": {"workers": args.workers, "worker_class": args.worker_class, "threads": args.threads},
            "read_cache_seconds": args.read_cache,
            "forgetful_memories": args.without_memory,
            "background_writes": {str(k): v for k, v in args.writer_statuses.items()}
            if args.background_writes
            else None,
            "load_average": [args.load_before, os.getloadavg()[0]],
            "hasher_ms": args.hasher_ms,
            "measurements": [{**asdict(m), "rps": m.rps} for m in measurements],
            "list_queries": {name: [q for _, q in counts] for name, counts in query_rows},
            "write_queries": {name: {"statements": row[1], "log_inserts": row[2]} for name, row in write_rows},
            "import_seconds": [seconds for seconds, _run in import_timings] if args.import_feed > 0 else None,
        }
        Path(args.json_path).write_text(json.dumps(payload, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
