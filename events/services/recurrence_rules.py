"""The grammar of a recurrence rule (docs/recurrence.md#rules): RFC 5545 RRULE parts, their values and one order.

One table says every part a rule may have, the values it takes and the frequencies it goes with;
a second says what parts refuse each other. A rule is read in one pass over its parts, and what is
kept is its canonical text: the table's order, upper case, numbers without signs or zeros in front.
"""

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from ..conf import events_settings

FREQUENCIES = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
FINER_FREQUENCIES = ("SECONDLY", "MINUTELY", "HOURLY")
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
# RFC 5545 bounds neither: a thousand periods is past a series' span for every frequency but
# daily, and a thousand characters hold any list of values a rule has use for.
MAX_INTERVAL = 1000
MAX_RULE_CHARACTERS = 1000

_NUMBER = re.compile(r"([+-]?)([0-9]{1,3})")
_WEEKDAY = re.compile(r"([+-]?)([0-9]{1,2})?(MO|TU|WE|TH|FR|SA|SU)")
_UNTIL = re.compile(r"[0-9]{8}(T[0-9]{6}Z?)?")


class RuleError(ValueError):
    """What is wrong with a rule, in words for whoever wrote it."""


@dataclass(frozen=True)
class Part:
    """A part of a rule: its name, how its value is read (to its canonical text), which FREQs it goes with."""

    name: str
    read: Callable[[str, str], str]
    frequencies: tuple = FREQUENCIES


def _frequency(value, frequency):
    if value in FINER_FREQUENCIES:
        raise RuleError(_("A rule repeats daily, weekly, monthly or yearly (FREQ), not more often."))
    if value not in FREQUENCIES:
        raise RuleError(_("FREQ is one of DAILY, WEEKLY, MONTHLY or YEARLY."))
    return value


def _whole_number(name, value, low, high):
    number = int(value) if re.fullmatch(r"[0-9]{1,9}", value) else None
    if number is None or not low <= number <= high:
        raise RuleError(
            _("%(part)s is a whole number from %(low)s to %(high)s.") % {"part": name, "low": low, "high": high}
        )
    return str(number)


def _interval(value, frequency):
    return _whole_number("INTERVAL", value, 1, MAX_INTERVAL)


def _count(value, frequency):
    # Its upper bound is the series' (MAX_OCCURRENCES_PER_SERIES), refused in the series' words.
    return _whole_number("COUNT", value, 1, 999_999_999)


def too_many_occurrences(limit=None):
    limit = events_settings.MAX_OCCURRENCES_PER_SERIES if limit is None else limit
    return _("The series would have more than %(limit)s occurrences: end it sooner (COUNT or UNTIL).") % {
        "limit": limit
    }


def _numbers(name, highest, signed=True):
    """A reader of a list of numbers from 1 to `highest` (per FREQ when a dict), and their negatives when `signed`."""

    def read(value, frequency):
        high = highest[frequency] if isinstance(highest, dict) else highest
        numbers = []
        for item in value.split(","):
            match = _NUMBER.fullmatch(item)
            number = int(item) if match and (signed or not match.group(1)) else 0
            if not 1 <= abs(number) <= high:
                low = -high if signed else 1
                raise RuleError(
                    _("%(part)s takes numbers from %(low)s to %(high)s (not 0) with FREQ=%(freq)s.")
                    % {"part": name, "low": low, "high": high, "freq": frequency}
                )
            numbers.append(str(number))
        return ",".join(numbers)

    return read


# How far a weekday's position (2TU: the second Tuesday) goes: in a month or a year; other frequencies take none.
WEEKDAY_POSITIONS = {"DAILY": 0, "WEEKLY": 0, "MONTHLY": 5, "YEARLY": 53}


def _weekdays(value, frequency):
    days = []
    for item in value.split(","):
        match = _WEEKDAY.fullmatch(item)
        if match is None:
            raise RuleError(_("BYDAY is a list of weekdays (MO to SU), each with an optional position such as 2TU."))
        sign, position, day = match.groups()
        if position is None:
            days.append(day)
            continue
        highest = WEEKDAY_POSITIONS[frequency]
        if not 1 <= int(position) <= highest:
            raise RuleError(
                _("A weekday's position in BYDAY goes from 1 to %(high)s (or -1 to -%(high)s) with FREQ=%(freq)s.")
                % {"high": highest, "freq": frequency}
                if highest
                else _("BYDAY takes weekdays without a position (such as 2TU) with FREQ=%(freq)s.")
                % {"freq": frequency}
            )
        days.append(f"{'-' if sign == '-' else ''}{int(position)}{day}")
    return ",".join(days)


def _weekday(value, frequency):
    if value not in WEEKDAYS:
        raise RuleError(_("WKST is a weekday, MO to SU."))
    return value


def _until(value, frequency):
    try:
        if _UNTIL.fullmatch(value) is None:
            raise ValueError(value)
        dt.datetime.strptime(value[:15], "%Y%m%dT%H%M%S" if "T" in value else "%Y%m%d")
    except ValueError:
        raise RuleError(_("UNTIL is a date (20270630) or a time (20270630T235959Z, in UTC with its Z).")) from None
    return value


# Every part a rule may have, in the order its canonical text writes them (the order in which RFC
# 5545 §3.3.10 applies the BY parts). BYHOUR, BYMINUTE and BYSECOND would repeat within a day.
PARTS = (
    Part("FREQ", _frequency),
    Part("INTERVAL", _interval),
    Part("BYMONTH", _numbers("BYMONTH", 12, signed=False)),
    Part("BYWEEKNO", _numbers("BYWEEKNO", 53), ("YEARLY",)),
    Part("BYYEARDAY", _numbers("BYYEARDAY", 366), ("YEARLY",)),
    Part("BYMONTHDAY", _numbers("BYMONTHDAY", 31), ("DAILY", "MONTHLY", "YEARLY")),
    Part("BYDAY", _weekdays),
    # A position past the most dates one period can hold would pick nothing, ever.
    Part("BYSETPOS", _numbers("BYSETPOS", {"DAILY": 1, "WEEKLY": 7, "MONTHLY": 31, "YEARLY": 366})),
    Part("WKST", _weekday),
    Part("COUNT", _count),
    Part("UNTIL", _until),
)
PART_NAMES = tuple(part.name for part in PARTS)
WITHIN_A_DAY = ("BYHOUR", "BYMINUTE", "BYSECOND")


def _has_position(days):
    return any(_WEEKDAY.fullmatch(day).group(2) for day in days.split(","))


# Parts that refuse each other, and what the refusal says.
CONFLICTS = (
    (lambda parts: "COUNT" in parts and "UNTIL" in parts, _("A rule ends by COUNT or by UNTIL, not both.")),
    (
        lambda parts: "BYSETPOS" in parts and not any(name.startswith("BY") for name in parts if name != "BYSETPOS"),
        _("BYSETPOS picks among the dates the other BY parts give: use it with one of them."),
    ),
    (
        lambda parts: "BYWEEKNO" in parts and _has_position(parts.get("BYDAY", "")),
        _("BYDAY takes weekdays without a position (such as 2TU) with BYWEEKNO."),
    ),
)


def canonical_rule(text):
    """The parts of one RRULE value (a leading `RRULE:` allowed), read and in the canonical order;
    RuleError says what is wrong."""
    text = text.strip()
    if text[:6].upper() == "RRULE:":
        text = text[6:]
    if len(text) > MAX_RULE_CHARACTERS:
        raise RuleError(_("A rule is at most %(count)s characters long.") % {"count": MAX_RULE_CHARACTERS})
    written = {}
    for item in text.split(";"):
        name, equals, value = (piece.strip().upper() for piece in item.partition("="))
        if not equals or not name or not value or re.fullmatch(r"[A-Z]+", name) is None:
            raise RuleError(_("Each rule is one RRULE value, such as FREQ=WEEKLY;BYDAY=TU."))
        if name in written:
            raise RuleError(_("%(part)s is written twice in the rule.") % {"part": name})
        if name not in PART_NAMES:
            raise RuleError(
                _("A rule repeats daily at most: it has no %(part)s.") % {"part": name}
                if name in WITHIN_A_DAY
                else _("A rule has no part %(part)s in RFC 5545 as read here.") % {"part": name}
            )
        written[name] = value
    if "FREQ" not in written:
        raise RuleError(_("A rule says how often it repeats: FREQ=DAILY, WEEKLY, MONTHLY or YEARLY."))
    frequency = _frequency(written["FREQ"], None)
    parts = {}
    for part in PARTS:
        if part.name not in written:
            continue
        if frequency not in part.frequencies:
            raise RuleError(_("%(part)s cannot be used with FREQ=%(freq)s.") % {"part": part.name, "freq": frequency})
        parts[part.name] = part.read(written[part.name], frequency)
    for conflicts, message in CONFLICTS:
        if conflicts(parts):
            raise RuleError(message)
    return parts


def rule_text(parts):
    """A rule's text from its parts: the canonical order, then any other part (of a rule stored long ago)."""
    names = [name for name in PART_NAMES if name in parts] + [name for name in parts if name not in PART_NAMES]
    return ";".join(f"{name}={parts[name]}" for name in names)
