"""Categories and tags, and the term picker the event form's category and tag fields search."""

import html

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from modeltranslation.admin import TranslationAdmin

from .. import pipeline, roles
from ..models import Category, Event, Tag, Taxonomy, Term
from ..services import terms as term_service
from ..text import sanitize_title
from .posts import TranslationTabs
from .writes import ServiceWrites, changed_fields, translated


class TermAdminForm(forms.ModelForm):
    class Meta:
        model = Term
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "slug" in self.fields:
            # Left empty, the slug is derived from the English name (as the API does).
            self.fields["slug"].required = False
        for field in translated("name"):
            # Editors read and type names as plain text; clean() stores them as WordPress does.
            if self.initial.get(field):
                self.initial[field] = html.unescape(self.initial[field])

    def clean(self):
        data = super().clean()
        term = self.instance
        parent = data.get("parent")
        if parent is not None and term.pk is not None and term_service.would_loop(term, parent):
            self.add_error("parent", _("A category cannot be placed under itself or one of its subcategories."))
        taxonomy = self._meta.model.TAXONOMY
        for field in translated("name"):
            name = term_service.sanitize_term_name(data.get(field) or "")
            if not name:
                continue
            # A name names one term whatever the reader's language (as the API's duplicate check).
            twins = Term.objects.filter(taxonomy=taxonomy).filter(term_service.same_name(name))
            if taxonomy == Taxonomy.CATEGORY:
                twins = twins.filter(parent_id=parent.pk if parent is not None else None)
            if term.pk is not None:
                twins = twins.exclude(pk=term.pk)
            if twins.exists():
                self.add_error(field, _("A term with this name already exists at this level."))
        slug = data.get("slug")
        if slug and term.pk is not None:
            requested = sanitize_title(slug)
            if Term.objects.filter(taxonomy=taxonomy, slug=requested).exclude(pk=term.pk).exists():
                self.add_error("slug", _("This slug is already in use by another term."))
        return data


class TermAdminBase(ServiceWrites, TranslationTabs, TranslationAdmin):
    form = TermAdminForm
    capability = None
    search_fields = ("name_en", "name_zh_hans", "name_zh_hant", "slug")
    prepopulated_fields = {"slug": ("name_en",)}

    @admin.display(description=_("name"), ordering="name")
    def plain_name(self, term):
        return str(term)

    def has_view_permission(self, request, obj=None):
        return roles.has_capability(request.user, self.capability) or roles.has_right(
            request.user, Event.KIND, roles.EDIT
        )

    def has_change_permission(self, request, obj=None):
        return roles.has_capability(request.user, self.capability)

    has_add_permission = has_delete_permission = has_change_permission

    def save_record(self, request, term, form, formsets, creating):
        """Through the API's term service: names stored as WordPress stores them, the slug made or checked."""
        fields = changed_fields(form, creating, ("name", "description"), ("slug", "parent"))
        if creating:
            fields["slug"] = fields.get("slug") or None
            term_service.create_term(self.model.TAXONOMY, term=term, **fields)
        else:
            term_service.update_term(term, **fields)

    def delete_model(self, request, obj):
        term_service.delete_term(obj)

    def delete_queryset(self, request, queryset):
        with pipeline.unit():
            for term in queryset:
                term_service.delete_term(term)


@admin.register(Category)
class CategoryAdmin(TermAdminBase):
    capability = roles.MANAGE_CATEGORIES
    list_display = ("plain_name", "slug", "parent", "count")
    list_select_related = ("parent",)
    list_filter = (("parent", admin.RelatedOnlyFieldListFilter),)
    autocomplete_fields = ("parent",)
    fieldsets = (
        (None, {"fields": (*translated("name"), "slug", "parent")}),
        (_("Description"), {"fields": translated("description")}),
    )


@admin.register(Tag)
class TagAdmin(TermAdminBase):
    capability = roles.MANAGE_TAGS
    list_display = ("plain_name", "slug", "count")
    fieldsets = (
        (None, {"fields": (*translated("name"), "slug")}),
        (_("Description"), {"fields": translated("description")}),
    )


@admin.register(Term)
class TermPickerAdmin(admin.ModelAdmin):
    """Not listed in the index: it serves the category, tag and parent pickers of the other pages."""

    search_fields = ("name_en", "name_zh_hans", "name_zh_hant", "slug")
    ordering = ("name_en", "id")

    def get_model_perms(self, request):
        return {}

    def has_view_permission(self, request, obj=None):
        return roles.has_right(request.user, Event.KIND, roles.EDIT) or any(
            roles.has_capability(request.user, c) for c in (roles.MANAGE_CATEGORIES, roles.MANAGE_TAGS)
        )

    def has_change_permission(self, request, obj=None):
        return False

    has_add_permission = has_delete_permission = has_change_permission

    def get_search_results(self, request, queryset, search_term):
        queryset, distinct = super().get_search_results(request, queryset, search_term)
        taxonomy = request.GET.get("taxonomy")
        if taxonomy in Taxonomy.values:
            queryset = queryset.filter(taxonomy=taxonomy)
        return queryset, distinct
