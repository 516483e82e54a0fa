"""Application passwords: per-application secrets a user signs API requests with (WordPress 5.6+)."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApplicationPassword(models.Model):
    """One named secret of one user. Only a keyed digest of the secret is stored (see
    events.services.credentials); the secret itself is shown once, when it is made."""

    uuid = models.UUIDField(_("UUID"), default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="application_passwords",
    )
    name = models.CharField(_("name"), max_length=255)
    # A UUID the client application chose to identify itself, or "" (WordPress's `app_id`).
    app_id = models.CharField(_("application ID"), max_length=36, blank=True, default="", editable=False)
    password_digest = models.CharField(max_length=64, editable=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)
    last_ip = models.GenericIPAddressField(_("last IP"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("application password")
        verbose_name_plural = _("application passwords")
        ordering = ["created", "id"]

    def __str__(self):
        return self.name
