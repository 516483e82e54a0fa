"""Form fields and widgets of the admin's forms: wall-clock times, time zones, term pickers, rich text."""

import datetime as dt

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import AdminSplitDateTime, AutocompleteSelect, AutocompleteSelectMultiple
from django.urls import reverse
from django.utils.html import format_html, json_script
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _
from django_prose_editor.widgets import AdminProseEditorWidget

from .. import dates
from ..dates import site_zone_name
from ..models import Attachment, Event
from ..text import autop
from .images import thumbnail_url


class DateAndMinuteWidget(AdminSplitDateTime):
    """The browser's own date and time inputs, to the minute. Unlike the admin's calendar they honour
    `min`, which keeps an event's end from being picked before its start (event_times.js)."""

    def __init__(self, attrs=None):
        dates_and_times = [forms.DateInput({"type": "date"}, "%Y-%m-%d"), forms.TimeInput({"type": "time"}, "%H:%M")]
        forms.MultiWidget.__init__(self, dates_and_times, attrs)


class WallClockField(forms.SplitDateTimeField):
    """Date and time as read on the event's own clock: kept naive, the zone field says where."""

    widget = DateAndMinuteWidget

    def compress(self, data_list):
        if data_list and all(part is not None for part in data_list):
            return dt.datetime.combine(*data_list)
        return None


def zone_choices(current=""):
    names = sorted(dates.zone_names() - {"UTC"})
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


class RichTextEditor(AdminProseEditorWidget):
    """Descriptions and excerpts as formatted text (django-prose-editor, served with the site's own
    static files). It writes only markup WordPress's kses keeps for authors and contributors, so their
    text is stored exactly as the editor wrote it."""

    EXTENSIONS = {
        "Heading": {"levels": [2, 3, 4]},
        "Link": {"enableTarget": True},
        **dict.fromkeys(("Bold", "Italic", "BulletList", "OrderedList", "ListItem", "Blockquote", "HardBreak"), True),
    }

    def __init__(self, attrs=None):
        super().__init__(attrs, config={"extensions": self.EXTENSIONS}, preset="configurable")

    # The editor's dialogs ask the admin's JavaScript catalog (window.gettext) for these words, and it
    # has none of them; editor_strings.js adds this app's translations to it.
    DIALOG_STRINGS = (
        gettext_noop("Edit Link"),
        gettext_noop("URL"),
        gettext_noop("Title"),
        gettext_noop("Open in new window"),
        gettext_noop("Cancel"),
        gettext_noop("Update"),
        gettext_noop("Insert"),
        gettext_noop("List properties"),
        gettext_noop("List type"),
        gettext_noop("Start at"),
        gettext_noop("Bullets"),
        gettext_noop("Decimal numbers"),
        gettext_noop("Lowercase letters"),
        gettext_noop("Uppercase letters"),
        gettext_noop("Lowercase Roman numerals"),
        gettext_noop("Uppercase Roman numerals"),
        gettext_noop("Toggle fullscreen"),
    )

    @property
    def media(self):
        return super().media + forms.Media(js=["events/admin/editor_strings.js"])

    def render(self, name, value, attrs=None, renderer=None):
        editor = super().render(name, value, attrs, renderer)
        strings = {msgid: gettext(msgid) for msgid in self.DIALOG_STRINGS}
        return editor + json_script(strings, f"{(attrs or {}).get('id', name)}_editor_strings")

    def format_value(self, value):
        # Text written through the API often has blank lines where paragraphs break, which WordPress
        # turns into paragraphs only on output; the editor would read them as one paragraph.
        value = super().format_value(value)
        if value and "<p" not in value.lower():
            value = autop(value)
        return value


class MapFlagField(forms.BooleanField):
    """A map flag as a checkbox, ticked when never stored: the plugin reads a missing flag as on."""

    widget = forms.CheckboxInput(check_test=lambda value: value is None or bool(value))

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)


class FeaturedImageChooser(AutocompleteSelect):
    """The featured-image picker with the chosen image's thumbnail beside it; the "+" beside it
    uploads a new one (image_preview.js swaps the thumbnail when the choice changes)."""

    def render(self, name, value, attrs=None, renderer=None):
        picker = super().render(name, value, attrs, renderer)
        attachment = (
            Attachment.objects.filter(pk=value).first() if value not in (None, "") and str(value).isdigit() else None
        )
        url = thumbnail_url(attachment) if attachment is not None else ""
        template = reverse("admin:events_attachment_thumbnail", args=[0], current_app=self.admin_site.name)
        return format_html(
            '{}<img class="events-image-preview" data-preview-for="{}" data-thumbnail-url="{}" src="{}" alt=""{}>',
            picker,
            (attrs or {}).get("id", ""),
            template,
            url,
            "" if url else mark_safe(" hidden"),
        )

    @property
    def media(self):
        return super().media + forms.Media(js=["events/admin/image_preview.js"])
