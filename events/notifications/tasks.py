"""What the task engine's workers run (django-tasks' database backend: `manage.py db_worker`).

Django 6.0 has the tasks framework itself (`django.tasks`); on 5.2 the `django-tasks` package
provides the same API. Either way the deliveries' state is in our own tables, so a task that is
lost, run twice or run late loses nothing: it only decides when the next look happens.
"""

try:
    from django.tasks import task
except ImportError:  # Django 5.2
    from django_tasks import task

from . import delivery


@task()
def deliver_changes():
    """Turn new log entries into deliveries, then deliver what is due."""
    delivery.fan_out()
    for subscription_id in delivery.due_subscriptions():
        deliver_subscription.call(subscription_id)


@task()
def deliver_subscription(subscription_id):
    """Deliver one subscription's due deliveries in order; come back when a retry is due."""
    _made, next_due = delivery.deliver_due(subscription_id)
    if next_due is not None:
        deliver_subscription.using(run_after=next_due).enqueue(subscription_id)


def wake_workers():
    """Ask a worker to look at the log (after a commit that appended to it)."""
    deliver_changes.enqueue()
