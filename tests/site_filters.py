"""A site's own FilterSets, as docs/install.md ("Extending list filters") shows: named by the
EVENTS["FILTERSETS"] setting in tests/test_filtersets.py."""

import django_filters
from django.db.models import Q

from events.exceptions import InvalidValue
from events.queries import params
from events.queries.filtersets import EventFilterSet, ValueParameter, VenueFilterSet

# The values the `from_id` parser read (each value is read once per request).
parsed_values = []


def record_id(name, value):
    parsed_values.append(value)
    number = params.parse_record_id(value)
    if number is None:
        raise InvalidValue(name)
    return number


class AllDayEventFilterSet(EventFilterSet):
    # A plain django-filter filter: its form field reads the value.
    all_day = django_filters.BooleanFilter(label="Only all-day events (true) or only timed ones (false).")
    # A filter read and refused the way the app's own are: a ValueParameter and its parser.
    from_id = ValueParameter(
        parse=record_id,
        field_name="pk",
        lookup_expr="gte",
        wire_type="integer",
        help_text="Only events whose ID is at least this one.",
    )


class CityVenueFilterSet(VenueFilterSet):
    city = django_filters.CharFilter(method="filter_city", label="Only venues in this city.")

    def filter_city(self, queryset, name, value):
        return queryset.filter(Q(city__iexact=value))
