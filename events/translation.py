"""django-modeltranslation registrations: the text clients read in English, 简体 and 繁體."""

import inspect
from functools import cache

from django.utils.translation import get_language
from modeltranslation.fields import NONE, TranslationFieldDescriptor
from modeltranslation.translator import TranslationOptions, register
from modeltranslation.utils import build_localized_fieldname, fallbacks_enabled, resolution_order

from .models import Category, Event, Organizer, Tag, Term, Venue


class PostTranslationOptions(TranslationOptions):
    fields = ("title", "description", "excerpt")
    # Only English is required; empty translations fall back to it.
    required_languages = ()


@register(Event)
class EventTranslationOptions(PostTranslationOptions):
    pass


@register(Venue)
class VenueTranslationOptions(PostTranslationOptions):
    pass


@register(Organizer)
class OrganizerTranslationOptions(PostTranslationOptions):
    pass


# The proxies are registered too: their own _meta must learn the translated fields.
@register([Term, Category, Tag])
class TermTranslationOptions(TranslationOptions):
    fields = ("name", "description")
    required_languages = ()


def shown_text(record, name):
    """`record.<name>` (a translated field: its text in the active language, else in the first
    fallback language that has one), as modeltranslation's descriptor gives it, for renderers:
    they read thousands of texts a series, and the descriptor works out its languages on every
    read, which cost a sixth of rendering one (docs/architecture-store.md, "How it is kept true")."""
    language = get_language()
    if language is None:
        return getattr(record, name)
    attnames, undefined, none_shown = _reading(type(record), name, language, fallbacks_enabled())
    values = record.__dict__
    for attname in attnames:
        value = values[attname] if attname in values else getattr(record, attname, None)
        if value is not None and value != undefined:
            return value
    return none_shown


@cache
def _reading(model, name, language, fallbacks):
    """(the columns to read in order, the value that is no text, what to give when none has text)
    of the translated field `name` in `language`, as TranslationFieldDescriptor.__get__ decides."""
    descriptor = inspect.getattr_static(model, name)
    if not isinstance(descriptor, TranslationFieldDescriptor):
        raise TypeError(f"{model.__name__}.{name} is not a translated field")
    default = descriptor.field.get_default()
    undefined = default if descriptor.fallback_undefined is NONE else descriptor.fallback_undefined
    languages = resolution_order(language, descriptor.fallback_languages)
    none_shown = descriptor.fallback_value if fallbacks and descriptor.fallback_value is not NONE else default
    return tuple(build_localized_fieldname(name, code) for code in languages), undefined, none_shown
