"""Date parsing, formatting and zone helpers that mirror what The Events Calendar does with PHP dates."""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.utils import timezone

_UTC = dt.UTC
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=_UTC)
_ONE_DAY = dt.timedelta(days=1)
_ONE_SECOND = dt.timedelta(seconds=1)


@dataclass(frozen=True)
class ParsedDate:
    """A parsed date parameter: the aware time in the zone it was read in, and whether the input named that zone."""

    local: dt.datetime
    explicit_zone: bool


# --- grammar -------------------------------------------------------------------------------------
#
# A subset of PHP strtotime: the input is cut into tokens, each matched by one named regex below.
# Words end where letters end and numbers where digits end, so "mondays" or "9amx" are refused
# instead of being half-read.

_WEEKDAYS = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tues": 1,
    "tue": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thurs": 3,
    "thur": 3,
    "thu": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}

# timelib folds weeks and fortnights into days before applying them.
_UNITS = {
    "sec": ("seconds", 1),
    "secs": ("seconds", 1),
    "second": ("seconds", 1),
    "seconds": ("seconds", 1),
    "min": ("minutes", 1),
    "mins": ("minutes", 1),
    "minute": ("minutes", 1),
    "minutes": ("minutes", 1),
    "hour": ("hours", 1),
    "hours": ("hours", 1),
    "day": ("days", 1),
    "days": ("days", 1),
    "week": ("days", 7),
    "weeks": ("days", 7),
    "fortnight": ("days", 14),
    "fortnights": ("days", 14),
    "month": ("months", 1),
    "months": ("months", 1),
    "year": ("years", 1),
    "years": ("years", 1),
}


def _alternatives(words):
    # Longest first, so "tuesday" is not read as "tue" followed by garbage.
    return "|".join(sorted(words, key=len, reverse=True))


_MERIDIEM = r"(?P<meridiem>[ap])\.?m\.?(?![a-z])"

_TOKENS = [
    # 2018-01-05 or 2018/1/5; a "T" glued to a clock time is the ISO 8601 date/time separator.
    (
        "date",
        r"(?P<year>\d{4})(?P<sep>[-/])(?P<month>\d{1,2})(?P=sep)(?P<day>\d{1,2})(?!\d)"
        r"(?:t(?=\d{1,2}:\d{2}))?",
    ),
    (
        "clock",
        r"(?P<hour>\d{1,2}):(?P<minute>\d{2})"
        r"(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d{1,6})\d*)?)?(?!\d)"
        rf"(?:\s*{_MERIDIEM})?",
    ),
    ("hour_meridiem", rf"(?P<hour>\d{{1,2}})\s*{_MERIDIEM}"),
    ("relative", rf"(?P<sign>[+-]?)\s*(?P<amount>\d+)\s*(?P<unit>{_alternatives(_UNITS)})(?![a-z])"),
    ("offset", r"(?P<sign>[+-])(?P<hours>\d{2}):?(?P<minutes>\d{2})(?!\d)"),
    ("utc", r"(?:z|utc|gmt)(?![a-z])"),
    ("keyword", r"(?P<word>now|today|midnight|noon|tomorrow|yesterday)(?![a-z])"),
    ("weekday", rf"(?:(?P<direction>next|last|this)\s+)?(?P<name>{_alternatives(_WEEKDAYS)})(?![a-z])"),
]
# ASCII so that "\d" does not accept other scripts' digits, which PHP would not read either.
_TOKEN_RES = [(kind, re.compile(pattern, re.ASCII)) for kind, pattern in _TOKENS]
_SPACE_RE = re.compile(r"\s*")
_EPOCH_STRING_RE = re.compile(r"[0-9]+")


def _tokenize(text):
    """Cut lower-cased `text` into (kind, match) pairs; ValueError on anything unknown."""
    tokens = []
    pos = _SPACE_RE.match(text).end()
    while pos < len(text):
        for kind, regex in _TOKEN_RES:
            match = regex.match(text, pos)
            if match:
                tokens.append((kind, match))
                pos = _SPACE_RE.match(text, match.end()).end()
                break
        else:
            raise ValueError(f"Unparsable date text near {text[pos:]!r}")
    return tokens


# --- evaluation ----------------------------------------------------------------------------------


class _Parts:
    """What the tokens said: at most one base day, one time of day and one zone, plus offsets."""

    def __init__(self):
        self.base = None  # ("now",) | ("date", date) | ("days", n) | ("weekday", direction, index)
        self.time = None  # dt.time
        self.zone = None
        self.relative = {"years": 0, "months": 0, "days": 0, "hours": 0, "minutes": 0, "seconds": 0}

    def set(self, slot, value):
        if getattr(self, slot) is not None:
            raise ValueError(f"Date text gives more than one {slot}")
        setattr(self, slot, value)


def _clock_time(hour, minute=0, second=0, microsecond=0, meridiem=None):
    if meridiem:
        # PHP only reads 1-12 with am/pm; 12am is midnight and 12pm is noon.
        if not 1 <= hour <= 12:
            raise ValueError("Hour out of range for am/pm")
        hour = hour % 12 + (12 if meridiem == "p" else 0)
    return dt.time(hour, minute, second, microsecond)  # ValueError when out of range


def _read_token(parts, kind, match):
    groups = match.groupdict()
    if kind == "date":
        parts.set("base", ("date", dt.date(int(groups["year"]), int(groups["month"]), int(groups["day"]))))
    elif kind == "clock":
        fraction = groups["fraction"] or ""
        parts.set(
            "time",
            _clock_time(
                int(groups["hour"]),
                int(groups["minute"]),
                int(groups["second"] or 0),
                int(fraction.ljust(6, "0")) if fraction else 0,
                groups["meridiem"],
            ),
        )
    elif kind == "hour_meridiem":
        parts.set("time", _clock_time(int(groups["hour"]), meridiem=groups["meridiem"]))
    elif kind == "relative":
        field, factor = _UNITS[groups["unit"]]
        amount = int(groups["amount"]) * factor
        # Several offsets add up, as timelib sums them before applying (so "+1 month +1 month" is +2 months).
        parts.relative[field] += -amount if groups["sign"] == "-" else amount
    elif kind == "offset":
        hours, minutes = int(groups["hours"]), int(groups["minutes"])
        if hours > 23 or minutes > 59:
            raise ValueError("UTC offset out of range")
        offset = dt.timedelta(hours=hours, minutes=minutes)
        parts.set("zone", dt.timezone(-offset if groups["sign"] == "-" else offset))
    elif kind == "utc":
        parts.set("zone", _UTC)
    elif kind == "keyword":
        word = groups["word"]
        if word == "now":
            parts.set("base", ("now",))
        elif word in ("today", "tomorrow", "yesterday"):
            parts.set("base", ("days", {"today": 0, "tomorrow": 1, "yesterday": -1}[word]))
        else:  # "midnight" and "noon" are times of day, so "tomorrow noon" works as in PHP.
            parts.set("time", dt.time(12 if word == "noon" else 0))
    elif kind == "weekday":
        parts.set("base", ("weekday", groups["direction"] or "this", _WEEKDAYS[groups["name"]]))


def _weekday_from(today, direction, weekday):
    # PHP: a bare name (or "this") is today when it matches; "next"/"last" are strictly after/before.
    if direction == "next":
        return today + dt.timedelta(days=(weekday - today.weekday()) % 7 or 7)
    if direction == "last":
        return today - dt.timedelta(days=(today.weekday() - weekday) % 7 or 7)
    return today + dt.timedelta(days=(weekday - today.weekday()) % 7)


def _add_calendar(day, years, months, days):
    # PHP adds months/years to the fields and lets the day overflow into the next month
    # (Jan 31 +1 month = "Feb 31" = Mar 3, or Mar 2 in leap years) rather than clamping.
    month_index = day.year * 12 + (day.month - 1) + years * 12 + months
    year, month0 = divmod(month_index, 12)
    return dt.date(year, month0 + 1, 1) + dt.timedelta(days=day.day - 1 + days)


def _evaluate(parts, tz, now):
    zone = parts.zone or tz
    reference = now.astimezone(zone)
    today = reference.date()
    base = parts.base or ("now",)
    # A day named on its own starts at 00:00, as in PHP; with no day named the current time is kept.
    default_time = dt.time(0, 0)
    if base[0] == "now":
        day, default_time = today, reference.time()
    elif base[0] == "date":
        day = base[1]
    elif base[0] == "days":
        day = today + dt.timedelta(days=base[1])
    else:
        day = _weekday_from(today, base[1], base[2])
    rel = parts.relative
    day = _add_calendar(day, rel["years"], rel["months"], rel["days"])
    # Wall-clock times skipped or repeated by a DST change are read with zoneinfo's fold=0: a
    # skipped 02:30 resolves with the pre-change offset (03:30 after the jump, as PHP gives), a
    # repeated 01:30 is its first occurrence.
    wall = dt.datetime.combine(day, parts.time or default_time, tzinfo=zone)
    # Hours, minutes and seconds are elapsed time (PHP >= 8.1), so "+1 hour" across DST is 3600 s.
    elapsed = dt.timedelta(hours=rel["hours"], minutes=rel["minutes"], seconds=rel["seconds"])
    return (wall.astimezone(_UTC) + elapsed).astimezone(zone)


def _from_epoch(seconds):
    return ParsedDate(local=_EPOCH + dt.timedelta(seconds=seconds), explicit_zone=True)


def parse_date_input(value, tz: dt.tzinfo, now: dt.datetime) -> ParsedDate:
    """Read a date parameter the way the plugin's strtotime() does; ValueError when it cannot."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise TypeError("now must be an aware datetime")
    try:
        # WordPress treats a numeric date parameter as a Unix timestamp (Tribe__Date_Utils::is_timestamp).
        if isinstance(value, bool):
            raise ValueError("A boolean is not a date")
        if isinstance(value, (int, float)):
            if not math.isfinite(value):
                raise ValueError("Timestamp must be finite")
            return _from_epoch(value)
        if not isinstance(value, str):
            raise ValueError(f"Cannot read a date from {type(value).__name__}")
        text = value.strip().lower()
        if not text:
            raise ValueError("Empty date")
        if _EPOCH_STRING_RE.fullmatch(text):
            return _from_epoch(int(text))
        parts = _Parts()
        for kind, match in _tokenize(text):
            _read_token(parts, kind, match)
        return ParsedDate(local=_evaluate(parts, tz, now), explicit_zone=parts.zone is not None)
    except OverflowError as exc:
        # Dates beyond datetime's years 1-9999 are as unusable as garbage to the callers.
        raise ValueError("Date out of range") from exc


# --- formatting ----------------------------------------------------------------------------------


def format_wp(value: dt.datetime) -> str:
    """The MySQL-style "Y-m-d H:i:s" string WordPress uses for dates, without a zone."""
    # isoformat() zero-pads every part (years below 1000 too, where glibc's strftime("%Y") does
    # not) and, unlike formatting part by part, costs next to nothing: a record shows eight dates.
    return value.isoformat(" ", "seconds")[:19]


def date_details(value: dt.datetime) -> dict:
    """The plugin's `*_date_details` object: each part a zero-padded string."""
    text = format_wp(value)
    return {
        "year": text[0:4],
        "month": text[5:7],
        "day": text[8:10],
        "hour": text[11:13],
        "minutes": text[14:16],
        "seconds": text[17:19],
    }


# --- zones ---------------------------------------------------------------------------------------

# WordPress stores a manual offset as "UTC+5", "UTC-3.5" (decimal hours) and shows "UTC+5:30".
_OFFSET_NAME_RE = re.compile(
    r"UTC(?P<sign>[+-])(?P<hours>\d{1,2})(?:\.(?P<decimal>\d+)|:(?P<minutes>\d{2}))?", re.ASCII | re.IGNORECASE
)


def _offset_zone(name):
    match = _OFFSET_NAME_RE.fullmatch(name)
    if not match:
        return None
    minutes = int(match["hours"]) * 60
    if match["decimal"]:
        minutes += round(float("0." + match["decimal"]) * 60)
    elif match["minutes"]:
        if int(match["minutes"]) > 59:
            raise ValueError(f"Unknown time zone {name!r}")
        minutes += int(match["minutes"])
    if minutes >= 24 * 60:
        raise ValueError(f"Unknown time zone {name!r}")
    offset = dt.timedelta(minutes=-minutes if match["sign"] == "-" else minutes)
    return dt.timezone(offset, name)


def zone_from_name(name: str) -> dt.tzinfo:
    """The zone for an IANA name, "UTC" or a WordPress "UTC+5"-style offset; ValueError if unknown."""
    if not isinstance(name, str) or not name:
        raise ValueError("A time zone name is required")
    if name == "UTC":
        return _UTC
    offset_zone = _offset_zone(name)
    if offset_zone is not None:
        return offset_zone
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        # OSError covers names that hit a directory (e.g. "America") in the system zone database.
        raise ValueError(f"Unknown time zone {name!r}") from exc


@functools.cache
def zone_names() -> frozenset[str]:
    """The IANA zone names (their links included: `US/Eastern`), as PHP's DateTimeZone knows them.

    zoneinfo would also open what a host's zone directory holds besides zones (`posixrules`,
    `posix/…`, `right/…`, and `localtime`, the host's own zone): no client means those. The
    directory is read once per process: the zone database changes only with a new release.
    """
    return frozenset(available_timezones() - {"localtime"})


def is_zone_name(name: str) -> bool:
    """Whether a client may give `name` as an event's zone: "UTC", a "UTC+5"-style offset or an IANA name."""
    try:
        zone = zone_from_name(name)
    except ValueError:
        return False
    return not isinstance(zone, ZoneInfo) or name in zone_names()


def zone_abbreviation(name: str, at: dt.datetime) -> str:
    """The zone's abbreviation at instant `at` (naive means UTC), as PHP's date('T') gives it."""
    zone = zone_from_name(name)
    if isinstance(zone, dt.timezone):
        # PHP has no abbreviation for a manual offset; the plugin shows the offset name itself.
        return name
    if at.tzinfo is None:
        at = at.replace(tzinfo=_UTC)
    # Zones without a letter abbreviation ("+08") come back numeric, which PHP shows as is too.
    return at.astimezone(zone).tzname() or name


# --- calendar days -------------------------------------------------------------------------------


def day_start(d: dt.date, cutoff: dt.time = dt.time(0, 0)) -> dt.datetime:
    """First second of calendar day `d` when days begin at the multi-day cut-off, as naive wall-clock time
    (events are compared on their stored wall-clock times, the same whatever zone the day is in)."""
    return dt.datetime.combine(d, cutoff.replace(tzinfo=None))


def day_end(d: dt.date, cutoff: dt.time = dt.time(0, 0)) -> dt.datetime:
    """Last second (hh:mm:59 before the next cut-off) of calendar day `d`, as naive wall-clock time."""
    return day_start(d, cutoff) + _ONE_DAY - _ONE_SECOND


# --- an event's zone and its stored wall clocks -------------------------------------------------


def site_zone_name():
    """The site's zone (settings.TIME_ZONE): an event without a zone of its own is in it."""
    return timezone.get_default_timezone_name()


def zone_for(event_zone_name):
    """The event's zone, or the site zone when the event has none stored."""
    return zone_from_name(event_zone_name or site_zone_name())


def wall_clock(stored):
    """The naive wall-clock time kept in a `*_local` column."""
    return stored.astimezone(dt.UTC).replace(tzinfo=None)
