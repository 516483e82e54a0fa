"""Reading an iCalendar (RFC 5545) source: each VEVENT as the event services' fields.

A VEVENT with RRULE/RDATE/EXDATE becomes a series (docs/recurrence.md: the rules are judged by
services.recurrence as any client's), one with a RECURRENCE-ID an edited occurrence of it. Times
keep their zone (a TZID, a Windows zone name as Outlook writes them, the calendar's X-WR-TIMEZONE
for UTC and floating times); a VALUE=DATE start is all day.
"""

import datetime as dt
import html
import re

import icalendar
from django.utils.translation import gettext as _
from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from .. import dates
from ..conf import events_settings
from ..dates import site_zone_name
from .fetch import SourceUnreadable
from .items import Reading, RemoteEvent

ALL_DAY_START = dt.time(0, 0)
_VEVENT_START = re.compile(rb"^BEGIN:VEVENT\s*$", re.IGNORECASE | re.MULTILINE)
# Longer texts are cut: a title or a term name has no use for more.
MAX_NAME_CHARACTERS = 200


def looks_like_ical(body):
    return body.lstrip(b"\xef\xbb\xbf \t\r\n")[:15].upper() == b"BEGIN:VCALENDAR"


def read_ical(body):
    """The events of an iCalendar file; a component that cannot be read is skipped and reported."""
    reading = Reading()
    if not looks_like_ical(body):
        # An error page served with 200 is not an empty calendar: nothing has left the source.
        raise SourceUnreadable(_("The source no longer serves an iCalendar file."))
    try:
        calendars = icalendar.Calendar.from_ical(body, multiple=True)
    except (ValueError, IndexError, KeyError, TypeError) as error:
        raise SourceUnreadable(_("It is not an iCalendar file: %(reason)s") % {"reason": error}) from error
    components = 0
    for calendar in calendars:
        default_zone = _known_zone(str(calendar.get("X-WR-TIMEZONE", "")).strip()) or site_zone_name()
        for component in calendar.walk("VEVENT"):
            components += 1
            where = str(component.get("UID", "")).strip()[:100] or _("an event without UID")
            try:
                event = _remote_event(component, default_zone)
            except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as error:
                reading.problem(where, str(error) or error.__class__.__name__)
                continue
            if not reading.add(event):
                break
    written = len(_VEVENT_START.findall(body))
    if components < written and reading.complete:
        # The parser gives up silently on a component it cannot close: those events are unread,
        # so the reading cannot say which events left the source.
        reading.problem(
            _("file"),
            _("%(count)s events could not be read (a component is not closed).") % {"count": written - components},
        )
        reading.complete = False
    # Series first, so that their edited occurrences find them made.
    reading.events.sort(key=lambda event: bool(event.series_key))
    return reading


def _remote_event(component, default_zone):
    uid = str(component.get("UID", "")).strip()
    if not uid:
        raise ValueError(_("The event has no UID."))
    start_property = component.get("DTSTART")
    if start_property is None:
        raise ValueError(_("The event has no start (DTSTART)."))
    start_value = start_property.dt
    all_day = not isinstance(start_value, dt.datetime)
    zone_name = default_zone if all_day else _zone_name(start_property, default_zone)
    start = _wall_clock(start_value, zone_name)
    end = _end(component, start_value, start, zone_name, all_day)
    fields = {
        "title": _text(component.get("SUMMARY"))[: MAX_NAME_CHARACTERS * 5],
        "description": _description(component),
        "start_date": dates.format_wp(start),
        "end_date": dates.format_wp(end),
        "all_day": all_day,
        "timezone": zone_name,
        "website": _text(component.get("URL")),
        "venue": _venue(component),
        "organizer": _organizers(component),
        "categories": _categories(component),
    }
    recurrence_id = component.get("RECURRENCE-ID")
    if recurrence_id is not None:
        occurrence = _wall_clock(recurrence_id.dt, _zone_name(recurrence_id, zone_name))
        if not isinstance(recurrence_id.dt, dt.datetime):
            occurrence = dt.datetime.combine(recurrence_id.dt, ALL_DAY_START)
        return RemoteEvent(
            key=f"{uid}#{occurrence.isoformat()}",
            fields=fields,
            cancelled=_cancelled(component),
            series_key=uid,
            occurrence_start=occurrence,
        )
    fields["recurrence"] = _recurrence(component, zone_name, start, all_day)
    return RemoteEvent(key=uid, fields=fields, cancelled=_cancelled(component))


# --- time -----------------------------------------------------------------------------------------


def _known_zone(name):
    """`name` as a zone the calendar knows (an IANA name, or the IANA name of a Windows one), else ""."""
    if not name:
        return ""
    for candidate in (name, WINDOWS_TO_OLSON.get(name, ""), "/".join(name.strip("/").split("/")[-2:])):
        try:
            if candidate:
                dates.zone_from_name(candidate)
                return candidate
        except ValueError:
            continue
    return ""


def _zone_name(date_property, default_zone):
    """The zone a time is written in: its TZID when the calendar knows the zone, UTC as UTC unless
    the calendar names its zone, a floating time as the calendar's zone."""
    value = date_property.dt
    known = _known_zone(str(date_property.params.get("TZID", "")))
    if known:
        return known
    zone = getattr(value, "tzinfo", None)
    if zone is None or value.utcoffset() == dt.timedelta(0):
        return default_zone
    key = getattr(zone, "key", None) or getattr(zone, "zone", None)
    if key and _known_zone(key):
        return key
    # A zone defined only by the file's VTIMEZONE under a name nothing else knows: the instant is
    # kept, shown in UTC.
    return "UTC"


def _wall_clock(value, zone_name):
    if not isinstance(value, dt.datetime):
        return dt.datetime.combine(value, ALL_DAY_START)
    if value.tzinfo is None:
        return value
    return value.astimezone(dates.zone_from_name(zone_name)).replace(tzinfo=None)


def _end(component, start_value, start, zone_name, all_day):
    end_property = component.get("DTEND")
    if end_property is not None:
        end_value = end_property.dt
        if all_day:
            # DTEND of an all-day event is the day after its last.
            last = end_value if not isinstance(end_value, dt.datetime) else end_value.date()
            return dt.datetime.combine(max(start.date(), last - dt.timedelta(days=1)), ALL_DAY_START)
        return max(start, _wall_clock(end_value, zone_name))
    duration = component.get("DURATION")
    if duration is not None and isinstance(duration.dt, dt.timedelta):
        length = max(duration.dt, dt.timedelta(0))
        if all_day:
            return start + max(dt.timedelta(0), dt.timedelta(days=length.days - 1))
        return start + length
    return start


# --- recurrence -----------------------------------------------------------------------------------


def _recurrence(component, zone_name, start, all_day):
    rules = [_rule_text(rule) for rule in _as_list(component.get("RRULE"))]
    # A series starts at its DTSTART here (docs/recurrence.md): an RDATE before it has no place in it.
    extra = [date for date in _moments(component.get("RDATE"), zone_name, start) if date > start]
    excluded = _moments(component.get("EXDATE"), zone_name, start)
    if not rules and not extra:
        return None
    # The service refuses more than it takes (docs/recurrence.md); counted here to say so before parsing them all.
    if len(extra) > events_settings.RECURRENCE_MAX_DATES or len(excluded) > events_settings.RECURRENCE_MAX_DATES:
        raise ValueError(
            _("The series has more than %(count)s extra or excluded dates.")
            % {"count": events_settings.RECURRENCE_MAX_DATES}
        )
    if all_day:
        extra = [dt.datetime.combine(date.date(), ALL_DAY_START) for date in extra]
        excluded = [dt.datetime.combine(date.date(), ALL_DAY_START) for date in excluded]
    return {
        "rules": rules,
        "dates": sorted({dates.format_wp(date) for date in extra}),
        "exclusions": sorted({dates.format_wp(date) for date in excluded if date != start}),
    }


def _rule_text(rule):
    text = rule.to_ical().decode() if hasattr(rule, "to_ical") else str(rule)
    if len(text) > 1000:
        raise ValueError(_("A rule is longer than 1000 characters."))
    return text


def _moments(value, zone_name, start):
    moments = []
    for item in _as_list(value):
        for date in getattr(item, "dts", ()):
            moment = date.dt
            if isinstance(moment, tuple):
                # A PERIOD: its start.
                moment = moment[0]
            if isinstance(moment, dt.datetime):
                moments.append(_wall_clock(moment, zone_name))
            elif isinstance(moment, dt.date):
                moments.append(dt.datetime.combine(moment, start.time()))
            if len(moments) > events_settings.RECURRENCE_MAX_DATES:
                return moments
    return moments


def _as_list(value):
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


# --- text and linked records ----------------------------------------------------------------------


def _text(value):
    if value is None:
        return ""
    if isinstance(value, list):
        value = value[0] if value else ""
    return str(value).strip()


def _description(component):
    """The HTML of X-ALT-DESC (as Outlook writes it) when given, else the plain DESCRIPTION as HTML;
    the event service filters it as an author's."""
    alternative = component.get("X-ALT-DESC")
    if alternative is not None and str(getattr(alternative, "params", {}).get("FMTTYPE", "")).lower() == "text/html":
        return str(alternative)
    text = _text(component.get("DESCRIPTION"))
    if not text:
        return ""
    return "\n".join(html.escape(line, quote=False) for line in text.split("\n"))


def _cancelled(component):
    return _text(component.get("STATUS")).upper() == "CANCELLED"


def _venue(component):
    """LOCATION as a venue: its first part the name, the rest the address (`Hall, 1 Main St, Town`)."""
    location = re.sub(r"\s+", " ", _text(component.get("LOCATION")))
    if not location:
        return None
    name, _comma, address = location.partition(", ")
    venue = {"venue": name[:MAX_NAME_CHARACTERS]}
    if address:
        venue["address"] = address[:MAX_NAME_CHARACTERS]
    return venue


def _organizers(component):
    found = []
    for organizer in _as_list(component.get("ORGANIZER"))[:10]:
        address = str(organizer).strip()
        email = address[7:] if address.lower().startswith("mailto:") else ""
        name = str(getattr(organizer, "params", {}).get("CN", "")).strip() or email or address
        if not name:
            continue
        fields = {"organizer": name[:MAX_NAME_CHARACTERS]}
        if email:
            fields["email"] = email[:MAX_NAME_CHARACTERS]
        elif address.lower().startswith(("http://", "https://")):
            fields["website"] = address[:2000]
        found.append(fields)
    return found


def _categories(component):
    names = []
    for value in _as_list(component.get("CATEGORIES")):
        for category in getattr(value, "cats", [value]):
            name = str(category).strip()[:MAX_NAME_CHARACTERS]
            if name and name not in names:
                names.append(name)
    return names
