"""One ID sequence shared by events, venues, organizers and attachments, as WordPress posts share one.

Clients rely on it: an event ID used on the venue routes is a "wrong kind" error, not a 404.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class PostKind(models.TextChoices):
    # The values are WordPress's post type words; they appear in draft URLs (`?post_type=...`).
    EVENT = "tribe_events", _("Event")
    VENUE = "tribe_venue", _("Venue")
    ORGANIZER = "tribe_organizer", _("Organizer")
    ATTACHMENT = "attachment", _("Attachment")


class PostIdentity(models.Model):
    """Allocates IDs and remembers which kind of record holds each one."""

    id = models.BigAutoField(primary_key=True)
    kind = models.CharField(max_length=20, choices=PostKind.choices)

    class Meta:
        verbose_name = _("record identity")
        verbose_name_plural = _("record identities")

    def __str__(self):
        return f"{self.kind}#{self.pk}"

    @classmethod
    def kind_of(cls, record_id):
        """The kind holding `record_id`, or None when no record ever had it."""
        return cls.objects.filter(pk=record_id).values_list("kind", flat=True).first()

    @classmethod
    def allocate(cls, kind, count=1):
        """Reserve `count` new IDs for records of `kind` (bulk seeding uses count > 1)."""
        if count == 1:
            return [cls.objects.create(kind=kind).pk]
        return [identity.pk for identity in cls.objects.bulk_create([cls(kind=kind) for _ in range(count)])]


class SharedIdModel(models.Model):
    """Base of every record whose primary key comes from PostIdentity."""

    KIND: str = ""

    id = models.BigIntegerField(primary_key=True, editable=False)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.id is None:
            (self.id,) = PostIdentity.allocate(self.KIND)
            # The instance has no row yet although it now has a primary key.
            self._state.adding = True
            kwargs.setdefault("force_insert", True)
        super().save(*args, **kwargs)
