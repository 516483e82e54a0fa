"""Translated fields written in the active language, or in several languages at once."""

from collections.abc import Mapping

from modeltranslation.utils import build_localized_fieldname, get_language


def translated_values(value):
    """{language: text} of a translated field's new value.

    A mapping is taken as it is (the admin edits every language side by side); one text is the
    active language's (an API write speaks the request's language).
    """
    if isinstance(value, Mapping):
        return dict(value)
    return {get_language(): value}


def write_translated(record, field, value, creating):
    """Write each language given; the first write also fills English, with the first text given,
    so that every language can fall back to it."""
    values = translated_values(value)
    for language, text in values.items():
        setattr(record, build_localized_fieldname(field, language), text)
    english = build_localized_fieldname(field, "en")
    if creating and not getattr(record, english):
        setattr(record, english, next((text for text in values.values() if text), ""))
