"""What a site that installs the app gets beyond the API: deliveries never run inside a request, a
deliveries route that shows what waits for the worker, and one worker process that also keeps the
calendar up (series extended, the change log pruned)."""

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from events.models import ChangeEntry, DeliveryStatus, Event, WebhookDelivery

from .conftest import API
from .test_webhooks import HOOKS, Receiver, subscribe

pytestmark = pytest.mark.django_db

try:
    import django.tasks  # noqa: F401 — Django 6.0 has the tasks framework itself

    IMMEDIATE = "django.tasks.backends.immediate.ImmediateBackend"
except ImportError:
    IMMEDIATE = "django_tasks.backends.immediate.ImmediateBackend"

EVENT = {"title": "Installed", "start_date": "2027-05-01 10:00:00", "end_date": "2027-05-01 12:00:00"}


@pytest.fixture
def admin(as_role):
    return as_role("administrator")


@pytest.fixture
def holding_receiver(settings):
    """A receiver that holds every request until released: a write that waited for it would hang."""
    settings.EVENTS = {"OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"]}
    receiver = Receiver()
    receiver.release.clear()
    yield receiver
    receiver.stop()


def deliveries(client, hook_id):
    response = client.get(f"{HOOKS}/{hook_id}/deliveries")
    assert response.status_code == 200
    return response.json()


def test_a_write_never_delivers_inside_the_request_under_the_immediate_backend(
    admin, holding_receiver, settings, django_capture_on_commit_callbacks
):
    settings.TASKS = {"default": {"BACKEND": IMMEDIATE}}
    hook_id = subscribe(admin, holding_receiver.url).json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        created = admin.post(f"{API}/events", EVENT, format="json")
    assert created.status_code == 201
    assert holding_receiver.received == []
    listed = deliveries(admin, hook_id)
    assert [(item["status"], item["attempts"]) for item in listed] == [("pending", 0)]


def test_the_deliveries_route_shows_changes_no_worker_has_looked_at_as_pending(admin, holding_receiver):
    hook_id = subscribe(admin, holding_receiver.url).json()["id"]
    assert deliveries(admin, hook_id) == []
    admin.post(f"{API}/events", EVENT, format="json")
    listed = deliveries(admin, hook_id)
    assert [(item["status"], item["attempts"]) for item in listed] == [("pending", 0)]
    assert WebhookDelivery.objects.get().status == DeliveryStatus.PENDING
    assert holding_receiver.received == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_worker_process_delivers_extends_series_and_prunes_the_log(admin, settings):
    settings.EVENTS = {"OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"], "RECURRENCE_HORIZON_MONTHS": 1}
    receiver = Receiver()
    try:
        hook_id = subscribe(admin, receiver.url).json()["id"]
        today = timezone.now().date()
        series = admin.post(
            f"{API}/events",
            {
                "title": "Weekly",
                "start_date": f"{today + dt.timedelta(days=1)} 18:00:00",
                "end_date": f"{today + dt.timedelta(days=1)} 19:00:00",
                "recurrence": {"rules": ["FREQ=WEEKLY"]},
            },
            format="json",
        )
        assert series.status_code == 201
        series_id = series.json()["id"]
        made_with_one_month = Event.objects.filter(series_id=series_id).count()
        expired = ChangeEntry.objects.create(
            kind="event", record_id=series_id, action="updated", time=timezone.now() - dt.timedelta(days=400)
        )
        database = connection.settings_dict
        script = (
            "import django; django.setup(); from django.conf import settings; "
            "settings.EVENTS = {'OUTBOUND_ALLOWED_HOSTS': ['127.0.0.1']}; "
            "from django.core.management import call_command; call_command('events_worker', '--batch')"
        )
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "calendar_site.settings",
            "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        }
        worker = subprocess.run(
            [sys.executable, "-c", script],
            env=env,
            cwd=Path(__file__).resolve().parent.parent,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert worker.returncode == 0, worker.stderr
        assert "1 series extended" in worker.stdout
        assert Event.objects.filter(series_id=series_id).count() > made_with_one_month
        assert not ChangeEntry.objects.filter(pk=expired.pk).exists()
        sent = [json.loads(body)["type"] for _headers, body in receiver.received]
        assert "event.created" in sent
        assert all(item["status"] == "succeeded" for item in deliveries(admin, hook_id))
    finally:
        receiver.stop()
