"""How every list applies its filters: each value, already validated, by the filter of its name."""
from django.core.validators import EMPTY_VALUES


def apply_filters(queryset, filters, values):
    """`queryset` narrowed by each of `values` ({name: value}, in order) through `filters[name]`, a
    function of (queryset, value); different filters combine with AND, and an empty value (`""`,
    `[]`, None …) filters nothing (decisions.md, "Empty list filters")."""
    for name, value in values.items():
        if value in EMPTY_VALUES:
            continue
        queryset = filters[name](queryset, value)
    return queryset
