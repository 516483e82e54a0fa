"""What the task engine's workers run (django-tasks' database backend: `manage.py db_worker`).

Django 6.0 has the tasks framework itself (`django.tasks`); on 5.2 the `django-tasks` package
provides the same API. Either way the deliveries' state is in our own tables, so a task that is
lost, run twice or run late loses nothing: it only decides when the next look happens.
"""

from django.utils import timezone

try:
    from django.tasks import task
except ImportError:  # Django 5.2
    from django_tasks import task

from . import delivery


@task()
def deliver_changes():
    """Turn new log entries into deliveries, then give each subscription due now one attempt; come
    back for what is still due (after the tasks queued meanwhile)."""
    delivery.fan_out()
    if deliver_round(delivery.due_subscriptions()):
        deliver_changes.enqueue()


@task()
def deliver_subscription(subscription_id):
    """A subscription's retry come due."""
    if deliver_round([subscription_id]):
        deliver_changes.enqueue()


def deliver_round(subscription_ids):
    """One attempt for each subscription, in turn: a slow receiver holds the others up for one
    attempt's deadline at most. Schedules the retries; returns whether a delivery is due now."""
    due_now = False
    for subscription_id in subscription_ids:
        next_due = delivery.deliver_next(subscription_id)
        if next_due is None:
            continue
        if next_due <= timezone.now():
            due_now = True
        else:
            deliver_subscription.using(run_after=next_due).enqueue(subscription_id)
    return due_now


def runs_in_a_worker(backend):
    """Whether a task backend runs tasks in workers of their own and can schedule a retry: the
    backend Django and django-tasks default to runs each task inside the request that enqueued it."""
    return type(backend).__name__ != "ImmediateBackend" and backend.supports_defer


def wake_workers():
    """Ask a worker to look at the log (after a commit that appended to it). With a backend that
    would run deliveries in this request instead, nothing is enqueued: the deliveries wait, pending,
    for a worker (`manage.py check` reports the backend, events.E002)."""
    if runs_in_a_worker(deliver_changes.get_backend()):
        deliver_changes.enqueue()
