"""Image uploads: sizes generated on save, files removed once their rows are gone."""

from django import forms
from django.contrib import admin
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect
from django.urls import path
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .. import roles
from ..models import Attachment, Event
from ..services.images import ALLOWED_FORMATS, delete_files, generate_sizes


class AttachmentAdminForm(forms.ModelForm):
    class Meta:
        model = Attachment
        fields = ("file", "title")

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        image = getattr(upload, "image", None)
        if image is not None and image.format not in ALLOWED_FORMATS:
            raise forms.ValidationError(_("Upload a JPEG, PNG, GIF or WebP image."))
        return upload


def thumbnail_url(attachment):
    """The URL of the image's thumbnail size, or of the image itself when it has none."""
    if not attachment.file:
        return ""
    thumbnail = (attachment.sizes or {}).get("thumbnail")
    return attachment.file.storage.url(thumbnail["file"]) if thumbnail else attachment.file.url


@admin.register(Attachment)
class AttachmentAdmin(admin.ModelAdmin):
    form = AttachmentAdminForm
    list_display = ("preview", "title", "file", "dimensions", "filesize", "uploaded_by", "date")
    list_display_links = ("preview", "title")
    list_select_related = ("author",)
    search_fields = ("title", "file")
    list_filter = ("mime_type", ("date", admin.DateFieldListFilter))
    date_hierarchy = "date"
    fields = (
        "file",
        "title",
        "preview",
        "dimensions",
        "filesize",
        "mime_type",
        "generated_sizes",
        "source_url",
        "uploaded_by",
        "date",
    )
    readonly_fields = (
        "preview",
        "dimensions",
        "filesize",
        "mime_type",
        "generated_sizes",
        "source_url",
        "uploaded_by",
        "date",
    )

    @admin.display(description=_("preview"))
    def preview(self, attachment):
        url = thumbnail_url(attachment)
        return format_html('<img src="{}" alt="" style="max-width:150px;max-height:150px">', url) if url else ""

    def get_urls(self):
        thumbnail = path(
            "<int:pk>/thumbnail/", self.admin_site.admin_view(self.thumbnail_view), name="events_attachment_thumbnail"
        )
        return [thumbnail, *super().get_urls()]

    def thumbnail_view(self, request, pk):
        """The image's thumbnail, for the preview beside a featured-image picker."""
        attachment = self.get_object(request, str(pk))
        if attachment is None or not self.has_view_permission(request, attachment) or not thumbnail_url(attachment):
            raise Http404
        return redirect(thumbnail_url(attachment))

    # The model's author field has no translated name, and renaming it would take a migration.
    @admin.display(description=_("author"), ordering="author")
    def uploaded_by(self, attachment):
        return attachment.author

    @admin.display(description=_("dimensions"))
    def dimensions(self, attachment):
        return f"{attachment.width}×{attachment.height}" if attachment.width and attachment.height else ""

    @admin.display(description=_("generated sizes"))
    def generated_sizes(self, attachment):
        sizes = attachment.sizes or {}
        return ", ".join(f"{name} {size['width']}×{size['height']}" for name, size in sizes.items()) or "—"

    def _may_upload(self, request):
        return roles.has_capability(request.user, roles.UPLOAD_FILES)

    def has_view_permission(self, request, obj=None):
        return self._may_upload(request) or roles.has_right(request.user, Event.KIND, roles.EDIT)

    def has_add_permission(self, request):
        return self._may_upload(request)

    def has_change_permission(self, request, obj=None):
        if not self._may_upload(request):
            return False
        if obj is None or roles.has_right(request.user, Event.KIND, roles.EDIT_OTHERS):
            return True
        return obj.author_id == request.user.pk

    has_delete_permission = has_change_permission

    def save_model(self, request, obj, form, change):
        if not change:
            obj.author = request.user
        super().save_model(request, obj, form, change)
        if "file" in form.changed_data or not obj.sizes:
            generate_sizes(obj)

    # Files go only once the rows are gone for good, so a failed delete leaves nothing dangling.
    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        transaction.on_commit(lambda: delete_files(obj))

    def delete_queryset(self, request, queryset):
        attachments = list(queryset)
        super().delete_queryset(request, queryset)
        transaction.on_commit(lambda: [delete_files(attachment) for attachment in attachments])
