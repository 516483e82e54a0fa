"""A series' rules in words, in the active language ("Every Tuesday and Thursday until 30 June 2027")."""

import datetime as dt

from django.utils import formats
from django.utils.dates import MONTHS, WEEKDAYS
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .services.recurrence import rule_parts

DAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def ordinal(position):
    names = {
        1: _("first"),
        2: _("second"),
        3: _("third"),
        4: _("fourth"),
        5: _("fifth"),
        -1: _("last"),
        -2: _("second to last"),
    }
    return names.get(position)


def joined(items):
    """ "a, b and c" in the language."""
    items = [str(item) for item in items]
    if len(items) < 2:
        return "".join(items)
    return _("%(items)s and %(last)s") % {"items": _(", ").join(items[:-1]), "last": items[-1]}


def _days(value):
    """BYDAY as words, or None when a part is not one the sentence can say."""
    plain, positioned = [], []
    for part in value.split(","):
        code, number = part[-2:], part[:-2]
        if code not in DAY_CODES:
            return None
        day = WEEKDAYS[DAY_CODES.index(code)]
        if number:
            try:
                word = ordinal(int(number))
            except ValueError:
                return None
            if word is None:
                return None
            positioned.append(_("the %(ordinal)s %(day)s") % {"ordinal": word, "day": day})
        else:
            plain.append(day)
    if plain and positioned:
        return None
    return plain, positioned


def _numbers(value):
    try:
        return [int(part) for part in value.split(",")]
    except ValueError:
        return None


def rule_in_words(rule, zone):
    """One RRULE value as a sentence; a rule with parts the sentence cannot say reads as its frequency."""
    parts = rule_parts(rule)
    frequency = parts.get("FREQ", "")
    try:
        interval = int(parts.get("INTERVAL", "1"))
    except ValueError:
        interval = 1
    days = _days(parts["BYDAY"]) if "BYDAY" in parts else ([], [])
    month_days = _numbers(parts["BYMONTHDAY"]) if "BYMONTHDAY" in parts else []
    months = _numbers(parts["BYMONTH"]) if "BYMONTH" in parts else []
    unsaid = (
        days is None
        or month_days is None
        or months is None
        or any(name in parts for name in ("BYSETPOS", "BYYEARDAY", "BYWEEKNO", "BYHOUR", "BYMINUTE", "BYSECOND"))
    )
    if unsaid:
        sentence = {
            "DAILY": _("Repeats daily"),
            "WEEKLY": _("Repeats weekly"),
            "MONTHLY": _("Repeats monthly"),
            "YEARLY": _("Repeats yearly"),
        }.get(frequency, _("Repeats"))
    else:
        plain, positioned = days
        sentence = _period(frequency, interval)
        if plain and frequency == "WEEKLY" and interval == 1:
            sentence = _("Every %(days)s") % {"days": joined(plain)}
        elif plain:
            sentence = _("%(period)s on %(days)s") % {"period": sentence, "days": joined(plain)}
        if positioned:
            sentence = _("%(period)s on %(days)s") % {"period": sentence, "days": joined(positioned)}
        if month_days:
            sentence = ngettext("%(period)s on day %(days)s", "%(period)s on days %(days)s", len(month_days)) % {
                "period": sentence,
                "days": joined(month_days),
            }
        if months:
            sentence = _("%(period)s in %(months)s") % {
                "period": sentence,
                "months": joined(MONTHS[month] for month in months if 1 <= month <= 12),
            }
    return sentence + _ending(parts, zone)


def _period(frequency, interval):
    # Two messages, not one plural: languages with one plural form would say "every 1 day".
    if frequency == "DAILY":
        return _("Every day") if interval == 1 else _("Every %(count)s days") % {"count": interval}
    if frequency == "WEEKLY":
        return _("Every week") if interval == 1 else _("Every %(count)s weeks") % {"count": interval}
    if frequency == "MONTHLY":
        return _("Every month") if interval == 1 else _("Every %(count)s months") % {"count": interval}
    return _("Every year") if interval == 1 else _("Every %(count)s years") % {"count": interval}


def _ending(parts, zone):
    if "COUNT" in parts:
        try:
            count = int(parts["COUNT"])
        except ValueError:
            return ""
        return ngettext(", %(count)s time", ", %(count)s times", count) % {"count": count}
    if "UNTIL" in parts:
        text = parts["UNTIL"]
        try:
            if text.endswith("Z"):
                moment = dt.datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC).astimezone(zone)
            else:
                moment = dt.datetime.strptime(text[:8], "%Y%m%d")
        except ValueError:
            return ""
        return _(" until %(date)s") % {"date": formats.date_format(moment.date(), "DATE_FORMAT")}
    return ""


def series_in_words(series, zone):
    """Each rule of a series as a sentence; extra and excluded dates are shown as dates, not words."""
    return [rule_in_words(rule, zone) for rule in series.rules]
