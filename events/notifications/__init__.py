"""Webhooks: subscriptions to the change log, and their deliveries signed as the Standard Webhooks
specification says, made by workers of the task engine (django-tasks' database backend).

subscriptions.py makes and changes subscriptions; delivery.py turns log entries into deliveries and
attempts them in order, with retries; tasks.py is what the workers run. The record a delivery
carries is rendered by events.presentation.payloads, as the v1 API shows it to a visitor.
"""

from django.db import transaction

from .. import changes


def _wake_if_subscribed():
    from ..models import WebhookSubscription
    from .tasks import wake_workers

    if WebhookSubscription.objects.filter(active=True).exists():
        wake_workers()


def _log_appended(sender, using, **kwargs):
    # After the commit: a worker must find the entries, and a rolled-back write wakes nobody.
    transaction.on_commit(_wake_if_subscribed, using=using)


def connect_receivers():
    changes.log_appended.connect(_log_appended, dispatch_uid="events.notifications.wake")
