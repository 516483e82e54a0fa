"""Text the list filters compare: a translated column in the active language."""

from django.db.models import F, TextField, Value
from django.db.models.functions import Coalesce, NullIf
from django.utils.translation import get_language
from modeltranslation.utils import build_localized_fieldname


def localized_text(field):
    """`field` in the active language, falling back to English where that translation is empty."""
    english = build_localized_fieldname(field, "en")
    active = build_localized_fieldname(field, get_language() or "en")
    text = TextField()
    if active == english:
        return Coalesce(F(english), Value(""), output_field=text)
    return Coalesce(NullIf(F(active), Value(""), output_field=text), F(english), Value(""), output_field=text)
