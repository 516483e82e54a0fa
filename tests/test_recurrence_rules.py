"""Recurrence rules as RFC 5545 and docs/recurrence.md read them: refused with a reason or kept in one
canonical text, expanded within a bounded span, never breaking a feed, moved out of daylight-saving gaps."""

import logging

import pytest
from django.test import Client

from events.models import Event, Series

from .conftest import API
from .test_recurrence import refusal, series_body, series_list, table_counts

pytestmark = pytest.mark.django_db


# --- what the grammar refuses ---------------------------------------------------------------------


REFUSED_RULES = {
    # A rule that gives nothing (or not its COUNT) within the span is refused, not walked to year 9999.
    "never-30-february": "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=5",
    "never-daily-31-february-every-3-days": "FREQ=DAILY;INTERVAL=3;BYMONTH=2;BYMONTHDAY=31",
    "daily-setpos-366": "FREQ=DAILY;BYSETPOS=366;COUNT=3",
    "weekly-setpos-8": "FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=8",
    "count-past-the-span": "FREQ=YEARLY;COUNT=150",
    "until-past-the-span": "FREQ=YEARLY;UNTIL=22270101T000000Z",
    # Values outside RFC 5545's ranges or ours.
    "interval-2-31": "FREQ=DAILY;INTERVAL=2147483648;COUNT=2",
    "interval-weekly-huge": "FREQ=WEEKLY;INTERVAL=2147483648;COUNT=2",
    "interval-10-30": "FREQ=MONTHLY;INTERVAL=1000000000000000000000000000000;COUNT=2",
    "interval-0": "FREQ=DAILY;INTERVAL=0;COUNT=2",
    "interval-negative": "FREQ=DAILY;INTERVAL=-1;COUNT=3",
    "interval-not-a-number": "FREQ=DAILY;INTERVAL=two",
    "count-0": "FREQ=DAILY;COUNT=0",
    "count-negative": "FREQ=DAILY;COUNT=-5",
    "count-past-the-limit": "FREQ=DAILY;COUNT=5000",
    "byday-99mo": "FREQ=MONTHLY;BYDAY=99MO",
    "byday-position-weekly": "FREQ=WEEKLY;BYDAY=2TU",
    "byday-not-a-day": "FREQ=WEEKLY;BYDAY=XX",
    "bymonth-13": "FREQ=YEARLY;BYMONTH=13",
    "bymonth-0": "FREQ=YEARLY;BYMONTH=0",
    "bymonth-negative": "FREQ=YEARLY;BYMONTH=-1",
    "bymonthday-32": "FREQ=MONTHLY;BYMONTHDAY=32",
    "bymonthday-weekly": "FREQ=WEEKLY;BYMONTHDAY=1",
    "byyearday-367": "FREQ=YEARLY;BYYEARDAY=367",
    "byweekno-monthly": "FREQ=MONTHLY;BYWEEKNO=3",
    "byweekno-with-positioned-day": "FREQ=YEARLY;BYWEEKNO=3;BYDAY=1MO",
    "setpos-alone": "FREQ=MONTHLY;BYSETPOS=1",
    "wkst-not-a-day": "FREQ=WEEKLY;WKST=XX",
    "until-not-a-date": "FREQ=DAILY;UNTIL=20271345",
    "count-and-until": "FREQ=DAILY;COUNT=2;UNTIL=20991231T000000Z",
    # More often than daily, whichever part says it.
    "hourly": "FREQ=HOURLY;COUNT=3",
    "secondly": "FREQ=SECONDLY;COUNT=3",
    "daily-byhour": "FREQ=DAILY;BYHOUR=9,21;COUNT=48",
    "daily-byminute": "FREQ=DAILY;BYMINUTE=0,30",
    "daily-bysecond": "FREQ=DAILY;BYSECOND=0,1,2",
    # Parts RFC 5545 does not have, repeated, missing or unreadable.
    "byeaster": "FREQ=YEARLY;BYEASTER=0",
    "unknown-part": "FREQ=DAILY;SOMETIMES=1",
    "freq-twice": "FREQ=SECONDLY;FREQ=DAILY",
    "count-twice": "FREQ=DAILY;COUNT=2;COUNT=3",
    "no-freq": "COUNT=3",
    "freq-unknown": "FREQ=SOMETIMES",
    "empty": "",
    "trailing-semicolon": "FREQ=DAILY;",
    "part-without-value": "FREQ=DAILY;COUNT",
    "two-lines": "FREQ=DAILY\nRRULE:FREQ=WEEKLY",
    "too-long": "FREQ=MONTHLY;BYMONTHDAY=" + ",".join(["1"] * 600),
}


@pytest.mark.parametrize("rule", REFUSED_RULES.values(), ids=REFUSED_RULES.keys())
def test_a_rule_outside_the_grammar_or_the_span_is_refused_and_writes_nothing(editor, rule):
    before = table_counts()
    response = editor.post(f"{API}/events", series_body(recurrence={"rules": [rule]}), format="json")
    assert refusal(response, "recurrence")
    assert table_counts() == before


def test_the_refusal_says_what_is_wrong(editor):
    response = editor.post(
        f"{API}/events", series_body(recurrence={"rules": ["FREQ=DAILY;INTERVAL=0;COUNT=2"]}), format="json"
    )
    assert "INTERVAL is a whole number from 1 to 1000" in refusal(response, "recurrence")
    response = editor.post(
        f"{API}/events",
        series_body(recurrence={"rules": ["FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=5"]}),
        format="json",
    )
    assert "gives no date within 100 years" in refusal(response, "recurrence")


def test_a_series_that_cannot_have_its_count_before_the_year_10000_is_refused_not_cut(editor):
    before = table_counts()
    body = series_body(
        all_day=True, start_date="9999-12-30", end_date="9999-12-30", recurrence={"rules": ["FREQ=DAILY;COUNT=5"]}
    )
    response = editor.post(f"{API}/events", body, format="json")
    assert "only 2 of its 5 dates" in refusal(response, "recurrence")
    assert table_counts() == before


def test_an_extra_date_past_the_span_is_refused(editor):
    body = series_body(recurrence={"rules": ["FREQ=WEEKLY;COUNT=2"], "dates": ["2200-01-05 19:00:00"]})
    assert refusal(editor.post(f"{API}/events", body, format="json"), "recurrence")


# --- the canonical text ---------------------------------------------------------------------------


CANONICAL_RULES = {
    "lower-case": ("freq=weekly;count=3", "FREQ=WEEKLY;COUNT=3"),
    "prefix-and-spaces": (" RRULE:FREQ=WEEKLY ; COUNT=3 ", "FREQ=WEEKLY;COUNT=3"),
    "parts-in-order": ("COUNT=3;BYDAY=TU,TH;FREQ=WEEKLY;INTERVAL=2", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=3"),
    "numbers-without-signs-or-zeros": (
        "FREQ=MONTHLY;BYDAY=+2tu,-1fr;BYSETPOS=+01;COUNT=02",
        "FREQ=MONTHLY;BYDAY=2TU,-1FR;BYSETPOS=1;COUNT=2",
    ),
    "yearly-by-parts": (
        "FREQ=YEARLY;BYDAY=MO;BYMONTHDAY=1,-1;BYMONTH=3;WKST=SU;COUNT=2",
        "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1,-1;BYDAY=MO;WKST=SU;COUNT=2",
    ),
    "until-kept-as-written": ("until=20270630;freq=weekly", "FREQ=WEEKLY;UNTIL=20270630"),
    "setpos-after-byday": (
        "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR;COUNT=2",
        "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=2",
    ),
}


@pytest.mark.parametrize("written, canonical", CANONICAL_RULES.values(), ids=CANONICAL_RULES.keys())
def test_a_rule_is_kept_in_its_canonical_text(editor, written, canonical):
    response = editor.post(f"{API}/events", series_body(recurrence={"rules": [written]}), format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["recurrence"]["rules"] == [canonical]
    assert Series.objects.get(pk=response.json()["id"]).rules == [canonical]


# --- caps on what a series holds ------------------------------------------------------------------


@pytest.mark.parametrize(
    "recurrence",
    [
        {"rules": ["FREQ=WEEKLY;COUNT=2", "FREQ=MONTHLY;COUNT=2", "FREQ=YEARLY;COUNT=2"]},
        {"rules": ["FREQ=WEEKLY;COUNT=2"], "dates": [f"2027-02-{day:02} 19:00:00" for day in range(1, 4)]},
        {"rules": ["FREQ=WEEKLY;COUNT=2"], "exclusions": [f"2027-02-{day:02} 19:00:00" for day in range(1, 4)]},
    ],
    ids=["rules", "dates", "exclusions"],
)
def test_rules_dates_and_exclusions_past_their_caps_are_refused(editor, settings, recurrence):
    settings.EVENTS = {"RECURRENCE_MAX_RULES": 2, "RECURRENCE_MAX_DATES": 2}
    before = table_counts()
    assert "at most 2 items" in refusal(
        editor.post(f"{API}/events", series_body(recurrence=recurrence), format="json"), "recurrence"
    )
    assert table_counts() == before


def test_a_series_at_its_caps_is_made(editor, settings):
    settings.EVENTS = {"RECURRENCE_MAX_RULES": 2, "RECURRENCE_MAX_DATES": 2}
    recurrence = {
        "rules": ["FREQ=WEEKLY;COUNT=2", "FREQ=MONTHLY;BYMONTHDAY=20;COUNT=1"],
        "dates": ["2027-03-01 19:00:00", "2027-03-02 19:00:00"],
        "exclusions": ["2027-01-12 19:00:00", "2027-01-26 19:00:00"],
    }
    record = editor.post(f"{API}/events", series_body(recurrence=recurrence), format="json").json()
    assert [item["start_date"][:10] for item in series_list(editor, record["id"])] == [
        "2027-01-05",
        "2027-01-20",
        "2027-03-01",
        "2027-03-02",
    ]


# --- one bad stored record never breaks a feed or a page ---------------------------------------


# (rule, whether a feed can still write the series): a rule the grammar reads but that gives no
# date is written with its first occurrence alone; one it cannot read leaves the series out.
STORED_BAD_RULES = {
    "interval-2-31": ("FREQ=DAILY;INTERVAL=2147483648;COUNT=2", False),
    "interval-0": ("FREQ=WEEKLY;INTERVAL=0;COUNT=2", False),
    "byeaster": ("FREQ=YEARLY;BYEASTER=0;COUNT=2", False),
    "unreadable": ("FREQ=SOMETIMES", False),
    "never": ("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=5", True),
}


@pytest.mark.parametrize("rule, written", STORED_BAD_RULES.values(), ids=STORED_BAD_RULES.keys())
def test_a_series_stored_with_a_rule_now_refused_never_breaks_a_feed_or_a_page(editor, caplog, rule, written):
    body = {"status": "publish", "timezone": "America/New_York"}
    plain = editor.post(
        f"{API}/events",
        {**body, "title": "Plain", "start_date": "2027-01-06 10:00", "end_date": "2027-01-06 11:00"},
        format="json",
    ).json()
    series = editor.post(f"{API}/events", series_body(recurrence={"rules": ["FREQ=WEEKLY;COUNT=3"]}), format="json")
    series = series.json()
    # As a version that read rules more loosely may have stored it.
    Series.objects.filter(pk=series["id"]).update(rules=[rule])
    second = Event.objects.filter(series_id=series["id"]).order_by("start_utc")[1]
    window = "start_date=2027-01-01&end_date=2027-01-31"
    feeds = [
        f"/?ical=1&{window}",
        f"/events/?ical=1&{window}",
        "/events/month/?ical=1&month=2027-01",
        "/events/2027-01-05/?ical=1",
        f"/event/{series['slug']}/ical/",
        f"/event/{second.slug}/ical/",
    ]
    with caplog.at_level(logging.WARNING, logger="events.public.ical"):
        for path in feeds:
            response = Client().get(path)
            assert response.status_code == 200, path
            content = response.content.decode()
            assert ("SUMMARY:Yoga" in content) == written, path
            if "2027-01-05" not in path and series["slug"] not in path and second.slug not in path:
                assert "SUMMARY:Plain" in content, path
    assert any("left out of a calendar file" in record.getMessage() for record in caplog.records) != written
    pages = ["/", f"/events/?{window}", "/events/month/?month=2027-01", "/events/2027-01-05/"]
    pages += [f"/event/{series['slug']}/", f"/event/{second.slug}/", f"/event/{plain['slug']}/"]
    for path in pages:
        assert Client().get(path).status_code == 200, path
    assert editor.get(f"{API}/events/{series['id']}").status_code == 200


# --- daylight-saving gaps -------------------------------------------------------------------------


def test_an_occurrence_in_a_daylight_saving_gap_moves_as_a_single_event_does(editor):
    # New York's clocks go from 02:00 to 03:00 on 14 March 2027: 02:30 does not exist that night.
    record = editor.post(
        f"{API}/events",
        series_body(
            start_date="2027-03-07 02:30:00",
            end_date="2027-03-07 03:00:00",
            recurrence={"rules": ["FREQ=WEEKLY;COUNT=3"]},
        ),
        format="json",
    ).json()
    listed = series_list(editor, record["id"])
    times = [(item["start_date"], item["end_date"], item["utc_start_date"], item["utc_end_date"]) for item in listed]
    assert times == [
        ("2027-03-07 02:30:00", "2027-03-07 03:00:00", "2027-03-07 07:30:00", "2027-03-07 08:00:00"),
        ("2027-03-14 03:30:00", "2027-03-14 04:00:00", "2027-03-14 07:30:00", "2027-03-14 08:00:00"),
        ("2027-03-21 02:30:00", "2027-03-21 03:00:00", "2027-03-21 06:30:00", "2027-03-21 07:00:00"),
    ]
    # A single event typed at that time is read the same way.
    single = editor.post(
        f"{API}/events",
        {
            "title": "Single",
            "status": "publish",
            "timezone": "America/New_York",
            "start_date": "2027-03-14 02:30:00",
            "end_date": "2027-03-14 04:00:00",
        },
        format="json",
    ).json()
    assert (single["start_date"], single["utc_start_date"]) == (listed[1]["start_date"], listed[1]["utc_start_date"])
    # The series' file still names the occurrence by the start its rule gives.
    assert Client().get(f"/event/{record['slug']}/ical/").status_code == 200
