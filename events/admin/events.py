"""The event form and list: wall-clock times in the event's zone, terms, cost and organizers in order."""

import datetime as dt
import functools
import zoneinfo

from adminsortable2.admin import SortableAdminBase, SortableTabularInline
from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import HttpResponseNotAllowed, JsonResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .. import roles
from ..cost import CostInput, parse_cost_input
from ..dates import site_zone_name, wall_clock
from ..exceptions import InvalidValue
from ..imports.sources import origin_of
from ..models import Category, Event, EventOrganizer, PostStatus, Tag, Taxonomy
from ..services.deletion import delete_events
from ..services.events import FLAGS, create_event, update_event
from .actions import duplicate_as_draft, restore_from_trash
from .actions import move_to_trash as trash_selected
from .filters import AuthorListFilter, CategoryListFilter, EventTimeListFilter
from .imports import imported_from_text
from .linked import give_awaiting_records_the_event_status
from .posts import PostAdmin, PostAdminForm
from .recurrence import FORM_FIELDS as REPEAT_FIELDS
from .recurrence import (
    PREVIEW_PARAMETERS,
    RecurrenceFields,
    RecurrencePreviewForm,
    SeriesListFilter,
    deleted_first_message,
    deleting_first_message,
    initial_from_series,
    next_dates,
    others_staying,
    preview,
    recurrence_from_form,
    refuse_as_a_save_would,
    series_mark,
    series_scope,
    trashed_alone_message,
    whole_series_note,
)
from .widgets import TaxonomyAutocomplete, WallClockField, zone_choices
from .writes import given, translated


class EventAdminForm(PostAdminForm, RecurrenceFields):
    start = WallClockField(label=_("Start"))
    end = WallClockField(label=_("End"))
    timezone_name = forms.ChoiceField(label=_("Time zone"), required=False)
    cost_text = forms.CharField(
        label=_("Cost"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 30}),
        help_text=_(
            "One value per line, e.g. “$20” or “Free”; a currency sign found here sets the symbol and its position."
        ),
    )
    categories = forms.ModelMultipleChoiceField(
        label=_("Event categories"),
        queryset=Category.objects.all(),
        required=False,
        widget=TaxonomyAutocomplete(Taxonomy.CATEGORY),
    )
    tags = forms.ModelMultipleChoiceField(
        label=_("Tags"),
        queryset=Tag.objects.all(),
        required=False,
        widget=TaxonomyAutocomplete(Taxonomy.TAG),
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
        self.setup_recurrence(event)

    def setup_recurrence(self, event):
        """The repeat section edits the series on its first occurrence, where a save changes the
        whole series (docs/editors.md); the other occurrences ask instead how far a change goes
        (this one, the following ones, all)."""
        for name, value in initial_from_series(event).items():
            self.initial.setdefault(name, value)
        in_series = event.pk is not None and event.series_id is not None
        if not in_series or event.series_id == event.pk:
            self.fields.pop("recurrence_scope", None)
        if in_series and event.series_id != event.pk:
            for name in REPEAT_FIELDS:
                if name in self.fields:
                    self.fields[name].disabled = True
        upcoming = next_dates(event) if in_series else []
        if upcoming and "repeat" in self.fields:
            listed = ", ".join(f"{start:%Y-%m-%d %H:%M}" for start in upcoming)
            self.fields["repeat"].help_text = gettext("Next dates: %(dates)s") % {"dates": listed}

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
        if self.writes_recurrence():
            # The section's refusals on its fields, in the form's words, as its live preview shows them.
            refuse_as_a_save_would(self)
        return cleaned

    def writes_recurrence(self):
        """Whether a save writes the repeat section: where it edits the series (an event outside a
        series, a series' first occurrence) and every field of a new event, the changed ones else."""
        event = self.instance
        first_or_alone = event.series_id is None or event.series_id == event.pk
        return first_or_alone and given(self, event.pk is None, *REPEAT_FIELDS)


class EventOrganizerForm(forms.ModelForm):
    class Meta:
        model = EventOrganizer
        fields = ("organizer", "position")
        labels = {"organizer": _("Organizer"), "position": _("Order")}


class EventOrganizerInline(SortableTabularInline):
    """Organizers in the order the event lists them, dragged into place; rights follow the event's own."""

    model = EventOrganizer
    form = EventOrganizerForm
    fields = ("organizer", "position")
    autocomplete_fields = ("organizer",)
    extra = 0
    verbose_name = _("organizer")
    verbose_name_plural = _("organizers")

    def has_view_permission(self, request, obj=None):
        return roles.has_right(request.user, Event.KIND, roles.EDIT)

    def has_add_permission(self, request, obj=None):
        return (
            obj is None
            and roles.has_right(request.user, Event.KIND, roles.EDIT)
            or (obj is not None and roles.can_edit(request.user, obj))
        )

    has_change_permission = has_delete_permission = has_add_permission


def linked_organizers(formsets):
    """The organizers the inline rows name, in the order they were dragged into, without deleted rows."""
    rows = []
    for formset in formsets:
        if formset.model is not EventOrganizer:
            continue
        deleted = formset.deleted_forms if formset.can_delete else []
        for index, form in enumerate(formset.forms):
            organizer = form.cleaned_data.get("organizer")
            if organizer is not None and form not in deleted:
                rows.append((form.cleaned_data.get("position") or 0, index, organizer))
    return [organizer for _position, _index, organizer in sorted(rows, key=lambda row: row[:2])]


def format_wall_clock(moment, all_day):
    """A stored wall-clock moment as the form shows it: the date, and the time unless the event is all day."""
    clock = wall_clock(moment)
    return f"{clock:%Y-%m-%d}" if all_day else f"{clock:%Y-%m-%d %H:%M}"


@functools.cache
def ambiguous_abbreviations():
    """Zone abbreviations that name different offsets somewhere (CST: Chicago and Shanghai; IST)."""
    offsets = {}
    for instant in (dt.datetime(2026, 1, 15, tzinfo=dt.UTC), dt.datetime(2026, 7, 15, tzinfo=dt.UTC)):
        for name in zoneinfo.available_timezones():
            local = instant.astimezone(zoneinfo.ZoneInfo(name))
            offsets.setdefault(local.tzname(), set()).add(local.utcoffset())
    return {abbreviation for abbreviation, found in offsets.items() if len(found) > 1}


def zone_label(event):
    """The zone's abbreviation where it names one zone, else the zone's name ("+08" names none)."""
    abbreviation = event.timezone_abbr
    if abbreviation and abbreviation.isalpha() and abbreviation not in ambiguous_abbreviations():
        return abbreviation
    return event.timezone_name or site_zone_name()


def describe_when(event):
    """ "Sat 23 Jan 2027, 09:00–12:00 CET" on the event's own clock; "Sat 23 Jan 2027, all day"."""
    start, end = wall_clock(event.start_local), wall_clock(event.end_local)
    # Translators: how a day is written in the admin's event list (PHP-style date format letters).
    day_format = gettext("D j M Y")
    start_day, end_day = date_format(start, day_format), date_format(end, day_format)
    if event.all_day:
        if start.date() == end.date():
            return gettext("%(day)s, all day") % {"day": start_day}
        return gettext("%(start_day)s – %(end_day)s, all day") % {"start_day": start_day, "end_day": end_day}
    values = {
        "start_day": start_day,
        "end_day": end_day,
        "start": f"{start:%H:%M}",
        "end": f"{end:%H:%M}",
        "zone": zone_label(event),
    }
    if start.date() == end.date():
        return gettext("%(start_day)s, %(start)s–%(end)s %(zone)s") % values
    return gettext("%(start_day)s, %(start)s – %(end_day)s, %(end)s %(zone)s") % values


def term_names(event, taxonomy):
    """The event's categories or tags as people read them, from the prefetched terms."""
    return ", ".join(str(term) for term in event.terms.all() if term.taxonomy == taxonomy)


@admin.register(Event)
class EventAdmin(SortableAdminBase, PostAdmin):
    form = EventAdminForm
    inlines = (EventOrganizerInline,)
    list_display = ("title", "when", "status", "venue", "category_names", "featured")
    list_filter = (
        EventTimeListFilter,
        "status",
        SeriesListFilter,
        CategoryListFilter,
        ("venue", admin.RelatedOnlyFieldListFilter),
        ("organizers", admin.RelatedOnlyFieldListFilter),
        AuthorListFilter,
        "featured",
    )
    # The trash of an event (a method) says what becomes of a series whose first occurrence goes alone.
    actions = ("move_to_trash", restore_from_trash, duplicate_as_draft)
    list_select_related = ("venue", "author")
    date_hierarchy = "start_utc"
    ordering = ("-start_utc", "-id")
    autocomplete_fields = ("venue", "post_parent", "image")
    fieldsets = (
        (None, {"fields": (*translated("title"), "slug")}),
        (_("When"), {"fields": (("start", "end"), ("timezone_name", "all_day"))}),
        # The organizers' rows follow this fieldset (admin/events/event/change_form.html).
        (_("Where"), {"fields": ("venue",), "classes": ("events-where",)}),
        (_("Description"), {"fields": translated("description")}),
        (_("Excerpt"), {"fields": translated("excerpt"), "classes": ("collapse",)}),
        (
            _("Repeat"),
            {
                "fields": (
                    "repeat",
                    "repeat_interval",
                    "repeat_weekdays",
                    "repeat_monthly",
                    ("repeat_end", "repeat_until", "repeat_count"),
                    ("repeat_dates", "repeat_exclusions"),
                ),
                "classes": ("events-repeat",),
            },
        ),
        (_("Event categories and tags"), {"fields": ("categories", "tags")}),
        (_("Cost"), {"fields": ("cost_text", ("currency_symbol", "currency_position", "currency_code"))}),
        (_("Publishing"), {"fields": ("status", "date", "author", "password", "image", "post_parent")}),
        (
            _("Display"),
            {"fields": ("featured", "sticky", "hide_from_listings", "website", "show_map", "show_map_link")},
        ),
    )

    class Media:
        js = ("events/admin/event_times.js", "events/admin/recurrence_preview.js")

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("terms")

    @admin.action(description=_("Move selected records to the trash"), permissions=["trash"])
    def move_to_trash(self, request, queryset):
        """The changelist's trash: each occurrence of a series goes alone (scope `this`, the API's
        default), its start skipped from then on. A first occurrence going alone takes the series'
        rules with it, which the editor is told, with how to trash a whole series."""
        live_firsts = set(
            queryset.exclude(status=PostStatus.TRASH).filter(series_id=F("pk")).values_list("pk", flat=True)
        )
        trash_selected(self, request, queryset)
        # Those the user could trash (the others stay as they were).
        firsts = [event for event in queryset.filter(pk__in=live_firsts) if event.status == PostStatus.TRASH]
        staying = others_staying(firsts)
        for first in firsts:
            if staying.get(first.pk):
                self.message_user(request, trashed_alone_message(first, staying[first.pk]), messages.WARNING)

    def get_deleted_objects(self, objs, request):
        """Also what the confirmation pages (one event's and the bulk action's) say before a first
        occurrence is deleted: the series ends with it (deleting_from_series)."""
        answer = super().get_deleted_objects(objs, request)
        if request.POST.get("post") != "yes":
            events = list(objs)
            leaving = {event.pk for event in events}
            firsts = [event for event in events if event.series_id == event.pk]
            for first_id, count in others_staying(firsts, leaving).items():
                first = next(event for event in firsts if event.pk == first_id)
                self.message_user(request, deleting_first_message(first, count), messages.WARNING)
        return answer

    def delete_model(self, request, obj):
        self.delete_queryset(request, [obj])

    def delete_queryset(self, request, queryset):
        """Deleting for good goes through the service (delete_events); a first occurrence takes its
        series with it, which the editor is told."""
        events = list(queryset)
        leaving = {event.pk for event in events}
        firsts = [event for event in events if event.series_id == event.pk]
        staying = others_staying(firsts, leaving)
        # Said now: a deleted record has no ID any more.
        ended = [deleted_first_message(first, staying[first.pk]) for first in firsts if staying.get(first.pk)]
        delete_events(events, request.user)
        for message in ended:
            self.message_user(request, message, messages.WARNING)

    def get_urls(self):
        preview_url = path(
            "recurrence-preview/",
            self.admin_site.admin_view(self.recurrence_preview_view),
            name=f"{self.opts.app_label}_{self.opts.model_name}_recurrence_preview",
        )
        # Ahead of the admin's own URLs, whose "<object_id>/" would take this path for an event's.
        return [preview_url, *super().get_urls()]

    def recurrence_preview_view(self, request):
        """The repeat section's next dates and rule in words while the editor types, never saved
        (recurrence_preview.js): JSON of admin.recurrence.preview, or 400 with the form's messages."""
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        if not (self.has_add_permission(request) or self.has_change_permission(request)):
            raise PermissionDenied
        form = RecurrencePreviewForm(request.GET)
        if not form.is_valid():
            return JsonResponse({"errors": form.error_texts()}, status=400)
        try:
            answer = preview(form.cleaned_data)
        except InvalidValue as refusal:
            # What the save would refuse, in the words the form shows beside "Repeat".
            return JsonResponse({"errors": [str(refusal)]}, status=400)
        return JsonResponse(answer)

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        # The live preview where the section can be edited: a new event or a series' first occurrence.
        repeat = context["adminform"].form.fields.get("repeat")
        if repeat is not None and not repeat.disabled:
            context["recurrence_preview_url"] = reverse(
                f"{self.admin_site.name}:{self.opts.app_label}_{self.opts.model_name}_recurrence_preview"
            )
            context["recurrence_preview_parameters"] = " ".join(PREVIEW_PARAMETERS)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "imported_from"]

    @admin.display(description=_("Imported from"))
    def imported_from(self, event):
        return imported_from_text(event)

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and origin_of(obj) is not None:
            fieldsets = (*fieldsets, (_("Imported from"), {"fields": ("imported_from",)}))
        if obj is None or obj.series_id is None:
            return fieldsets
        if obj.series_id == obj.pk:
            # The series' first occurrence: nothing to ask, but what a save changes is said first.
            return ((_("Recurring series"), {"fields": (), "description": whole_series_note(obj)}), *fieldsets)
        # Editing another occurrence asks first how far the change goes.
        return ((_("Recurring series"), {"fields": ("recurrence_scope",)}), *fieldsets)

    @admin.display(description=_("when"), ordering="start_utc")
    def when(self, event):
        # An occurrence's place in its series follows its date: a column of its own would push the
        # list past a laptop's width.
        return format_html(
            '<span title="{}">{}</span> {}',
            event.timezone_name or site_zone_name(),
            describe_when(event),
            series_mark(event),
        )

    @admin.display(description=_("event categories"))
    def category_names(self, event):
        return term_names(event, Taxonomy.CATEGORY)

    read_only_stand_ins = {**PostAdmin.read_only_stand_ins, "timezone_name": "time_zone"}

    @admin.display(description=_("Time zone"))
    def time_zone(self, event):
        return event.timezone_name or _("Site time zone (%(zone)s)") % {"zone": site_zone_name()}

    # The form-only fields as a caller who may only view the event reads them. The admin looks a
    # read-only field up on the model admin before the model, so these stand in for the form's fields.
    @admin.display(description=_("Start"))
    def start(self, event):
        return format_wall_clock(event.start_local, event.all_day)

    @admin.display(description=_("End"))
    def end(self, event):
        return format_wall_clock(event.end_local, event.all_day)

    @admin.display(description=_("Event categories"))
    def categories(self, event):
        return term_names(event, Taxonomy.CATEGORY) or self.get_empty_value_display()

    @admin.display(description=_("Tags"))
    def tags(self, event):
        return term_names(event, Taxonomy.TAG) or self.get_empty_value_display()

    @admin.display(description=_("Cost"))
    def cost_text(self, event):
        return "\n".join(event.cost or []) or self.get_empty_value_display()

    same_named_fields = (*PostAdmin.same_named_fields, *FLAGS, "all_day", "venue", "post_parent", "currency_code")
    refusal_fields = {
        "start_date": "start",
        "end_date": "end",
        "timezone": "timezone_name",
        "date_utc": "date",
        "cost": "cost_text",
        "recurrence": "repeat",
    }

    def written_fields(self, form, creating, formsets=()):
        fields = super().written_fields(form, creating)
        data = form.cleaned_data
        if given(form, creating, "start", "end"):
            # The service moves an event only when both ends are given.
            fields["start_date"], fields["end_date"] = data["start"], data["end"]
        if given(form, creating, "timezone_name"):
            fields["timezone"] = data["timezone_name"]
        if given(form, creating, "cost_text", "currency_symbol", "currency_position"):
            fields["cost"] = self.cost(form, creating)
        for name in ("categories", "tags"):
            if given(form, creating, name):
                fields[name] = list(data[name])
        if creating or any(formset.has_changed() for formset in formsets):
            fields["organizer"] = linked_organizers(formsets)
        if form.writes_recurrence():
            written = recurrence_from_form(data, data.get("start") or wall_clock(form.instance.start_local))
            if written is not None or form.instance.series_id is not None:
                fields["recurrence"] = written
        return fields

    @staticmethod
    def cost(form, creating):
        """The cost typed, one value per line; a currency sign newly typed in it sets the symbol and
        its position, which the currency fields set otherwise."""
        data = form.cleaned_data
        typed = parse_cost_input(data.get("cost_text") or [])
        if typed.currency_symbol and (creating or "cost_text" in form.changed_data):
            return typed
        return CostInput(
            values=typed.values,
            currency_symbol=data.get("currency_symbol") or "",
            currency_position=data.get("currency_position") or "",
        )

    def save_record(self, request, record, form, formsets, creating):
        fields = self.written_fields(form, creating, formsets)
        if creating:
            create_event(request.user, fields, event=record)
        else:
            scope = series_scope(record, form.cleaned_data.get("recurrence_scope"))
            update_event(record, request.user, fields, scope=scope)
        give_awaiting_records_the_event_status(request, record)
