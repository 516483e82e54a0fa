"""Admin pages that write through the services: the form's changes in domain names, refusals shown, never a 500."""

from django.contrib import messages
from django.contrib.admin.templatetags.admin_urls import admin_urlname
from django.http import HttpResponseRedirect
from django.urls import reverse
from modeltranslation.settings import AVAILABLE_LANGUAGES
from modeltranslation.utils import build_localized_fieldname

from ..exceptions import CalendarError

# Where a refused save leaves its refusal for the form shown again.
REFUSAL = "events_admin_refusal"


def given(form, creating, *names):
    """Whether a save writes what these form fields edit: every field of a new record, the changed
    ones of a stored record (an update changes only what it names, as through the API)."""
    present = [name for name in names if name in form.fields]
    return bool(present) and (creating or any(name in form.changed_data for name in present))


def translated(field):
    """The language columns of a translated field, one row each: translation_tabs.js turns them into
    language tabs (without scripts they stay one under another)."""
    return tuple(build_localized_fieldname(field, language) for language in AVAILABLE_LANGUAGES)


def translations(form, field):
    """{language: text} of a translated field's form fields, for the languages the form shows."""
    names = dict(zip(AVAILABLE_LANGUAGES, translated(field), strict=True))
    return {language: form.cleaned_data.get(name) or "" for language, name in names.items() if name in form.fields}


def changed_fields(form, creating, translated_fields, same_named_fields):
    """What a save writes of these fields, in the service's names (the form's, for translated ones
    their {language: text}): every field on creation, the changed ones of a stored record."""
    fields = {
        field: translations(form, field) for field in translated_fields if given(form, creating, *translated(field))
    }
    fields.update({name: form.cleaned_data[name] for name in same_named_fields if given(form, creating, name)})
    return fields


class RefusalsShown:
    """A model admin that shows the domain refusals of its saves: the whole save is rolled back and
    the form shown again with the refusal on the field it names; a refused delete or bulk action is
    an error message. Never a 500."""

    # Form field of a domain field a refusal may name, where their names differ (None: no field).
    refusal_fields = {}

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except CalendarError as refusal:
            # The view's transaction rolled back: the same form is shown again, with the refusal on it.
            setattr(request, REFUSAL, refusal)
            return super().changeform_view(request, object_id, form_url, extra_context)

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        refusal = getattr(request, REFUSAL, None)
        if refusal is None:
            return form
        return form_showing(form, refusal, self.refusal_fields.get(refusal.field, refusal.field))

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return super().delete_view(request, object_id, extra_context)
        except CalendarError as refusal:
            self.message_user(request, str(refusal), messages.ERROR)
            changelist = reverse(admin_urlname(self.opts, "changelist"), current_app=self.admin_site.name)
            return HttpResponseRedirect(changelist)

    def response_action(self, request, queryset):
        try:
            return super().response_action(request, queryset)
        except CalendarError as refusal:
            self.message_user(request, str(refusal), messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())


class ServiceWrites(RefusalsShown):
    """A model admin whose saves call the same services as the API.

    The record and its links are written in save_related(), once the inlines are validated too,
    in one service call; save_model() leaves the record alone until then.
    """

    def save_record(self, request, record, form, formsets, creating):
        """Write `record` (the form's instance) and its links through the kind's service."""
        raise NotImplementedError

    def save_model(self, request, obj, form, change):
        """Nothing yet: save_related() writes the record with its links."""

    def save_related(self, request, form, formsets, change):
        record = form.instance
        if change:
            # The service judges the change against the stored record, not the one the form filled in.
            record.refresh_from_db()
        self.save_record(request, record, form, formsets, creating=not change)
        for formset in formsets:
            # The service wrote the rows; this only lists them for the change message.
            formset.save(commit=False)


def form_showing(form_class, refusal, field):
    """`form_class`, refusing to validate with the message of `refusal`, on `field` (or its English
    column) when the form has it, else for the whole form."""

    class RefusedForm(form_class):
        def clean(self):
            cleaned = super().clean()
            names = [field, build_localized_fieldname(field, "en")] if field else []
            self.add_error(next((name for name in names if name in self.fields), None), str(refusal))
            return cleaned

    RefusedForm.__name__ = form_class.__name__
    return RefusedForm
