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
        from .api import read_cache
        from .changelog import connect_receivers as connect_write_effects
        from .notifications import connect_receivers as connect_notifications
        from .presentation import store_rows  # noqa: F401 — importing it fills the store's table of row renderers
        from .roles import create_role_groups
        from .signals import connect_term_counts

        post_migrate.connect(create_role_groups, sender=self, dispatch_uid="events.create_role_groups")
        connect_term_counts()
        # One set of receivers keeps the rendering store true and fills the change log.
        connect_write_effects()
        connect_notifications()
        read_cache.connect_invalidation()
