"""App configuration of the events calendar."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events calendar")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import backends, checks  # noqa: F401 — they register the system checks
        from .pipeline import connect_receivers as connect_write_pipeline
        from .presentation import store_rows  # noqa: F401 — importing it fills the store's table of row renderers
        from .roles import create_role_groups

        post_migrate.connect(create_role_groups, sender=self, dispatch_uid="events.create_role_groups")
        # One set of receivers records per-record writes into the write's unit of work (events.pipeline).
        connect_write_pipeline()
