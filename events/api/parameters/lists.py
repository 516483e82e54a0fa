"""The parameters of each list route, generated from its FilterSet (events.queries.filtersets).

A list route takes `page` and `per_page`, then one parameter per filter of the list's FilterSet, in
the FilterSet's order: the same declaration validates the request, feeds the namespace index and
the OpenAPI document, and filters the list. A value is read once, by the parser its filter names
(`FilterSet.parse_value`); the FilterSet then takes it typed.
"""

from functools import lru_cache

from django.utils.translation import gettext_lazy as _
from django_filters import filters as plain_filters
from rest_framework import serializers

from ...exceptions import InvalidValue
from ...queries import filtersets
from ...queries.params import default_per_page
from .fields import INVALID, BooleanParam, DateParam, ListParam, Params, PositiveIntegerParam, RawParam, StringParam
from .fields import status_filter as caller_status_filter

PER_PAGE_HELP = {
    "events": _("The number of events to return on each page (at most 50)."),
    "records": _("The number of records to return on each page (at most 50)."),
    "terms": _("The number of terms to return on each page (at most 50)."),
}


class FilterParamMixin:
    """A parameter read by its filter's parser (`FilterSet.parse_value`), its refusals worded as
    WordPress words them (WPParamMixin.parsed)."""

    def __init__(self, *args, filterset_class, openapi_schema=None, **kwargs):
        # Constructor arguments, not attributes set later: DRF copies a declared field by
        # constructing it again with them.
        self.filterset_class = filterset_class
        if openapi_schema is not None:
            self.openapi_schema = openapi_schema
        super().__init__(*args, **kwargs)

    def to_internal_value(self, data):
        return self.parsed(self.filterset_class.parse_value, data)


class FilterDateParam(FilterParamMixin, DateParam):
    pass


class FilterStringParam(FilterParamMixin, StringParam):
    pass


class FilterBooleanParam(FilterParamMixin, BooleanParam):
    pass


class FilterListParam(FilterParamMixin, ListParam):
    pass


class FilterRawParam(FilterParamMixin, RawParam):
    pass


# How a plain django-filter filter (a site's) is published: by its form field's kind.
PLAIN_WIRE_TYPES = (
    (plain_filters.BooleanFilter, "boolean"),
    (plain_filters.NumberFilter, "number"),
    (plain_filters.CharFilter, "string"),
)


def filter_param(filterset_class, declared):
    """The parameter declaration of one filter."""
    common = {"filterset_class": filterset_class, "help_text": declared.label or ""}
    if not isinstance(declared, filtersets.ParameterFilter):
        wire_type = next((wire for kind, wire in PLAIN_WIRE_TYPES if isinstance(declared, kind)), None)
        # Its form field reads the value: a value it refuses names no record, whatever its type.
        return FilterRawParam(wp_type=wire_type, server_checked=True, **common)
    if declared.default is not filtersets.NO_DEFAULT:
        common["default"] = declared.default
    wire = {"wp_type": declared.wire_type, "wp_format": declared.wire_format, "wp_items": declared.wire_items}
    wire = {name: value for name, value in wire.items() if value is not None}
    if isinstance(declared, filtersets.StatusParameter):
        # The statuses a caller may ask for depend on the caller: checked with the request.
        del common["filterset_class"]
        return ListParam(validator=caller_status_filter, **wire, **common)
    if declared.wire_schema is not None:
        common["openapi_schema"] = declared.wire_schema
    if isinstance(declared, filtersets.DateParameter):
        field = FilterDateParam(**common)
    elif isinstance(declared, filtersets.TextParameter):
        field = FilterStringParam(non_empty=declared.non_empty, max_length=declared.max_length, **common)
    elif isinstance(declared, filtersets.BooleanParameter):
        field = FilterBooleanParam(**common)
    elif isinstance(declared, filtersets.ListParameter):
        field = FilterListParam(parse=declared.parse, server_checked=declared.server_checked, **wire, **common)
    else:
        field = FilterRawParam(parse=declared.parse, server_checked=declared.server_checked, **wire, **common)
    return field


@lru_cache(maxsize=32)
def list_params(filterset_class, noun):
    """The Params class of a list route filtered by `filterset_class` (`noun` names its records in
    the `per_page` help: events, records or terms). One class per FilterSet class and noun: a site
    configures a few."""

    def validate(self, attrs):
        try:
            filterset_class.check_values(attrs)
        except InvalidValue as refused:
            detail = serializers.ErrorDetail(str(INVALID), code="invalid")
            raise serializers.ValidationError({refused.field: [detail]}) from None
        return attrs

    declared = {
        "kind": filterset_class.kind,
        "filterset_class": filterset_class,
        "page": PositiveIntegerParam(default=1, help_text=_("The page of results to return.")),
        "per_page": PositiveIntegerParam(default=default_per_page, help_text=PER_PAGE_HELP[noun]),
        **{name: filter_param(filterset_class, filter_) for name, filter_ in filterset_class.base_filters.items()},
        "validate": validate,
        "__module__": __name__,
    }
    return type(f"{filterset_class.__name__}Params", (Params,), declared)
