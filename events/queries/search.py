"""What lets PostgreSQL answer a search from an index: each term's index condition over the record's
search documents (migrations 0015 and 0017), beside the exact substring test (docs/architecture-queries.md, "Search")."""

import re

from django.db import connections
from django.db.models import BooleanField, F, Func, Q, TextField
from django.utils.translation import get_language
from modeltranslation.settings import AVAILABLE_LANGUAGES
from modeltranslation.utils import build_localized_fieldname

FALLBACK_LANGUAGE = "en"
# The aliases with_documents() gives a queryset: the request language's document, and every language's.
DOCUMENT = "search_document"
EVERY_LANGUAGE_DOCUMENT = "search_document_every_language"
# Migration 0015's CJK_CHARACTERS: scripts written without spaces, indexed by character and pair.
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+")
# pg_trgm indexes runs of letters and digits; a pattern with three in a row gives it a trigram.
TRIGRAM_RUN = re.compile(r"[^\W_]{3}")
# CJK characters and pairs looked up for one term (a phrase of short Chinese words): any subset
# still keeps every text holding the term, and the lookups stay bounded.
MAX_GRAMS = 32


class ShownText(Func):
    """A translated column as the record shows it in a language: its text, else English's (localized_text)."""

    function = "events_shown_text"
    output_field = TextField()


class SearchDocument(Func):
    """The text a record's search looks in: its searched columns joined by spaces (migration 0015)."""

    function = "events_search_document"
    output_field = TextField()


class HasGrams(Func):
    """Whether the document holds every one of some CJK characters and pairs (migration 0015's events_cjk_grams)."""

    function = "events_cjk_grams"
    output_field = BooleanField()

    def __init__(self, document, grams):
        super().__init__(document)
        self.grams = list(grams)

    def as_sql(self, compiler, connection, **extra_context):
        sql, params = super().as_sql(compiler, connection, **extra_context)
        return f"{sql} @> %s::text[]", (*params, self.grams)


class HasShortGrams(Func):
    """Whether the document holds the characters and pairs of the term that events_short_term_grams
    picks (migration 0017): true of every document holding the term."""

    function = "events_short_grams"
    output_field = BooleanField()

    def __init__(self, document, term):
        super().__init__(document)
        self.term = term

    def as_sql(self, compiler, connection, **extra_context):
        sql, params = super().as_sql(compiler, connection, **extra_context)
        # The term's grams by the same upper() as the text's: a Python upper() differs (ß is SS).
        return f"{sql} @> events_short_term_grams(%s)", (*params, self.term)


def with_documents(queryset, translated, plain=()):
    """`queryset` with the search documents indexed() looks in, over `translated` columns (the
    migrations' order) and `plain` ones: the request language's, and every language's."""
    return queryset.alias(
        **{
            DOCUMENT: search_document(translated, plain),
            EVERY_LANGUAGE_DOCUMENT: every_language_document(translated, plain),
        }
    )


def every_language_document(translated, plain=()):
    """The SearchDocument of `translated` columns in every language (English, then the others by
    name, as migration 0017 orders them), then `plain` ones."""
    languages = sorted(AVAILABLE_LANGUAGES, key=lambda language: (language != FALLBACK_LANGUAGE, language))
    columns = [F(build_localized_fieldname(field, language)) for field in translated for language in languages]
    return SearchDocument(*columns, *(F(field) for field in plain))


def search_document(translated, plain=()):
    """The request language's SearchDocument of `translated` columns (the migration's order), then `plain` ones."""
    language = get_language() or FALLBACK_LANGUAGE
    parts = []
    for field in translated:
        english = F(build_localized_fieldname(field, FALLBACK_LANGUAGE))
        shown = build_localized_fieldname(field, language)
        parts.append(english if language == FALLBACK_LANGUAGE else ShownText(F(shown), english))
    return SearchDocument(*parts, *(F(field) for field in plain))


def cjk_grams(term):
    """The CJK characters (a lone one) and pairs (of longer runs) any text containing `term` holds."""
    grams = []
    for run in CJK_RUN.findall(term):
        grams.extend([run] if len(run) == 1 else (run[i : i + 2] for i in range(len(run) - 1)))
    return list(dict.fromkeys(grams))[:MAX_GRAMS]


def indexed(queryset, term):
    """A condition on with_documents()'s documents that every record containing `term` (case
    aside) meets and an index answers, or None on another database than PostgreSQL."""
    if connections[queryset.db].vendor != "postgresql" or not term.strip():
        return None
    if TRIGRAM_RUN.search(term):
        return Q(**{f"{DOCUMENT}__icontains": term})
    grams = cjk_grams(term)
    if grams:
        # Per language, so more selective than the short-term index for Chinese (bench/README.md, "Short terms").
        return HasGrams(F(DOCUMENT), grams)
    return HasShortGrams(F(EVERY_LANGUAGE_DOCUMENT), term)
