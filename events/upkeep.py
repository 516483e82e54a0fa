"""The calendar's daily upkeep: open-ended series extended to the horizon, the change log pruned;
and the import sources refreshed when their interval has passed (docs/import.md).

The worker (`manage.py events_worker`) runs the upkeep when it starts and then every UPKEEP_HOURS,
and looks for due import sources every few minutes, so a site runs one process beside its web
servers and no cron line. Each step is idempotent and each series is extended (each source run)
under its own lock or claim, so several workers running them at once do no harm.
"""

import logging

from .changelog.feed import remove_expired
from .imports.run import run_due_sources
from .services.recurrence import extend_open_series

logger = logging.getLogger(__name__)


def run_upkeep():
    """Extend the open-ended series and prune the change log; returns what was done, for the log."""
    extended, refused = extend_open_series()
    for series_id, refusal in refused:
        logger.warning("Series %s could not be extended: %s", series_id, refusal)
    removed = remove_expired()
    return {"series_extended": len(extended), "series_refused": len(refused), "log_entries_removed": removed}


def refresh_imports():
    """Run every import source whose interval has passed; returns what was done, for the log."""
    return run_due_sources()
