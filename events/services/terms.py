"""Category and tag writes as WordPress makes them: name sanitising, slug rules, duplicates, deletion, counts."""

import re
from collections.abc import Mapping

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from modeltranslation.settings import AVAILABLE_LANGUAGES
from modeltranslation.utils import build_localized_fieldname

from .. import pipeline
from ..exceptions import DELETE, CouldNotWrite, InvalidValue, SlugTaken, TermExists
from ..models import Taxonomy, Term
from ..numbers import is_ascii_digits
from ..queries.syntax import split_list
from ..text import escape_html, sanitize_text_field, sanitize_title
from .languages import translated_values, write_translated
from .locks import lock_until_commit
from .slugs import assign_term_slug

# Marks a field an update leaves alone (None is a meaningful parent: top level).
UNCHANGED = object()

_QUOTE = re.compile(r"""(["'])""")
NAME_MAX_LENGTH = Term._meta.get_field("name").max_length


def sanitize_term_name(value):
    """WordPress's `pre_term_name` filters: plain text, `&` (and `<`, `>`) as entities, quotes kept."""
    text = sanitize_text_field(str(value))
    return "".join(part if _QUOTE.fullmatch(part) else escape_html(part) for part in _QUOTE.split(text))


def clean_name(value, param="name"):
    """The name as it will be stored (per language for {language: name}); InvalidValue when nothing
    is left of it or it does not fit the column."""
    if isinstance(value, Mapping):
        names = {language: sanitize_term_name(text) if text else "" for language, text in value.items()}
        if not any(names.values()):
            raise InvalidValue(param)
        for name in names.values():
            _check_length(name, param)
        return names
    name = sanitize_term_name(value)
    if not name:
        raise InvalidValue(param)
    _check_length(name, param)
    return name


def _check_length(name, param):
    if len(name) > NAME_MAX_LENGTH:
        reason = _("%(param)s is longer than %(max)s characters.") % {"param": param, "max": NAME_MAX_LENGTH}
        raise InvalidValue(param, reason)


def same_name(name):
    """The term is called `name` (case-insensitive) in any language: a name names one term whatever the reader's language."""
    condition = Q()
    for language in AVAILABLE_LANGUAGES:
        condition |= Q(**{f"{build_localized_fieldname('name', language)}__iexact": name})
    return condition


def _name_match(taxonomy, name, parent_id, exclude_pk=None):
    """A term of the taxonomy with this name at the same level, or None."""
    candidates = Term.objects.filter(taxonomy=taxonomy).filter(same_name(name))
    if taxonomy == Taxonomy.CATEGORY:
        candidates = candidates.filter(parent_id=parent_id)
    if exclude_pk is not None:
        candidates = candidates.exclude(pk=exclude_pk)
    return candidates.order_by("pk").first()


def lock_term_choices(taxonomy):
    """Serialise, until commit, the writes that choose a new term's name or slug in `taxonomy`.

    The name and slug checks guard what the unique slug constraint alone would refuse with an
    error: under this lock a writer sees the term a concurrent one just made, and names it or
    steps around its slug. Terms are made rarely, so one lock per taxonomy costs nothing.
    """
    lock_until_commit("term", taxonomy)


def create_term(taxonomy, *, name, description=None, slug=None, parent=None, term=None):
    """A new term (docs/contract/terms.md §4). Raises TermExists for a duplicate name at the same level.

    `name` and `description` are one text (the active language's) or {language: text}. `term`, an
    unsaved Term, is the one to fill instead of a new one (the admin's form instance).
    """
    name = clean_name(name)
    parent_id = parent.pk if parent is not None else None
    with pipeline.unit():
        lock_term_choices(taxonomy)
        requested = sanitize_title(slug) if slug is not None else ""
        for given in dict.fromkeys(translated_values(name).values()):
            existing = _name_match(taxonomy, given, parent_id) if given else None
            if existing is None:
                continue
            # A distinct slug nobody uses lets the duplicate name in (WordPress convention).
            slug_used = Term.objects.filter(taxonomy=taxonomy, slug=requested).exists()
            slug_free = requested and requested != existing.slug and not slug_used
            if not slug_free:
                raise TermExists(taxonomy, existing.pk)
        term = term if term is not None else Term()
        term.taxonomy, term.parent = taxonomy, parent
        write_translated(term, "name", name, creating=True)
        write_translated(term, "description", description or "", creating=True)
        assign_term_slug(term, requested or None)
        term.save()
    return term


def would_loop(term, parent):
    """Whether making `parent` the parent of `term` puts `term` among its own ancestors."""
    seen, node = set(), parent
    while node is not None and node.pk not in seen:
        if node.pk == term.pk:
            return True
        seen.add(node.pk)
        node = node.parent
    return False


def update_term(term, *, name=UNCHANGED, description=UNCHANGED, slug=UNCHANGED, parent=UNCHANGED):
    """Change only the given fields (docs/contract/terms.md §5), the texts in one language or several as for
    create_term(). Raises SlugTaken for a slug another term has."""
    with pipeline.unit():
        if name is not UNCHANGED:
            write_translated(term, "name", clean_name(name), creating=False)
        if description is not UNCHANGED:
            write_translated(term, "description", description, creating=False)
        parent_changed = False
        if parent is not UNCHANGED:
            if parent is not None and would_loop(term, parent):
                raise InvalidValue("parent")
            parent_changed = (parent.pk if parent is not None else None) != term.parent_id
            term.parent = parent
        if slug is not UNCHANGED:
            lock_term_choices(term.taxonomy)
            requested = sanitize_title(slug)
            if not requested:
                # An empty slug is derived from the name again, made unique.
                assign_term_slug(term)
            elif Term.objects.filter(taxonomy=term.taxonomy, slug=requested).exclude(pk=term.pk).exists():
                # WordPress lets a moved term take a suffixed slug, and refuses otherwise.
                if not parent_changed:
                    raise SlugTaken(requested)
                assign_term_slug(term, requested)
            else:
                term.slug = requested
        term.save()
    return term


def delete_term(term):
    """Permanent deletion: links to events go, child categories move up to the term's parent."""
    with pipeline.unit():
        Term.objects.filter(parent_id=term.pk).update(parent_id=term.parent_id)
        term.events.clear()
        deleted, _rows = Term.objects.filter(pk=term.pk).delete()
    if not deleted:
        raise CouldNotWrite("term", DELETE)


def resolve_terms(values, taxonomy):
    """The terms named by an event write's `categories`/`tags` (docs/contract/events.md §4, docs/contract/terms.md §7).

    Each value is a term of the taxonomy, or its ID, slug or name; unknown names and slugs become
    new terms (no manage-terms right needed), unknown numeric IDs are skipped, `""` or an empty list means none. The result
    keeps the order given, without repeats.
    """
    items = [item for item in split_list(values) if not isinstance(item, (bool, list, dict)) and item is not None]
    found, seen = [], set()
    with transaction.atomic():
        for item in items:
            term = _resolve_one(item, taxonomy)
            if term is not None and term.pk not in seen:
                seen.add(term.pk)
                found.append(term)
    return found


def _resolve_one(item, taxonomy):
    if isinstance(item, Term):
        return item if item.taxonomy == taxonomy else None
    terms = Term.objects.filter(taxonomy=taxonomy)
    if isinstance(item, float) and item.is_integer():
        item = int(item)
    text = str(item).strip()
    if not text:
        return None
    if is_ascii_digits(text):
        return terms.filter(pk=int(text)).first() if int(text) < 2**63 else None
    # Event writes never fail over a term: an overlong name is cut to fit.
    name = sanitize_term_name(text)[:NAME_MAX_LENGTH]
    found = _named_term(terms, text, name)
    if found is None and name:
        # Only a write about to make a term waits for the others; it may find theirs now.
        lock_term_choices(taxonomy)
        found = _named_term(terms, text, name)
    if found is not None or not name:
        return found
    term = Term(taxonomy=taxonomy)
    write_translated(term, "name", name, creating=True)
    write_translated(term, "description", "", creating=True)
    assign_term_slug(term)
    term.save()
    return term


def _named_term(terms, text, name):
    """The term among `terms` that `text` names by slug, else by its sanitised `name`, or None."""
    by_slug = terms.filter(slug__in={text, sanitize_title(text)}).order_by("pk").first()
    if by_slug is not None or not name:
        return by_slug
    return terms.filter(same_name(name)).order_by("pk").first()
