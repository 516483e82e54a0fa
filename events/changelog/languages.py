"""The languages a change-log entry names: those whose translated text (events.translation: a post's
title, description and excerpt, a term's name and description) a write changed, compared with the
values the record was read with (kept in memory when it is instantiated: no statement). A language
that shows another's text by fallback is not named: its own text did not change.
"""

from functools import cache

from modeltranslation.fields import TranslationField
from modeltranslation.utils import get_language

NONE = frozenset()


@cache
def _translated(model):
    """(attname, language) of the model's translated columns."""
    return tuple(
        (field.attname, field.language) for field in model._meta.concrete_fields if isinstance(field, TranslationField)
    )


_AS_LOADED = "_texts_as_loaded"
_ABSENT = object()


def remember_texts(sender, instance, **kwargs):
    """The translated values a record is instantiated with (read from the database, or new)."""
    values = instance.__dict__
    instance.__dict__[_AS_LOADED] = {
        attname: values.get(attname, _ABSENT) for attname, _language in _translated(sender)
    }


def content_languages(instance):
    """The languages in which the record has text of its own."""
    values = instance.__dict__
    return frozenset(language for attname, language in _translated(type(instance)) if values.get(attname))


def changed_languages(instance, update_fields=None):
    """The languages whose text this save wrote differently from the values the record was read
    with (no text, NULL or empty, is one value); what was saved becomes what the next save compares
    with. A column not read then (deferred) counts as changed when written."""
    before = instance.__dict__.get(_AS_LOADED)
    if before is None:
        before = instance.__dict__[_AS_LOADED] = {}
    values, changed = instance.__dict__, set()
    for attname, language in _translated(type(instance)):
        if attname not in values or (update_fields is not None and attname not in update_fields):
            continue
        old = before.get(attname, _ABSENT)
        if old is _ABSENT or (old or "") != (values[attname] or ""):
            changed.add(language)
            before[attname] = values[attname]
    return frozenset(changed)


@cache
def _translated_names(model):
    return frozenset(
        field.translated_field.name for field in model._meta.concrete_fields if isinstance(field, TranslationField)
    )


def field_languages(model, fields):
    """The languages of the translated columns a bulk write names (none when it does not say); a
    field named without its language (`title`) writes the active language's column."""
    if not fields:
        return NONE
    languages = {language for attname, language in _translated(model) if attname in fields}
    if _translated_names(model) & set(fields):
        languages.add(get_language())
    return frozenset(languages)
