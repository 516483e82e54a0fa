"""What venues and organizers share in the admin: made from the event form's "+" popup, namesakes warned of."""

from django import forms
from django.contrib.admin.options import IS_POPUP_VAR
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .. import roles
from ..models import PostKind, PostStatus
from ..services import deletion
from ..services.linked import readable_namesakes, save_organizer, save_venue
from ..text import sanitize_text_field
from .posts import PostAdmin, PostAdminForm
from .writes import translated

SAVE = {PostKind.VENUE: save_venue, PostKind.ORGANIZER: save_organizer}

# The venues and organizers this browser session made from an event form's popup and that wait for
# that event's save to take its status: (kind, pk) pairs.
AWAITING_EVENT = "events_admin_awaiting_event"


class LinkedRecordAdminForm(PostAdminForm):
    allow_namesake = forms.BooleanField(
        label=_("Create it even though one of this name exists"),
        required=False,
    )

    # Who asks, set by LinkedRecordAdmin.get_form: only the namesakes they may read count.
    user = None

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk is not None or cleaned.get("allow_namesake"):
            return cleaned
        for field in translated("title"):
            name = sanitize_text_field(cleaned.get(field) or "")
            namesakes = readable_namesakes(self._meta.model, name, self.user) if name else []
            if namesakes:
                existing = namesakes[0]
                url = reverse(f"admin:events_{existing._meta.model_name}_change", args=[existing.pk])
                self.add_error(
                    field,
                    format_html(
                        _(
                            "“{name}” already exists ({link}): choose it instead, or tick the box below to create another."
                        ),
                        name=name,
                        link=format_html('<a href="{}" target="_blank">#{}</a>', url, existing.pk),
                    ),
                )
        return cleaned


class LinkedRecordAdmin(PostAdmin):
    """Venues and organizers: a "+" popup of the event form makes one that takes the event's status
    when the event is saved (as the plugin's editor does), so a published event never points at a
    draft venue whose page is a 404."""

    form = LinkedRecordAdminForm

    @staticmethod
    def is_popup(request):
        return IS_POPUP_VAR in request.POST or IS_POPUP_VAR in request.GET

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        adding_from_event = obj is None and self.is_popup(request)
        saying_create_anyway = obj is None and request.method == "POST"
        if not (adding_from_event or saying_create_anyway):
            return fieldsets
        reshaped = []
        for index, (title, options) in enumerate(fieldsets):
            options = dict(options)
            fields = list(options["fields"])
            if adding_from_event and "status" in fields:
                fields.remove("status")
                options["description"] = _(
                    "Published together with the event it is made for, as soon as that event is saved."
                )
            if saying_create_anyway and index == 0:
                # Shown only once a save was refused: the first attempt names no namesake yet.
                fields.append("allow_namesake")
            options["fields"] = fields
            reshaped.append((title, options))
        return reshaped

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        return type(form.__name__, (form,), {"user": request.user})

    refusal_fields = {"venue": "title", "organizer": "title"}

    def written_fields(self, form, creating):
        fields = super().written_fields(form, creating)
        if creating and "status" not in form.fields:
            # Made from an event's popup: a draft until that event is saved (give_awaiting_records_the_event_status).
            fields["status"] = PostStatus.DRAFT
        return fields

    def delete_model(self, request, obj):
        deletion.delete_linked([obj])

    def delete_queryset(self, request, queryset):
        deletion.delete_linked(queryset)

    def save_record(self, request, record, form, formsets, creating):
        SAVE[self.kind](self.written_fields(form, creating), request.user, instance=record)
        if creating and self.is_popup(request):
            awaiting = request.session.get(AWAITING_EVENT, [])
            request.session[AWAITING_EVENT] = [*awaiting, [record.KIND, record.pk]]


def give_awaiting_records_the_event_status(request, event):
    """Popup-made venues and organizers now linked to `event` take its status (scaled to the
    user's rights, scheduled by their own date); once published they wait no more."""
    awaiting = [tuple(pair) for pair in request.session.get(AWAITING_EVENT, [])]
    if not awaiting:
        return
    linked = [event.venue] if event.venue_id else []
    linked += [link.organizer for link in event.organizer_links.select_related("organizer")]
    settled = set()
    for record in linked:
        key = (record.KIND, record.pk)
        if key not in awaiting or not roles.can_edit(request.user, record) or event.status == PostStatus.TRASH:
            continue
        SAVE[record.KIND]({"status": event.status}, request.user, instance=record)
        if record.status in PostStatus.published_states() or record.status == PostStatus.PRIVATE:
            settled.add(key)
    request.session[AWAITING_EVENT] = [list(pair) for pair in awaiting if pair not in settled]
