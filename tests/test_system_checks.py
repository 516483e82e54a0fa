"""`manage.py check` tells a site that installs the app what it must configure for webhooks to work."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

try:
    import django.tasks  # noqa: F401 — Django 6.0 has the tasks framework itself

    FRAMEWORK = "django.tasks"
except ImportError:
    FRAMEWORK = "django_tasks"

PROBLEMS = [
    (f"{FRAMEWORK}.backends.immediate.ImmediateBackend", "events.E002"),
    (f"{FRAMEWORK}.backends.dummy.DummyBackend", "events.W004"),
]
if FRAMEWORK == "django_tasks":
    # Django 6.0 refuses an unknown backend as soon as the setting changes, before any check runs.
    PROBLEMS.append(("no.such.Backend", "events.E001"))


@pytest.mark.parametrize(("backend", "check_id"), PROBLEMS, ids=[check_id for _backend, check_id in PROBLEMS])
def test_check_names_the_setting_when_deliveries_would_not_run_in_a_worker(backend, check_id):
    with override_settings(TASKS={"default": {"BACKEND": backend}}), pytest.raises(SystemCheckError) as refusal:
        call_command("check", fail_level="WARNING", stdout=StringIO(), stderr=StringIO())
    assert check_id in str(refusal.value)
    assert "TASKS" in str(refusal.value) and "events_worker" in str(refusal.value)


def test_the_database_backend_passes():
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        call_command("check", fail_level="WARNING", stdout=StringIO(), stderr=StringIO())
