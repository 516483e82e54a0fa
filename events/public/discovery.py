"""How a public page advertises the REST API: the X-TEC headers and <head> tags of docs/contract/discovery.md §3."""

from dataclasses import dataclass

from django.urls import reverse

from ..conf import events_settings
from ..presentation.links import mounted_rest_root

VERSION = "v1"
DISABLED = "disabled"
API_REL = "https://api.w.org/"


def home_url(request):
    """The site home in the active language, as WordPress's home_url() writes it (no trailing slash)."""
    return request.build_absolute_uri(reverse("events_public:home")).rstrip("/")


@dataclass(frozen=True)
class Discovery:
    """What one page tells clients about the API; `api_url` depends on the page kind."""

    enabled: bool
    rest_root: str = ""
    api_url: str = ""
    origin: str = ""

    def headers(self):
        if not self.enabled:
            return {"X-TEC-API-VERSION": DISABLED}
        return {
            "X-TEC-API-VERSION": VERSION,
            "X-TEC-API-ROOT": self.api_url,
            "X-TEC-API-ORIGIN": self.origin,
            "Link": f'<{self.rest_root}>; rel="{API_REL}"',
        }

    def apply(self, response):
        for name, value in self.headers().items():
            response[name] = value
        return response


def discover(request, api_path="/"):
    """The discovery of a page whose API URL is `{root}{ns}{api_path}`.

    `api_path` is "/" for the home and other pages, "/events/{id}" for an event, or
    "/events/?<filter>=<value>" for archives. A site without the REST root mounted, like one with
    the API switched off, says "disabled": advertising a root that answers 404 would mislead clients.
    """
    root = mounted_rest_root(request)
    if not events_settings.REST_API_ENABLED or root is None:
        return Discovery(enabled=False)
    return Discovery(
        enabled=True,
        rest_root=root,
        api_url=f"{root}{events_settings.namespace}{api_path}",
        origin=home_url(request),
    )
