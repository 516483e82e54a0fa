"""System checks (`manage.py check`) for what a site that installs the app must configure (docs/install.md)."""

from django.core import checks


@checks.register()
def check_delivery_backend(app_configs=None, **kwargs):
    """Webhook deliveries must run in a worker, with retries scheduled later: the task backend
    Django and django-tasks default to runs each task inside the request that enqueued it."""
    from .notifications.tasks import deliver_subscription, runs_in_a_worker

    hint = (
        "Set TASKS = {'default': {'BACKEND': 'django_tasks_db.DatabaseBackend'}} and run "
        "`manage.py events_worker` beside the site (docs/install.md)."
    )
    try:
        backend = deliver_subscription.get_backend()
    except Exception as error:  # noqa: BLE001 — any misconfiguration is reported, not raised
        return [
            checks.Error(
                f"The task backend of webhook deliveries cannot be loaded: {error}", hint=hint, id="events.E001"
            )
        ]
    name = f"{type(backend).__module__}.{type(backend).__qualname__}"
    if type(backend).__name__ == "ImmediateBackend":
        return [
            checks.Error(
                f"The task backend ({name}) would deliver webhooks inside the API requests that trigger them.",
                hint=hint,
                id="events.E002",
            )
        ]
    if not runs_in_a_worker(backend):
        return [
            checks.Error(
                f"The task backend ({name}) cannot schedule a task for later, so failed webhook deliveries would never be retried.",
                hint=hint,
                id="events.E003",
            )
        ]
    if type(backend).__name__ == "DummyBackend":
        return [
            checks.Warning(
                f"The task backend ({name}) never runs tasks: webhook deliveries stay pending.",
                hint=hint,
                id="events.W004",
            )
        ]
    return []


@checks.register()
def check_outbound_setting_name(app_configs=None, **kwargs):
    """IMAGE_IMPORT_ALLOWED_HOSTS was renamed OUTBOUND_ALLOWED_HOSTS: it governs webhooks too."""
    from .conf import events_settings

    if not events_settings.IMAGE_IMPORT_ALLOWED_HOSTS:
        return []
    return [
        checks.Warning(
            "EVENTS['IMAGE_IMPORT_ALLOWED_HOSTS'] is deprecated: it is read as EVENTS['OUTBOUND_ALLOWED_HOSTS'], "
            "its new name, which governs webhook deliveries as well as image imports.",
            hint="Rename the key to OUTBOUND_ALLOWED_HOSTS.",
            id="events.W005",
        )
    ]
