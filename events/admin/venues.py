"""The venue form and list."""
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from ..models import Venue
from .linked import LinkedRecordAdmin
from .posts import translated


@admin.register(Venue)
class VenueAdmin(LinkedRecordAdmin):
    list_display = ("title", "city", "country", "has_coordinates", "status", "author")
    list_filter = ("status", "country")
    autocomplete_fields = ("image",)
    fieldsets = (
        (None, {"fields": (*translated("title"), "slug")}),
        (_("Address"), {"fields": ("address", ("city", "zip"), ("state", "province"), "country", ("geo_lat", "geo_lng"))}),
        (_("Contact"), {"fields": ("phone", "website")}),
        (_("Description"), {"fields": translated("description")}),
        (_("Excerpt"), {"fields": translated("excerpt"), "classes": ("collapse",)}),
        (_("Publishing"), {"fields": ("status", "date", "author", "password", "image")}),
        (_("Display"), {"fields": ("show_map", "show_map_link")}),
    )

    @admin.display(description=_("coordinates"), boolean=True)
    def has_coordinates(self, venue):
        return venue.has_coordinates

    def save_model(self, request, obj, form, change):
        obj.stateprovince = Venue.derive_stateprovince(obj.state, obj.province, obj.country)
        super().save_model(request, obj, form, change)
