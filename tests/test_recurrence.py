"""Recurring events (docs/recurrence.md): series written once, read by clients as ordinary events."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from events import store
from events.models import Event, EventOrganizer, PostIdentity, PostStatus, RenderedRecord, Series
from events.store.epoch import languages

from .conftest import API
from .factories import make_category, make_image, make_organizer, make_venue

pytestmark = pytest.mark.django_db

# Fixed dates, so that weekdays and daylight-saving changes are known: 5 January 2027 is a Tuesday.
YEAR = 2027


def series_body(**fields):
    body = {
        "title": "Yoga",
        "start_date": f"{YEAR}-01-05 19:00:00",
        "end_date": f"{YEAR}-01-05 20:30:00",
        "timezone": "America/New_York",
        "status": "publish",
        "recurrence": {"rules": ["FREQ=WEEKLY;COUNT=10"]},
    }
    body.update(fields)
    return body


def create_series(client, **fields):
    response = client.post(f"{API}/events", series_body(**fields), format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def series_list(client, series_id, **query):
    response = client.get(
        f"{API}/events",
        {
            "post_parent": series_id,
            "per_page": 50,
            "start_date": f"{YEAR - 1}-01-01",
            "end_date": f"{YEAR + 3}-01-01",
            **query,
        },
    )
    assert response.status_code == 200, response.json()
    return response.json()["events"]


def starts(records):
    return [record["start_date"] for record in records]


def refusal(response, field):
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert body["data"]["status"] == 400
    assert field in body["data"]["params"]
    return body["data"]["params"][field]


def table_counts():
    return {
        "events": Event.objects.count(),
        "live events": Event.objects.exclude(status=PostStatus.TRASH).count(),
        "series": Series.objects.count(),
        "identities": PostIdentity.objects.count(),
        "organizer links": EventOrganizer.objects.count(),
        "term links": Event.terms.through.objects.count(),
    }


# --- creating a series --------------------------------------------------------------------------


def test_a_series_is_created_as_ordinary_events_with_their_own_ids_and_slugs(editor):
    record = create_series(editor)
    assert record["recurrence"] == {
        "rules": ["FREQ=WEEKLY;COUNT=10"],
        "dates": [],
        "exclusions": [],
        "series": record["id"],
        "position": 1,
    }
    listed = series_list(editor, record["id"])
    assert len(listed) == 10
    assert listed[0]["id"] == record["id"] and listed[0]["slug"] == "yoga"
    assert [item["slug"] for item in listed[1:3]] == [f"yoga-{YEAR}-01-12", f"yoga-{YEAR}-01-19"]
    assert len({item["id"] for item in listed}) == 10
    assert [item["recurrence"]["position"] for item in listed] == list(range(1, 11))
    assert {item["recurrence"]["series"] for item in listed} == {record["id"]}
    assert {item["title"] for item in listed} == {"Yoga"}
    # Each occurrence reads on its own, as any event does.
    single = editor.get(f"{API}/events/{listed[4]['id']}").json()
    assert single["start_date"] == f"{YEAR}-02-02 19:00:00" and single["recurrence"]["position"] == 5


def test_occurrences_copy_the_series_links_and_texts(editor):
    venue, organizer, category = make_venue("Hall"), make_organizer("Ann"), make_category("Sport")
    record = create_series(editor, venue=venue.pk, organizer=[organizer.pk], categories=[category.pk], cost="10")
    listed = series_list(editor, record["id"])
    assert {item["venue"]["id"] for item in listed} == {venue.pk}
    assert {tuple(o["id"] for o in item["organizer"]) for item in listed} == {(organizer.pk,)}
    assert {tuple(c["id"] for c in item["categories"]) for item in listed} == {(category.pk,)}
    assert {item["cost"] for item in listed} == {"$10"}
    category.refresh_from_db()
    assert category.count == 10


def test_weekly_times_stay_on_the_wall_clock_across_daylight_saving(editor):
    # New York leaves daylight-saving time on the first Sunday of November.
    record = create_series(
        editor,
        start_date=f"{YEAR}-10-26 19:00:00",
        end_date=f"{YEAR}-10-26 20:00:00",
        recurrence={"rules": ["FREQ=WEEKLY;BYDAY=TU;COUNT=4"]},
    )
    listed = series_list(editor, record["id"])
    assert [item["start_date"][11:] for item in listed] == ["19:00:00"] * 4
    assert [item["utc_start_date"][11:] for item in listed] == ["23:00:00", "23:00:00", "00:00:00", "00:00:00"]
    assert [item["timezone_abbr"] for item in listed] == ["EDT", "EDT", "EST", "EST"]


def test_all_day_and_multi_day_occurrences_keep_their_length(editor):
    record = create_series(
        editor,
        all_day=True,
        start_date=f"{YEAR}-03-05",
        end_date=f"{YEAR}-03-06",
        recurrence={"rules": ["FREQ=MONTHLY;BYDAY=1FR;COUNT=3"], "dates": [f"{YEAR}-12-24"]},
    )
    listed = series_list(editor, record["id"])
    assert len(listed) == 4
    for item in listed:
        start = dt.date.fromisoformat(item["start_date"][:10])
        assert item["all_day"] is True
        assert item["start_date"][11:] == "00:00:00" and item["end_date"][11:] == "23:59:59"
        assert dt.date.fromisoformat(item["end_date"][:10]) - start == dt.timedelta(days=1)
    assert listed[-1]["start_date"] == f"{YEAR}-12-24 00:00:00"
    assert listed[0]["recurrence"]["dates"] == [f"{YEAR}-12-24 00:00:00"]


@pytest.mark.parametrize(
    "rule, expected",
    [
        ("FREQ=DAILY;INTERVAL=3;COUNT=3", ["01-05", "01-08", "01-11"]),
        ("FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4", ["01-05", "01-07", "01-12", "01-14"]),
        ("FREQ=MONTHLY;BYDAY=2TU;COUNT=3", ["01-05", "01-12", "02-09", "03-09"]),
        ("FREQ=MONTHLY;BYDAY=-1FR;COUNT=2", ["01-05", "01-29", "02-26"]),
        ("FREQ=MONTHLY;BYMONTHDAY=15;COUNT=2", ["01-05", "01-15", "02-15"]),
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=2", ["01-05", "01-29", "02-26"]),
        ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1;COUNT=1", ["01-05", "03-01"]),
    ],
    ids=["daily-interval", "weekly-days", "second-tuesday", "last-friday", "month-day", "setpos", "yearly"],
)
def test_rule_kinds(editor, rule, expected):
    # 5 January 2027 is a Tuesday. The first occurrence is always one (RFC 5545's DTSTART), and
    # COUNT counts it only when the rule gives it too (python-dateutil's reading).
    record = create_series(
        editor, start_date="2027-01-05 19:00", end_date="2027-01-05 20:00", recurrence={"rules": [rule]}
    )
    assert [start[5:10] for start in starts(series_list(editor, record["id"], start_date="2026-01-01"))] == expected


def test_extra_and_excluded_dates(editor):
    record = create_series(
        editor,
        recurrence={
            "rules": ["FREQ=WEEKLY;COUNT=3"],
            "dates": [f"{YEAR}-01-06 08:00:00"],
            "exclusions": [f"{YEAR}-01-12 19:00:00"],
        },
    )
    assert starts(series_list(editor, record["id"])) == [
        f"{YEAR}-01-05 19:00:00",
        f"{YEAR}-01-06 08:00:00",
        f"{YEAR}-01-19 19:00:00",
    ]


def test_an_open_ended_rule_is_made_up_to_the_horizon_and_extended_daily(editor, settings, monkeypatch):
    settings.EVENTS = {"RECURRENCE_HORIZON_MONTHS": 2}
    today = timezone.now().date()
    record = create_series(
        editor, start_date=f"{today} 09:00", end_date=f"{today} 10:00", recurrence={"rules": ["FREQ=WEEKLY"]}
    )
    made = Event.objects.filter(series_id=record["id"]).count()
    assert 8 <= made <= 10
    settings.EVENTS = {"RECURRENCE_HORIZON_MONTHS": 4}
    call_command("events_extend_series", stdout=open("/dev/null", "w"))
    extended = Event.objects.filter(series_id=record["id"]).count()
    assert 17 <= extended <= 19
    # Again: nothing more to make, nothing made twice.
    call_command("events_extend_series", stdout=open("/dev/null", "w"))
    assert Event.objects.filter(series_id=record["id"]).count() == extended
    assert store.stale_rows() == []


def test_an_open_ended_series_starting_beyond_the_horizon_has_its_first_occurrence(editor, settings):
    settings.EVENTS = {"RECURRENCE_HORIZON_MONTHS": 2}
    later = timezone.now().date() + dt.timedelta(days=365)
    record = create_series(
        editor, start_date=f"{later} 09:00", end_date=f"{later} 10:00", recurrence={"rules": ["FREQ=WEEKLY"]}
    )
    assert record["recurrence"]["series"] == record["id"]
    assert list(Event.objects.filter(series_id=record["id"]).values_list("pk", flat=True)) == [record["id"]]
    assert store.stale_rows() == []


def test_the_extension_reports_a_series_that_would_pass_the_limit(editor, settings):
    settings.EVENTS = {"RECURRENCE_HORIZON_MONTHS": 1, "MAX_OCCURRENCES_PER_SERIES": 40}
    today = timezone.now().date()
    record = create_series(
        editor, start_date=f"{today} 09:00", end_date=f"{today} 10:00", recurrence={"rules": ["FREQ=DAILY"]}
    )
    before = Event.objects.filter(series_id=record["id"]).count()
    settings.EVENTS = {"RECURRENCE_HORIZON_MONTHS": 3, "MAX_OCCURRENCES_PER_SERIES": 40}
    with pytest.raises(Exception, match="could not be extended"):
        call_command("events_extend_series", stdout=open("/dev/null", "w"), stderr=open("/dev/null", "w"))
    assert Event.objects.filter(series_id=record["id"]).count() == before


def test_new_occurrences_are_stored_as_a_fresh_reading_renders_them(editor):
    """The store renders a series' new occurrences from the instances just written, not read back:
    what it stores must be what rendering them from the database gives, with every link, an image,
    a cost, text in more than one language and a rule that ends."""
    image = make_image()
    body = series_body(
        title="Yoga on the roof",
        description="<p>Bring a <strong>mat</strong>.</p>",
        excerpt="Stretch & breathe",
        cost="10",
        website="https://example.org/yoga",
        venue=make_venue().pk,
        organizer=[make_organizer().pk, make_organizer("Second").pk],
        categories=[make_category().pk],
        tags=["outdoor"],
        image=str(image.pk),
        recurrence={
            "rules": [f"FREQ=WEEKLY;BYDAY=TU,TH;UNTIL={YEAR}0331T235959Z"],
            "dates": [f"{YEAR}-04-14 19:00:00"],
        },
    )
    response = editor.post(f"/zh-hant{API}/events", body, format="json")
    assert response.status_code == 201, response.json()
    series_id = response.json()["id"]
    assert Event.objects.filter(series_id=series_id).count() == 26
    assert store.stale_rows() == []
    occurrence = Event.objects.filter(series_id=series_id).exclude(pk=series_id).first()
    stored = editor.get(f"/zh-hant{API}/events/{occurrence.pk}").json()
    assert stored["title"] == "Yoga on the roof" and stored["image"]["id"] == image.pk
    assert [organizer["id"] for organizer in stored["organizer"]] == body["organizer"]


def test_a_series_renders_into_the_store_in_bulk(editor):
    record = create_series(editor, recurrence={"rules": ["FREQ=DAILY;COUNT=60"]})
    assert store.stale_rows() == []
    occurrences = set(Event.objects.filter(series_id=record["id"]).values_list("pk", flat=True))
    row_kinds = (store.EVENT, store.EVENT_LD)
    stored = RenderedRecord.objects.filter(record_id__in=occurrences, kind__in=row_kinds)
    # Every occurrence in every language, as its record and its JSON-LD: on PostgreSQL these 360
    # rows go through COPY (a few rows go through one INSERT).
    assert stored.count() == len(occurrences) * len(row_kinds) * len(languages())
    assert set(stored.values_list("record_id", flat=True)) == occurrences


def test_creating_a_series_runs_statements_that_do_not_grow_with_its_length(editor):
    postgresql = connection.vendor == "postgresql"
    counts = {}
    for count in (10, 200, 1000) if postgresql else (10, 200):
        with CaptureQueriesContext(connection) as queries:
            create_series(editor, title=f"Daily {count}", recurrence={"rules": [f"FREQ=DAILY;COUNT={count}"]})
        counts[count] = len(queries)
    if postgresql:
        # The same statements at any length up to MAX_OCCURRENCES_PER_SERIES; a long series'
        # rendered rows take one more (into the table COPY fills) than a short one's single INSERT.
        assert counts[1000] == counts[200] <= counts[10] + 1
    else:
        # SQLite caps the parameters of a statement: bulk inserts go in batches (about 20 event
        # rows, 140 rendered rows), still fewer than one statement per ten occurrences.
        assert counts[200] - counts[10] < 190 // 10


# --- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "recurrence",
    [
        {"rules": ["FREQ=SOMETIMES"]},
        {"rules": ["FREQ=HOURLY;COUNT=3"]},
        {"rules": ["FREQ=WEEKLY;UNTIL=20000101T000000Z"]},
        {"rules": ["FREQ=DAILY;COUNT=5000"]},
        {"rules": ["FREQ=DAILY;COUNT=2;UNTIL=20991231T000000Z"]},
        {"rules": ["FREQ=DAILY\nRRULE:FREQ=WEEKLY"]},
        {"rules": "FREQ=DAILY"},
        {"rules": [], "dates": []},
        {"rules": ["FREQ=DAILY;COUNT=2"], "dates": ["next tuesday"]},
        {"rules": ["FREQ=DAILY;COUNT=2"], "exclusions": ["2027-02-30 10:00:00"]},
        {"rules": ["FREQ=DAILY;COUNT=2"], "dates": [f"{YEAR - 2}-01-01 10:00:00"]},
        {"rules": ["FREQ=DAILY;COUNT=2"], "exclusions": [f"{YEAR}-01-05 19:00:00"]},
        "FREQ=DAILY",
    ],
    ids=[
        "unparsable",
        "hourly",
        "until-before-start",
        "too-many",
        "count-and-until",
        "two-lines",
        "rules-not-list",
        "empty",
        "date-not-date",
        "exclusion-not-date",
        "date-before-start",
        "first-excluded",
        "not-object",
    ],
)
def test_bad_recurrence_is_a_400_naming_it_and_writes_nothing(editor, recurrence):
    before = table_counts()
    response = editor.post(f"{API}/events", series_body(recurrence=recurrence), format="json")
    refusal(response, "recurrence")
    assert table_counts() == before


def test_a_scope_on_an_event_outside_a_series_is_refused(editor):
    event = editor.post(f"{API}/events", series_body(recurrence=None), format="json").json()
    assert "recurrence" not in event
    refusal(
        editor.post(f"{API}/events/{event['id']}", {"title": "x", "recurrence_scope": "all"}, format="json"),
        "recurrence_scope",
    )
    refusal(editor.delete(f"{API}/events/{event['id']}?recurrence_scope=this"), "recurrence_scope")
    record = create_series(editor)
    response = editor.post(
        f"{API}/events/{record['id']}", {"title": "x", "recurrence_scope": "sometimes"}, format="json"
    )
    assert response.status_code == 400 and "recurrence_scope" in response.json()["data"]["params"]
    assert Event.objects.get(pk=event["id"]).title == "Yoga"


# --- changing the rules ---------------------------------------------------------------------------


def test_a_new_rule_keeps_occurrences_whose_start_stays_and_trashes_the_others(editor):
    record = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=4"]})
    before = series_list(editor, record["id"])
    edited = before[1]
    editor.post(f"{API}/events/{edited['id']}", {"title": "Yoga outdoors"}, format="json")
    response = editor.post(
        f"{API}/events/{record['id']}", {"recurrence": {"rules": ["FREQ=WEEKLY;INTERVAL=2;COUNT=3"]}}, format="json"
    )
    assert response.status_code == 200, response.json()
    after = series_list(editor, record["id"])
    assert starts(after) == [f"{YEAR}-01-05 19:00:00", f"{YEAR}-01-19 19:00:00", f"{YEAR}-02-02 19:00:00"]
    assert after[1]["id"] == before[2]["id"]
    assert [item["recurrence"]["position"] for item in after] == [1, 2, 3]
    assert Event.objects.get(pk=edited["id"]).status == PostStatus.TRASH
    assert Event.objects.get(pk=before[3]["id"]).status == PostStatus.TRASH
    assert {item["recurrence"]["rules"][0] for item in after} == {"FREQ=WEEKLY;INTERVAL=2;COUNT=3"}
    assert store.stale_rows() == []


def test_null_ends_the_recurrence_and_keeps_the_first_occurrence(editor):
    record = create_series(editor)
    others = [item["id"] for item in series_list(editor, record["id"])[1:]]
    response = editor.patch(f"{API}/events/{record['id']}", {"recurrence": None}, format="json")
    assert response.status_code == 200
    assert "recurrence" not in response.json()
    assert set(Event.objects.filter(pk__in=others).values_list("status", flat=True)) == {PostStatus.TRASH}
    assert not Series.objects.exists()
    assert series_list(editor, record["id"]) == []


def test_an_existing_event_becomes_a_series(editor):
    event = editor.post(f"{API}/events", series_body(recurrence=None), format="json").json()
    response = editor.put(
        f"{API}/events/{event['id']}", {"recurrence": {"rules": ["FREQ=DAILY;COUNT=3"]}}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["recurrence"]["series"] == event["id"]
    assert len(series_list(editor, event["id"])) == 3


def test_moving_the_first_occurrence_moves_the_series(editor):
    record = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=3"]})
    response = editor.post(
        f"{API}/events/{record['id']}",
        {"start_date": f"{YEAR}-01-05 18:00", "end_date": f"{YEAR}-01-05 19:00"},
        format="json",
    )
    assert response.status_code == 200
    assert starts(series_list(editor, record["id"])) == [f"{YEAR}-01-{day} 18:00:00" for day in ("05", "12", "19")]


def test_moving_the_first_occurrence_onto_another_occurrence_makes_the_series_again_from_there(editor):
    record = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=3"]})
    second = series_list(editor, record["id"])[1]
    response = editor.post(
        f"{API}/events/{record['id']}",
        {"start_date": f"{YEAR}-01-12 19:00", "end_date": f"{YEAR}-01-12 20:30"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    after = series_list(editor, record["id"])
    assert starts(after) == [f"{YEAR}-01-{day} 19:00:00" for day in ("12", "19", "26")]
    assert [item["recurrence"]["position"] for item in after] == [1, 2, 3]
    assert second["id"] not in [item["id"] for item in after]
    assert Event.objects.get(pk=second["id"]).status == PostStatus.TRASH
    assert store.stale_rows() == []


def test_the_rules_change_only_on_the_first_occurrence(editor):
    record = create_series(editor)
    second = series_list(editor, record["id"])[1]
    response = editor.post(
        f"{API}/events/{second['id']}", {"recurrence": {"rules": ["FREQ=DAILY;COUNT=2"]}}, format="json"
    )
    refusal(response, "recurrence")


# --- scopes ------------------------------------------------------------------------------------


def test_scope_this_changes_one_occurrence_and_all_spares_it(editor):
    record = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=4"]})
    listed = series_list(editor, record["id"])
    response = editor.post(f"{API}/events/{listed[1]['id']}", {"title": "Yoga in the park"}, format="json")
    assert response.status_code == 200
    assert [item["title"] for item in series_list(editor, record["id"])] == ["Yoga", "Yoga in the park", "Yoga", "Yoga"]
    category = make_category("Wellness")
    response = editor.post(
        f"{API}/events/{listed[2]['id']}",
        {"title": "Evening yoga", "categories": [category.pk], "recurrence_scope": "all"},
        format="json",
    )
    assert response.status_code == 200
    after = series_list(editor, record["id"])
    assert [item["title"] for item in after] == ["Evening yoga", "Yoga in the park", "Evening yoga", "Evening yoga"]
    assert all([c["id"] for c in item["categories"]] == [category.pk] for item in after)
    category.refresh_from_db()
    assert category.count == 4
    assert store.stale_rows() == []


def test_scope_following_splits_the_series(editor):
    record = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=6"]})
    listed = series_list(editor, record["id"])
    third = listed[2]["id"]
    response = editor.post(
        f"{API}/events/{third}", {"title": "Yoga II", "recurrence_scope": "following"}, format="json"
    )
    assert response.status_code == 200, response.json()
    first_half = series_list(editor, record["id"])
    second_half = series_list(editor, third)
    assert [item["id"] for item in first_half] == [item["id"] for item in listed[:2]]
    assert [item["id"] for item in second_half] == [item["id"] for item in listed[2:]]
    assert [item["title"] for item in second_half] == ["Yoga II"] * 4
    assert {item["title"] for item in first_half} == {"Yoga"}
    assert second_half[0]["recurrence"] == {
        "rules": ["FREQ=WEEKLY;COUNT=4"],
        "dates": [],
        "exclusions": [],
        "series": third,
        "position": 1,
    }
    assert first_half[0]["recurrence"]["rules"][0].startswith("FREQ=WEEKLY;UNTIL=")
    assert [item["recurrence"]["position"] for item in second_half] == [1, 2, 3, 4]
    assert store.stale_rows() == []


def test_moving_all_occurrences_from_another_than_the_first_is_refused(editor):
    record = create_series(editor)
    second = series_list(editor, record["id"])[1]
    response = editor.post(
        f"{API}/events/{second['id']}",
        {"start_date": f"{YEAR}-01-12 08:00", "end_date": f"{YEAR}-01-12 09:00", "recurrence_scope": "all"},
        format="json",
    )
    refusal(response, "recurrence_scope")
    assert series_list(editor, record["id"])[1]["start_date"] == f"{YEAR}-01-12 19:00:00"


def test_delete_this_excludes_the_start(editor):
    record = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=4"]})
    listed = series_list(editor, record["id"])
    response = editor.delete(f"{API}/events/{listed[1]['id']}")
    assert response.status_code == 200 and response.json()["status"] == "trash"
    after = series_list(editor, record["id"])
    assert [item["id"] for item in after] == [listed[0]["id"], listed[2]["id"], listed[3]["id"]]
    assert after[0]["recurrence"]["exclusions"] == [f"{YEAR}-01-12 19:00:00"]
    assert [item["recurrence"]["position"] for item in after] == [1, 2, 3]
    assert store.stale_rows() == []
    # The trashed occurrence still shows the series' rules: a second deletion renders it again.
    assert editor.delete(f"{API}/events/{listed[2]['id']}").status_code == 200
    assert len(Series.objects.get(pk=record["id"]).exclusions) == 2
    assert store.stale_rows() == []


def test_delete_following_ends_the_series_before(editor):
    record = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=5"]})
    listed = series_list(editor, record["id"])
    response = editor.delete(f"{API}/events/{listed[2]['id']}?recurrence_scope=following")
    assert response.status_code == 200
    assert [item["id"] for item in series_list(editor, record["id"])] == [listed[0]["id"], listed[1]["id"]]


def test_delete_all_trashes_the_series(editor):
    record = create_series(editor)
    listed = series_list(editor, record["id"])
    response = editor.delete(f"{API}/events/{listed[3]['id']}?recurrence_scope=all")
    assert response.status_code == 200
    assert set(Event.objects.filter(pk__in=[item["id"] for item in listed]).values_list("status", flat=True)) == {
        PostStatus.TRASH
    }


# --- roles --------------------------------------------------------------------------------------


def test_who_may_not_edit_every_occurrence_may_not_change_the_rules(as_role):
    author, editor = as_role("author"), as_role("editor")
    record = create_series(author, recurrence={"rules": ["FREQ=WEEKLY;COUNT=3"]})
    listed = series_list(author, record["id"])
    # The editor takes one occurrence over: the author may no longer edit every occurrence.
    Event.objects.filter(pk=listed[2]["id"]).update(author=editor.user)
    response = author.post(
        f"{API}/events/{record['id']}", {"recurrence": {"rules": ["FREQ=DAILY;COUNT=3"]}}, format="json"
    )
    assert response.status_code == 403 and response.json()["code"] == "rest_forbidden"
    response = author.post(f"{API}/events/{listed[1]['id']}", {"title": "x", "recurrence_scope": "all"}, format="json")
    assert response.status_code == 403
    assert set(Event.objects.filter(series_id=record["id"]).values_list("title", flat=True)) == {"Yoga"}
    # Its own occurrence alone it may still change.
    assert author.post(f"{API}/events/{listed[1]['id']}", {"title": "x"}, format="json").status_code == 200


# --- reads --------------------------------------------------------------------------------------


def test_records_outside_a_series_have_no_recurrence_key(editor):
    create_series(editor)
    plain = editor.post(f"{API}/events", series_body(title="Plain", recurrence=None), format="json").json()
    assert "recurrence" not in plain
    listed = editor.get(
        f"{API}/events", {"search": "Plain", "start_date": f"{YEAR - 1}-01-01", "end_date": f"{YEAR + 3}-01-01"}
    ).json()["events"]
    assert listed and all("recurrence" not in item for item in listed)


def test_the_series_list_runs_a_fixed_number_of_queries(editor, django_assert_max_num_queries):
    small = create_series(editor, title="Small", recurrence={"rules": ["FREQ=DAILY;COUNT=2"]})
    large = create_series(editor, title="Large", recurrence={"rules": ["FREQ=DAILY;COUNT=50"]})
    counts = []
    for record in (small, large):
        series_list(editor, record["id"])
        with CaptureQueriesContext(connection) as queries:
            series_list(editor, record["id"])
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- the index and the document describe the field and the parameter ----------------------------


def test_the_document_and_the_index_describe_recurrence_in_each_language(api):
    schema = api.get(f"{API}/doc").json()["components"]["schemas"]["Event"]["properties"]["recurrence"]
    assert set(schema["properties"]) == {"rules", "dates", "exclusions", "series", "position"}
    descriptions = set()
    for prefix in ("", "/zh-hans", "/zh-hant"):
        index = api.get(f"{prefix}{API}/").json()
        endpoints = index["routes"][f"/{API.split('/wp-json/', 1)[1]}/events/(?P<id>\\d+)"]["endpoints"]
        args = {name: arg for endpoint in endpoints for name, arg in endpoint["args"].items()}
        descriptions.add((args["recurrence"]["description"], args["recurrence_scope"]["description"]))
    assert len(descriptions) == 3


def test_an_occurrence_restored_from_the_trash_is_in_its_series_again(editor):
    series = create_series(editor)
    third = series_list(editor, series["id"])[2]
    assert editor.delete(f"{API}/events/{third['id']}").status_code == 200
    assert series_list(editor, series["id"])[0]["recurrence"]["exclusions"] == [third["start_date"]]
    restored = editor.post(f"{API}/events/{third['id']}", {"status": "publish"}, format="json")
    assert restored.status_code == 200, restored.json()
    records = series_list(editor, series["id"])
    assert [record["id"] for record in records].count(third["id"]) == 1
    assert len(records) == 10
    assert {tuple(record["recurrence"]["exclusions"]) for record in records} == {()}
    assert [record["recurrence"]["position"] for record in records] == list(range(1, 11))


def test_an_occurrence_does_not_come_back_from_the_trash_onto_a_start_another_holds(editor):
    series = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=4"]})
    second = series_list(editor, series["id"])[1]
    assert editor.delete(f"{API}/events/{second['id']}").status_code == 200
    # The start leaves the exclusions: the series makes a new occurrence there.
    response = editor.post(
        f"{API}/events/{series['id']}", {"recurrence": {"rules": ["FREQ=WEEKLY;COUNT=4"]}}, format="json"
    )
    assert response.status_code == 200, response.json()
    newcomer = series_list(editor, series["id"])[1]
    assert newcomer["id"] != second["id"] and newcomer["start_date"] == second["start_date"]
    response = editor.post(f"{API}/events/{second['id']}", {"status": "publish"}, format="json")
    assert str(newcomer["id"]) in refusal(response, "status")
    assert Event.objects.get(pk=second["id"]).status == PostStatus.TRASH
    assert [item["id"] for item in series_list(editor, series["id"])][1] == newcomer["id"]


def test_a_first_occurrence_restored_from_the_trash_brings_its_rules_back(editor):
    series = create_series(editor, recurrence={"rules": ["FREQ=WEEKLY;COUNT=4"]})
    listed = series_list(editor, series["id"])
    assert editor.delete(f"{API}/events/{series['id']}?recurrence_scope=all").status_code == 200
    assert series_list(editor, series["id"]) == []
    restored = editor.post(f"{API}/events/{series['id']}", {"status": "publish"}, format="json")
    assert restored.status_code == 200, restored.json()
    records = series_list(editor, series["id"])
    assert starts(records) == starts(listed)
    assert [record["recurrence"]["position"] for record in records] == [1, 2, 3, 4]
    assert store.stale_rows() == []
