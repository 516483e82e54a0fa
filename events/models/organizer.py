"""Organizers: who runs events."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .identity import PostKind
from .post import Post


class Organizer(Post):
    KIND = PostKind.ORGANIZER

    phone = models.CharField(_("phone"), max_length=64, blank=True, default="")
    website = models.CharField(_("website"), max_length=2000, blank=True, default="")
    email = models.CharField(_("email"), max_length=255, blank=True, default="")

    class Meta:
        verbose_name = _("organizer")
        verbose_name_plural = _("organizers")
        permissions = [
            ("edit_organizers", "Can create organizers and edit their own unpublished organizers"),
            ("publish_organizers", "Can publish organizers"),
            ("edit_published_organizers", "Can edit and delete their own published organizers"),
            ("edit_others_organizers", "Can edit, delete and read others' organizers"),
        ]
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["date", "id"], name="events_organizer_date_id")]
