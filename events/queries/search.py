"""What lets PostgreSQL answer a search from an index: each term's index condition over the record's
search document (migration 0014), beside the exact substring test (docs/architecture-queries.md, "Search")."""

import re

from django.db import connections
from django.db.models import BooleanField, F, Func, Q, TextField
from django.utils.translation import get_language
from modeltranslation.utils import build_localized_fieldname

FALLBACK_LANGUAGE = "en"
# Migration 0014's CJK_CHARACTERS: scripts written without spaces, indexed by character and pair.
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
    """The text a record's search looks in: its searched columns joined by spaces (migration 0014)."""

    function = "events_search_document"
    output_field = TextField()


class HasGrams(Func):
    """Whether the document holds every one of some CJK characters and pairs (migration 0014's events_cjk_grams)."""

    function = "events_cjk_grams"
    output_field = BooleanField()

    def __init__(self, document, grams):
        super().__init__(document)
        self.grams = list(grams)

    def as_sql(self, compiler, connection, **extra_context):
        sql, params = super().as_sql(compiler, connection, **extra_context)
        return f"{sql} @> %s::text[]", (*params, self.grams)


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


def indexed(queryset, alias, term):
    """A condition on the search document aliased `alias` that every record containing `term`
    (case aside) meets and an index answers, or None: no index helps (another database, or a term
    of one or two Latin letters, which every text has)."""
    if connections[queryset.db].vendor != "postgresql":
        return None
    if TRIGRAM_RUN.search(term):
        return Q(**{f"{alias}__icontains": term})
    grams = cjk_grams(term)
    if grams:
        return HasGrams(F(alias), grams)
    return None
