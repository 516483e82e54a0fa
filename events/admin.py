"""The editors' admin: translations side by side, saved through the same services and role rules as the API."""
import datetime as dt
import zoneinfo

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import AdminSplitDateTime, AutocompleteSelectMultiple
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from modeltranslation.admin import TranslationAdmin

from . import roles
from .cost import parse_cost_input
from .models import ApplicationPassword, Attachment, Category, Event, EventOrganizer, Organizer, PostStatus, Tag, Taxonomy, Term, Venue
from .services import credentials
from .kses import filter_post_html, filter_title_html
from .numbers import is_ascii_digits
from .services import terms as term_service
from .services.images import ALLOWED_FORMATS, delete_files, generate_sizes
from .services.schedule import set_event_times, site_zone_name, wall_clock
from .services.slugs import assign_post_slug, assign_term_slug
from .services.visibility import listable
from .text import sanitize_title

LANGUAGE_SUFFIXES = ("en", "zh_hans", "zh_hant")


def translated(field):
    """The three language columns of a translated field, shown on one row."""
    return tuple(f"{field}_{suffix}" for suffix in LANGUAGE_SUFFIXES)


def translated_stacked(field):
    return list(translated(field))


# Posts: events, venues, organizers ------------------------------------------------------------

class PostAdmin(TranslationAdmin):
    """Role rules of auth.md for every post kind: who sees, adds, edits and deletes which rows."""

    search_fields = ("title_en", "title_zh_hans", "title_zh_hant", "slug")
    list_filter = ("status",)
    prepopulated_fields = {"slug": ("title_en",)}
    actions = ("move_to_trash", "restore_from_trash")

    @property
    def kind(self):
        return self.model.KIND

    def get_queryset(self, request):
        # The admin shows what a single API read would show the caller (auth.md §2.1 and §2.2).
        queryset = super().get_queryset(request).select_related("author")
        return queryset.filter(listable(request.user, self.kind, PostStatus.values))

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
        return self.has_change_permission(request, obj)

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
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

    def save_model(self, request, obj, form, change):
        if not change and obj.author_id is None:
            obj.author = request.user
        if not roles.may_write_unfiltered_html(request.user):
            # The API's rule (events.kses): only editors and administrators store HTML unfiltered.
            for field, html_filter in (("title", filter_title_html), ("description", filter_post_html), ("excerpt", filter_post_html)):
                for name in translated(field):
                    if hasattr(obj, name):
                        setattr(obj, name, html_filter(getattr(obj, name)))
        if change and "status" in form.changed_data and form.initial.get("status") == PostStatus.TRASH:
            chosen = obj.status
            obj.restore_from_trash()
            obj.status = chosen
        obj.status = roles.scheduled_status(roles.scaled_status(request.user, self.kind, obj.status), obj.date, timezone.now())
        requested = form.cleaned_data.get("slug") or None
        if obj.status == PostStatus.TRASH:
            requested = obj.slug
        assign_post_slug(obj, requested)
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Move selected records to the trash"))
    def move_to_trash(self, request, queryset):
        moved = 0
        with transaction.atomic():
            for record in queryset.exclude(status=PostStatus.TRASH):
                if roles.can_edit(request.user, record):
                    record.move_to_trash()
                    record.save()
                    moved += 1
        self.message_user(request, ngettext("%d record moved to the trash.", "%d records moved to the trash.", moved) % moved)

    @admin.action(description=_("Restore selected records from the trash"))
    def restore_from_trash(self, request, queryset):
        restored = 0
        with transaction.atomic():
            for record in queryset.filter(status=PostStatus.TRASH):
                if roles.can_edit(request.user, record):
                    record.restore_from_trash()
                    assign_post_slug(record, record.slug)
                    record.save()
                    restored += 1
        self.message_user(request, ngettext("%d record restored.", "%d records restored.", restored) % restored)


class WallClockField(forms.SplitDateTimeField):
    """Date and time as read on the event's own clock: kept naive, the zone field says where."""

    widget = AdminSplitDateTime

    def compress(self, data_list):
        if data_list and all(part is not None for part in data_list):
            return dt.datetime.combine(*data_list)
        return None


def zone_choices(current=""):
    names = sorted(zoneinfo.available_timezones() - {"UTC"})
    choices = [("", _("Site time zone (%(zone)s)") % {"zone": site_zone_name()}), ("UTC", "UTC")]
    if current and current != "UTC" and current not in names:
        # Manual offsets ("UTC+5") written through the API stay selectable.
        choices.append((current, current))
    return choices + [(name, name) for name in names]


class TaxonomyAutocomplete(AutocompleteSelectMultiple):
    """An autocomplete over the event's terms that offers only one taxonomy."""

    def __init__(self, taxonomy, **kwargs):
        super().__init__(Event._meta.get_field("terms"), admin.site, **kwargs)
        self.taxonomy = taxonomy

    def get_url(self):
        return f"{super().get_url()}?{urlencode({'taxonomy': self.taxonomy})}"


class TermChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return obj.name


class EventAdminForm(forms.ModelForm):
    start = WallClockField(label=_("Start"))
    end = WallClockField(label=_("End"))
    timezone_name = forms.ChoiceField(label=_("Time zone"), required=False)
    cost_text = forms.CharField(
        label=_("Cost"), required=False, widget=forms.Textarea(attrs={"rows": 2, "cols": 30}),
        help_text=_("One value per line, e.g. “$20” or “Free”; a currency sign found here sets the symbol and its position."),
    )
    categories = TermChoiceField(
        label=_("Event categories"), queryset=Category.objects.all(), required=False,
        widget=TaxonomyAutocomplete(Taxonomy.CATEGORY),
    )
    tags = TermChoiceField(
        label=_("Tags"), queryset=Tag.objects.all(), required=False, widget=TaxonomyAutocomplete(Taxonomy.TAG),
    )

    class Meta:
        model = Event
        exclude = ("terms", "start_utc", "end_utc")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        event = self.instance
        self.fields["timezone_name"].choices = zone_choices(event.timezone_name)
        if event.pk is not None:
            self.initial.setdefault("start", wall_clock(event.start_local))
            self.initial.setdefault("end", wall_clock(event.end_local))
            self.initial.setdefault("cost_text", "\n".join(event.cost or []))
            terms = list(event.terms.all())
            self.initial.setdefault("categories", [t.pk for t in terms if t.taxonomy == Taxonomy.CATEGORY])
            self.initial.setdefault("tags", [t.pk for t in terms if t.taxonomy == Taxonomy.TAG])
        else:
            tomorrow = timezone.localdate() + dt.timedelta(days=1)
            self.initial.setdefault("start", dt.datetime.combine(tomorrow, dt.time(9, 0)))
            self.initial.setdefault("end", dt.datetime.combine(tomorrow, dt.time(17, 0)))

    def clean_post_parent(self):
        parent = self.cleaned_data.get("post_parent")
        if parent is not None and self.instance.pk is not None and parent.pk == self.instance.pk:
            raise forms.ValidationError(_("An event cannot be its own parent."))
        return parent

    def clean_cost_text(self):
        lines = [line.strip() for line in (self.cleaned_data.get("cost_text") or "").splitlines()]
        return [line for line in lines if line]

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end:
            # All-day events span whole days, so only their dates count. (The API keeps the plugin's
            # rule of moving such an end to the start; an editor is told instead.)
            too_early = end.date() < start.date() if cleaned.get("all_day") else end < start
            if too_early:
                self.add_error("end", _("The end cannot come before the start."))
        return cleaned


class EventOrganizerInline(admin.TabularInline):
    """Organizers in the order the event lists them; rights follow the event's own."""

    model = EventOrganizer
    fields = ("organizer", "position")
    autocomplete_fields = ("organizer",)
    extra = 1
    verbose_name = _("organizer")
    verbose_name_plural = _("organizers")

    def has_view_permission(self, request, obj=None):
        return roles.has_right(request.user, Event.KIND, roles.EDIT)

    def has_add_permission(self, request, obj=None):
        return obj is None and roles.has_right(request.user, Event.KIND, roles.EDIT) or (
            obj is not None and roles.can_edit(request.user, obj))

    def has_change_permission(self, request, obj=None):
        return self.has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self.has_add_permission(request, obj)


class CategoryListFilter(admin.SimpleListFilter):
    title = _("event category")
    parameter_name = "category"

    def lookups(self, request, model_admin):
        return [(str(category.pk), category.name) for category in Category.objects.order_by("name_en", "pk")]

    def queryset(self, request, queryset):
        if is_ascii_digits(self.value()):
            return queryset.filter(terms__pk=int(self.value()))
        return queryset


@admin.register(Event)
class EventAdmin(PostAdmin):
    form = EventAdminForm
    inlines = (EventOrganizerInline,)
    list_display = ("title", "starts", "ends", "venue", "status", "featured", "all_day", "author")
    list_filter = (
        "status", ("start_utc", admin.DateFieldListFilter), CategoryListFilter,
        ("venue", admin.RelatedOnlyFieldListFilter), "featured", "all_day",
    )
    list_select_related = ("venue", "author")
    date_hierarchy = "start_utc"
    ordering = ("-start_utc", "-id")
    autocomplete_fields = ("venue", "post_parent", "image")
    fieldsets = (
        (None, {"fields": (translated("title"), "slug")}),
        (_("When"), {"fields": (("start", "end"), ("timezone_name", "all_day"))}),
        (_("Where"), {"fields": ("venue",)}),
        (_("Description"), {"fields": translated_stacked("description")}),
        (_("Excerpt"), {"fields": translated_stacked("excerpt"), "classes": ("collapse",)}),
        (_("Event categories and tags"), {"fields": ("categories", "tags")}),
        (_("Cost"), {"fields": ("cost_text", ("currency_symbol", "currency_position", "currency_code"))}),
        (_("Publishing"), {"fields": ("status", "date", "author", "password", "image", "post_parent")}),
        (_("Display"), {"fields": ("featured", "sticky", "hide_from_listings", "website", "show_map", "show_map_link")}),
    )

    @admin.display(description=_("start"), ordering="start_utc")
    def starts(self, event):
        return f"{wall_clock(event.start_local):%Y-%m-%d %H:%M} {event.timezone_abbr or event.timezone_name}".strip()

    @admin.display(description=_("end"), ordering="end_utc")
    def ends(self, event):
        return f"{wall_clock(event.end_local):%Y-%m-%d %H:%M} {event.timezone_abbr or event.timezone_name}".strip()

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        set_event_times(obj, data["start"], data["end"], data.get("timezone_name") or "", data.get("all_day"))
        if "cost_text" in form.changed_data or not change:
            cost = parse_cost_input(data.get("cost_text") or [])
            obj.cost = cost.values
            if cost.currency_symbol:
                obj.currency_symbol, obj.currency_position = cost.currency_symbol, cost.currency_position
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        data = form.cleaned_data
        form.instance.terms.set([*data.get("categories", []), *data.get("tags", [])])


@admin.register(Venue)
class VenueAdmin(PostAdmin):
    list_display = ("title", "city", "country", "has_coordinates", "status", "author")
    list_filter = ("status", "country")
    autocomplete_fields = ("image",)
    fieldsets = (
        (None, {"fields": (translated("title"), "slug")}),
        (_("Address"), {"fields": ("address", ("city", "zip"), ("state", "province"), "country", ("geo_lat", "geo_lng"))}),
        (_("Contact"), {"fields": ("phone", "website")}),
        (_("Description"), {"fields": translated_stacked("description")}),
        (_("Excerpt"), {"fields": translated_stacked("excerpt"), "classes": ("collapse",)}),
        (_("Publishing"), {"fields": ("status", "date", "author", "password", "image")}),
        (_("Display"), {"fields": ("show_map", "show_map_link")}),
    )

    @admin.display(description=_("coordinates"), boolean=True)
    def has_coordinates(self, venue):
        return venue.has_coordinates

    def save_model(self, request, obj, form, change):
        obj.stateprovince = Venue.derive_stateprovince(obj.state, obj.province, obj.country)
        super().save_model(request, obj, form, change)


@admin.register(Organizer)
class OrganizerAdmin(PostAdmin):
    list_display = ("title", "email", "phone", "website", "status", "author")
    search_fields = (*PostAdmin.search_fields, "email")
    autocomplete_fields = ("image",)
    fieldsets = (
        (None, {"fields": (translated("title"), "slug")}),
        (_("Contact"), {"fields": ("email", "phone", "website")}),
        (_("Description"), {"fields": translated_stacked("description")}),
        (_("Excerpt"), {"fields": translated_stacked("excerpt"), "classes": ("collapse",)}),
        (_("Publishing"), {"fields": ("status", "date", "author", "password", "image")}),
    )


# Terms ----------------------------------------------------------------------------------------

class TermAdminForm(forms.ModelForm):
    class Meta:
        model = Term
        fields = "__all__"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "slug" in self.fields:
            # Left empty, the slug is derived from the English name (as the API does).
            self.fields["slug"].required = False

    def clean(self):
        data = super().clean()
        for suffix in LANGUAGE_SUFFIXES:
            field = f"name_{suffix}"
            if data.get(field):
                data[field] = term_service.sanitize_term_name(data[field])
        term = self.instance
        parent = data.get("parent")
        if parent is not None and term.pk is not None and term_service.would_loop(term, parent):
            self.add_error("parent", _("A category cannot be placed under itself or one of its subcategories."))
        taxonomy = self._meta.model.TAXONOMY
        for suffix in LANGUAGE_SUFFIXES:
            name = data.get(f"name_{suffix}")
            if not name:
                continue
            # A name names one term whatever the reader's language (as the API's duplicate check).
            twins = Term.objects.filter(taxonomy=taxonomy).filter(term_service.same_name(name))
            if taxonomy == Taxonomy.CATEGORY:
                twins = twins.filter(parent_id=parent.pk if parent is not None else None)
            if term.pk is not None:
                twins = twins.exclude(pk=term.pk)
            if twins.exists():
                self.add_error(f"name_{suffix}", _("A term with this name already exists at this level."))
        slug = data.get("slug")
        if slug and term.pk is not None:
            requested = sanitize_title(slug)
            if Term.objects.filter(taxonomy=taxonomy, slug=requested).exclude(pk=term.pk).exists():
                self.add_error("slug", _("This slug is already in use by another term."))
        return data


class TermAdminBase(TranslationAdmin):
    form = TermAdminForm
    capability = None
    search_fields = ("name_en", "name_zh_hans", "name_zh_hant", "slug")
    prepopulated_fields = {"slug": ("name_en",)}

    def has_view_permission(self, request, obj=None):
        return roles.has_capability(request.user, self.capability) or roles.has_right(request.user, Event.KIND, roles.EDIT)

    def has_add_permission(self, request):
        return roles.has_capability(request.user, self.capability)

    def has_change_permission(self, request, obj=None):
        return roles.has_capability(request.user, self.capability)

    def has_delete_permission(self, request, obj=None):
        return roles.has_capability(request.user, self.capability)

    def save_model(self, request, obj, form, change):
        requested = form.cleaned_data.get("slug") or None
        if change and requested:
            obj.slug = sanitize_title(requested)
        else:
            assign_term_slug(obj, requested)
        super().save_model(request, obj, form, change)

    def delete_model(self, request, obj):
        term_service.delete_term(obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for term in queryset:
                term_service.delete_term(term)


@admin.register(Category)
class CategoryAdmin(TermAdminBase):
    capability = roles.MANAGE_CATEGORIES
    list_display = ("name", "slug", "parent", "count")
    list_select_related = ("parent",)
    list_filter = (("parent", admin.RelatedOnlyFieldListFilter),)
    autocomplete_fields = ("parent",)
    fieldsets = (
        (None, {"fields": (translated("name"), "slug", "parent")}),
        (_("Description"), {"fields": translated_stacked("description")}),
    )


@admin.register(Tag)
class TagAdmin(TermAdminBase):
    capability = roles.MANAGE_TAGS
    list_display = ("name", "slug", "count")
    fieldsets = (
        (None, {"fields": (translated("name"), "slug")}),
        (_("Description"), {"fields": translated_stacked("description")}),
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
            roles.has_capability(request.user, c) for c in (roles.MANAGE_CATEGORIES, roles.MANAGE_TAGS))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_search_results(self, request, queryset, search_term):
        queryset, distinct = super().get_search_results(request, queryset, search_term)
        taxonomy = request.GET.get("taxonomy")
        if taxonomy in Taxonomy.values:
            queryset = queryset.filter(taxonomy=taxonomy)
        return queryset, distinct


# Images ---------------------------------------------------------------------------------------

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


@admin.register(Attachment)
class AttachmentAdmin(admin.ModelAdmin):
    form = AttachmentAdminForm
    list_display = ("preview", "title", "file", "dimensions", "filesize", "author", "date")
    list_display_links = ("preview", "title")
    list_select_related = ("author",)
    search_fields = ("title", "file")
    list_filter = ("mime_type", ("date", admin.DateFieldListFilter))
    date_hierarchy = "date"
    fields = ("file", "title", "preview", "dimensions", "filesize", "mime_type", "generated_sizes", "source_url", "author", "date")
    readonly_fields = ("preview", "dimensions", "filesize", "mime_type", "generated_sizes", "source_url", "author", "date")

    @admin.display(description=_("preview"))
    def preview(self, attachment):
        if not attachment.file:
            return ""
        thumbnail = (attachment.sizes or {}).get("thumbnail")
        url = attachment.file.storage.url(thumbnail["file"]) if thumbnail else attachment.file.url
        return format_html('<img src="{}" alt="" style="max-width:150px;max-height:150px">', url)

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

    def has_delete_permission(self, request, obj=None):
        return self.has_change_permission(request, obj)

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


# Application passwords --------------------------------------------------------------------------

class ApplicationPasswordForm(forms.ModelForm):
    class Meta:
        model = ApplicationPassword
        fields = ("user", "name")

    def __init__(self, *args, owner=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Who the new password is for, when the form has no user field (everyone but administrators).
        self.owner = owner

    def clean(self):
        cleaned = super().clean()
        user = cleaned.get("user") or self.owner or getattr(self.instance, "user", None)
        name = cleaned.get("name")
        if user is not None and name and self.instance.pk is None:
            if ApplicationPassword.objects.filter(user=user, name=name).exists():
                self.add_error("name", _("Each application name should be unique."))
        return cleaned


@admin.register(ApplicationPassword)
class ApplicationPasswordAdmin(admin.ModelAdmin):
    """Everyone with admin access manages their own application passwords; administrators everyone's.

    A new password is shown once, on the page that follows its creation, and never stored in clear.
    """

    form = ApplicationPasswordForm
    list_display = ("name", "user", "created", "last_used", "last_ip")
    list_select_related = ("user",)
    search_fields = ("name",)
    readonly_fields = ("user", "uuid", "app_id", "created", "last_used", "last_ip")
    actions = ("revoke",)

    @staticmethod
    def _is_administrator(request):
        return roles.role_of(request.user) == roles.ADMINISTRATOR

    def _may_manage(self, request, obj):
        if not (request.user.is_active and request.user.is_staff):
            return False
        return obj is None or obj.user_id == request.user.pk or self._is_administrator(request)

    def has_module_permission(self, request):
        return self._may_manage(request, None)

    def has_view_permission(self, request, obj=None):
        return self._may_manage(request, obj)

    def has_add_permission(self, request):
        return self._may_manage(request, None)

    def has_change_permission(self, request, obj=None):
        return self._may_manage(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._may_manage(request, obj)

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        return queryset if self._is_administrator(request) else queryset.filter(user=request.user)

    def get_list_filter(self, request):
        # The user filter would list every username: only for those who may see every user's rows.
        return ("user",) if self._is_administrator(request) else ()

    def get_search_fields(self, request):
        return ("name", "user__username") if self._is_administrator(request) else ("name",)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("user", "name") if self._is_administrator(request) else ("name",)
        return ("name", "user", "uuid", "app_id", "created", "last_used", "last_ip")

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        owner = None if obj is not None or self._is_administrator(request) else request.user

        class OwnedForm(form):
            def __init__(self, *args, **form_kwargs):
                super().__init__(*args, owner=owner, **form_kwargs)

        return OwnedForm

    def get_changeform_initial_data(self, request):
        return {"user": request.user.pk, **super().get_changeform_initial_data(request)}

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        if not self._is_administrator(request):
            obj.user = request.user
        try:
            obj.issued_password = credentials.issue_application_password(obj)
        except credentials.DuplicateApplicationName:
            # Only a concurrent creation of the same name gets here; the form checked before.
            raise PermissionDenied(_("Each application name should be unique.")) from None

    def response_add(self, request, obj, post_url_continue=None):
        """The one page that shows the new password, instead of a redirect that could not carry it."""
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Your new application password"),
            "application_password": obj,
            "password": obj.issued_password,
            "changelist_url": reverse("admin:events_applicationpassword_changelist", current_app=self.admin_site.name),
        }
        response = TemplateResponse(request, "admin/events/applicationpassword/issued.html", context)
        # Nothing may keep the page: it holds a credential.
        patch_cache_control(response, no_store=True)
        return response

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.action(description=_("Revoke the selected application passwords"))
    def revoke(self, request, queryset):
        count, _by_model = queryset.delete()
        self.message_user(
            request,
            ngettext("Revoked %(count)d application password.", "Revoked %(count)d application passwords.", count)
            % {"count": count},
        )
