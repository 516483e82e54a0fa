"""The organizer form and list."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from ..models import Organizer
from .linked import LinkedRecordAdmin
from .writes import translated


@admin.register(Organizer)
class OrganizerAdmin(LinkedRecordAdmin):
    list_display = ("title", "email", "phone", "website", "status", "author")
    search_fields = (*LinkedRecordAdmin.search_fields, "email")
    autocomplete_fields = ("image",)
    # The service names an organizer's title after the kind, as the API does; it sanitises the texts.
    title_field = "organizer"
    same_named_fields = (*LinkedRecordAdmin.same_named_fields, "email", "phone")
    fieldsets = (
        (None, {"fields": (*translated("title"), "slug")}),
        (_("Contact"), {"fields": ("email", "phone", "website")}),
        (_("Description"), {"fields": translated("description")}),
        (_("Excerpt"), {"fields": translated("excerpt"), "classes": ("collapse",)}),
        (_("Publishing"), {"fields": ("status", "date", "author", "password", "image")}),
    )
