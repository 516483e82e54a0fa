"""Mount with `path("wp-json/", include("events.api.urls"))`: one view routes the whole REST root."""
from django.urls import re_path

from .dispatch import rest_dispatch

app_name = "events_api"

urlpatterns = [
    re_path(r"^(?P<path>.*)$", rest_dispatch, name="rest"),
]
