"""URLs of the demo site: the admin, and the calendar's REST root in three languages."""

from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.conf.urls.static import static
from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static as static_url
from django.urls import include, path

from events.api.browser import api_browser

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    # Pages link their icon; browsers and feed readers still ask for this path on their own.
    path("favicon.ico", lambda request: HttpResponsePermanentRedirect(static_url("events/favicon.svg"))),
]

# `/wp-json/` serves English; `/zh-hans/wp-json/` and `/zh-hant/wp-json/` the Chinese variants.
urlpatterns += i18n_patterns(
    path("wp-json/", include("events.api.urls")),
    path("admin/", admin.site.urls),
    # The API reference for people, rendered from the `doc` route's OpenAPI document.
    path("api-docs/", api_browser, name="events_api_browser"),
    prefix_default_language=False,
)

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

# The public calendar pages (the `url` of every record) in the same three languages; last, since
# they own the site root.
urlpatterns += i18n_patterns(path("", include("events.public.urls")), prefix_default_language=False)

handler400 = "events.public.views.bad_request"
handler404 = "events.public.views.page_not_found"
