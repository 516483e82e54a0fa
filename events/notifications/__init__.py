"""Webhooks: subscriptions to the change log, and their deliveries signed as the Standard Webhooks
specification says, made by workers of the task engine (django-tasks' database backend).

subscriptions.py makes and changes subscriptions; delivery.py turns log entries into deliveries and
attempts them in order, with retries; tasks.py is what the workers run. The record a delivery
carries is rendered by events.presentation.payloads, as the v1 API shows it to a visitor.
events.pipeline calls `wake_if_subscribed` after the commit of a write that appended log entries.
"""


def wake_if_subscribed():
    """Wake the webhook workers when a subscription is active: they find the new entries."""
    from ..models import WebhookSubscription
    from .tasks import wake_workers

    if WebhookSubscription.objects.filter(active=True).exists():
        wake_workers()
