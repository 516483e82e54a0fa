"""What every post kind (event, venue, organizer) shares in the admin: role rules, the fields saved, trash."""

from django import forms
from django.contrib import admin
from django.db import models
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TranslationAdmin

from .. import roles
from ..models import PostStatus
from ..queries.visibility import listable
from ..services.images import ImageChoice
from .actions import move_to_trash, restore_from_trash
from .widgets import DateAndMinuteWidget, FeaturedImageChooser, MapFlagField, RichTextEditor
from .writes import ServiceWrites, changed_fields, given, translated


class TranslationTabs:
    """The scripts and styles of the language tabs, for every admin page with translated fields."""

    class Media:
        js = ("events/admin/translation_tabs.js",)
        css = {"all": ("events/admin/admin.css",)}


class PostAdminForm(forms.ModelForm):
    """A title in at least one language, not necessarily English."""

    TITLE_HELP = _(
        "Give the title in at least one language. A language left empty shows the English title; "
        "left empty, English takes the first title given."
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.title_fields():
            self.fields[name].required = False
            self.fields[name].help_text = self.TITLE_HELP

    def title_fields(self):
        return [name for name in translated("title") if name in self.fields]

    def clean(self):
        cleaned = super().clean()
        names = self.title_fields()
        given = [name for name in names if (cleaned.get(name) or "").strip()]
        if names and not given:
            self.add_error(names[0], _("Give the title in at least one language."))
        elif given and "title_en" in names and "title_en" not in given:
            # English is what every other language falls back to (as the API's first write fills it).
            cleaned["title_en"] = cleaned[given[0]]
        return cleaned


RICH_TEXT_FIELDS = {*translated("description"), *translated("excerpt")}
# Events' and venues' map flags: never stored reads as on, as in the plugin.
MAP_FLAGS = ("show_map", "show_map_link")


class PostAdmin(ServiceWrites, TranslationTabs, TranslationAdmin):
    """Role rules of docs/contract/auth.md for every post kind: who sees, adds, edits and deletes which rows; saves
    go through the kind's service with the fields the form changed."""

    search_fields = ("title_en", "title_zh_hans", "title_zh_hant", "slug")
    list_filter = ("status",)
    prepopulated_fields = {"slug": ("title_en",)}
    form = PostAdminForm
    actions = (move_to_trash, restore_from_trash)
    formfield_overrides = {
        models.DateTimeField: {"form_class": forms.SplitDateTimeField, "widget": DateAndMinuteWidget}
    }

    @property
    def kind(self):
        return self.model.KIND

    # What the changelist joins: Django applies it only to a queryset that joins nothing yet, so
    # get_queryset leaves the joins to it (a subclass adds its own columns' relations here).
    list_select_related = ("author",)

    def get_queryset(self, request):
        # The admin shows what a single API read would show the caller (docs/contract/auth.md §2.1 and §2.2).
        return super().get_queryset(request).filter(listable(request.user, self.kind, PostStatus.values))

    def has_view_permission(self, request, obj=None):
        if obj is not None:
            return roles.can_read(request.user, obj) or roles.can_edit(request.user, obj)
        return roles.has_right(request.user, self.kind, roles.EDIT)

    def has_add_permission(self, request):
        return roles.has_right(request.user, self.kind, roles.EDIT)

    def has_change_permission(self, request, obj=None):
        if obj is not None:
            return roles.can_edit(request.user, obj)
        return roles.has_right(request.user, self.kind, roles.EDIT)

    def has_delete_permission(self, request, obj=None):
        if obj is None:
            return self.has_trash_permission(request)
        return self.has_change_permission(request, obj)

    def has_trash_permission(self, request):
        """Bulk actions are for roles that manage published records: a contributor's selection holds
        mostly others' and published rows, none of which they may touch. They trash or delete their own
        drafts one at a time, from the draft's page (as the API lets them)."""
        return roles.has_right(request.user, self.kind, roles.EDIT_PUBLISHED)

    # Model fields whose stored value reads otherwise than it means (a map flag never stored is on);
    # a page the user may only view shows the stand-in of the same meaning instead.
    read_only_stand_ins = {"show_map": "map_shown", "show_map_link": "map_link_shown", "date": "publication_date"}

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or self.has_change_permission(request, obj):
            return fieldsets

        def stand_in(fields):
            return [
                stand_in(name) if isinstance(name, (list, tuple)) else self.read_only_stand_ins.get(name, name)
                for name in fields
            ]

        return [(title, {**options, "fields": stand_in(options["fields"])}) for title, options in fieldsets]

    @admin.display(description=_("show map"), boolean=True)
    def map_shown(self, record):
        return record.show_map is not False

    @admin.display(description=_("show map link"), boolean=True)
    def map_link_shown(self, record):
        return record.show_map_link is not False

    @admin.display(description=_("publication date"))
    def publication_date(self, record):
        return f"{timezone.localtime(record.date):%Y-%m-%d %H:%M}"

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name in RICH_TEXT_FIELDS:
            kwargs["widget"] = RichTextEditor()
        if db_field.name == "image":
            kwargs["widget"] = FeaturedImageChooser(db_field, self.admin_site)
        if db_field.name in MAP_FLAGS:
            return MapFlagField(label=capfirst(db_field.verbose_name))
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request):
        # A new record starts as the API would make it for this user: theirs, published if they may.
        initial = {"author": request.user.pk, "status": roles.default_status(request.user, self.kind)}
        return {**initial, **super().get_changeform_initial_data(request)}

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        if obj is not None and not self.has_change_permission(request, obj):
            readonly.extend(self.read_only_stand_ins.values())
        # Only callers with the "others'" right may name another author (decisions.md).
        if not roles.has_right(request.user, self.kind, roles.EDIT_OTHERS):
            readonly.append("author")
        return readonly

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        status = form.base_fields.get("status")
        if status is not None:
            allowed = [PostStatus.DRAFT, PostStatus.PENDING]
            if roles.may_publish(request.user, self.kind):
                allowed = [PostStatus.PUBLISH, PostStatus.FUTURE, *allowed, PostStatus.PRIVATE]
            if obj is not None and obj.status not in allowed:
                allowed.append(obj.status)
            status.choices = [(value, label) for value, label in PostStatus.choices if value in allowed]
        return form

    # The service's name of the title (the API's parameter name).
    title_field = "title"
    # Domain fields edited by a form field of the same name, stored as the form cleaned them.
    same_named_fields = ("slug", "status", "date", "password", "website")

    def written_fields(self, form, creating):
        """The post fields this save writes, in the service's names: all on creation, the changed ones after."""
        data = form.cleaned_data
        written = changed_fields(form, creating, ("title", "description", "excerpt"), self.same_named_fields)
        fields = {self.title_field if name == "title" else name: value for name, value in written.items()}
        if given(form, creating, "author") and not (creating and data["author"] is None):
            fields["author"] = data["author"].pk if data["author"] is not None else None
        if given(form, creating, "image"):
            fields["image"] = ImageChoice(attachment=data["image"])
        return fields
