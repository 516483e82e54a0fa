"""The change log: one entry per record a committed write created, changed, trashed, restored or deleted.

It is a transactional outbox: entries are appended in the writer's transaction (events.changelog),
so a rolled-back write leaves none and a committed one always has its own. The changes feed reads
it and the webhook deliveries are made from it.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ChangeKind(models.TextChoices):
    EVENT = "event", _("event")
    VENUE = "venue", _("venue")
    ORGANIZER = "organizer", _("organizer")
    CATEGORY = "category", _("category")
    TAG = "tag", _("tag")


class ChangeAction(models.TextChoices):
    CREATED = "created", _("created")
    UPDATED = "updated", _("updated")
    TRASHED = "trashed", _("trashed")
    RESTORED = "restored", _("restored")
    DELETED = "deleted", _("deleted")


class ChangeEntry(models.Model):
    # The position in the log: entries become visible in this order (events.changelog explains why).
    id = models.BigAutoField(primary_key=True)
    kind = models.CharField(max_length=16, choices=ChangeKind.choices)
    record_id = models.BigIntegerField()
    action = models.CharField(max_length=16, choices=ChangeAction.choices)
    time = models.DateTimeField()
    # The languages whose translated text the write changed, space-separated in the order of
    # settings.LANGUAGES (events.changelog.languages says which); empty when it changed only what
    # every language shows alike (times, status, links...).
    languages = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        verbose_name = _("change")
        verbose_name_plural = _("changes")
        indexes = [models.Index(fields=["time"], name="events_change_time")]

    def __str__(self):
        return f"#{self.pk} {self.kind} {self.record_id} {self.action}"
