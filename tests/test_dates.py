"""Tests for events.dates: the strtotime subset, WordPress formatting, zones and calendar days."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from events import dates

NEW_YORK = ZoneInfo("America/New_York")
UTC = dt.UTC
# A Wednesday; 11:04:05 EDT in New York.
NOW = dt.datetime(2024, 6, 12, 15, 4, 5, tzinfo=UTC)


def parse(value, tz=NEW_YORK, now=NOW):
    return dates.parse_date_input(value, tz, now)


def case(value, expected, explicit=False, id=None):
    return pytest.param(value, expected, explicit, id=id or str(value))


ACCEPTED = [
    # Epoch seconds are UTC instants.
    case(1514764800, "2018-01-01T00:00:00+00:00", True, id="epoch-int"),
    case("1514764800", "2018-01-01T00:00:00+00:00", True, id="epoch-string"),
    case(" 1514764800 ", "2018-01-01T00:00:00+00:00", True, id="epoch-string-padded"),
    case(-86400, "1969-12-31T00:00:00+00:00", True, id="epoch-negative-int"),
    case(1514764800.5, "2018-01-01T00:00:00.500000+00:00", True, id="epoch-float"),
    case(0, "1970-01-01T00:00:00+00:00", True, id="epoch-zero"),
    # Dates and date-times, read in the site zone unless they carry one.
    case("2018-01-05", "2018-01-05T00:00:00-05:00"),
    case("2018-1-5", "2018-01-05T00:00:00-05:00"),
    case("2018/01/05", "2018-01-05T00:00:00-05:00"),
    case("2018-01-05 14:23", "2018-01-05T14:23:00-05:00"),
    case("2018-01-05 14:23:36", "2018-01-05T14:23:36-05:00"),
    case("2018-07-05 14:23:36", "2018-07-05T14:23:36-04:00", id="summer-offset"),
    case("2018-01-05T14:23", "2018-01-05T14:23:00-05:00"),
    case("2018-01-05T14:23:36", "2018-01-05T14:23:36-05:00"),
    case("2018-01-05T14:23:36.123456", "2018-01-05T14:23:36.123456-05:00"),
    case("2018-01-05T14:23:36.1", "2018-01-05T14:23:36.100000-05:00", id="fraction-short"),
    case("2018-01-05T14:23:36Z", "2018-01-05T14:23:36+00:00", True),
    case("2018-01-05t14:23:36z", "2018-01-05T14:23:36+00:00", True, id="lower-case-t-z"),
    case("2018-01-05T14:23:36.5Z", "2018-01-05T14:23:36.500000+00:00", True),
    case("2018-01-05T14:23:36+05:00", "2018-01-05T14:23:36+05:00", True),
    case("2018-01-05T14:23:36+0500", "2018-01-05T14:23:36+05:00", True),
    case("2018-01-05 14:23:36 -03:30", "2018-01-05T14:23:36-03:30", True),
    case("2018-01-05 14:23:36 UTC", "2018-01-05T14:23:36+00:00", True),
    case("2018-01-05 UTC", "2018-01-05T00:00:00+00:00", True, id="date-utc"),
    # Keywords.
    case("now", "2024-06-12T11:04:05-04:00"),
    case("NOW", "2024-06-12T11:04:05-04:00", id="now-upper-case"),
    case("today", "2024-06-12T00:00:00-04:00"),
    case("Today", "2024-06-12T00:00:00-04:00", id="today-capitalised"),
    case("midnight", "2024-06-12T00:00:00-04:00"),
    case("noon", "2024-06-12T12:00:00-04:00"),
    case("tomorrow", "2024-06-13T00:00:00-04:00"),
    case("yesterday", "2024-06-11T00:00:00-04:00"),
    case("tomorrow noon", "2024-06-13T12:00:00-04:00"),
    case("tomorrow UTC", "2024-06-13T00:00:00+00:00", True, id="keyword-in-explicit-zone"),
    # Times of day are today unless a day is given.
    case("9am", "2024-06-12T09:00:00-04:00"),
    case("9 am", "2024-06-12T09:00:00-04:00"),
    case("9 a.m.", "2024-06-12T09:00:00-04:00"),
    case("9AM", "2024-06-12T09:00:00-04:00", id="9AM-upper-case"),
    case("9:30pm", "2024-06-12T21:30:00-04:00"),
    case("9:30 PM", "2024-06-12T21:30:00-04:00"),
    case("4pm", "2024-06-12T16:00:00-04:00"),
    case("12am", "2024-06-12T00:00:00-04:00"),
    case("12pm", "2024-06-12T12:00:00-04:00"),
    case("12:15am", "2024-06-12T00:15:00-04:00"),
    case("23:59", "2024-06-12T23:59:00-04:00"),
    case("23:59:30", "2024-06-12T23:59:30-04:00"),
    case("00:00", "2024-06-12T00:00:00-04:00"),
    case("tomorrow 9am", "2024-06-13T09:00:00-04:00"),
    case("yesterday 23:59", "2024-06-11T23:59:00-04:00"),
    case("2018-01-01 4pm", "2018-01-01T16:00:00-05:00"),
    case("2018-01-05 12am", "2018-01-05T00:00:00-05:00"),
    case("now 9am", "2024-06-12T09:00:00-04:00"),
    # Weekdays: NOW is a Wednesday.
    case("next wednesday", "2024-06-19T00:00:00-04:00", id="next-wednesday-on-a-wednesday"),
    case("next wed", "2024-06-19T00:00:00-04:00"),
    case("next monday", "2024-06-17T00:00:00-04:00"),
    case("next tuesday", "2024-06-18T00:00:00-04:00"),
    case("next thursday", "2024-06-13T00:00:00-04:00"),
    case("last wednesday", "2024-06-05T00:00:00-04:00", id="last-wednesday-on-a-wednesday"),
    case("last monday", "2024-06-10T00:00:00-04:00"),
    case("last thu", "2024-06-06T00:00:00-04:00"),
    case("wednesday", "2024-06-12T00:00:00-04:00", id="bare-weekday-is-today"),
    case("monday", "2024-06-17T00:00:00-04:00"),
    case("fri", "2024-06-14T00:00:00-04:00"),
    case("this friday", "2024-06-14T00:00:00-04:00"),
    case("Sunday", "2024-06-16T00:00:00-04:00"),
    case("next wednesday 4pm", "2024-06-19T16:00:00-04:00"),
    case("next sat 9:30am", "2024-06-15T09:30:00-04:00"),
    # Relative offsets keep the time of day unless one is given.
    case("+5 days", "2024-06-17T11:04:05-04:00"),
    case("-1 month", "2024-05-12T11:04:05-04:00"),
    case("+24 months", "2026-06-12T11:04:05-04:00"),
    case("+1 week", "2024-06-19T11:04:05-04:00"),
    case("-2 weeks", "2024-05-29T11:04:05-04:00"),
    case("+1 fortnight", "2024-06-26T11:04:05-04:00"),
    case("+2 hours", "2024-06-12T13:04:05-04:00"),
    case("-30 minutes", "2024-06-12T10:34:05-04:00"),
    case("+1 min", "2024-06-12T11:05:05-04:00"),
    case("+10 seconds", "2024-06-12T11:04:15-04:00"),
    case("+3 sec", "2024-06-12T11:04:08-04:00"),
    case("1 day", "2024-06-13T11:04:05-04:00", id="unsigned-offset"),
    case("+ 2 days", "2024-06-14T11:04:05-04:00", id="sign-apart"),
    case("+1 year", "2025-06-12T11:04:05-04:00"),
    case("-1 years", "2023-06-12T11:04:05-04:00"),
    case("+1 day -2 hours", "2024-06-13T09:04:05-04:00", id="several-offsets"),
    case("+5 days 11am", "2024-06-17T11:00:00-04:00"),
    case("11am +5 days", "2024-06-17T11:00:00-04:00", id="time-before-offset"),
    case("tomorrow +2 hours", "2024-06-13T02:00:00-04:00"),
    case("next monday +1 day", "2024-06-18T00:00:00-04:00"),
    case("2018-01-05 +1 week", "2018-01-12T00:00:00-05:00"),
    # PHP month overflow: the day runs over into the next month instead of being clamped.
    case("2024-01-31 +1 month", "2024-03-02T00:00:00-05:00", id="jan31-plus-month-leap-year"),
    case("2023-01-31 +1 month", "2023-03-03T00:00:00-05:00", id="jan31-plus-month"),
    case("2024-03-31 -1 month", "2024-03-02T00:00:00-05:00", id="mar31-minus-month"),
    case("2024-02-29 +1 year", "2025-03-01T00:00:00-05:00", id="feb29-plus-year"),
    case("2024-01-31 +2 months", "2024-03-31T00:00:00-04:00", id="jan31-plus-two-months"),
    case("2024-01-31 +1 month +1 month", "2024-03-31T00:00:00-04:00", id="offsets-summed-like-timelib"),
    case("2024-12-31 +2 months", "2025-03-03T00:00:00-05:00", id="overflow-across-year"),
    case("2024-01-15 -13 months", "2022-12-15T00:00:00-05:00", id="negative-months-across-year"),
    # DST in New York: 2024-03-10 02:00 jumps to 03:00, 2024-11-03 02:00 falls back to 01:00.
    case("2024-03-10 02:30", "2024-03-10T03:30:00-04:00", id="dst-gap-moves-forward"),
    case("2024-03-10 01:59:59", "2024-03-10T01:59:59-05:00", id="dst-gap-before"),
    case("2024-03-10 03:00", "2024-03-10T03:00:00-04:00", id="dst-gap-after"),
    case("2024-11-03 01:30", "2024-11-03T01:30:00-04:00", id="dst-overlap-first-occurrence"),
    case("2024-11-03 00:30 +2 hours", "2024-11-03T01:30:00-05:00", id="dst-overlap-hours-are-elapsed"),
    case("2024-03-10 01:30 +1 hour", "2024-03-10T03:30:00-04:00", id="dst-gap-hours-are-elapsed"),
    case("2024-03-09 12:00 +1 day", "2024-03-10T12:00:00-04:00", id="dst-days-keep-wall-clock"),
    case("2024-03-10", "2024-03-10T00:00:00-05:00", id="dst-day-midnight"),
]


@pytest.mark.parametrize("value, expected, explicit", ACCEPTED)
def test_parse_date_input_accepts(value, expected, explicit):
    parsed = parse(value)
    assert parsed.local.isoformat() == expected
    assert parsed.explicit_zone is explicit


def test_parsed_date_is_frozen():
    parsed = parse("today")
    with pytest.raises(AttributeError):
        parsed.local = NOW


def test_site_zone_reads_local_values_in_that_zone():
    parsed = parse("2024-06-12 09:00")
    assert parsed.local.tzinfo is NEW_YORK
    assert parsed.local.astimezone(UTC) == dt.datetime(2024, 6, 12, 13, 0, tzinfo=UTC)


def test_explicit_offset_keeps_the_written_calendar_day():
    parsed = parse("2018-01-05T23:30:00-08:00")
    assert parsed.local.date() == dt.date(2018, 1, 5)
    assert parsed.local.astimezone(NEW_YORK).date() == dt.date(2018, 1, 6)


@pytest.mark.parametrize(
    "tz, expected",
    [
        pytest.param(NEW_YORK, "2024-06-12T00:00:00-04:00", id="new-york-still-yesterday-evening"),
        pytest.param(UTC, "2024-06-13T00:00:00+00:00", id="utc-already-next-day"),
        pytest.param(dt.timezone(dt.timedelta(hours=5, minutes=30)), "2024-06-13T00:00:00+05:30", id="fixed-offset"),
    ],
)
def test_today_depends_on_the_zone(tz, expected):
    late = dt.datetime(2024, 6, 13, 2, 0, tzinfo=UTC)
    assert parse("today", tz=tz, now=late).local.isoformat() == expected


def test_now_keeps_microseconds_of_the_request_time():
    now = dt.datetime(2024, 6, 12, 15, 4, 5, 250000, tzinfo=UTC)
    assert parse("now", tz=UTC, now=now).local == now


REJECTED = [
    pytest.param("", id="empty"),
    pytest.param("   ", id="blank"),
    pytest.param(None, id="none"),
    pytest.param([], id="empty-list"),
    pytest.param(["2018-01-01"], id="list"),
    pytest.param({"date": "2018-01-01"}, id="dict"),
    pytest.param(True, id="true"),
    pytest.param(False, id="false"),
    pytest.param(float("nan"), id="nan"),
    pytest.param(float("inf"), id="infinity"),
    pytest.param(10**20, id="epoch-out-of-range"),
    pytest.param("-86400", id="negative-epoch-string"),
    pytest.param("1514764800.5", id="decimal-epoch-string"),
    pytest.param("foo", id="foo"),
    pytest.param("2018-02-30", id="february-30"),
    pytest.param("2018-13-01", id="month-13"),
    pytest.param("2018-00-10", id="month-0"),
    pytest.param("2018-01-32", id="day-32"),
    pytest.param("2018-01-05T", id="dangling-t"),
    pytest.param("2018-01-05 24:00", id="hour-24"),
    pytest.param("23:60", id="minute-60"),
    pytest.param("12:30:61", id="second-61"),
    pytest.param("13pm", id="13pm"),
    pytest.param("0am", id="0am"),
    pytest.param("13:00pm", id="24h-clock-with-pm"),
    pytest.param("9amx", id="trailing-letters"),
    pytest.param("mondays", id="weekday-plural"),
    pytest.param("next", id="next-alone"),
    pytest.param("+5", id="offset-without-unit"),
    pytest.param("+5 parsecs", id="unknown-unit"),
    pytest.param("today tomorrow", id="two-days"),
    pytest.param("2018-01-01 2019-01-01", id="two-dates"),
    pytest.param("next monday today", id="weekday-and-keyword"),
    pytest.param("9am 10am", id="two-times"),
    pytest.param("noon 9am", id="keyword-time-and-time"),
    pytest.param("2018-01-05 10:00 Z UTC", id="two-zones"),
    pytest.param("2018-01-05 10:00 +25:00", id="offset-out-of-range"),
    pytest.param("2018-01-05 10:00 +05:60", id="offset-minutes-out-of-range"),
    pytest.param("9999-12-31 +1 day", id="beyond-year-9999"),
    pytest.param("0001-01-01 -1 day", id="before-year-1"),
    pytest.param("2018-01-05 foo", id="date-then-garbage"),
    pytest.param("2018.01.05", id="dotted-date"),
    pytest.param("2018-01/05", id="mixed-separators"),
    pytest.param("\u0661\u0662:\u0663\u0660", id="non-ascii-digits"),
]


@pytest.mark.parametrize("value", REJECTED)
def test_parse_date_input_rejects(value):
    with pytest.raises(ValueError):
        parse(value)


def test_parse_date_input_needs_an_aware_now():
    with pytest.raises(TypeError):
        dates.parse_date_input("today", NEW_YORK, dt.datetime(2024, 6, 12, 15, 4, 5))


@pytest.mark.parametrize(
    "value, expected",
    [
        pytest.param(dt.datetime(2017, 1, 5, 14, 23, 36), "2017-01-05 14:23:36", id="naive"),
        pytest.param(
            dt.datetime(2017, 1, 5, 14, 23, 36, 999999, tzinfo=NEW_YORK),
            "2017-01-05 14:23:36",
            id="aware-drops-zone-and-microseconds",
        ),
        pytest.param(dt.datetime(2017, 12, 31, 0, 0, 0), "2017-12-31 00:00:00", id="midnight"),
        pytest.param(dt.datetime(999, 2, 3, 4, 5, 6), "0999-02-03 04:05:06", id="year-padded"),
    ],
)
def test_format_wp(value, expected):
    assert dates.format_wp(value) == expected


def test_date_details():
    details = dates.date_details(dt.datetime(2017, 1, 5, 4, 3, 6))
    assert details == {"year": "2017", "month": "01", "day": "05", "hour": "04", "minutes": "03", "seconds": "06"}
    assert list(details) == ["year", "month", "day", "hour", "minutes", "seconds"]


@pytest.mark.parametrize(
    "name, offset",
    [
        pytest.param("UTC", dt.timedelta(0), id="UTC"),
        pytest.param("UTC+0", dt.timedelta(0), id="UTC+0"),
        pytest.param("UTC+5", dt.timedelta(hours=5), id="UTC+5"),
        pytest.param("UTC-3.5", dt.timedelta(hours=-3, minutes=-30), id="UTC-3.5"),
        pytest.param("UTC+5:30", dt.timedelta(hours=5, minutes=30), id="UTC+5:30"),
        pytest.param("UTC+5.75", dt.timedelta(hours=5, minutes=45), id="UTC+5.75"),
        pytest.param("UTC-12", dt.timedelta(hours=-12), id="UTC-12"),
        pytest.param("UTC+14", dt.timedelta(hours=14), id="UTC+14"),
    ],
)
def test_zone_from_name_fixed_offsets(name, offset):
    zone = dates.zone_from_name(name)
    assert isinstance(zone, dt.timezone)
    assert zone.utcoffset(None) == offset


@pytest.mark.parametrize("name", ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Etc/GMT+5"])
def test_zone_from_name_iana(name):
    zone = dates.zone_from_name(name)
    assert isinstance(zone, ZoneInfo)
    assert zone.key == name


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("", id="empty"),
        pytest.param(None, id="none"),
        pytest.param("Mars/Olympus_Mons", id="unknown"),
        pytest.param("America", id="directory"),
        pytest.param("../etc/passwd", id="path"),
        pytest.param("UTC+5:75", id="offset-minutes-out-of-range"),
        pytest.param("UTC+24", id="offset-hours-out-of-range"),
        pytest.param("UTC+", id="offset-missing"),
    ],
)
def test_zone_from_name_rejects(name):
    with pytest.raises(ValueError):
        dates.zone_from_name(name)


@pytest.mark.parametrize(
    "name, at, expected",
    [
        pytest.param("America/New_York", dt.datetime(2024, 1, 15, 12, tzinfo=UTC), "EST", id="new-york-winter"),
        pytest.param("America/New_York", dt.datetime(2024, 7, 15, 12, tzinfo=UTC), "EDT", id="new-york-summer"),
        pytest.param("America/New_York", dt.datetime(2024, 3, 10, 6, 59, 59), "EST", id="naive-is-utc-before-jump"),
        pytest.param("America/New_York", dt.datetime(2024, 3, 10, 7, 0, 0), "EDT", id="naive-is-utc-after-jump"),
        pytest.param("Europe/London", dt.datetime(2024, 7, 1, tzinfo=UTC), "BST", id="london-summer"),
        pytest.param("Asia/Singapore", dt.datetime(2024, 7, 1, tzinfo=UTC), "+08", id="numeric-abbreviation"),
        pytest.param("UTC", dt.datetime(2024, 7, 1, tzinfo=UTC), "UTC", id="utc"),
        pytest.param("UTC+5", dt.datetime(2024, 7, 1, tzinfo=UTC), "UTC+5", id="offset-name"),
        pytest.param("UTC-3.5", dt.datetime(2024, 7, 1, tzinfo=UTC), "UTC-3.5", id="decimal-offset-name"),
    ],
)
def test_zone_abbreviation(name, at, expected):
    assert dates.zone_abbreviation(name, at) == expected


def test_zone_abbreviation_rejects_unknown_zone():
    with pytest.raises(ValueError):
        dates.zone_abbreviation("Mars/Olympus_Mons", NOW)


@pytest.mark.parametrize(
    "day, cutoff, start, end",
    [
        pytest.param(
            dt.date(2024, 6, 12),
            dt.time(0, 0),
            dt.datetime(2024, 6, 12, 0, 0, 0),
            dt.datetime(2024, 6, 12, 23, 59, 59),
            id="midnight-cutoff",
        ),
        pytest.param(
            dt.date(2024, 6, 12),
            dt.time(6, 0),
            dt.datetime(2024, 6, 12, 6, 0, 0),
            dt.datetime(2024, 6, 13, 5, 59, 59),
            id="six-am-cutoff",
        ),
        pytest.param(
            dt.date(2024, 12, 31),
            dt.time(23, 30),
            dt.datetime(2024, 12, 31, 23, 30, 0),
            dt.datetime(2025, 1, 1, 23, 29, 59),
            id="late-cutoff-across-year",
        ),
        pytest.param(
            dt.date(2024, 3, 10),
            dt.time(0, 0),
            dt.datetime(2024, 3, 10, 0, 0, 0),
            dt.datetime(2024, 3, 10, 23, 59, 59),
            id="dst-day-is-wall-clock",
        ),
        pytest.param(
            dt.date(2024, 2, 28),
            dt.time(12, 0),
            dt.datetime(2024, 2, 28, 12, 0, 0),
            dt.datetime(2024, 2, 29, 11, 59, 59),
            id="leap-day",
        ),
    ],
)
def test_day_bounds(day, cutoff, start, end):
    assert dates.day_start(day, cutoff) == start
    assert dates.day_end(day, cutoff) == end
    assert dates.day_start(day, cutoff).tzinfo is None
    assert dates.day_end(day, cutoff).tzinfo is None


def test_day_bounds_default_to_midnight_cutoff():
    assert dates.day_start(dt.date(2024, 6, 12)) == dt.datetime(2024, 6, 12)
    assert dates.day_end(dt.date(2024, 6, 12)) == dt.datetime(2024, 6, 12, 23, 59, 59)
