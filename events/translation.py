"""django-modeltranslation registrations: the text clients read in English, 简体 and 繁體."""

from modeltranslation.translator import TranslationOptions, register

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
