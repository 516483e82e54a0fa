"""What a reader makes of a source: remote events as the event services' fields, and the problems met on the way."""

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ..conf import events_settings


@dataclass
class RemoteEvent:
    """One event of a source: `key` is its identity there, `fields` what services.events writes
    (`venue` and each `organizer` as nested fields, names of `categories` and `tags`)."""

    key: str
    fields: dict
    cancelled: bool = False
    # "event", or "venue"/"organizer" for a row of the CSV files of those (the linked services' fields).
    kind: str = "event"
    # An edited occurrence of a series (an iCalendar RECURRENCE-ID): its series' key and the
    # occurrence's start, a wall clock of the series' zone.
    series_key: str = ""
    occurrence_start: dt.datetime = None

    @property
    def content_hash(self):
        """A digest of everything the source says of the event: equal digests, nothing to write."""
        text = json.dumps(
            [self.key, self.kind, self.fields, self.cancelled, self.series_key, self.occurrence_start],
            sort_keys=True,
            default=str,
            ensure_ascii=False,
        )
        return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Reading:
    """A source read: its events, what was skipped and why, and whether every event was read
    (only then is an event missing from it gone from the source)."""

    events: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    complete: bool = True

    def problem(self, where, reason):
        self.problems.append(f"{where}: {reason}")

    def add(self, event):
        """Keep `event`, unless the run's item cap is reached (the reading is then incomplete)."""
        if len(self.events) >= events_settings.IMPORT_MAX_ITEMS:
            if self.complete:
                self.problem(
                    _("source"),
                    _("More than %(count)s events: the rest were not read.")
                    % {"count": events_settings.IMPORT_MAX_ITEMS},
                )
            self.complete = False
            return False
        self.events.append(event)
        return True
