"""Fields and behaviour every post-like record (event, venue, organizer) shares."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .identity import SharedIdModel
from .status import PostStatus
from .updates import AnnouncedUpdates


class PostQuerySet(AnnouncedUpdates):
    def not_trashed(self):
        return self.exclude(status=PostStatus.TRASH)

    def published(self):
        return self.filter(status=PostStatus.PUBLISH)


class Post(SharedIdModel):
    """WordPress post columns the API reads and writes (title, content, excerpt, status...)."""

    title = models.CharField(_("title"), max_length=500)
    description = models.TextField(_("description"), blank=True, default="")
    excerpt = models.TextField(_("excerpt"), blank=True, default="")
    slug = models.CharField(_("slug"), max_length=200, blank=True, default="", db_index=True)
    status = models.CharField(
        _("status"), max_length=20, choices=PostStatus.choices, default=PostStatus.DRAFT, db_index=True
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    password = models.CharField(
        _("read password"),
        max_length=255,
        blank=True,
        default="",
        help_text=_("When set, readers must send this password to see the content."),
    )
    date = models.DateTimeField(_("publication date"), default=timezone.now)
    modified = models.DateTimeField(_("last modified"), auto_now=True)
    image = models.ForeignKey(
        "events.Attachment",
        verbose_name=_("featured image"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # What restoring from the trash needs: WordPress keeps both in post meta.
    status_before_trash = models.CharField(max_length=20, blank=True, default="", editable=False)
    slug_before_trash = models.CharField(max_length=200, blank=True, default="", editable=False)

    objects = PostQuerySet.as_manager()

    class Meta:
        abstract = True

    def __str__(self):
        return self.title or f"#{self.pk}"

    @classmethod
    def from_db(cls, db, field_names, values):
        record = super().from_db(db, field_names, values)
        # The stored status, so that a save's receivers tell what it did to the status without
        # reading the row again: the change log a trash or a restore from another update, the
        # term counts whether the event moved in or out of them (events.pipeline).
        if "status" in field_names:
            record.status_in_database = record.status
        return record

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        # After every receiver of this save has compared the status with the stored one.
        update_fields = kwargs.get("update_fields")
        if update_fields is None or "status" in update_fields:
            self.status_in_database = self.status

    @property
    def author_id_string(self):
        """The API sends the author's ID as a string, "0" when there is none."""
        return str(self.author_id or 0)

    @property
    def is_trashed(self):
        return self.status == PostStatus.TRASH

    @property
    def is_password_protected(self):
        return bool(self.password)
