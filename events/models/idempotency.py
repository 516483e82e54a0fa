"""The answers to writes sent with an Idempotency-Key, kept so that a retry gets the same answer."""

from django.db import models


class IdempotentRequest(models.Model):
    """One write sent with an Idempotency-Key, and its answer (docs/api.md, "Idempotent retries").

    Saved in the transaction of the write it answers: a committed write always has its answer
    here, a rolled-back one never does.
    """

    # A digest of the credentials the write was sent with: one client's keys are not another's.
    scope = models.CharField(max_length=64)
    key = models.CharField(max_length=255)
    # A digest of the method, URL and body: the same key with another request is refused.
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    content_type = models.CharField(max_length=100, blank=True, default="")
    location = models.TextField(blank=True, default="")
    body = models.TextField(blank=True, default="")
    created = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="events_idempotent_request_unique")]

    def __str__(self):
        return self.key
