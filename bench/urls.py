"""The site's URLs plus `/bench/floor`, the trivial JSON view that measures the framework's floor."""

from django.http import JsonResponse
from django.urls import path

from calendar_site.urls import urlpatterns as site_urlpatterns


def floor(request):
    return JsonResponse({"ok": True})


urlpatterns = [path("bench/floor", floor, name="bench-floor"), *site_urlpatterns]
