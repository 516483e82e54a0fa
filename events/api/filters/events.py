"""The events list filters: the date window of events.md §2.2, WordPress search, links and geolocation."""
import datetime as dt
import math
import re
from dataclasses import dataclass

import django_filters
from django.db.models import F, FloatField, Q, Value
from django.db.models.functions import ASin, Cos, Least, Power, Radians, Sin, Sqrt
from django.utils import timezone

from .base import ValidatedFilterSet
from ... import dates
from ...conf import events_settings
from ...models import Event, EventOrganizer
from ..parsing import php_filter_bool
from ...services.terms import localized_text
from ..params import MAX_RECORD_ID

EARTH_RADIUS_KM = 6371.0088
KM_PER_DEGREE_OF_LATITUDE = 111.2
FIRST_SECOND = dt.datetime(1, 1, 1)
LAST_SECOND = dt.datetime(9999, 12, 31, 23, 59, 59)

# --- the date window ----------------------------------------------------------------------------

WINDOW_PARAMS = ("start_date", "end_date")
RELATIVE_PARAMS = ("starts_before", "starts_after", "ends_before", "ends_after")
# Which end of an event each bound looks at, and how it compares.
BOUND_RULES = {
    "start_date": ("start", "gte"),
    "end_date": ("end", "lte"),
    "starts_before": ("start", "lt"),
    "starts_after": ("start", "gt"),
    "ends_before": ("end", "lt"),
    "ends_after": ("end", "gt"),
}


@dataclass(frozen=True)
class Bound:
    name: str
    edge: str
    lookup: str
    # Wall-clock time in the site zone, as the bound is applied.
    value: dt.datetime


@dataclass(frozen=True)
class DateWindow:
    bounds: tuple
    strict: bool = False

    def echoed(self):
        """{param: value} for the list links: the bounds as applied.

        Strict bounds are written in UTC, which is how strict mode reads a value back, so that
        following `next_rest_url` selects the same events on sites outside UTC.
        """
        values = {}
        for bound in self.bounds:
            value = _in_utc(bound.value) if self.strict else bound.value
            values[bound.name] = dates.format_wp(value)
        return values

    def condition(self):
        """A Q comparing each bound with the events' wall clock (or UTC times in `site` mode)."""
        site_mode = events_settings.TIMEZONE_MODE == "site"
        condition = Q()
        for bound in self.bounds:
            if site_mode:
                column, value = f"{bound.edge}_utc", _in_utc(bound.value).replace(tzinfo=dt.UTC)
            else:
                # The wall-clock columns hold naive local times tagged as UTC.
                column, value = f"{bound.edge}_local", bound.value.replace(tzinfo=dt.UTC)
            condition &= Q(**{f"{column}__{bound.lookup}": value})
        return condition


def _clamped(compute):
    """Bounds beyond the calendar's range (year 9999 + one day) stick to its ends instead of failing."""
    try:
        return compute()
    except OverflowError:
        return None


def _in_utc(wall_clock):
    zone = timezone.get_default_timezone()
    converted = _clamped(lambda: wall_clock.replace(tzinfo=zone).astimezone(dt.UTC).replace(tzinfo=None))
    if converted is None:
        return LAST_SECOND if wall_clock.year > 1 else FIRST_SECOND
    return converted


def multiday_cutoff():
    hours, _, minutes = str(events_settings.MULTIDAY_CUTOFF or "00:00").partition(":")
    return dt.time(int(hours or 0), int(minutes or 0))


def _whole_day(name, value, now):
    """Inclusive mode: the calendar day of the value as written; start → its first second, others → its last."""
    parsed = dates.parse_date_input(value, timezone.get_default_timezone(), now)
    moment = parsed.local.astimezone(dt.UTC) if parsed.explicit_zone else parsed.local
    day = moment.date()
    if name == "start_date":
        return dates.day_start(day, cutoff=multiday_cutoff())
    end = _clamped(lambda: dates.day_end(day, cutoff=multiday_cutoff()))
    return end if end is not None else LAST_SECOND


def _exact(name, value, is_default, now):
    """Strict mode: the value converted to the site zone; a value without an offset is read as UTC."""
    zone = timezone.get_default_timezone()
    # The start default is already written in the site zone (the plugin would convert it again).
    read_in = zone if is_default and name == "start_date" else dt.UTC
    parsed = dates.parse_date_input(value, read_in, now)
    local = _clamped(lambda: parsed.local.astimezone(zone).replace(tzinfo=None))
    if local is None:
        return LAST_SECOND if parsed.local.year > 1 else FIRST_SECOND
    return local


def date_window(params, sent, now=None):
    """The bounds the list applies, from validated `params` and the names the client `sent`."""
    if params.get("include"):
        # `include` ignores every date filter (the Recommended rule of events.md §2.5).
        return DateWindow(bounds=())
    now = now or timezone.now()
    strict = php_filter_bool(params.get("strict_dates", "false"))
    relative = any(name in sent for name in RELATIVE_PARAMS)
    bounds = []
    for name in (*WINDOW_PARAMS, *RELATIVE_PARAMS):
        if name not in params or (relative and name not in sent):
            continue
        value, is_default = params[name], name not in sent
        applied = _exact(name, value, is_default, now) if strict else _whole_day(name, value, now)
        bounds.append(Bound(name, *BOUND_RULES[name], applied))
    return DateWindow(bounds=tuple(bounds), strict=strict)


# --- search -------------------------------------------------------------------------------------

# WP_Query::parse_search(): quoted phrases, or runs of anything but spaces, quotes, commas and "+".
_SEARCH_TERM = re.compile(r'".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+')
SEARCH_STOPWORDS = frozenset(
    "about an are as at be by com for from how in is it of on or that the this to was what when where who will with www".split()
)
MAX_SEARCH_TERMS = 9


def search_terms(text):
    """(word, excluded) pairs of a WordPress search string."""
    raw = [match.group(0) for match in _SEARCH_TERM.finditer(text)]
    terms = []
    for term in raw:
        term = term.strip("\"'") if re.fullmatch(r'".+"', term) else term.strip("\"' ")
        if not term or (len(term) == 1 and re.fullmatch(r"[a-z\-]", term, re.IGNORECASE)):
            continue
        if term.lower() in SEARCH_STOPWORDS:
            continue
        terms.append(term)
    # Only stopwords or short words, or a very long query: WordPress matches the whole sentence.
    if not terms or len(terms) > MAX_SEARCH_TERMS:
        terms = [text]
    pairs = []
    for term in terms:
        if term.startswith("-") and len(term) > 1:
            pairs.append((term[1:], True))
        else:
            pairs.append((term, False))
    return pairs


SEARCHED_FIELDS = ("title", "excerpt", "description")


# --- geolocation --------------------------------------------------------------------------------


def has_coordinates():
    """A venue "has coordinates" when both are set and non-zero (as Venue.has_coordinates reads it)."""
    return (
        Q(venue__geo_lat__isnull=False)
        & ~Q(venue__geo_lat=0)
        & Q(venue__geo_lng__isnull=False)
        & ~Q(venue__geo_lng=0)
    )


def bounding_box(lat, lng, radius_km):
    """A cheap rectangle around the circle, so the exact distance is computed for few rows."""
    delta_lat = radius_km / KM_PER_DEGREE_OF_LATITUDE
    box = Q(venue__geo_lat__gte=lat - delta_lat, venue__geo_lat__lte=lat + delta_lat)
    if abs(lat) + delta_lat >= 89.0:
        return box  # near a pole every longitude may be close
    delta_lng = delta_lat / math.cos(math.radians(abs(lat) + delta_lat))
    west, east = lng - delta_lng, lng + delta_lng
    if delta_lng >= 180:
        return box
    if west < -180:
        return box & (Q(venue__geo_lng__gte=west + 360) | Q(venue__geo_lng__lte=east))
    if east > 180:
        return box & (Q(venue__geo_lng__gte=west) | Q(venue__geo_lng__lte=east - 360))
    return box & Q(venue__geo_lng__gte=west, venue__geo_lng__lte=east)


def distance_km(lat, lng):
    """Great-circle (haversine) distance from the point to the event's venue, in SQL on both backends."""
    lat1, lng1 = math.radians(lat), math.radians(lng)
    lat2, lng2 = Radians(F("venue__geo_lat")), Radians(F("venue__geo_lng"))
    half_dlat = (lat2 - Value(lat1)) / Value(2.0)
    half_dlng = (lng2 - Value(lng1)) / Value(2.0)
    inner = Power(Sin(half_dlat), 2) + Value(math.cos(lat1)) * Cos(lat2) * Power(Sin(half_dlng), 2)
    # Rounding can push the haversine term a hair above 1, outside ASIN's domain.
    return Value(2 * EARTH_RADIUS_KM) * ASin(Sqrt(Least(inner, Value(1.0), output_field=FloatField())))


# --- from list parameters to FilterSet data -----------------------------------------------------

# List parameters the FilterSet takes as validated.
LISTED_FILTERS = ("search", "venue", "organizer", "featured", "geoloc", "include", "post_parent")


def filter_values(params, window):
    """The FilterSet's data from validated events list parameters (the API list's and the public feeds')."""
    values = {"window": window} if window is not None else {}
    for name in LISTED_FILTERS:
        if name in params:
            values[name] = params[name]
    for name in ("categories", "tags"):
        if name in params and params[name].ids:
            values[name] = params[name].ids
    if "geoloc_lat" in params:
        values["near"] = (params["geoloc_lat"], params["geoloc_lng"])
    return values


# --- the FilterSet ------------------------------------------------------------------------------


class EventFilterSet(ValidatedFilterSet):
    """Filters of `GET /events`; `data` holds already-validated parameter values."""

    window = django_filters.Filter(method="filter_window")
    search = django_filters.Filter(method="filter_search")
    categories = django_filters.Filter(method="filter_terms")
    tags = django_filters.Filter(method="filter_terms")
    venue = django_filters.Filter(field_name="venue_id", lookup_expr="in")
    organizer = django_filters.Filter(method="filter_organizer")
    featured = django_filters.Filter(field_name="featured")
    geoloc = django_filters.Filter(method="filter_geoloc")
    near = django_filters.Filter(method="filter_near")
    include = django_filters.Filter(method="filter_include")
    post_parent = django_filters.Filter(field_name="post_parent_id")

    class Meta:
        model = Event
        fields = []

    def filter_window(self, queryset, name, window):
        return queryset.filter(window.condition()) if window.bounds else queryset

    def filter_search(self, queryset, name, text):
        annotations = {f"searched_{field}": localized_text(field) for field in SEARCHED_FIELDS}
        queryset = queryset.alias(**annotations)
        for word, excluded in search_terms(text):
            found = Q()
            for field in SEARCHED_FIELDS:
                found |= Q(**{f"searched_{field}__icontains": word})
            queryset = queryset.exclude(found) if excluded else queryset.filter(found)
        return queryset

    def filter_terms(self, queryset, name, term_ids):
        links = Event.terms.through.objects.filter(term_id__in=term_ids).values("event_id")
        return queryset.filter(pk__in=links)

    def filter_organizer(self, queryset, name, organizer_ids):
        links = EventOrganizer.objects.filter(organizer_id__in=organizer_ids).values("event_id")
        return queryset.filter(pk__in=links)

    def filter_geoloc(self, queryset, name, wanted):
        return queryset.filter(has_coordinates()) if wanted else queryset.exclude(has_coordinates())

    def filter_near(self, queryset, name, point):
        lat, lng = point
        radius = float(events_settings.GEOLOC_RADIUS_KM)
        candidates = queryset.filter(has_coordinates() & bounding_box(lat, lng, radius))
        return candidates.alias(venue_distance_km=distance_km(lat, lng)).filter(venue_distance_km__lte=radius)

    def filter_include(self, queryset, name, ids):
        return queryset.filter(pk__in=[record_id for record_id in ids if record_id <= MAX_RECORD_ID])
