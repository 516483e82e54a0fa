"""The benchmark's seeder and query counter: a tiny calendar seeded in bulk is a consistent, listable one."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.middleware import QUERIES_HEADER
from bench.seed import seed_calendar, wipe_calendar
from events.dates import wall_clock
from events.models import (
    Attachment,
    Category,
    Event,
    EventOrganizer,
    Organizer,
    PostIdentity,
    PostKind,
    PostStatus,
    Tag,
    Taxonomy,
    Venue,
)
from events.services.schedule import set_event_times

from .conftest import API

pytestmark = pytest.mark.django_db

N_EVENTS = 30
# Wide enough to hold every seeded event, so totals do not depend on today's date.
WHOLE_CALENDAR = {"start_date": "2000-01-01", "end_date": "2100-12-31", "per_page": 50}


@pytest.fixture
def summary():
    return seed_calendar(N_EVENTS, seed=7)


def listed_events():
    return Event.objects.filter(status=PostStatus.PUBLISH, hide_from_listings=False, password="")


@pytest.mark.parametrize(
    "model, kind",
    [
        pytest.param(Event, PostKind.EVENT, id="events"),
        pytest.param(Venue, PostKind.VENUE, id="venues"),
        pytest.param(Organizer, PostKind.ORGANIZER, id="organizers"),
        pytest.param(Attachment, PostKind.ATTACHMENT, id="images"),
    ],
)
def test_seeded_posts_hold_ids_of_their_own_kind(summary, model, kind):
    ids = set(model.objects.values_list("id", flat=True))
    assert ids
    assert set(PostIdentity.objects.filter(kind=kind).values_list("id", flat=True)) == ids


def test_seeded_counts_match_the_summary(summary):
    assert (summary.events, Event.objects.count()) == (N_EVENTS, N_EVENTS)
    assert Venue.objects.count() == summary.venues
    assert Organizer.objects.count() == summary.organizers
    assert Category.objects.count() == summary.categories
    assert Tag.objects.count() == summary.tags
    assert EventOrganizer.objects.count() == summary.organizer_links
    assert Event.terms.through.objects.count() == summary.term_links
    assert PostIdentity.objects.count() == N_EVENTS + summary.venues + summary.organizers + summary.images


def test_seeded_times_follow_the_schedule_rules(summary):
    for event in Event.objects.all():
        expected = set_event_times(
            Event(), wall_clock(event.start_local), wall_clock(event.end_local), event.timezone_name, event.all_day
        )
        assert (event.start_utc, event.end_utc, event.timezone_abbr) == (
            expected.start_utc,
            expected.end_utc,
            expected.timezone_abbr,
        ), event.pk
        assert event.end_local >= event.start_local


def test_seeded_links_are_well_formed(summary):
    for event in Event.objects.prefetch_related("organizer_links", "terms"):
        positions = [link.position for link in event.organizer_links.all()]
        assert positions == list(range(len(positions)))
        assert any(term.taxonomy == Taxonomy.CATEGORY for term in event.terms.all())
    assert not Category.objects.filter(parent__isnull=False).exclude(parent__taxonomy=Taxonomy.CATEGORY).exists()
    assert Category.objects.filter(parent__isnull=False).exists()


def test_seeded_titles_have_translations(summary):
    assert Event.objects.exclude(title_zh_hans=None).exclude(title_zh_hans="").exists()
    assert not Event.objects.filter(title_en="").exists()


def test_seeding_is_deterministic():
    first = seed_calendar(N_EVENTS, seed=7, now=dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    titles = list(Event.objects.order_by("id").values_list("title_en", "start_local", "venue__title_en"))
    wipe_calendar()
    second = seed_calendar(N_EVENTS, seed=7, now=dt.datetime(2030, 1, 1, tzinfo=dt.UTC))
    assert first == second
    assert list(Event.objects.order_by("id").values_list("title_en", "start_local", "venue__title_en")) == titles


def test_wipe_keeps_users_and_roles(summary):
    from django.contrib.auth.models import Group, User

    users, groups = User.objects.count(), Group.objects.count()
    wipe_calendar()
    assert (Event.objects.count(), Venue.objects.count(), PostIdentity.objects.count()) == (0, 0, 0)
    assert (User.objects.count(), Group.objects.count()) == (users, groups)


def test_seeded_calendar_is_listed_through_the_api(summary, api):
    response = api.get(f"{API}/events", WHOLE_CALENDAR)
    assert response.status_code == 200
    expected = listed_events().count()
    assert 0 < expected < N_EVENTS
    assert response.json()["total"] == expected
    assert response["X-TEC-Total"] == str(expected)


def test_seeded_category_filter_finds_its_events(summary, api):
    category = Category.objects.filter(children__isnull=True).order_by("-count", "id").first()
    response = api.get(f"{API}/events", {**WHOLE_CALENDAR, "categories": category.slug})
    assert response.status_code == 200
    assert response.json()["total"] == listed_events().filter(terms=category).count() > 0


def test_seeded_terms_carry_their_counts(summary, api):
    """The seeder links in bulk, which sends no signal: it recounts every term once at the end."""
    served = {}
    for collection in ("categories", "tags"):
        body = api.get(f"{API}/{collection}", {"hide_empty": 0, "per_page": 100}).json()
        served.update({term["id"]: term["count"] for term in body[collection]})
    published = Event.terms.through.objects.filter(event__status=PostStatus.PUBLISH)
    assert served == {term_id: published.filter(term_id=term_id).count() for term_id in served}
    assert sum(served.values()) > 0


@pytest.fixture
def bench_site(settings):
    settings.ROOT_URLCONF = "bench.urls"
    settings.MIDDLEWARE = ["bench.middleware.QueryCountMiddleware", *settings.MIDDLEWARE]


def test_floor_view_runs_no_query(bench_site, api):
    response = api.get("/bench/floor")
    assert response.status_code == 200
    assert response.json() == {"ok": True}
    assert response[QUERIES_HEADER] == "0"


def test_worker_header_names_the_process_that_answered(bench_site, api):
    """What the benchmark's clients spread their connections by (bench.run.ConnectionSpread)."""
    import os

    from bench.middleware import WORKER_HEADER

    assert api.get("/bench/floor")[WORKER_HEADER] == str(os.getpid())


def test_query_header_counts_every_query_of_the_request(bench_site, summary, api):
    with CaptureQueriesContext(connection) as captured:
        response = api.get(f"{API}/events", WHOLE_CALENDAR)
    assert response.status_code == 200
    assert int(response[QUERIES_HEADER]) == len(captured.captured_queries) > 0


def test_a_row_is_compared_with_the_floor_measured_next_to_it():
    from bench.run import FLOOR, Measurement, add_floor_ratios

    def measured(endpoint, concurrency, rps, adjacent_floor_rps=None):
        row = Measurement(endpoint, concurrency, int(rps), 0, 1.0, {200: int(rps)}, {}, 1.0, 2.0)
        row.adjacent_floor_rps = adjacent_floor_rps
        return row

    first_floor = measured(FLOOR, 1, 1000)
    drifted = measured("events/{id}", 1, 300, adjacent_floor_rps=600)
    without_check = measured("events?per_page=10", 1, 200)
    signed = measured("events/{id} [app password]", 1, 150, adjacent_floor_rps=500)
    add_floor_ratios([first_floor, drifted, without_check, signed])
    assert first_floor.floor_ratio == 1.0
    assert drifted.floor_ratio == 0.5  # against the slower floor of its own moment
    assert without_check.floor_ratio == 0.2  # against the run's first floor
    assert signed.floor_ratio == 0.3 and signed.anonymous_ratio == 0.5


def test_the_keep_alive_spread_shows_each_worker_s_share_of_each_run(capsys):
    from bench.run import Measurement, parse_args, print_spread

    assert parse_args(["--keep-alive-spread", "3"]).keep_alive_spread == 3
    with pytest.raises(SystemExit):
        parse_args(["--keep-alive-spread", "-1"])

    def run(requests_per_worker, connections_per_worker):
        requests = sum(requests_per_worker.values())
        row = Measurement("events/{id}", 8, requests, 0, 1.0, {200: requests}, {}, 1.0, 2.0)
        row.workers, row.connections = requests_per_worker, connections_per_worker
        return row

    print_spread([(1, run({"11": 300, "12": 100}, {"11": 6, "12": 2})), (2, run({"11": 800}, {"11": 8}))], ["11", "12"])
    lines = capsys.readouterr().out.splitlines()
    # Per run: each worker's share of the requests, the connections each held, the connections closed.
    assert lines[-3].split()[-4:] == ["75%", "25%", "6/2", "0"]
    assert lines[-2].split()[-4:] == ["100%", "0%", "8/0", "0"]
    assert lines[-1] == "events/{id}: req/s from 400.0 to 800.0 (highest / lowest 2.00)"


def test_the_memories_switched_off_are_named_and_known():
    from bench.run import check_memory_names, memory_names, parse_args

    assert parse_args(["--without-memory", "list-totals, stored-rows"]).without_memory == ["list-totals", "stored-rows"]
    assert parse_args([]).without_memory == []
    assert {"list-totals", "stored-rows", "login-passwords"} <= set(memory_names())
    check_memory_names(["all", "list-totals"])
    with pytest.raises(SystemExit):
        check_memory_names(["list-total"])


def test_seeded_series_are_listed_as_occurrences_of_their_first_event(summary, api):
    from bench.seed import SERIES_LENGTH, seed_series

    seed_series(1)
    first = Event.objects.get(series_position=1)
    response = api.get(f"{API}/events", {**WHOLE_CALENDAR, "post_parent": first.pk})
    assert response.status_code == 200
    occurrences = response.json()["events"]
    assert len(occurrences) == SERIES_LENGTH
    assert {record["recurrence"]["series"] for record in occurrences} == {first.pk}
    assert Event.objects.count() == summary.events + SERIES_LENGTH - 1


def test_seeded_change_log_gives_the_feed_every_seeded_record(summary, api):
    from bench.seed import seed_change_log

    seed_change_log()
    changes, query = [], {"per_page": 100}
    while True:
        response = api.get("/wp-json/events-calendar/v1/changes", query)
        assert response.status_code == 200
        changes += response.json()["changes"]
        if not response.json()["changes"]:
            break
        query["since"] = response.json()["next"]
    assert {change["action"] for change in changes} == {"created"}
    seen_events = {change["id"] for change in changes if change["kind"] == "event"}
    assert set(listed_events().values_list("id", flat=True)) <= seen_events
    assert sum(change["kind"] == "venue" for change in changes) == summary.venues


def test_log_insert_header_counts_the_change_log_appends_of_a_write(bench_site, summary, editor):
    from bench.middleware import LOG_INSERTS_HEADER

    body = {"title": "One", "status": "draft", "start_date": "2030-01-01 10:00:00", "end_date": "2030-01-01 11:00:00"}
    response = editor.post(f"{API}/events", body, format="json")
    assert response.status_code == 201
    assert response[LOG_INSERTS_HEADER] == "1"
    assert editor.get(f"{API}/events", WHOLE_CALENDAR)[LOG_INSERTS_HEADER] == "0"


def test_the_caught_up_row_asks_after_every_entry_written_before_the_load(summary, api):
    """The bench writes its drafts before measuring: a follower that has caught up is past their
    entries too, so it is answered an empty page, while the feed row reads pages of records."""
    from bench.run import CHANGES_PER_PAGE, describe_calendar, endpoints_for, signers
    from bench.seed import seed_change_log

    seed_change_log()
    endpoints = endpoints_for(describe_calendar(), signers())
    (caught_up,) = endpoints[f"changes?per_page={CHANGES_PER_PAGE} [caught up]"].paths
    response = api.get(caught_up)
    assert response.status_code == 200
    assert response.json()["changes"] == []
    first_page = endpoints[f"changes?per_page={CHANGES_PER_PAGE}"].paths[0]
    assert api.get(first_page).json()["changes"] != []
