"""How every list applies its filters: each value, already validated, by the filter of its name,
and declares what its statement then reads."""

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


def reads_with_filters(reads, filter_reads, values):
    """What a list's statement reads: `reads` (a list_versions.Reads), and what each filter of
    `values` that filters anything (apply_filters) adds, `filter_reads[name]`."""
    for name, value in values.items():
        if name in filter_reads and value not in EMPTY_VALUES:
            reads = reads | filter_reads[name]
    return reads


def localized_text(field):
    """`field` in the active language, falling back to English where that translation is empty."""
    english = build_localized_fieldname(field, "en")
    active = build_localized_fieldname(field, get_language() or "en")
    text = TextField()
    if active == english:
        return Coalesce(F(english), Value(""), output_field=text)
    return Coalesce(NullIf(F(active), Value(""), output_field=text), F(english), Value(""), output_field=text)
