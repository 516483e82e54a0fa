"""Simultaneous writes to one series take turns (PostgreSQL): nothing made twice, no exclusion lost."""

import pytest
from django.core.management import call_command
from django.utils import timezone

from events import store
from events.models import Event, PostStatus, Series

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
