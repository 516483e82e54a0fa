"""The venue form and list."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from ..models import Venue
from .linked import LinkedRecordAdmin
from .writes import translated


@admin.register(Venue)
class VenueAdmin(LinkedRecordAdmin):
    list_display = ("title", "city", "country", "has_coordinates", "status", "author")
    list_filter = ("status", "country")
    autocomplete_fields = ("image",)
    # The service names a venue's title after the kind, as the API does; it sanitises the texts.
    title_field = "venue"
    same_named_fields = (
        *LinkedRecordAdmin.same_named_fields,
        "address",
        "city",
        "zip",
        "state",
        "province",
        "country",
        "geo_lat",
        "geo_lng",
        "phone",
        "show_map",
        "show_map_link",
    )
    fieldsets = (
        (None, {"fields": (*translated("title"), "slug")}),
        (
            _("Address"),
            {"fields": ("address", ("city", "zip"), ("state", "province"), "country", ("geo_lat", "geo_lng"))},
        ),
        (_("Contact"), {"fields": ("phone", "website")}),
        (_("Description"), {"fields": translated("description")}),
        (_("Excerpt"), {"fields": translated("excerpt"), "classes": ("collapse",)}),
        (_("Publishing"), {"fields": ("status", "date", "author", "password", "image")}),
        (_("Display"), {"fields": ("show_map", "show_map_link")}),
    )

    @admin.display(description=_("coordinates"), boolean=True)
    def has_coordinates(self, venue):
        return venue.has_coordinates
