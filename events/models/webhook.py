"""Webhook subscriptions and their deliveries: each change-log entry a subscription asks for becomes a
delivery, attempted until its receiver accepts it (events.notifications)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .change import ChangeAction, ChangeKind


class WebhookSubscription(models.Model):
    url = models.URLField(_("URL"), max_length=2000)
    # The kinds and actions sent; every one when the subscription was made without a choice.
    kinds = models.JSONField(_("kinds"), default=list)
    actions = models.JSONField(_("actions"), default=list)
    active = models.BooleanField(_("active"), default=True)
    # Standard Webhooks' form: "whsec_" and the base64 of the key; made by the server.
    secret = models.CharField(_("secret"), max_length=100, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # The change-log position up to which deliveries have been made for this subscription: a new
    # subscription starts at the log's end and is sent what changes after it.
    position = models.BigIntegerField(default=0, editable=False)
    # Why the calendar stopped sending (persistent failure), shown in the admin; empty while it sends.
    disabled_reason = models.TextField(_("disabled because"), blank=True, default="", editable=False)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["id"]

    def __str__(self):
        return self.url

    def wants(self, kind, action):
        return kind in self.kinds and action in self.actions


ALL_KINDS = list(ChangeKind.values)
ALL_ACTIONS = list(ChangeAction.values)


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    SUCCEEDED = "succeeded", _("succeeded")
    FAILED = "failed", _("failed")


class WebhookDelivery(models.Model):
    """One change sent to one subscription: the same `message_id` and body on every attempt."""

    subscription = models.ForeignKey(WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries")
    # The change-log entry (kept after the entry itself is removed by the retention).
    position = models.BigIntegerField()
    kind = models.CharField(max_length=16, choices=ChangeKind.choices)
    record_id = models.BigIntegerField()
    action = models.CharField(max_length=16, choices=ChangeAction.choices)
    change_time = models.DateTimeField()
    # The entry's languages (ChangeEntry.languages), kept with the delivery as the entry is not.
    languages = models.CharField(max_length=200, blank=True, default="")
    message_id = models.CharField(max_length=64, unique=True)
    # Written at the first attempt, then sent unchanged on every retry.
    body = models.TextField(blank=True, default="")
    status = models.CharField(max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt = models.DateTimeField(null=True, blank=True)
    last_attempt = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True, default="")
    # A worker's claim on its subscription's turn while it attempts this delivery, outside any
    # transaction: the token it records the outcome under, and when the claim lapses if the worker
    # died (the delivery is then attempted again).
    claim = models.CharField(max_length=32, blank=True, default="", editable=False)
    claimed_until = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["subscription_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["subscription", "position"], name="events_delivery_once_per_change"),
        ]
        indexes = [models.Index(fields=["status", "next_attempt"], name="events_delivery_due")]

    def __str__(self):
        return self.message_id
