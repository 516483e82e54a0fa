"""The date window of events lists (docs/contract/events.md §2.2): its defaults, its bounds and the multi-day cut-off."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from .. import dates
from ..conf import events_settings
from .syntax import php_filter_bool

FIRST_SECOND = dt.datetime(1, 1, 1)
LAST_SECOND = dt.datetime(9999, 12, 31, 23, 59, 59)

WINDOW_PARAMS = ("start_date", "end_date")
RELATIVE_PARAMS = ("starts_before", "starts_after", "ends_before", "ends_after")
# Which end of an event each bound looks at, and how it compares.
BOUND_RULES = {
    "start_date": ("start", "gte"),
    "end_date": ("end", "lte"),
    "starts_before": ("start", "lt"),
    "starts_after": ("start", "gt"),
    "ends_before": ("end", "lt"),
    "ends_after": ("end", "gt"),
}


@dataclass(frozen=True)
class Bound:
    name: str
    edge: str
    lookup: str
    # Wall-clock time in the site zone, as the bound is applied.
    value: dt.datetime


@dataclass(frozen=True)
class DateWindow:
    bounds: tuple
    strict: bool = False

    def echoed(self):
        """{param: value} for the list links: the bounds as applied.

        Strict bounds are written in UTC, which is how strict mode reads a value back, so that
        following `next_rest_url` selects the same events on sites outside UTC.
        """
        values = {}
        for bound in self.bounds:
            value = _in_utc(bound.value) if self.strict else bound.value
            values[bound.name] = dates.format_wp(value)
        return values

    def condition(self):
        """A Q comparing each bound with the events' wall clock (or UTC times in `site` mode)."""
        site_mode = events_settings.TIMEZONE_MODE == "site"
        condition = Q()
        for bound in self.bounds:
            if site_mode:
                column, value = f"{bound.edge}_utc", _in_utc(bound.value).replace(tzinfo=dt.UTC)
            else:
                # The wall-clock columns hold naive local times tagged as UTC.
                column, value = f"{bound.edge}_local", bound.value.replace(tzinfo=dt.UTC)
            condition &= Q(**{f"{column}__{bound.lookup}": value})
        return condition


def _clamped(compute):
    """Bounds beyond the calendar's range (year 9999 + one day) stick to its ends instead of failing."""
    try:
        return compute()
    except OverflowError:
        return None


def _in_utc(wall_clock):
    zone = timezone.get_default_timezone()
    converted = _clamped(lambda: wall_clock.replace(tzinfo=zone).astimezone(dt.UTC).replace(tzinfo=None))
    if converted is None:
        return LAST_SECOND if wall_clock.year > 1 else FIRST_SECOND
    return converted


def multiday_cutoff():
    hours, _, minutes = str(events_settings.MULTIDAY_CUTOFF or "00:00").partition(":")
    return dt.time(int(hours or 0), int(minutes or 0))


def _whole_day(name, value, now):
    """Inclusive mode: the calendar day of the value as written; start → its first second, others → its last."""
    parsed = dates.parse_date_input(value, timezone.get_default_timezone(), now)
    moment = parsed.local.astimezone(dt.UTC) if parsed.explicit_zone else parsed.local
    day = moment.date()
    if name == "start_date":
        return dates.day_start(day, cutoff=multiday_cutoff())
    end = _clamped(lambda: dates.day_end(day, cutoff=multiday_cutoff()))
    return end if end is not None else LAST_SECOND


def _exact(name, value, is_default, now):
    """Strict mode: the value converted to the site zone; a value without an offset is read as UTC."""
    zone = timezone.get_default_timezone()
    # The start default is already written in the site zone (the plugin would convert it again).
    read_in = zone if is_default and name == "start_date" else dt.UTC
    parsed = dates.parse_date_input(value, read_in, now)
    local = _clamped(lambda: parsed.local.astimezone(zone).replace(tzinfo=None))
    if local is None:
        return LAST_SECOND if parsed.local.year > 1 else FIRST_SECOND
    return local


def date_window(params, sent, now=None):
    """The bounds the list applies, from validated `params` and the names the client `sent`."""
    if params.get("include"):
        # `include` ignores every date filter (the Recommended rule of docs/contract/events.md §2.5).
        return DateWindow(bounds=())
    now = now or timezone.now()
    strict = php_filter_bool(params.get("strict_dates", "false"))
    relative = any(name in sent for name in RELATIVE_PARAMS)
    bounds = []
    for name in (*WINDOW_PARAMS, *RELATIVE_PARAMS):
        if name not in params or (relative and name not in sent):
            continue
        value, is_default = params[name], name not in sent
        applied = _exact(name, value, is_default, now) if strict else _whole_day(name, value, now)
        bounds.append(Bound(name, *BOUND_RULES[name], applied))
    return DateWindow(bounds=tuple(bounds), strict=strict)


def default_start_date():
    """The instant "yesterday 23:59" in UTC, written in the site time zone."""
    now = timezone.now().astimezone(dt.UTC)
    instant = dt.datetime.combine(now.date() - dt.timedelta(days=1), dt.time(23, 59), tzinfo=dt.UTC)
    return dates.format_wp(instant.astimezone(timezone.get_default_timezone()))


def default_end_date():
    """Now plus 24 months, as a UTC wall-clock time."""
    return dates.format_wp(dates.parse_date_input("+24 months", dt.UTC, timezone.now()).local)


def default_window(now=None):
    """The events list's default window: from yesterday (a whole day) to 24 months ahead."""
    params = {"start_date": default_start_date(), "end_date": default_end_date()}
    return date_window(params, sent=set(), now=now)


def day_window(first_day, last_day):
    """Events overlapping the calendar days `first_day`..`last_day` (days begin at the multi-day cut-off)."""
    cutoff = multiday_cutoff()
    begins = dt.datetime.combine(first_day, cutoff)
    ends = dt.datetime.combine(last_day + dt.timedelta(days=1), cutoff) - dt.timedelta(seconds=1)
    return DateWindow(bounds=(Bound("ends_after", "end", "gte", begins), Bound("starts_before", "start", "lte", ends)))
