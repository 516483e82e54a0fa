"""Post statuses, as WordPress names them (clients send and receive these words)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class PostStatus(models.TextChoices):
    PUBLISH = "publish", _("Published")
    FUTURE = "future", _("Scheduled")
    DRAFT = "draft", _("Draft")
    PENDING = "pending", _("Pending review")
    PRIVATE = "private", _("Private")
    TRASH = "trash", _("Trash")

    @classmethod
    def registered(cls):
        """Every status a list filter accepts: the stored ones plus WordPress's internal ones."""
        return [*cls.values, "auto-draft", "inherit"]

    @classmethod
    def default_visible(cls):
        """What callers with the edit right see in lists when they ask for no status."""
        return [cls.PUBLISH, cls.FUTURE, cls.DRAFT, cls.PENDING, cls.PRIVATE]

    @classmethod
    def published_states(cls):
        """Statuses that only callers with the publish right may keep."""
        return [cls.PUBLISH, cls.FUTURE]
