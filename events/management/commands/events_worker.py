"""The calendar's one background process: the task engine's worker (webhook deliveries) and the daily upkeep."""

import logging
import threading

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connections

from events.upkeep import refresh_imports, run_upkeep

logger = logging.getLogger("events.upkeep")


class Command(BaseCommand):
    help = (
        "Run what the calendar does in the background: webhook deliveries (the task engine's db_worker), "
        "the upkeep (open-ended series extended to the horizon, the change log pruned) when it starts "
        "and every --upkeep-hours, and the import sources' refreshes when their interval has passed. With "
        "--batch, do what is due and exit (checks, tests)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--upkeep-hours", type=float, default=24.0, help="Hours between two upkeeps (default 24).")
        parser.add_argument("--interval", type=float, default=1.0, help="Seconds between two looks at the queue.")
        parser.add_argument(
            "--import-minutes", type=float, default=1.0, help="Minutes between two looks for import sources due."
        )
        parser.add_argument("--batch", action="store_true", help="Run the upkeep and the queued tasks, then exit.")

    def handle(self, *args, upkeep_hours=24.0, interval=1.0, batch=False, import_minutes=1.0, **options):
        self.upkeep()
        self.imports()
        if not batch:
            stop = threading.Event()
            threading.Thread(target=self.upkeep_every, args=(upkeep_hours * 3600, stop), daemon=True).start()
            threading.Thread(target=self.imports_every, args=(import_minutes * 60, stop), daemon=True).start()
        call_command("db_worker", interval=interval, batch=batch, startup_delay=False, verbosity=options["verbosity"])

    def upkeep(self):
        try:
            done = run_upkeep()
        except Exception:  # noqa: BLE001 — the deliveries go on; the next upkeep tries again
            logger.exception("The calendar's upkeep failed")
            return
        finally:
            # This thread's connections: a worker thread holds none between two upkeeps.
            connections.close_all()
        self.stdout.write(
            "Upkeep: {series_extended} series extended, {series_refused} refused, "
            "{log_entries_removed} expired change-log entries removed.".format(**done)
        )

    def upkeep_every(self, seconds, stop):
        while not stop.wait(seconds):
            self.upkeep()

    def imports(self):
        try:
            done = refresh_imports()
        except Exception:  # noqa: BLE001 — the deliveries go on; the next look tries again
            logger.exception("The import sources' refresh failed")
            return
        finally:
            connections.close_all()
        if done["imports_run"]:
            self.stdout.write(
                "Imports: {imports_run} sources refreshed, {imports_failed} could not be read.".format(**done)
            )

    def imports_every(self, seconds, stop):
        while not stop.wait(seconds):
            self.imports()
