"""The editors' admin: translations in language tabs, saved through the same services and role rules as the API.

One module per record kind; filters.py, actions.py and widgets.py hold what the kinds share.
"""

from django.contrib import admin
from django.contrib.admin import AdminSite
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from . import application_passwords, events, images, imports, organizers, terms, venues, webhooks  # noqa: F401  (registers the pages)
from .login import AdminLoginForm

# Editors work in the calendar's admin, not "Django administration"; a site that named its admin
# site itself keeps its names.
if admin.site.site_header is AdminSite.site_header:
    admin.site.site_header = _("Events calendar")
if admin.site.site_title is AdminSite.site_title:
    admin.site.site_title = _("Events calendar administration")
# A locked sign-in is told it is locked and for how long, not that its password is wrong; a site
# with a login form of its own keeps it (the lock holds anyway: events.backends).
if admin.site.login_form is None:
    admin.site.login_form = AdminLoginForm

# Strings of other apps' admin pages that their catalogs leave in English in Chinese (the token
# pages' Traditional Chinese, the organizers' drag handles). Named here so that makemessages keeps
# them in this app's catalog, which the site's INSTALLED_APPS order lets win (README).
OTHER_APPS_STRINGS = (
    gettext_noop("Token"),
    gettext_noop("Tokens"),
    gettext_noop("Auth Token"),
    gettext_noop("Key"),
    gettext_noop("Created"),
    gettext_noop("Move to first position"),
    gettext_noop("Move to last position"),
)
