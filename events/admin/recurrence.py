"""The event form's recurrence section, written for people (not RRULE), the changelist's series mark and filter."""

import datetime as dt
import json

from django import forms
from django.contrib import admin
from django.db.models import Count
from django.utils.dates import WEEKDAYS
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from .. import dates as zones
from ..conf import events_settings
from ..dates import site_zone_name, wall_clock, zone_for
from ..exceptions import InvalidValue
from ..models import Event, PostStatus, Series
from ..recurrence_words import DAY_CODES, joined, rule_in_words
from ..services import recurrence
from ..services.schedule import set_event_times
from .widgets import WallClockField, zone_choices

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


# The interval's help for each frequency: recurrence_preview.js shows the chosen one's.
INTERVAL_HELP = {
    "DAILY": _("In days: 1 is every day, 2 every other day…"),
    "WEEKLY": _("In weeks: 1 is every week, 2 every other week…"),
    "MONTHLY": _("In months: 1 is every month, 2 every other month…"),
    "YEARLY": _("In years: 1 is every year, 2 every other year…"),
}


class IntervalInput(forms.NumberInput):
    """The interval's input, carrying its help for each frequency in the page's language."""

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        texts = {frequency: str(text) for frequency, text in INTERVAL_HELP.items()}
        context["widget"]["attrs"]["data-help-texts"] = json.dumps(texts, ensure_ascii=False)
        return context


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
        widget=IntervalInput,
        help_text=_("In days, weeks, months or years, as Repeat says: 1 is every one, 2 every other one…"),
    )
    # Without scripts every field of the section shows: those of another frequency say that they
    # are ignored, as rule_from_form ignores them.
    repeat_weekdays = forms.MultipleChoiceField(
        label=_("On"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[(code, WEEKDAYS[index]) for index, code in enumerate(DAY_CODES)],
        help_text=_("Weekly only (ignored otherwise): the days of the week; none: the start's day."),
    )
    repeat_monthly = forms.ChoiceField(
        label=_("Monthly on"),
        required=False,
        choices=[
            (DAY_OF_MONTH, _("the same day of the month")),
            (WEEKDAY_OF_MONTH, _("the same weekday (e.g. the second Tuesday)")),
            (LAST_WEEKDAY, _("the last such weekday of the month")),
        ],
        help_text=_("Monthly only (ignored otherwise)."),
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


def series_scope(event, chosen):
    """How far a save of `event` goes (services.recurrence's scope): the whole series on its first
    occurrence, which holds the series (docs/editors.md), as far as the editor chose on another
    occurrence (this one by default), and no scope outside a series."""
    if event.series_id is None:
        return None
    if event.series_id == event.pk:
        return recurrence.ALL
    return chosen or recurrence.THIS


def whole_series_note(first):
    """What saving a series' first occurrence changes, said above its form."""
    occurrences = Event.objects.filter(series_id=first.pk).exclude(status=PostStatus.TRASH)
    count = occurrences.count()
    # The first occurrence's own edits are not kept from anything: it is the series.
    kept = occurrences.exclude(pk=first.pk).exclude(series_edits=[]).count()
    note = ngettext(
        "This event is the first of a series of %(count)s occurrence: saving it changes all of them.",
        "This event is the first of a series of %(count)s occurrences: saving it changes all of them.",
        count,
    ) % {"count": count}
    details = [
        gettext(
            "What you change here (title, description, venue, categories, status…) is copied to every "
            "occurrence, whose dates follow the Repeat section; moving this event moves the whole series."
        )
    ]
    if kept:
        details.append(
            ngettext(
                "%(count)s occurrence keeps what was changed on it alone.",
                "%(count)s occurrences keep what was changed on them alone.",
                kept,
            )
            % {"count": kept}
        )
    # The admin writes a fieldset's description unescaped.
    return format_html("<p>{}</p><p>{}</p>", note, " ".join(details))


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
    try:
        return {**initial, **_rule_initial(event, recurrence.rule_parts(series.rules[0]))}
    except (ValueError, OverflowError):
        # A rule stored before the grammar refused it: the page still opens, the section empty; the
        # series keeps its rule until the section is filled in and saved.
        return initial


def _rule_initial(event, parts):
    initial = {}
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


BEFORE_THE_FIRST = _("The first occurrence starts after this date.")
# A series past MAX_OCCURRENCES_PER_SERIES, said on the field that would shorten it.
TOO_MANY = {
    "repeat_count": _("The series would have more than %(limit)s occurrences: choose a smaller number."),
    "repeat_until": _("The series would have more than %(limit)s occurrences: choose an earlier date."),
    "repeat_end": _(
        "The series would have more than %(limit)s occurrences: end it on a date or after a number of times."
    ),
    "repeat_dates": _("The series would have more than %(limit)s occurrences: give fewer dates."),
}


def section_refusal(data, first):
    """(form field, message) of what a save of the section as `data` (cleaned) would refuse, for a
    series starting as `first` (an Event, saved or not) does; None when it would save.

    The service words its refusals for API clients, in RRULE's terms (COUNT, UNTIL). The section's
    value is read here one part at a time, as the service reads it: the rule, the rule with its
    end, the extra dates, the exclusions, then the expansion. What was added when the service
    refused names the field, and where that leaves one meaning the form says it in its own words;
    the text of a refusal is never read."""
    start = wall_clock(first.start_local)
    value = recurrence_from_form(data, start)
    if value is None:
        return None
    rules = value["rules"]
    ending = {ON_DATE: "repeat_until", AFTER: "repeat_count"}.get(data.get("repeat_end"), "repeat_end")
    steps = []
    if rules:
        steps += [
            ("repeat", {"rules": [rule_from_form({**data, "repeat_end": NEVER}, start)]}, None),
            # The form's rule has one end, COUNT or UNTIL: an end date refused is one before the
            # first occurrence, a count refused is one past the limit of occurrences.
            (ending, {"rules": rules}, _ending_refusal(ending)),
        ]
    steps += [
        ("repeat_dates", {"rules": rules, "dates": value["dates"]}, None),
        ("repeat_exclusions", value, None),
    ]
    for field, read, message in steps:
        try:
            parsed = recurrence.parse_recurrence(read, first)
        except InvalidValue as refusal:
            return field, message or refusal.message
    try:
        recurrence.expand(parsed, first, made_until(parsed, first))
    except InvalidValue:
        # Expansion refuses a series past the limit of occurrences: the field that ends the series,
        # or its extra dates when they alone make it, shortens it.
        field = ending if rules else "repeat_dates"
        return field, TOO_MANY[field] % {"limit": events_settings.MAX_OCCURRENCES_PER_SERIES}
    return None


def _ending_refusal(ending):
    if ending == "repeat_until":
        return BEFORE_THE_FIRST
    if ending == "repeat_count":
        return TOO_MANY[ending] % {"limit": events_settings.MAX_OCCURRENCES_PER_SERIES}
    return None


def made_until(parsed, first):
    """How far a save makes a series (services.recurrence.materialise): all of a series that ends,
    an open-ended one up to the horizon, its first occurrence even past it."""
    if not parsed.open_ended:
        return None
    return max(recurrence.horizon(first), wall_clock(first.start_local))


def next_dates(event, count=10):
    """A preview of the series' next starts on the event's clock, for the form (empty outside a series)."""
    if event.pk is None or event.series_id is None:
        return []
    series = Series.objects.filter(pk=event.series_id).first()
    if series is None:
        return []
    first = type(event).objects.get(pk=event.series_id)
    try:
        parsed = recurrence.Recurrence.of(series)
        starts = recurrence.expand(parsed, first, made_until(parsed, first))
    except InvalidValue:
        return []
    today = wall_clock(event.start_local) if event.start_local else None
    return [start for start in starts if today is None or start >= today][:count]


def refuse_as_a_save_would(form):
    """Add to `form` (cleaned: the section, the event's start, zone and all day) the refusal a save
    of its section would meet, on the field it is about."""
    data = form.cleaned_data
    if "start" not in data or recurrence_from_form(data, data["start"]) is None:
        return
    try:
        first = set_event_times(
            Event(), data["start"], data["start"], data.get("timezone_name") or "", data.get("all_day")
        )
    except (OverflowError, ValueError):
        # A start at the calendar's very ends, past what the zone can convert: the save refuses it so.
        form.add_error("start", InvalidValue("start").message)
        return
    refused = section_refusal(data, first)
    if refused is not None:
        form.add_error(*refused)


# --- the live preview of the section (recurrence_preview.js asks EventAdmin.recurrence_preview_view) ---

PREVIEW_COUNT = 10
# The form's inputs the preview reads: the section, the start (date and time) and what places it in time.
PREVIEW_PARAMETERS = ("start_0", "start_1", "timezone_name", "all_day", *FORM_FIELDS)


class RecurrencePreviewForm(RecurrenceFields):
    """The event form's own fields that make a series (the section, the start, its zone, all day),
    cleaned as the event form cleans them, from the form's inputs sent as they are typed."""

    start = WallClockField(label=_("Start"))
    timezone_name = forms.ChoiceField(label=_("Time zone"), required=False)
    all_day = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.pop("recurrence_scope")
        # The event form offers a zone stored through the API ("UTC+5") too: any zone the service reads.
        typed = self.data.get("timezone_name") or ""
        self.fields["timezone_name"].choices = zone_choices(typed if zones.is_zone_name(typed) else "")

    def clean(self):
        cleaned = super().clean()
        refuse_as_a_save_would(self)
        return cleaned

    def error_texts(self):
        """The form's messages, each after the label of the field it is about."""
        return [
            f"{self.fields[name].label}: {message}" if name in self.fields else str(message)
            for name, messages in self.errors.items()
            for message in messages
        ]


def preview(data, count=PREVIEW_COUNT):
    """What saving the section as `data` (a cleaned RecurrencePreviewForm) would make, without
    writing: the series' first `count` starts on its clock and its rules in words. The same
    conversion as a save (recurrence_from_form) and the same reading and expansion as the service;
    InvalidValue says what a save would refuse, in the words the form would show."""
    value = recurrence_from_form(data, data["start"])
    if value is None:
        return {"repeats": False}
    first = set_event_times(Event(), data["start"], data["start"], data.get("timezone_name") or "", data["all_day"])
    parsed = recurrence.parse_recurrence(value, first)
    until = made_until(parsed, first)
    starts = recurrence.expand(parsed, first, until)
    zone_name = first.timezone_name or site_zone_name()
    zone = zone_for(first.timezone_name)
    listed = [(moment, moment.replace(tzinfo=zone)) for moment in starts[:count]]
    return {
        "repeats": True,
        "zone": zone_name,
        "heading": gettext("Next dates (%(zone)s)") % {"zone": zone_name},
        "rules": [rule_in_words(rule, zone) for rule in parsed.rules],
        "dates": [
            {"start": aware.isoformat(), "text": _preview_text(local, aware, first.all_day, zone_name)}
            for local, aware in listed
        ],
        "count": len(starts),
        "open_ended": parsed.open_ended,
        "summary": count_summary(
            len(starts), until if parsed.open_ended else None, count_reasons(parsed, first, until, starts)
        ),
    }


def count_reasons(parsed, first, until, starts):
    """Why a series has another number of occurrences than its rule says ("Every Tuesday, 6 times"
    and 5 in all): its exclusions that fall on an occurrence, its extra dates the rules do not give,
    and a first occurrence the rule skips (RFC 5545 counts it all the same; docs/recurrence.md)."""
    # Expanded again without the exclusions, then without the dates too: the same bound as a save,
    # plus the exclusions, which can take no more occurrences away than they number.
    limit = events_settings.MAX_OCCURRENCES_PER_SERIES + len(parsed.exclusions)
    with_dates = starts
    if parsed.exclusions:
        with_dates = recurrence.expand(recurrence.Recurrence(parsed.rules, parsed.dates, ()), first, until, limit)
    rules_only = with_dates
    if parsed.dates:
        rules_only = recurrence.expand(recurrence.Recurrence(parsed.rules, (), ()), first, until, limit)
    reasons = []
    if excluded := len(with_dates) - len(starts):
        reasons.append(ngettext("%(count)s excluded", "%(count)s excluded", excluded) % {"count": excluded})
    if extra := len(with_dates) - len(rules_only):
        reasons.append(ngettext("%(count)s extra date", "%(count)s extra dates", extra) % {"count": extra})
    counted = [recurrence.rule_parts(rule).get("COUNT", "") for rule in parsed.rules]
    if len(counted) == 1 and counted[0].isdigit() and len(rules_only) > int(counted[0]):
        reasons.append(gettext("the first occurrence, which the rule skips"))
    return reasons


def count_summary(count, until, reasons):
    """ "5 occurrences in all (1 excluded)."; an open-ended series' count up to `until`, the horizon."""
    values = {"count": count, "reasons": joined(reasons)}
    if until is not None:
        values["date"] = date_format(until.date(), "DATE_FORMAT")
        if reasons:
            return (
                ngettext(
                    "%(count)s occurrence until %(date)s (%(reasons)s), then more as time goes on.",
                    "%(count)s occurrences until %(date)s (%(reasons)s), then more as time goes on.",
                    count,
                )
                % values
            )
        return (
            ngettext(
                "%(count)s occurrence until %(date)s, then more as time goes on.",
                "%(count)s occurrences until %(date)s, then more as time goes on.",
                count,
            )
            % values
        )
    if reasons:
        return (
            ngettext("%(count)s occurrence in all (%(reasons)s).", "%(count)s occurrences in all (%(reasons)s).", count)
            % values
        )
    return ngettext("%(count)s occurrence in all.", "%(count)s occurrences in all.", count) % values


def _preview_text(local, aware, all_day, zone_name):
    """ "Sun 7 Nov 2027, 19:00 EST": the day as the changelist writes it, the abbreviation of that day."""
    # Translators: how a day is written in the admin's event list (PHP-style date format letters).
    day = date_format(local, gettext("D j M Y"))
    if all_day:
        return day
    abbreviation = zones.zone_abbreviation(zone_name, aware)
    # The abbreviation tells the dates before a daylight-saving change from those after it ("+08" tells nothing).
    time = f"{local:%H:%M} {abbreviation}" if abbreviation.isalpha() else f"{local:%H:%M}"
    return gettext("%(day)s, %(time)s") % {"day": day, "time": time}


def others_staying(firsts, leaving=()):
    """{first occurrence ID: how many other occurrences of its series stay on the calendar} for
    the series of `firsts` (first occurrences), not counting the events `leaving` (IDs)."""
    counts = (
        Event.objects.filter(series_id__in=[first.pk for first in firsts])
        .exclude(pk__in=[*leaving, *(first.pk for first in firsts)])
        .exclude(status=PostStatus.TRASH)
        # Without the model's ordering, which would group by it too.
        .order_by()
        .values("series_id")
        .annotate(count=Count("pk"))
    )
    return {row["series_id"]: row["count"] for row in counts}


def trashed_alone_message(first, count):
    return ngettext(
        "“%(title)s” is the first occurrence of a series and went to the trash alone: its %(count)s other "
        "occurrence stays. The series' rules wait with it in the trash (no new occurrences are made): "
        "restore it to change them. To trash a whole series, list it from its ↻ mark and select all of it.",
        "“%(title)s” is the first occurrence of a series and went to the trash alone: its %(count)s other "
        "occurrences stay. The series' rules wait with it in the trash (no new occurrences are made): "
        "restore it to change them. To trash a whole series, list it from its ↻ mark and select all of it.",
        count,
    ) % {"title": first.title, "count": count}


def deleted_first_message(first, count):
    return ngettext(
        "“%(title)s” was the first occurrence of a series: the series ended with it, and its %(count)s other "
        "occurrence stays, an event of its own.",
        "“%(title)s” was the first occurrence of a series: the series ended with it, and its %(count)s "
        "other occurrences stay, events of their own.",
        count,
    ) % {"title": first.title, "count": count}


def deleting_first_message(first, count):
    return ngettext(
        "“%(title)s” is the first occurrence of a series: deleting it ends the series, and its %(count)s "
        "other occurrence stays, an event of its own.",
        "“%(title)s” is the first occurrence of a series: deleting it ends the series, and its %(count)s "
        "other occurrences stay, events of their own.",
        count,
    ) % {"title": first.title, "count": count}


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
