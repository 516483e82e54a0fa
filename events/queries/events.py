"""The events list: what each caller may list, its filters (WordPress search, links, geolocation) and its order."""

import math
import re
from functools import partial

from django.db.models import F, FloatField, Q, Value
from django.db.models.functions import ASin, Cos, Least, Power, Radians, Sin, Sqrt

from ..conf import events_settings
from ..exceptions import InvalidValue
from ..models import Event, EventOrganizer, Organizer, PostKind, Taxonomy, Venue
from . import params, search, visibility
from .filtering import localized_text
from .params import MAX_RECORD_ID, TermSelection

EARTH_RADIUS_KM = 6371.0088
KM_PER_DEGREE_OF_LATITUDE = 111.2


# --- what a caller lists, and in which order ------------------------------------------------------


def listable(user, requested_statuses=None):
    """A Q keeping the events `user` may list, in the statuses a `status` filter asked for (docs/contract/auth.md §2.2)."""
    statuses = visibility.listed_statuses(user, PostKind.EVENT, requested_statuses)
    return visibility.listable(user, PostKind.EVENT, statuses)


def listed(condition, queryset=None):
    """The events of `queryset` (all by default) that `condition` (listable()) keeps and lists show.

    Hidden events are readable singly but never listed, whatever the role (docs/contract/events.md §2.2).
    """
    queryset = Event.objects.all() if queryset is None else queryset
    return queryset.filter(condition).exclude(hide_from_listings=True)


def list_ordering(by_include=False):
    """The events list's order, the ID breaking ties: by start (wall clock, or UTC in `site` mode);
    a list of `include`d IDs by publication date (docs/contract/events.md §2.5)."""
    if by_include:
        return ("date", "id")
    if events_settings.TIMEZONE_MODE == "site":
        return ("start_utc", "id")
    return ("start_local", "id")


# --- search -------------------------------------------------------------------------------------

# WP_Query::parse_search(): quoted phrases, or runs of anything but spaces, quotes, commas and "+".
_SEARCH_TERM = re.compile(r'".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+')
SEARCH_STOPWORDS = frozenset(
    [
        "about",
        "an",
        "are",
        "as",
        "at",
        "be",
        "by",
        "com",
        "for",
        "from",
        "how",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "what",
        "when",
        "where",
        "who",
        "will",
        "with",
        "www",
    ]
)
# WP_Query::parse_search(): more terms than this, and the whole string is one phrase.
MAX_SEARCH_TERMS = 9
# WordPress has no length cap (MySQL scans anyway); an index's work grows with the pattern, so a
# search string is at most this long (docs/api.md, "Search").
MAX_SEARCH_LENGTH = 200


def search_text(name, value):
    """A `search` parameter: non-empty, at most MAX_SEARCH_LENGTH characters."""
    return params.text(name, value, non_empty=True, max_length=MAX_SEARCH_LENGTH)


def search_terms(text):
    """(word, excluded) pairs of a WordPress search string, as WP_Query::parse_search() reads it."""
    # Line breaks are dropped before anything else (a search box has none).
    text = text.replace("\r", "").replace("\n", "")
    raw = [match.group(0) for match in _SEARCH_TERM.finditer(text)]
    terms = []
    for term in raw:
        term = term.strip("\"'") if re.fullmatch(r'".+"', term) else term.strip("\"' ")
        # PHP's empty(): "0" is no term either.
        if term in ("", "0") or (len(term) == 1 and re.fullmatch(r"[a-z\-]", term, re.IGNORECASE)):
            continue
        if term.lower() in SEARCH_STOPWORDS:
            continue
        terms.append(term)
    # Only stopwords or short words, or a very long query: WordPress matches the whole sentence.
    if not terms or len(terms) > MAX_SEARCH_TERMS:
        terms = [text]
    # A leading "-" excludes the rest, even nothing (a sentence "-" excludes every record, as in WordPress).
    return [(term[1:], True) if term.startswith("-") else (term, False) for term in terms]


SEARCHED_FIELDS = ("title", "excerpt", "description")


# --- geolocation --------------------------------------------------------------------------------


def has_coordinates():
    """A venue "has coordinates" when both are set and non-zero (as Venue.has_coordinates reads it)."""
    return (
        Q(venue__geo_lat__isnull=False) & ~Q(venue__geo_lat=0) & Q(venue__geo_lng__isnull=False) & ~Q(venue__geo_lng=0)
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


# --- the list's parameters ----------------------------------------------------------------------

# What the events list's filters name, read as docs/contract/events.md §2.1 says (the API's declarations use them too).
category_selection = partial(TermSelection.parse, Taxonomy.CATEGORY, slug_first=True)
tag_selection = partial(TermSelection.parse, Taxonomy.TAG, slug_first=True)
venue_ids = partial(params.existing_ids, Venue)
organizer_ids = partial(params.existing_ids, Organizer)
latitude = params.coordinate(90)
longitude = params.coordinate(180)


def check_point(values):
    """`geoloc_lat` and `geoloc_lng` are one point: half of it cannot filter anything (the other half is missing)."""
    if ("geoloc_lat" in values) != ("geoloc_lng" in values):
        raise InvalidValue("geoloc_lng" if "geoloc_lat" in values else "geoloc_lat")


# --- the filters (events.queries.filtersets.EventFilterSet applies them) -----------------------


def searched(queryset, text):
    annotations = {f"searched_{field}": localized_text(field) for field in SEARCHED_FIELDS}
    queryset = search.with_documents(queryset.alias(**annotations), SEARCHED_FIELDS)
    for word, excluded in search_terms(text):
        found = Q()
        for field in SEARCHED_FIELDS:
            found |= Q(**{f"searched_{field}__icontains": word})
        if excluded:
            queryset = queryset.exclude(found)
            continue
        # Implied by `found`, so the results are the same: it only lets an index find the rows.
        narrowed = search.indexed(queryset, word)
        queryset = queryset.filter(found) if narrowed is None else queryset.filter(narrowed, found)
    return queryset


def with_terms(queryset, term_ids):
    links = Event.terms.through.objects.filter(term_id__in=term_ids).values("event_id")
    return queryset.filter(pk__in=links)


def with_organizers(queryset, organizer_ids):
    links = EventOrganizer.objects.filter(organizer_id__in=organizer_ids).values("event_id")
    return queryset.filter(pk__in=links)


def geolocated(queryset, wanted):
    return queryset.filter(has_coordinates()) if wanted else queryset.exclude(has_coordinates())


def near(queryset, point):
    lat, lng = point
    radius = float(events_settings.GEOLOC_RADIUS_KM)
    candidates = queryset.filter(has_coordinates() & bounding_box(lat, lng, radius))
    return candidates.alias(venue_distance_km=distance_km(lat, lng)).filter(venue_distance_km__lte=radius)


def included(queryset, ids):
    return queryset.filter(pk__in=[record_id for record_id in ids if record_id <= MAX_RECORD_ID])


def children(queryset, parent_id):
    # A series' occurrences have its first occurrence as parent; listing the series lists that one
    # too, as the plugin's recurrence add-on does (docs/recurrence.md).
    return queryset.filter(Q(post_parent_id=parent_id) | Q(series_id=parent_id))
