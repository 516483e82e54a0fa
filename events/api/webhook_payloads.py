"""The records webhook payloads carry: as the v1 API shows them to a visitor of the site (SITE_URL).

A worker has no request; it gets one made from the SITE_URL setting, anonymous, in the site's
language. Registered with the notifications in `EventsConfig.ready()`, as the store's renderers are.
"""

import urllib.parse

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import translation

from ..conf import events_settings
from ..notifications.delivery import register_payload_records
from .context import api_context
from .links import set_rest_root


class VisitorRequest(HttpRequest):
    """A GET of the site's home by an anonymous visitor, at SITE_URL."""

    def __init__(self, scheme, host):
        super().__init__()
        self.method, self.path, self.path_info = "GET", "/", "/"
        self.site_scheme, self.site_host = scheme, host
        self.user = AnonymousUser()

    def _get_scheme(self):
        return self.site_scheme

    def get_host(self):
        return self.site_host


def visitor_request():
    site = urllib.parse.urlsplit(events_settings.SITE_URL)
    request = VisitorRequest(site.scheme or "http", site.netloc or "localhost")
    set_rest_root(request, f"{request.scheme}://{request.get_host()}/wp-json/")
    api_context(request).raw_params = {}
    return request


def visitor_records(deliveries):
    from .views.feed import records_for

    with translation.override(settings.LANGUAGE_CODE):
        return records_for(visitor_request(), deliveries)


def register_webhook_payloads():
    register_payload_records(visitor_records)
