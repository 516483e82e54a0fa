"""The parameter vocabulary: one parser per thing a request may name, for the API and the public feeds.

A parser takes a parameter's name and its raw value (a string, a number, a list or an object, as a
query string, a form or a JSON body gives it) and returns what the queries take, or raises
InvalidValue: WrongType when the value is not even of the parameter's type, NotOneOf when it is
none of the values the parameter allows. The API words each refusal as WordPress does
(events/api/parameters/fields.py); a public feed answers 400. Each list filter names its parser
(events/queries/filtersets.py).
"""

import math
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .. import dates, list_versions
from ..conf import events_settings
from ..exceptions import InvalidValue
from ..memory import memory
from ..models import Event, Taxonomy, Term
from ..numbers import is_ascii_digits, parse_int
from ..text import normalize_lookup_slug
from .syntax import split_list

# IDs beyond the 64-bit range cannot name a record; the databases refuse to compare with them.
MAX_RECORD_ID = 2**63 - 1
# Far above real use (decisions.md "Hardening"): each listed ID widens a query.
MAX_LIST_ITEMS = 500
# The values of the language parameter, in the order the index and the doc route publish them
# (docs/contract/discovery.md §1). Validation, dispatch and both documents read this one tuple.
LANGUAGE_CODES = ("zh-hans", "zh-hant", "en")


class WrongType(InvalidValue):
    """A value not even of the parameter's type (a list where a string belongs)."""


class NotOneOf(InvalidValue):
    """A value of the right type that is none of the values the parameter allows."""


# What list filters name (slugs, IDs), looked up once per version of the table they name.
_lookups = memory("filter-lookups", max_entries=1024)


def contains_nul(value):
    """Whether a parameter value holds a NUL character anywhere (nested objects and lists included).

    PostgreSQL cannot store or compare text holding NUL: such input is refused as an invalid
    parameter rather than failing in the database, on SQLite alike.
    """
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(contains_nul(key) or contains_nul(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return any(contains_nul(item) for item in value)
    return False


# --- scalars --------------------------------------------------------------------------------------


def text(name, value, *, non_empty=False, max_length=None, choices=None):
    """A string, non-empty if `non_empty`, at most `max_length` characters, one of `choices` if given."""
    if not isinstance(value, str):
        raise WrongType(name)
    if non_empty and value == "":
        raise InvalidValue(name)
    if max_length is not None and len(value) > max_length:
        raise InvalidValue(name, _("%(param)s is longer than %(max)s characters.") % {"param": name, "max": max_length})
    if choices is not None and value not in choices:
        raise NotOneOf(name)
    return value


def non_empty_text(name, value):
    return text(name, value, non_empty=True)


def language_code(name, value):
    """The language parameter: one of LANGUAGE_CODES."""
    return text(name, value, choices=LANGUAGE_CODES)


TRUE_WORDS = {"true", "1"}
FALSE_WORDS = {"false", "0"}


def boolean(name, value):
    """A JSON boolean, 0 or 1, or one of true/false/1/0 in any case, blanks around."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise WrongType(name)


def no_tickets(name, value):
    """`ticketed`: a boolean that cannot be true, since this calendar has no ticketing; false filters nothing."""
    if boolean(name, value):
        raise InvalidValue(
            name, _("Ticketing support is not active on this site, so events cannot be filtered by tickets.")
        )
    return False


def coordinate(limit, *, empty_clears=False):
    """A parser of a latitude (limit 90) or longitude (limit 180) in decimal degrees.

    With `empty_clears`, `null` and `""` are accepted as "no coordinate" (a venue's write fields).
    """

    def parse(name, value):
        if empty_clears and (value is None or value == ""):
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise InvalidValue(name)
        try:
            number = float(value)
        except ValueError:
            raise InvalidValue(name) from None
        if not math.isfinite(number) or not -limit <= number <= limit:
            raise InvalidValue(name)
        return number

    # Published in the OpenAPI document as the number's minimum and maximum.
    parse.limit = limit
    return parse


def date(name, value):
    """A date PHP's strtotime reads (the dates of the events list's window, a record's publication
    date), kept as written: whole-day widening needs what was written."""
    if isinstance(value, bool) or value in ("", None) or isinstance(value, (list, dict)):
        raise InvalidValue(name)
    try:
        dates.parse_date_input(value, timezone.get_default_timezone(), timezone.now())
    except (ValueError, OverflowError):
        raise InvalidValue(name) from None
    return value


# --- lists ----------------------------------------------------------------------------------------


def too_many(name, limit):
    return _("%(param)s names more than %(max)s items.") % {"param": name, "max": limit}


def items(name, value):
    """A list parameter's items: a JSON or bracket list, or a CSV string, of at most MAX_LIST_ITEMS."""
    found = split_list(value)
    if len(found) > MAX_LIST_ITEMS:
        raise InvalidValue(name, too_many(name, MAX_LIST_ITEMS))
    return found


def list_of(parse_items):
    """The parser of a list parameter whose items `parse_items(name, items)` reads."""

    def parse(name, value):
        return parse_items(name, items(name, value))

    return parse


# --- record IDs -----------------------------------------------------------------------------------


def positive_integer(value):
    """A positive integer from an int, an integral float or a digit string; None for anything else."""
    if isinstance(value, str):
        value = parse_int(value)
    elif isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def parse_record_id(value):
    """A record ID (a positive integer the databases can compare with), or None for anything else."""
    number = positive_integer(value)
    return number if number is not None and number <= MAX_RECORD_ID else None


def positive_ids(name, items):
    """`include`: every item a positive integer, whether or not a record has it."""
    ids = [positive_integer(item) for item in items]
    if any(record_id is None for record_id in ids):
        raise InvalidValue(name)
    return ids


def existing_ids(model, name, items):
    """Every item the ID of an existing record of `model`, checked in one query."""
    ids = positive_ids(name, items)
    wanted = {record_id for record_id in ids if record_id <= MAX_RECORD_ID}
    if len(wanted) != len(set(ids)):
        raise InvalidValue(name)
    if wanted and len(_existing(model, wanted)) != len(wanted):
        raise InvalidValue(name)
    return ids


def _existing(model, ids):
    return list_versions.recalled(
        _lookups,
        model,
        ("ids", model._meta.db_table, frozenset(ids)),
        lambda: frozenset(model.objects.filter(pk__in=ids).values_list("pk", flat=True)),
    )


def existing_record_id(queryset, name, value):
    """The ID of a record of `queryset`, whatever its status."""
    record_id = parse_record_id(value)
    if record_id is None or not queryset.filter(pk=record_id).exists():
        raise InvalidValue(name)
    return record_id


def existing_event_id(name, value):
    """The ID of an event, whatever its status (`23` with no such event is refused)."""
    return existing_record_id(Event.objects.all(), name, value)


def existing_category(name, value):
    """A category, by its ID; `0` and `""` are refused too, as the plugin's validator does."""
    term_id = parse_record_id(value)
    parent = Term.objects.filter(taxonomy=Taxonomy.CATEGORY, pk=term_id).first() if term_id else None
    if parent is None:
        raise InvalidValue(name)
    return parent


# --- slugs ----------------------------------------------------------------------------------------


def id_for_slug(model, segment, *, remembered=False):
    """The ID of the `model` record a by-slug path segment names, whatever its status, or None.

    docs/contract/README.md §6: the segment normalised like a WordPress slug, then an exact match (the lowest ID
    when drafts share a slug). `remembered`: looked up once per version of the model's table.
    """
    slug = normalize_lookup_slug(segment)
    if not slug:
        # An empty normalised slug must not match the drafts that have no slug yet.
        return None

    def lookup():
        return model.objects.filter(slug=slug).order_by("pk").values_list("pk", flat=True).first()

    if remembered:
        return list_versions.recalled(_lookups, model, ("slug", model._meta.db_table, slug), lookup)
    return lookup()


def record_id_for_slug(model, name, value, *, remembered=False):
    """A by-slug path segment as the ID of the `model` record it names (id_for_slug)."""
    if not isinstance(value, str):
        raise WrongType(name)
    record_id = id_for_slug(model, value, remembered=remembered)
    if record_id is None:
        raise InvalidValue(name)
    return record_id


# --- terms ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TermSelection:
    """Terms a list filter names: the items as the client wrote them, and the IDs of the terms they name.

    The contract reads the items two ways, `slug_first` or not:

    - slug first (docs/contract/events.md §2.1, the events list's `categories` and `tags`): an item names the
      term with that slug, as written or normalised as a by-slug segment is, else the term with
      that ID; any scalar item is read as text. These lookups are remembered per version of the
      terms table, as the events list's other lookups are.
    - ID first (docs/contract/terms.md §2, the term lists' `include` and `exclude`): an item of digits names the
      term with that ID, else the term whose slug is exactly the item; a non-integral number
      names nothing.
    """

    given: list
    ids: list

    @classmethod
    def parse(cls, taxonomy, name, items, *, slug_first):
        refused = (bool, list, dict) if slug_first else (bool, list, dict, float)
        if any(isinstance(item, refused) or item is None for item in items):
            raise InvalidValue(name)
        texts = [str(item).strip() for item in items]
        numbers = frozenset(int(text) for text in texts if is_ascii_digits(text) and 0 < int(text) <= MAX_RECORD_ID)
        slugs = frozenset(texts) | (
            frozenset(normalize_lookup_slug(text) for text in texts) if slug_first else frozenset()
        )

        def lookup():
            terms = Term.objects.filter(taxonomy=taxonomy).filter(Q(slug__in=slugs) | Q(pk__in=numbers))
            return tuple(terms.values_list("pk", "slug"))

        if slug_first:
            found = list_versions.recalled(_lookups, Term, ("terms", taxonomy, slugs, numbers), lookup)
        else:
            found = lookup()
        by_slug = {slug: pk for pk, slug in found}
        by_id = {pk for pk, _slug in found}
        ids = []
        for text in texts:
            by_number = int(text) if is_ascii_digits(text) and int(text) in by_id else None
            if slug_first:
                term_id = by_slug.get(text) or by_slug.get(normalize_lookup_slug(text)) or by_number
            else:
                term_id = by_number or by_slug.get(text)
            if term_id is None:
                raise InvalidValue(name)
            ids.append(term_id)
        return cls(given=texts, ids=ids)


# --- pages ----------------------------------------------------------------------------------------


def default_per_page():
    return events_settings.DEFAULT_PER_PAGE


def effective_per_page(requested):
    """`per_page` above the maximum is clamped silently (clients rely on it not being refused)."""
    return min(requested, events_settings.MAX_PER_PAGE)
