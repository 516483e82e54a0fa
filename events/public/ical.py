"""iCalendar (RFC 5545) files of published events: what `?ical=1` and an event's `ical/` link answer."""

import datetime as dt
import html
import logging
import math
import re

import icalendar
from django.utils.translation import gettext as _

from ..dates import site_zone_name, wall_clock, zone_for
from ..exceptions import DATABASE_FAULTS, CalendarError
from ..models import Taxonomy
from ..presentation.links import global_id, post_url
from ..queries.series import series_in_feed
from ..services import recurrence
from ..text import is_email, strip_tags, texturize
from . import display
from .discovery import home_url

# The plugin's PRODID ends with its version after "ECPv"; clients that see the marker read the REST
# API of the same origin, which this service serves as that line of the plugin does.
COMPATIBLE_PLUGIN_VERSION = "6.0.0"
# SEQUENCE is the count of seconds from this date to the event's last change: it grows with every
# edit without a stored counter, and stays within the 32-bit INTEGER of RFC 5545 until 2068.
SEQUENCE_EPOCH = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
MEDIA_TYPE = "text/calendar; charset=utf-8"

logger = logging.getLogger(__name__)

_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_BLOCK_END = re.compile(r"</(?:p|div|h[1-6]|li|blockquote|pre|tr|ul|ol)>", re.IGNORECASE)
_BLANK_LINES = re.compile(r"\n{3,}")
# Runs of HTML whitespace read as one space; a no-break space is text and stays.
_SPACES = re.compile(r"[ \t\r\f]+")


def plain_text(markup):
    """HTML as plain text for a calendar client: paragraphs apart, tags gone, entities decoded."""
    text = _BLOCK_END.sub("\n\n", _LINE_BREAK.sub("\n", markup))
    text = html.unescape(strip_tags(text))
    lines = [_SPACES.sub(" ", line).strip(" ") for line in text.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def title_text(record):
    return plain_text(texturize(record.title or ""))


def product_id(request):
    """The plugin's PRODID form, with the host as the site name (the name the REST index gives the site)."""
    return f"-//{request.get_host()} - ECPv{COMPATIBLE_PLUGIN_VERSION}//NONSGML v1.0//EN"


def last_changed(event):
    """The newest change among what an event's entry shows: the event, its venue and its organizers."""
    linked = [event.venue] if event.venue_id is not None and event.venue is not None else []
    linked += [link.organizer for link in event.shown_organizer_links()]
    return max([event.modified, *(record.modified for record in linked)]).astimezone(dt.UTC).replace(microsecond=0)


def uid(event, request):
    """`<id>@<site>`, the site as the record's global ID names it (host and mount path, no language
    prefix): the same in every language and through reschedules, unlike the plugin's `<id>-<start>-<end>`."""
    site = global_id(request, event.pk).rpartition("?")[0]
    return f"{event.pk}@{site}"


def sequence(changed):
    return max(0, int((changed - SEQUENCE_EPOCH).total_seconds()))


def all_day_dates(event):
    """The first and last days of an all-day event, on its own wall clock."""
    return wall_clock(event.start_local).date(), wall_clock(event.end_local).date()


def event_times(event):
    """(DTSTART, DTEND) values: dates for all-day events (the end exclusive), else times in the event's zone.

    An all-day event's exclusive end, the day after its last, is held at 9999-12-31: no date follows
    it. Manual offsets ("UTC+5") have no IANA name for a VTIMEZONE, so those times are written in UTC.
    """
    if event.all_day:
        first, last = all_day_dates(event)
        return first, _shifted(last, 1)
    zone = zone_for(event.timezone_name)
    if isinstance(zone, dt.timezone):
        zone = dt.UTC
    return event.start_utc.astimezone(zone), event.end_utc.astimezone(zone)


def location(venue, locked):
    if locked:
        return title_text(venue)
    return ", ".join([title_text(venue), *display.address_lines(venue)])


def organizer_address(organizer, request):
    """The ORGANIZER value: a mailto: address when the organizer shows an email address, else its page
    (the API stores any text as the email)."""
    shows_email = is_email(organizer.email) and not organizer.password
    address = icalendar.vCalAddress(f"mailto:{organizer.email}" if shows_email else post_url(request, organizer))
    address.params["CN"] = icalendar.vText(title_text(organizer))
    return address


def event_entry(event, request):
    """The VEVENT of one published event, as its page shows it to an anonymous reader."""
    entry = icalendar.Event()
    changed = last_changed(event)
    start, end = event_times(event)
    entry.add("uid", uid(event, request))
    # Without a METHOD, DTSTAMP is the last revision of the information (RFC 5545 §3.8.7.2).
    entry.add("dtstamp", changed)
    entry.add("last-modified", changed)
    entry.add("sequence", sequence(changed))
    entry.add("dtstart", start)
    if event.all_day and end == dt.date.max:
        # The exclusive end of an event through 9999-12-31 has no date: its length says it exactly.
        first, last = all_day_dates(event)
        entry.add("duration", last - first + dt.timedelta(days=1))
    else:
        entry.add("dtend", end)
    entry.add("summary", title_text(event))
    description = plain_text(display.description_html(event))
    if description:
        entry.add("description", description)
    venue = event.venue if event.venue_id is not None else None
    if venue is not None:
        locked = bool(venue.password)
        entry.add("location", location(venue, locked))
        if not locked and venue.has_coordinates:
            entry.add("geo", (float(venue.geo_lat), float(venue.geo_lng)))
    organizers = [link.organizer for link in event.shown_organizer_links()]
    if organizers:
        # RFC 5545 allows one ORGANIZER per event: the first one listed, as the plugin writes it.
        entry.add("organizer", organizer_address(organizers[0], request))
    categories = [plain_text(term.name) for term in event.shown_terms() if term.taxonomy == Taxonomy.CATEGORY]
    if categories:
        entry.add("categories", categories)
    entry.add("url", post_url(request, event))
    image = display.image(event.image, request)
    if image and image["url"]:
        entry.add(
            "attach", image["url"], parameters={"FMTTYPE": event.image.mime_type} if event.image.mime_type else None
        )
    return entry


def calendar_file(events, request, name, limit=None):
    """The .ics bytes of `events` (already in order), named `name`; `limit`, when given, says the list was cut there."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", product_id(request))
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    # A property value is one line: a title written with paragraphs would end the property early.
    calendar.add("x-wr-calname", " ".join(str(name).split()))
    calendar.add("x-wr-timezone", site_zone_name())
    calendar.add("x-original-url", home_url(request))
    if limit is not None:
        notice = _("This calendar holds only the first %(limit)s events of this view.") % {"limit": limit}
        # DESCRIPTION of a calendar is RFC 7986; X-WR-CALDESC is what older clients read.
        calendar.add("description", notice)
        calendar.add("x-wr-caldesc", notice)
    entries, spans = calendar_entries(events, request)
    for entry in entries:
        calendar.add_component(entry)
    if spans:
        # VTIMEZONE blocks covering the days the events span: small, and within any year (long
        # RDATE lists over decades are also more than some parsers read correctly).
        first = _shifted(min(start for start, _end in spans).date(), -1)
        last = _shifted(max(end for _start, end in spans).date(), 2)
        calendar.add_missing_timezones(first_date=first, last_date=last)
    return calendar.to_ical()


def calendar_entries(events, request):
    """The VEVENTs of `events` in order, and the (start, end) wall clocks they span. The occurrences
    of a series are one VEVENT with its rules where the first of them stands, and one VEVENT with a
    RECURRENCE-ID for each occurrence edited on its own (docs/recurrence.md)."""
    series = series_in_feed(sorted({event.series_id for event in events if event.series_id is not None}))
    entries, spans, written = [], [], set()
    for event in events:
        if event.series_id is not None and event.series_id in series and event.series_id in written:
            continue
        try:
            if event.series_id is None or event.series_id not in series:
                event_entries = [event_entry(event, request)]
                event_spans = [(wall_clock(event.start_local), wall_clock(event.end_local))]
            else:
                written.add(event.series_id)
                event_entries, event_spans = _series_entries(series[event.series_id], request)
            # Written here, so that a value the writer refuses leaves this record out, not the file.
            for entry in event_entries:
                entry.to_ical()
        except DATABASE_FAULTS:
            raise
        except CalendarError as refusal:
            # A series stored before its rule would be refused: left out, not the feed for everyone.
            logger.warning("Event %s left out of a calendar file: %s", event.pk, refusal)
            continue
        except Exception:
            # Nor does any other record a calendar file cannot hold.
            logger.exception("Event %s left out of a calendar file: it cannot be written.", event.pk)
            continue
        entries.extend(event_entries)
        spans.extend(event_spans)
    return entries, spans


def _series_entries(found, request):
    first, zone = found.first, zone_for(found.first.timezone_name)
    visible = {wall_clock(start): event for start, event in found.visible.items()}
    rules = recurrence.Recurrence.of(found.series)
    until = wall_clock(found.series.materialised_until) if found.series.materialised_until else None
    # What the series holds now: made within the limit of its day, whatever the limit is today.
    starts = recurrence.expand(rules, first, until, limit=math.inf)
    # The VEVENT with the rules reads as the occurrences not edited on their own do.
    unedited = [visible[start] for start in starts if start in visible and not visible[start].series_edits]
    template = unedited[0] if unedited else first
    master = event_entry(template, request)
    series_uid = uid(first, request)
    first_start = wall_clock(first.start_local)
    length = template.end_local - template.start_local
    master["uid"] = icalendar.vText(series_uid)
    for name in ("dtstart", "dtend", "duration", "url"):
        master.pop(name, None)
    master.add("dtstart", _moment(first_start, first, zone))
    if first.all_day:
        master.add("dtend", _moment(first_start, first, zone) + dt.timedelta(days=length.days + 1))
    else:
        master.add("dtend", _moment(first_start + length, first, zone))
    for rule in rules.rules:
        master.add("rrule", icalendar.vRecur.from_ical(_exported_rule(recurrence.canonical_rule(rule), first, zone)))
    if rules.dates:
        master.add("rdate", [_moment(date, first, zone) for date in rules.dates])
    # Excluded, and made but not shown to anonymous readers (trashed, a draft, hidden, locked).
    left_out = sorted({*rules.exclusions, *(start for start in starts if start not in visible)})
    if left_out:
        master.add("exdate", [_moment(date, first, zone) for date in left_out])
    master.add("url", post_url(request, first))
    entries = [master]
    spans = [(first_start, first_start + length), (starts[-1], starts[-1] + length)]
    for start in starts:
        event = visible.get(start)
        if event is None or event is template or not event.series_edits:
            continue
        entry = event_entry(event, request)
        entry["uid"] = icalendar.vText(series_uid)
        entry.add("recurrence-id", _moment(start, first, zone))
        entries.append(entry)
        spans.append((wall_clock(event.start_local), wall_clock(event.end_local)))
    return entries, spans


def _moment(wall, event, zone):
    """A series' date-time as its VEVENTs write it: a date for all-day series, else the zone's time
    (UTC for manual offsets, which have no VTIMEZONE), as event_times() writes DTSTART."""
    if event.all_day:
        return wall.date()
    aware = wall.replace(tzinfo=zone)
    return aware.astimezone(dt.UTC) if isinstance(zone, dt.timezone) else aware


def _exported_rule(parts, event, zone):
    """A rule's canonical text (its parts read again: a rule stored long ago may no longer be
    read); RFC 5545 wants UNTIL as a date when DTSTART is one, else in UTC."""
    rule = recurrence.utc_until(recurrence.rule_text(parts), zone)
    if not event.all_day:
        return rule
    parts = recurrence.rule_parts(rule)
    if "UNTIL" in parts:
        moment = dt.datetime.strptime(parts["UNTIL"], "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC).astimezone(zone)
        parts["UNTIL"] = moment.strftime("%Y%m%d")
    return recurrence.rule_text(parts)


def _shifted(day, days):
    """`day` moved by `days`, held at the ends of what dates can hold."""
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:
        return day
