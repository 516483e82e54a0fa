"""The calendar's daily upkeep: open-ended series extended to the horizon, the change log pruned.

The worker (`manage.py events_worker`) runs it when it starts and then every UPKEEP_HOURS, so a
site runs one process beside its web servers and no cron line. Both steps are idempotent and each
series is extended under its own lock, so several workers running it at once do no harm.
"""

import logging

from .changelog.feed import remove_expired
from .services.recurrence import extend_open_series

logger = logging.getLogger(__name__)


def run_upkeep():
    """Extend the open-ended series and prune the change log; returns what was done, for the log."""
    extended, refused = extend_open_series()
    for series_id, refusal in refused:
        logger.warning("Series %s could not be extended: %s", series_id, refusal)
    removed = remove_expired()
    return {"series_extended": len(extended), "series_refused": len(refused), "log_entries_removed": removed}
