"""How every list applies its filters: each value, already validated, by the filter of its name."""
from django.core.validators import EMPTY_VALUES
from django.db.models import F, TextField, Value
from django.db.models.functions import Coalesce, NullIf
from django.utils.translation import get_language
from modeltranslation.utils import build_localized_fieldname


def apply_filters(queryset, filters, values):
    """`queryset` narrowed by each of `values` ({name: value}, in order) through `filters[name]`, a
    function of (queryset, value); different filters combine with AND, and an empty value (`""`,
    `[]`, None …) filters nothing (decisions.md, "Empty list filters")."""
    for name, value in values.items():
        if value in EMPTY_VALUES:
            continue
        queryset = filters[name](queryset, value)
    return queryset


def localized_text(field):
    """`field` in the active language, falling back to English where that translation is empty."""
    english = build_localized_fieldname(field, "en")
    active = build_localized_fieldname(field, get_language() or "en")
    text = TextField()
    if active == english:
        return Coalesce(F(english), Value(""), output_field=text)
    return Coalesce(NullIf(F(active), Value(""), output_field=text), F(english), Value(""), output_field=text)
