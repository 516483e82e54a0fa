"""Administrators' import sources: made and changed through the same service as the API, "Run now",
each source's history, and the "Imported from" box of an imported event."""

from django import forms
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ..exceptions import InvalidValue
from ..imports.run import RunUnderWay, run_source
from ..imports.sources import EDITABLE, checked_fields, origin_of, save_source
from ..models import ImportRun, ImportSource
from .webhooks import AdministratorsOnly

RUN_COLUMNS = ("started", "finished", "created", "updated", "trashed", "unchanged", "skipped", "errors")


class ImportSourceForm(forms.ModelForm):
    url = forms.URLField(label=_("URL"), max_length=2000, required=False, assume_scheme="https")
    # Names, one per line or separated by commas; checked by the sources service, as the API's are.
    categories = forms.CharField(
        label=_("categories"),
        required=False,
        help_text=_("Category names given to every event of the source, separated by commas."),
    )

    class Meta:
        model = ImportSource
        fields = ("name", "url", "file", "policy", "status", "categories", "interval_minutes", "active", "owner")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial["categories"] = ", ".join(self.instance.categories)

    def clean_categories(self):
        text = self.cleaned_data.get("categories") or ""
        return [name.strip() for name in text.replace("\n", ",").split(",") if name.strip()]

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("url") and not cleaned.get("file") and not self.instance.file:
            raise forms.ValidationError(_("A source needs a URL or a file."))
        try:
            checked_fields({name: cleaned[name] for name in EDITABLE if cleaned.get(name) not in (None, "")})
        except InvalidValue as refusal:
            raise forms.ValidationError(refusal.reason or str(refusal)) from None
        return cleaned


class ImportRunInline(admin.TabularInline):
    model = ImportRun
    fields = (*RUN_COLUMNS, "not_modified", "failure", "messages")
    readonly_fields = fields
    ordering = ("-started", "-id")
    extra = 0
    max_num = 0
    can_delete = False


@admin.action(description=_("Run now"))
def run_now(modeladmin, request, queryset):
    for source in queryset:
        try:
            run = run_source(source, conditional=False)
        except RunUnderWay:
            modeladmin.message_user(
                request, _("%(source)s: a run is under way already.") % {"source": source}, messages.WARNING
            )
            continue
        if run.failure:
            modeladmin.message_user(
                request,
                _("%(source)s could not be read: %(reason)s") % {"source": source, "reason": run.failure},
                messages.ERROR,
            )
            continue
        modeladmin.message_user(
            request,
            _(
                "%(source)s: %(created)s created, %(updated)s updated, %(trashed)s trashed, "
                "%(unchanged)s unchanged, %(skipped)s skipped, %(errors)s errors."
            )
            % {"source": source, **{name: getattr(run, name) for name in RUN_COLUMNS[2:]}},
            messages.WARNING if run.errors else messages.SUCCESS,
        )


@admin.register(ImportSource)
class ImportSourceAdmin(AdministratorsOnly, admin.ModelAdmin):
    form = ImportSourceForm
    list_display = ("__str__", "kind", "policy", "interval_minutes", "active", "last_run", "last_outcome")
    list_filter = ("kind", "policy", "active")
    readonly_fields = ("kind", "last_run", "next_run")
    actions = (run_now,)
    inlines = (ImportRunInline,)

    @admin.display(description=_("last run"))
    def last_outcome(self, source):
        run = source.runs.order_by("-started", "-id").first()
        if run is None:
            return "—"
        if run.failure:
            return _("could not be read")
        return _("%(created)s created, %(updated)s updated, %(errors)s errors") % {
            "created": run.created,
            "updated": run.updated,
            "errors": run.errors,
        }

    def save_model(self, request, obj, form, change):
        # The form has checked the fields with the service's own rules (clean()).
        obj.owner = form.cleaned_data.get("owner") or obj.owner or request.user
        save_source({name: form.cleaned_data[name] for name in EDITABLE}, owner=obj.owner, source=obj)


def imported_from_text(event):
    """The "Imported from" box: the source (linked to its page), its identity there, when."""
    record = origin_of(event)
    if record is None:
        return "—"
    return format_html(
        '<a href="{}">{}</a> · {} · {}',
        reverse("admin:events_importsource_change", args=[record.source_id]),
        str(record.source),
        record.remote_key[:200],
        _("last imported %(when)s") % {"when": date_format(record.last_imported, "DATETIME_FORMAT")},
    )
