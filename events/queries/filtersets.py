"""The base of every FilterSet here: it filters values the parameter serializers already validated."""
import django_filters
from django_filters.constants import EMPTY_VALUES


class ValidatedFilterSet(django_filters.FilterSet):
    """A FilterSet whose `data` holds typed values, already validated by the route's `Params`.

    django-filter would deep-copy every filter, build a form class and clean each value again on
    every request: a few milliseconds per list, more than the rest of a stored list page costs.
    Here each filter is applied to its value as given; the filters themselves stay shared and are
    never changed (a `method` filter calls this FilterSet's method directly, not through the shared
    filter's `parent`, which another thread may have just set).
    """

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None):
        self.is_bound = data is not None
        self.data = data or {}
        self.queryset = queryset if queryset is not None else self._meta.model._default_manager.all()
        self.request = request
        self.form_prefix = prefix
        self.filters = self.base_filters

    @property
    def qs(self):
        if not hasattr(self, "_qs"):
            self._qs = self.filter_queryset(self.queryset.all())
        return self._qs

    def filter_queryset(self, queryset):
        for name, value in self.data.items():
            if value in EMPTY_VALUES:  # as django-filter: an empty value filters nothing
                continue
            declared = self.filters[name]
            if declared.method:
                queryset = getattr(self, declared.method)(queryset, declared.field_name, value)
            else:
                queryset = declared.filter(queryset, value)
        return queryset
