"""Simultaneous writes to one series take turns (PostgreSQL): nothing made twice, no exclusion lost."""

import datetime as dt
import io
import itertools
from collections import Counter
from dataclasses import dataclass, field

import pytest
from django.core.management import call_command
from django.utils import timezone

from events import store
from events.dates import wall_clock
from events.models import Event, PostStatus, Series
from events.services import recurrence

from .concurrency import all_at_once
from .conftest import API

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def make_series(client, rules):
    today = timezone.now().date()
    response = client.post(
        f"{API}/events",
        {
            "title": "Choir",
            "start_date": f"{today} 18:00",
            "end_date": f"{today} 19:00",
            "status": "publish",
            "recurrence": {"rules": rules},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_simultaneous_deletes_of_occurrences_each_join_the_exclusions(as_role):
    clients = [as_role("editor") for _ in range(8)]
    series_id = make_series(clients[0], ["FREQ=DAILY;COUNT=20"])
    occurrences = list(Event.objects.filter(series_id=series_id).exclude(pk=series_id).order_by("occurrence_start")[:8])

    def delete(client, occurrence):
        return lambda: client.delete(f"{API}/events/{occurrence.pk}").status_code

    statuses = all_at_once([delete(client, occurrence) for client, occurrence in zip(clients, occurrences)])
    assert statuses == [200] * 8
    series = Series.objects.get(pk=series_id)
    assert len(series.exclusions) == 8
    live = Event.objects.filter(series_id=series_id).exclude(status=PostStatus.TRASH)
    assert live.count() == 12
    assert sorted(live.values_list("series_position", flat=True)) == list(range(1, 13))
    assert store.stale_rows() == []


def test_rule_saves_and_the_daily_extension_at_once_make_each_occurrence_once(as_role, settings):
    clients = [as_role("editor") for _ in range(4)]
    series_id = make_series(clients[0], ["FREQ=WEEKLY"])

    def save_rule(client, interval):
        body = {"recurrence": {"rules": [f"FREQ=WEEKLY;INTERVAL={interval}"]}}
        return lambda: client.post(f"{API}/events/{series_id}", body, format="json").status_code

    def extend():
        call_command("events_extend_series", stdout=open("/dev/null", "w"))
        return 200

    statuses = all_at_once([save_rule(clients[0], 2), save_rule(clients[1], 1), save_rule(clients[2], 2), extend])
    assert statuses == [200] * 4
    live = list(
        Event.objects.filter(series_id=series_id)
        .exclude(status=PostStatus.TRASH)
        .values_list("occurrence_start", flat=True)
    )
    assert len(live) == len(set(live))
    interval = int(Series.objects.get(pk=series_id).rules[0].rsplit("=", 1)[1])
    gaps = {(later - earlier).days for earlier, later in zip(sorted(live), sorted(live)[1:])}
    assert gaps == {7 * interval}
    assert store.stale_rows() == []


def test_if_match_writes_to_an_occurrence_and_writes_to_the_whole_series_never_deadlock(as_role):
    """An If-Match write locks the series before the occurrence, in the order series writes take."""
    clients = [as_role("editor") for _ in range(8)]
    series_id = make_series(clients[0], ["FREQ=DAILY;COUNT=10"])
    occurrence = Event.objects.filter(series_id=series_id).exclude(pk=series_id).order_by("occurrence_start").first()
    url = f"{API}/events/{occurrence.pk}"
    etag = clients[0].get(url)["ETag"]

    def guarded(client, n):
        return lambda: client.patch(url, {"title": f"Only this {n}"}, format="json", HTTP_IF_MATCH=etag).status_code

    def series_wide(client, n):
        return lambda: client.patch(url, {"excerpt": f"All {n}", "recurrence_scope": "all"}, format="json").status_code

    calls = [guarded(client, n) for n, client in enumerate(clients[:4])]
    calls += [series_wide(client, n) for n, client in enumerate(clients[4:])]
    statuses = all_at_once(calls)
    assert 503 not in statuses
    assert set(statuses) <= {200, 412}


# --- every series write against every other ----------------------------------------------------

# A daily series every other day, open-ended, materialised a month ahead: about fifteen occurrences.
RULE = "FREQ=DAILY;INTERVAL=2"
HORIZON = {"RECURRENCE_HORIZON_MONTHS": 1}
# The answers a write to an occurrence may get, each with its contract code.
DOCUMENTED = {200: None, 400: "rest_invalid_param", 410: "event-is-in-trash"}


@dataclass(frozen=True)
class SeriesWrite:
    """One way of writing a series: what it sends, to which occurrence (its index in the series as made)."""

    name: str
    target: int
    method: str = "patch"
    body: dict = field(default_factory=dict)
    query: str = ""

    def call(self, client, occurrence_ids):
        url = f"{API}/events/{occurrence_ids[self.target]}{self.query}"
        if self.method == "delete":
            return client.delete(url)
        return client.patch(url, self.body, format="json")


def moved_first_body():
    """The first occurrence two days later, onto the start of the second occurrence."""
    day = timezone.now().date() + dt.timedelta(days=2)
    return {"start_date": f"{day} 18:00", "end_date": f"{day} 19:00"}


def series_writes():
    return [
        SeriesWrite("edit this", 3, body={"title": "Only this", "recurrence_scope": "this"}),
        SeriesWrite("move this", 3, body={**moved_one_body(3), "recurrence_scope": "this"}),
        SeriesWrite("edit following", 2, body={"excerpt": "From here", "recurrence_scope": "following"}),
        SeriesWrite("edit all", 3, body={"excerpt": "Everywhere", "recurrence_scope": "all"}),
        SeriesWrite("move the first", 0, body=moved_first_body()),
        SeriesWrite("new rules", 0, body={"recurrence": {"rules": ["FREQ=DAILY"]}}),
        SeriesWrite("end the recurrence", 0, body={"recurrence": None}),
        SeriesWrite("delete this", 3, method="delete"),
        SeriesWrite("delete following", 4, method="delete", query="?recurrence_scope=following"),
        SeriesWrite("delete all", 5, method="delete", query="?recurrence_scope=all"),
        SeriesWrite("delete the first", 0, method="delete"),
        SeriesWrite("extend", 0, method="command"),
    ]


def moved_one_body(index):
    """Occurrence `index` alone, an hour later than the rules have it."""
    day = timezone.now().date() + dt.timedelta(days=2 * index)
    return {"start_date": f"{day} 19:00", "end_date": f"{day} 20:00"}


def run(write, client, occurrence_ids):
    """(status, body) of `write`; a failure of the server is a 500, whatever raised it."""
    try:
        if write.method == "command":
            call_command("events_extend_series", stdout=io.StringIO(), stderr=io.StringIO())
            return 200, {}
        response = write.call(client, occurrence_ids)
        return response.status_code, response.json()
    except Exception as error:  # noqa: BLE001 - counted as the 500 a client would get
        return 500, {"raised": repr(error)}


def series_problems(answers, occurrence_ids):
    """What is wrong after `answers` [(write, status, body)] to one series made as `occurrence_ids`."""
    problems = []
    for write, status, body in answers:
        if status not in DOCUMENTED or (status != 200 and body.get("code") != DOCUMENTED[status]):
            problems.append(f"{write.name}: {status} {body}")
    answered = {write.name for write, status, _body in answers if status == 200}
    written = [write.name for write, _status, _body in answers]
    target = {write.name: Event.objects.get(pk=occurrence_ids[write.target]) for write, _status, _body in answers}
    for name in answered:
        event = target[name]
        if name.startswith("delete") and event.status != PostStatus.TRASH:
            problems.append(f"{name}: answered 200, occurrence {event.pk} is {event.status}")
        if name == "edit this" and event.title != "Only this":
            problems.append(f"{name}: answered 200, the title is {event.title!r}")
        if name == "move this" and wall_clock(event.start_local).hour != 19:
            problems.append(f"{name}: answered 200, the occurrence starts at {event.start_local}")
        if name == "move the first" and wall_clock(event.start_local).date() != timezone.now().date() + dt.timedelta(
            days=2
        ):
            problems.append(f"{name}: answered 200, the first occurrence starts at {event.start_local}")
        excerpts = {"edit following": "From here", "edit all": "Everywhere"}
        alone = written.count("edit following") + written.count("edit all") == 1
        if name in excerpts and alone and excerpts[name] not in event.excerpt:
            problems.append(f"{name}: answered 200, the excerpt is {event.excerpt!r}")
    for write, status, body in answers:
        if write.name == "delete all" and status == 200 and body.get("recurrence"):
            series_id = body["recurrence"]["series"]
            published = list(
                Event.objects.filter(series_id=series_id).exclude(status=PostStatus.TRASH).values_list("pk", flat=True)
            )
            if published:
                problems.append(f"delete all: answered 200, series {series_id} still has {published} on the calendar")
    return problems


def consistency_problems():
    """Every series as its rules make it: each live occurrence at a start of the rules, at that
    start's position, alone there; a series whose first occurrence is live has all of its starts."""
    problems = []
    for series in Series.objects.order_by("pk"):
        first = Event.objects.get(pk=series.pk)
        until = wall_clock(series.materialised_until) if series.materialised_until else None
        starts = recurrence.expand(recurrence.Recurrence.of(series), first, until)
        position = {start: number for number, start in enumerate(starts, start=1)}
        live = [
            occurrence
            for occurrence in Event.objects.filter(series_id=series.pk).order_by("occurrence_start", "pk")
            if occurrence.status != PostStatus.TRASH or occurrence.pk == first.pk
        ]
        held = [wall_clock(occurrence.occurrence_start) for occurrence in live]
        if len(held) != len(set(held)):
            problems.append(f"series {series.pk}: two live occurrences share a start")
        for occurrence, start in zip(live, held):
            if position.get(start) != occurrence.series_position:
                problems.append(
                    f"series {series.pk}: occurrence {occurrence.pk} at {start} has position "
                    f"{occurrence.series_position}, the rules {position.get(start)}"
                )
        if first.occurrence_start != first.start_local:
            problems.append(f"series {series.pk}: the rules do not start where the first occurrence does")
        if first.status != PostStatus.TRASH and sorted(held) != starts:
            problems.append(f"series {series.pk}: {len(starts)} starts, {len(held)} live occurrences")
    return problems


def write_at_once(writes, clients, rounds, settings):
    """Each round, a new series written by `writes` all at once; the problems seen (the series, and
    those split off it, are cleared after each round, so that the daily extension reads only them)."""
    settings.EVENTS = HORIZON
    problems = []
    for _round in range(rounds):
        series_id = make_series(clients[0], [RULE])
        occurrence_ids = list(
            Event.objects.filter(series_id=series_id).order_by("occurrence_start").values_list("pk", flat=True)
        )
        calls = [
            (lambda write=write, client=client: (write, *run(write, client, occurrence_ids)))
            for write, client in zip(writes, clients)
        ]
        answers = all_at_once(calls)
        problems += series_problems(answers, occurrence_ids)
        problems += consistency_problems()
        problems += [f"stale rendering: {row}" for row in store.stale_rows()]
        Event.objects.all().delete()
    return problems


def summary(problems):
    return "\n".join(f"{count} × {problem}" for problem, count in Counter(problems).most_common())


def test_every_pair_of_series_writes_takes_turns(as_role, settings):
    """Two writes to one series at once, for every pair of the ways a series is written (the same
    way twice too): both read the series before either writes."""
    clients = [as_role("editor") for _ in range(2)]
    writes = series_writes()
    problems = []
    for one, other in itertools.combinations_with_replacement(writes, 2):
        found = write_at_once([one, other], clients, rounds=1, settings=settings)
        problems += [f"{one.name} + {other.name}: {problem}" for problem in found]
    assert problems == [], summary(problems)


def test_every_series_write_at_once_takes_turns(as_role, settings):
    """Every way of writing a series, all at once on one series, three times."""
    writes = series_writes()
    clients = [as_role("editor") for _ in writes]
    problems = write_at_once(writes, clients, rounds=3, settings=settings)
    assert problems == [], summary(problems)


def test_a_write_that_waited_for_an_event_deleted_meanwhile_is_answered_404(as_role):
    """Another process deletes the event for good while an API write waits for the event's turn:
    the write finds nothing when its turn comes, and says so as a read of the ID would."""
    import threading

    from django.db import connection, connections, transaction

    from .factories import make_event

    admin = as_role("administrator")
    event = make_event("Gone soon")
    holding, answers = threading.Event(), []

    def edit():
        holding.wait(30)
        answers.append(admin.post(f"{API}/events/{event.pk}", {"title": "Too late"}, format="json"))
        connection.close()

    writer = threading.Thread(target=edit)
    writer.start()
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        holding.set()
        # Until the API's write is waiting for this row's lock, from another connection.
        with connections["default"].cursor() as cursor:
            for _attempt in range(600):
                # Statistics are read once per transaction unless the snapshot is dropped.
                cursor.execute("SELECT pg_stat_clear_snapshot()")
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
                )
                if cursor.fetchone()[0]:
                    break
                threading.Event().wait(0.05)
        Event.objects.filter(pk=event.pk).delete()
    writer.join(60)
    assert len(answers) == 1
    assert answers[0].status_code == 404, answers[0].json()
    assert answers[0].json()["code"] == "rest-event-not-found"
