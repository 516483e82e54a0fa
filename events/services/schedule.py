"""An event's time: wall-clock start/end in its named zone, the UTC instants and the abbreviation."""

import datetime as dt

from django.utils import timezone

from .. import dates
from ..dates import zone_for
from ..exceptions import InvalidValue


def set_event_times(event, start_local, end_local, zone_name=None, all_day=None):
    """Store wall-clock `start_local`/`end_local` (naive) read in `zone_name`, and derive the rest.

    All-day events run from 00:00:00 of the first day to 23:59:59 of the last; an end before the
    start is moved to the start (the plugin saves such events rather than refusing them).
    """
    if zone_name is not None:
        event.timezone_name = zone_name
    if all_day is not None:
        event.all_day = all_day
    zone = zone_for(event.timezone_name)
    if event.all_day:
        start_local = dt.datetime.combine(start_local.date(), dt.time(0, 0, 0))
        end_local = dt.datetime.combine(end_local.date(), dt.time(23, 59, 59))
    start_local = start_local.replace(microsecond=0, tzinfo=None)
    end_local = end_local.replace(microsecond=0, tzinfo=None)
    if end_local < start_local:
        end_local = start_local
    event.start_local = start_local.replace(tzinfo=dt.UTC)
    event.end_local = end_local.replace(tzinfo=dt.UTC)
    event.start_utc = start_local.replace(tzinfo=zone).astimezone(dt.UTC)
    event.end_utc = end_local.replace(tzinfo=zone).astimezone(dt.UTC)
    event.timezone_abbr = dates.zone_abbreviation(event.timezone_name, event.start_utc) if event.timezone_name else ""
    return event


def set_occurrence_times(event, start_local, length, zone_name, all_day):
    """set_event_times for an occurrence of a series, whose start the rules give: a start the clocks
    skip (02:30 on the night they go from 02:00 to 03:00) moves on by the gap, as a typed start is
    read (events/dates.py), and the occurrence keeps its length, so it never ends before it starts."""
    if not all_day:
        zone = zone_for(zone_name)
        start_local = existing_wall_clock(start_local, zone)
        return set_event_times(event, start_local, existing_wall_clock(start_local + length, zone), zone_name, all_day)
    return set_event_times(event, start_local, start_local + length, zone_name, all_day)


def existing_wall_clock(wall, zone):
    """`wall` (naive) as the clocks of `zone` show it: a time they skip is read with the offset
    before the change (zoneinfo's fold=0, as RFC 5545 reads it), so it moves on by the gap."""
    try:
        return wall.replace(tzinfo=zone).astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None)
    except OverflowError:
        # At the very ends of the calendar; no daylight-saving change there.
        return wall


def apply_publication_date(record, fields, now):
    """The publication date of an event, venue or organizer from the write's `date` or `date_utc`.

    `date` is a wall clock of the site's zone, as WordPress keeps `post_date` (epoch seconds as their
    UTC wall clock, a source quirk); relative words in it ("tomorrow 9am") count from today in the
    event's zone when the write names one (`timezone`), as the plugin reads them, and the wall clock
    they give is kept, not converted between the zones (docs/contract/events.md §4). `date_utc` is read in UTC and
    wins when both are sent: it names an instant without ambiguity. An aware datetime is that
    instant. The instant is stored.
    """
    name = "date_utc" if "date_utc" in fields else "date" if "date" in fields else None
    if name is None:
        return
    try:
        if isinstance(fields[name], dt.datetime) and fields[name].tzinfo is not None:
            record.date = fields[name].astimezone(dt.UTC)
        elif name == "date_utc":
            record.date = dates.parse_date_input(fields[name], dt.UTC, now).local.astimezone(dt.UTC)
        else:
            site_zone = timezone.get_default_timezone()
            read_in = dates.zone_from_name(fields["timezone"]) if fields.get("timezone") else site_zone
            parsed = dates.parse_date_input(fields[name], read_in, now)
            moment = parsed.local.astimezone(dt.UTC) if parsed.explicit_zone else parsed.local
            # Converted once here so that a wall-clock time at the calendar's very ends fails now, not when stored.
            record.date = moment.replace(tzinfo=None).replace(tzinfo=site_zone).astimezone(dt.UTC)
    except (ValueError, OverflowError) as error:
        raise InvalidValue(name) from error
