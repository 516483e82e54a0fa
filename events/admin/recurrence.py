"""The event form's recurrence section, written for people (not RRULE), the changelist's series mark and filter."""

import datetime as dt

from django import forms
from django.contrib import admin
from django.utils.dates import WEEKDAYS
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ..exceptions import InvalidValue
from ..models import Series
from ..recurrence_words import DAY_CODES
from ..services import recurrence
from ..services.schedule import wall_clock

NEVER, ON_DATE, AFTER = "never", "until", "count"
DAY_OF_MONTH, WEEKDAY_OF_MONTH, LAST_WEEKDAY = "day", "weekday", "last"
FORM_FIELDS = (
    "repeat",
    "repeat_interval",
    "repeat_weekdays",
    "repeat_monthly",
    "repeat_end",
    "repeat_until",
    "repeat_count",
    "repeat_dates",
    "repeat_exclusions",
)


def _dates_text(dates):
    return "\n".join(date.strftime("%Y-%m-%d %H:%M") for date in dates)


class RecurrenceFields(forms.Form):
    """Mixed into the event form: the fields of its "Repeat" section and the scope question."""

    repeat = forms.ChoiceField(
        label=_("Repeat"),
        required=False,
        choices=[
            ("", _("Does not repeat")),
            ("DAILY", _("Daily")),
            ("WEEKLY", _("Weekly")),
            ("MONTHLY", _("Monthly")),
            ("YEARLY", _("Yearly")),
        ],
    )
    repeat_interval = forms.IntegerField(
        label=_("Every"),
        min_value=1,
        max_value=999,
        initial=1,
        required=False,
        help_text=_("1: every day, week, month or year; 2: every other one…"),
    )
    repeat_weekdays = forms.MultipleChoiceField(
        label=_("On"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[(code, WEEKDAYS[index]) for index, code in enumerate(DAY_CODES)],
        help_text=_("Weekly: the days of the week; none: the start's day."),
    )
    repeat_monthly = forms.ChoiceField(
        label=_("Monthly on"),
        required=False,
        choices=[
            (DAY_OF_MONTH, _("the same day of the month")),
            (WEEKDAY_OF_MONTH, _("the same weekday (e.g. the second Tuesday)")),
            (LAST_WEEKDAY, _("the last such weekday of the month")),
        ],
    )
    repeat_end = forms.ChoiceField(
        label=_("Ends"),
        required=False,
        widget=forms.RadioSelect,
        choices=[(NEVER, _("Never")), (ON_DATE, _("On a date")), (AFTER, _("After a number of times"))],
        initial=NEVER,
    )
    repeat_until = forms.DateField(label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    repeat_count = forms.IntegerField(label=_("Number of times"), min_value=1, required=False)
    repeat_dates = forms.CharField(
        label=_("Extra dates"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 30}),
        help_text=_("One per line, “2027-02-14 19:00” in the event's time zone."),
    )
    repeat_exclusions = forms.CharField(
        label=_("Excluded dates"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 30}),
        help_text=_("One per line: starts the series skips."),
    )
    recurrence_scope = forms.ChoiceField(
        label=_("Apply the changes to"),
        required=False,
        widget=forms.RadioSelect,
        initial=recurrence.THIS,
        choices=[
            (recurrence.THIS, _("this occurrence only")),
            (recurrence.FOLLOWING, _("this and the following occurrences")),
            (recurrence.ALL, _("all occurrences")),
        ],
    )


def initial_from_series(event):
    """The section's initial values from the event's series (its first rule, dates and exclusions)."""
    series = event.series if event.series_id is not None else None
    if series is None:
        return {}
    initial = {
        "repeat_dates": _dates_text(recurrence.Recurrence.of(series).dates),
        "repeat_exclusions": _dates_text(recurrence.Recurrence.of(series).exclusions),
        "repeat_end": NEVER,
    }
    if not series.rules:
        return initial
    parts = recurrence.rule_parts(series.rules[0])
    initial["repeat"] = parts.get("FREQ", "")
    initial["repeat_interval"] = int(parts.get("INTERVAL", "1") or 1)
    days = parts.get("BYDAY", "")
    if initial["repeat"] == "WEEKLY":
        initial["repeat_weekdays"] = [day for day in days.split(",") if day in DAY_CODES]
    elif initial["repeat"] == "MONTHLY":
        initial["repeat_monthly"] = (
            LAST_WEEKDAY if days.startswith("-1") else WEEKDAY_OF_MONTH if days else DAY_OF_MONTH
        )
    if "COUNT" in parts:
        initial["repeat_end"], initial["repeat_count"] = AFTER, int(parts["COUNT"])
    elif "UNTIL" in parts:
        initial["repeat_end"] = ON_DATE
        until = recurrence.utc_until(f"UNTIL={parts['UNTIL']}", dt.UTC).split("=", 1)[1]
        moment = dt.datetime.strptime(until, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC)
        initial["repeat_until"] = moment.astimezone(recurrence.zone_for(event.timezone_name)).date()
    return initial


def rule_from_form(data, start):
    """The RRULE the section's fields say, for a series starting at `start` (a wall clock)."""
    frequency = data.get("repeat")
    if not frequency:
        return None
    parts = {"FREQ": frequency}
    if (data.get("repeat_interval") or 1) > 1:
        parts["INTERVAL"] = str(data["repeat_interval"])
    day = DAY_CODES[start.weekday()]
    if frequency == "WEEKLY" and data.get("repeat_weekdays"):
        parts["BYDAY"] = ",".join(code for code in DAY_CODES if code in data["repeat_weekdays"])
    elif frequency == "MONTHLY" and data.get("repeat_monthly") == WEEKDAY_OF_MONTH:
        parts["BYDAY"] = f"{(start.day - 1) // 7 + 1}{day}"
    elif frequency == "MONTHLY" and data.get("repeat_monthly") == LAST_WEEKDAY:
        parts["BYDAY"] = f"-1{day}"
    if data.get("repeat_end") == AFTER and data.get("repeat_count"):
        parts["COUNT"] = str(data["repeat_count"])
    elif data.get("repeat_end") == ON_DATE and data.get("repeat_until"):
        # A date alone: the service reads it as the whole of that day on the event's clock.
        parts["UNTIL"] = data["repeat_until"].strftime("%Y%m%d")
    return recurrence.rule_text(parts)


def recurrence_from_form(data, start):
    """The service's `recurrence` value from the section, or None for "does not repeat"."""
    rule = rule_from_form(data, start)
    dates = [line.strip() for line in (data.get("repeat_dates") or "").splitlines() if line.strip()]
    exclusions = [line.strip() for line in (data.get("repeat_exclusions") or "").splitlines() if line.strip()]
    if rule is None and not dates:
        return None
    return {"rules": [rule] if rule else [], "dates": dates, "exclusions": exclusions}


def next_dates(event, count=10):
    """A preview of the series' next starts on the event's clock, for the form (empty outside a series)."""
    if event.pk is None or event.series_id is None:
        return []
    series = Series.objects.filter(pk=event.series_id).first()
    if series is None:
        return []
    first = type(event).objects.get(pk=event.series_id)
    try:
        starts = recurrence.expand(recurrence.Recurrence.of(series), first, recurrence.horizon(first))
    except InvalidValue:
        return []
    today = wall_clock(event.start_local) if event.start_local else None
    return [start for start in starts if today is None or start >= today][:count]


class SeriesListFilter(admin.SimpleListFilter):
    """Events in a series or not, or the occurrences of one series (`?series=<first occurrence ID>`)."""

    title = _("series")
    parameter_name = "series"

    def lookups(self, request, model_admin):
        return [("any", _("In a series")), ("none", _("Not in a series"))]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "any":
            return queryset.exclude(series=None)
        if value == "none":
            return queryset.filter(series=None)
        if value and value.isdigit():
            return queryset.filter(series_id=int(value))
        return queryset


def series_mark(event):
    """The changelist's mark of an occurrence: its place in the series, linking to the whole series."""
    if event.series_id is None:
        return ""
    return format_html(
        '<a href="?series={}" title="{}">↻ {}</a>',
        event.series_id,
        _("Show the whole series"),
        event.series_position or "",
    )
