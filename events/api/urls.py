"""Mount with `path("wp-json/", include("events.api.urls"))`: one view routes the whole REST root."""

from django.urls import re_path

from .dispatch import rest_dispatch

app_name = "events_api"

urlpatterns = [
    # Any path at all, newlines included: every one is answered in JSON, if only with rest_no_route.
    re_path(r"^(?P<path>(?s:.*))$", rest_dispatch, name="rest"),
]
