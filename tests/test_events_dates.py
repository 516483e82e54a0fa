"""The events list date window (docs/contract/events.md §2.2): defaults, whole days, strict and relative modes, zones."""

import datetime as dt
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.utils import timezone

from .conftest import API
from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    """`clock(2030, 3, 10, 12)` fixes the current time (UTC) seen by the API."""

    def freeze(*parts):
        instant = dt.datetime(*parts, tzinfo=dt.UTC)
        monkeypatch.setattr(timezone, "now", lambda: instant)
        return instant

    return freeze


def event(start, end=None, zone="UTC", **fields):
    """An event from wall-clock strings ("2018-01-01 15:00") in `zone`."""
    start = dt.datetime.fromisoformat(start)
    end = dt.datetime.fromisoformat(end) if end else start + dt.timedelta(hours=1)
    return make_event(start=start, end=end, timezone_name=zone, **fields)


def listed(client, **params):
    response = client.get(f"{API}/events", {"per_page": 50, **params})
    assert response.status_code == 200, response.json()
    return [record["id"] for record in response.json()["events"]]


def echoed(client, **params):
    response = client.get(f"{API}/events", params)
    assert response.status_code == 200, response.json()
    return dict(parse_qsl(urlsplit(response.json()["rest_url"]).query))


# --- the default window -------------------------------------------------------------------------


def test_default_window_runs_from_yesterday_to_24_months_ahead(api, clock):
    clock(2030, 3, 10, 12)
    event("2030-03-08 23:00")
    first_second = event("2030-03-09 00:00")
    last_second = event("2032-03-10 22:00", "2032-03-10 23:59:59")
    event("2032-03-10 23:00", "2032-03-11 00:00")
    assert listed(api) == [first_second.pk, last_second.pk]
    query = echoed(api)
    assert (query["start_date"], query["end_date"]) == ("2030-03-09 00:00:00", "2032-03-10 23:59:59")


def test_default_window_is_written_percent_encoded(api, clock):
    clock(2030, 3, 10, 12)
    rest_url = api.get(f"{API}/events").json()["rest_url"]
    assert rest_url == (
        "http://testserver/wp-json/tribe/events/v1/events/?page=1&per_page=10"
        "&start_date=2030-03-09%2000:00:00&end_date=2032-03-10%2023:59:59&status=publish"
    )


@pytest.mark.parametrize(
    "zone,now,start_day,declared",
    [
        ("UTC", (2030, 7, 1, 12), "2030-06-30", "2030-06-30 23:59:00"),
        ("America/Bogota", (2030, 7, 1, 12), "2030-06-30", "2030-06-30 18:59:00"),
        ("Asia/Shanghai", (2030, 7, 1, 12), "2030-07-01", "2030-07-01 07:59:00"),
        ("Pacific/Kiritimati", (2030, 7, 1, 12), "2030-07-01", "2030-07-01 13:59:00"),
        ("America/New_York", (2030, 7, 1, 0, 0, 30), "2030-06-30", "2030-06-30 19:59:00"),
        ("Asia/Shanghai", (2030, 6, 30, 23, 59, 59), "2030-06-30", "2030-06-30 07:59:00"),
    ],
    ids=["utc", "west-of-utc", "east-of-utc", "utc-plus-14", "just-after-utc-midnight", "just-before-utc-midnight"],
)
def test_default_start_is_yesterday_2359_utc_in_the_site_zone(api, clock, settings, zone, now, start_day, declared):
    settings.TIME_ZONE = zone
    clock(*now)
    assert echoed(api)["start_date"] == f"{start_day} 00:00:00"
    index = api.get(API).json()["routes"]["/tribe/events/v1/events"]["endpoints"][0]["args"]
    assert index["start_date"]["default"] == declared


def test_default_end_is_a_utc_wall_clock_whatever_the_site_zone(api, clock, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    clock(2030, 6, 30, 23, 59, 59)
    assert echoed(api)["end_date"] == "2032-06-30 23:59:59"
    index = api.get(API).json()["routes"]["/tribe/events/v1/events"]["endpoints"][0]["args"]
    assert index["end_date"]["default"] == "2032-06-30 23:59:59"


def test_default_window_in_a_site_east_of_utc_keeps_todays_early_events(api, clock, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    clock(2030, 7, 1, 12)
    event("2030-06-30 20:00", zone="Asia/Shanghai")
    today = event("2030-07-01 06:00", zone="Asia/Shanghai")
    assert listed(api) == [today.pk]


# --- inclusive (whole-day) and strict bounds ----------------------------------------------------


@pytest.fixture
def new_year(db):
    return {
        "morning": event("2018-01-01 08:00", "2018-01-01 09:00"),
        "afternoon": event("2018-01-01 15:30", "2018-01-01 17:00"),
        "evening": event("2018-01-01 17:00", "2018-01-01 19:00"),
        "last_second": event("2018-01-01 23:00", "2018-01-01 23:59:59"),
        "next_day": event("2018-01-02 00:00", "2018-01-02 01:00"),
        "overnight": event("2018-01-01 22:00", "2018-01-02 02:00"),
    }


def names(found, events):
    by_id = {record.pk: name for name, record in events.items()}
    return [by_id[record_id] for record_id in found]


WITHIN = {"start_date": "2018-01-01 15:00:00", "end_date": "2018-01-01 18:00:00"}


def test_dates_cover_whole_days_by_default(api, new_year):
    found = listed(api, **WITHIN)
    assert names(found, new_year) == ["morning", "afternoon", "evening", "last_second"]
    assert (echoed(api, **WITHIN)["start_date"], echoed(api, **WITHIN)["end_date"]) == (
        "2018-01-01 00:00:00",
        "2018-01-01 23:59:59",
    )


@pytest.mark.parametrize("flag", ["true", "1", "on", "yes", "TRUE"])
def test_strict_dates_use_the_times_as_given(api, new_year, flag):
    assert names(listed(api, strict_dates=flag, **WITHIN), new_year) == ["afternoon"]


@pytest.mark.parametrize("flag", ["false", "0", "no", "off", "whatever"])
def test_other_strict_values_mean_whole_days(api, new_year, flag):
    assert len(listed(api, strict_dates=flag, **WITHIN)) == 4


def test_empty_strict_dates_is_400(api):
    response = api.get(f"{API}/events", {"strict_dates": ""})
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["strict_dates"]


def test_epoch_seconds_name_their_utc_day(api, clock):
    now = clock(2030, 3, 10, 12)
    weekly = [make_event(start=(now + dt.timedelta(weeks=n)).replace(tzinfo=None)) for n in range(1, 11)]
    fifth = int((now + dt.timedelta(weeks=5)).timestamp())
    assert listed(api, start_date=str(fifth)) == [record.pk for record in weekly[4:]]
    assert echoed(api, start_date=str(fifth))["start_date"] == "2030-04-14 00:00:00"


def test_an_explicit_offset_names_the_utc_day(api, new_year):
    # 23:30 at UTC-5 is already 2 January in UTC.
    found = listed(api, start_date="2018-01-01T23:30:00-05:00", end_date="2018-01-02")
    assert names(found, new_year) == ["next_day"]


def test_a_relative_date_is_read_in_the_site_zone(api, clock, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    clock(2030, 7, 1, 20)  # already 2 July in Shanghai
    event("2030-07-01 23:00", zone="Asia/Shanghai")
    tomorrow = event("2030-07-03 09:00", zone="Asia/Shanghai")
    assert listed(api, start_date="tomorrow") == [tomorrow.pk]
    assert echoed(api, start_date="tomorrow")["start_date"] == "2030-07-03 00:00:00"


def test_strict_values_without_offset_are_read_as_utc(api, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    event("2018-01-01 14:00", "2018-01-01 15:00", zone="Asia/Shanghai")
    inside = event("2018-01-01 15:30", "2018-01-01 17:00", zone="Asia/Shanghai")
    window = {"start_date": "2018-01-01 07:00", "end_date": "2018-01-01 10:00", "strict_dates": "true"}
    assert listed(api, **window) == [inside.pk]
    with_offset = {"start_date": "2018-01-01T15:00:00+08:00", "end_date": "1514800800", "strict_dates": "1"}
    assert listed(api, **with_offset) == [inside.pk]


def test_strict_links_select_the_same_events_on_the_next_page(api, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    first = event("2018-01-01 15:30", "2018-01-01 16:00", zone="Asia/Shanghai")
    second = event("2018-01-01 16:30", "2018-01-01 17:00", zone="Asia/Shanghai")
    event("2018-01-01 19:00", "2018-01-01 20:00", zone="Asia/Shanghai")
    response = api.get(
        f"{API}/events",
        {"start_date": "2018-01-01 07:00", "end_date": "2018-01-01 10:00", "strict_dates": "true", "per_page": 1},
    )
    body = response.json()
    assert [record["id"] for record in body["events"]] == [first.pk]
    query = dict(parse_qsl(urlsplit(body["next_rest_url"]).query))
    assert (query["start_date"], query["end_date"], query["strict_dates"]) == (
        "2018-01-01 07:00:00",
        "2018-01-01 10:00:00",
        "true",
    )
    assert [record["id"] for record in api.get(body["next_rest_url"]).json()["events"]] == [second.pk]


def test_strict_mode_applies_the_default_start_once(api, clock, settings):
    # The default is already "yesterday 23:59 UTC" in the site zone; it is not converted again.
    settings.TIME_ZONE = "Asia/Shanghai"
    clock(2030, 7, 1, 12)
    event("2030-07-01 07:30", zone="Asia/Shanghai")
    after = event("2030-07-01 08:00", zone="Asia/Shanghai")
    assert listed(api, strict_dates="true") == [after.pk]
    query = echoed(api, strict_dates="true")
    assert (query["start_date"], query["strict_dates"]) == ("2030-06-30 23:59:00", "true")


# --- relative mode ------------------------------------------------------------------------------


@pytest.fixture
def span(db):
    return {
        "overlapping": event("2017-12-30 10:00", "2018-01-03 10:00"),
        "ends_too_early": event("2017-12-29 10:00", "2017-12-31 22:00"),
        "inside": event("2018-01-02 12:00", "2018-01-02 13:00"),
        "starts_too_late": event("2018-01-03 09:00", "2018-01-03 10:00"),
    }


def test_relative_bounds_drop_the_default_window(api, clock, span):
    clock(2030, 3, 10, 12)
    found = listed(api, ends_after="2017-12-31", starts_before="2018-01-02")
    assert names(found, span) == ["overlapping", "inside"]
    query = echoed(api, ends_after="2017-12-31", starts_before="2018-01-02")
    assert "start_date" not in query and "end_date" not in query
    assert (query["starts_before"], query["ends_after"]) == ("2018-01-02 23:59:59", "2017-12-31 23:59:59")


def test_relative_bounds_keep_explicit_start_and_end_dates(api, span):
    found = listed(api, starts_before="2018-01-05", start_date="2018-01-02")
    assert names(found, span) == ["inside", "starts_too_late"]
    assert list(echoed(api, starts_before="2018-01-05", start_date="2018-01-02")) == [
        "page",
        "per_page",
        "start_date",
        "status",
        "starts_before",
    ]


@pytest.mark.parametrize(
    "params,expected",
    [
        ({"starts_after": "2018-01-02 12:00"}, ["starts_too_late"]),
        ({"starts_after": "2018-01-02 11:59"}, ["inside", "starts_too_late"]),
        ({"ends_before": "2018-01-02 13:00"}, ["ends_too_early"]),
        ({"ends_before": "2018-01-02 13:00:01"}, ["ends_too_early", "inside"]),
    ],
    ids=["starts-after-is-exclusive", "starts-after", "ends-before-is-exclusive", "ends-before"],
)
def test_strict_relative_bounds_are_exclusive(api, span, params, expected):
    assert names(listed(api, strict_dates="true", **params), span) == expected


def test_inclusive_relative_bounds_widen_to_the_end_of_the_day(api, span):
    # starts_after 2 January means after 2 January 23:59:59.
    assert names(listed(api, starts_after="2018-01-02 00:00"), span) == ["starts_too_late"]
    assert names(listed(api, ends_before="2017-12-31"), span) == ["ends_too_early"]


# --- site zone mode, cut-off, DST ---------------------------------------------------------------


def test_site_mode_compares_utc_times(api, settings):
    # 08:00 on 2 January in Tokyo is 23:00 on 1 January in UTC.
    tokyo = event("2018-01-02 08:00", "2018-01-02 08:30", zone="Asia/Tokyo")
    window = {"start_date": "2018-01-01", "end_date": "2018-01-01"}
    assert listed(api, **window) == []
    settings.EVENTS = {"TIMEZONE_MODE": "site"}
    assert listed(api, **window) == [tokyo.pk]


def test_multiday_cutoff_moves_the_day_boundaries(api, settings):
    settings.EVENTS = {"MULTIDAY_CUTOFF": "06:00"}
    event("2018-01-02 05:00", "2018-01-02 05:30")
    starts_the_day = event("2018-01-02 06:00", "2018-01-02 07:00")
    before_next_cutoff = event("2018-01-03 05:00", "2018-01-03 05:30")
    event("2018-01-03 06:00", "2018-01-03 06:30")
    window = {"start_date": "2018-01-02", "end_date": "2018-01-02"}
    assert listed(api, **window) == [starts_the_day.pk, before_next_cutoff.pk]
    assert (echoed(api, **window)["start_date"], echoed(api, **window)["end_date"]) == (
        "2018-01-02 06:00:00",
        "2018-01-03 05:59:59",
    )


def test_events_on_dst_change_days_are_matched_by_wall_clock(api):
    # 02:30 does not exist in New York on 10 March 2030; 01:30 happens twice on 3 November.
    spring = event("2030-03-10 02:30", "2030-03-10 03:30", zone="America/New_York")
    autumn = event("2030-11-03 01:30", "2030-11-03 01:45", zone="America/New_York")
    assert listed(api, start_date="2030-03-10", end_date="2030-03-10") == [spring.pk]
    assert listed(api, start_date="2030-11-03", end_date="2030-11-03") == [autumn.pk]


def test_strict_bound_on_a_dst_day_in_wall_clock_and_site_modes(api, settings):
    settings.TIME_ZONE = "America/New_York"
    # Stored as 02:30 on the wall clock; as an instant it is 07:30 UTC (read with the EST offset).
    skipped = event("2030-03-10 02:30", "2030-03-10 03:30", zone="America/New_York")
    # 07:00 UTC is 03:00 EDT.
    bounds = {"start_date": "2030-03-10 07:00", "end_date": "2030-03-11", "strict_dates": "true"}
    assert listed(api, **bounds) == []
    settings.EVENTS = {"TIMEZONE_MODE": "site"}
    assert listed(api, **bounds) == [skipped.pk]


def test_default_window_across_the_autumn_dst_change(api, clock, settings):
    settings.TIME_ZONE = "America/New_York"
    clock(2030, 11, 3, 5, 30)  # 01:30 EDT or EST: the ambiguous hour
    assert echoed(api)["start_date"] == "2030-11-02 00:00:00"


# --- refusals and extremes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "param", ["start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after"]
)
@pytest.mark.parametrize(
    "value",
    ["foo", "2018-13-45", "", "next someday", "25:00", "99999999999999"],
    ids=["word", "impossible-date", "empty", "unknown-words", "impossible-time", "epoch-beyond-year-9999"],
)
def test_unparsable_dates_are_400_naming_the_parameter(api, param, value):
    response = api.get(f"{API}/events", {param: value})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == [param]


@pytest.mark.parametrize(
    "params",
    [
        {"start_date": "9999-12-31", "end_date": "9999-12-31"},
        {"start_date": "0001-01-02", "end_date": "0001-01-02"},
        {"ends_after": "9999-12-31", "starts_before": "0001-01-02", "strict_dates": "true"},
    ],
    ids=["last-day", "first-day", "strict-extremes"],
)
@pytest.mark.parametrize("mode", ["event", "site"])
def test_calendar_extremes_answer_without_error(api, settings, params, mode):
    settings.TIME_ZONE = "Asia/Shanghai"
    settings.EVENTS = {"TIMEZONE_MODE": mode}
    event("2018-01-01 10:00")
    assert listed(api, **params) == []
