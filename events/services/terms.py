"""Category and tag writes as WordPress makes them: name sanitising, slug rules, duplicates, deletion."""
import re

from django.db import transaction
from django.db.models import F, Q, TextField, Value
from django.db.models.functions import Coalesce, NullIf
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from modeltranslation.settings import AVAILABLE_LANGUAGES
from modeltranslation.utils import build_localized_fieldname

from ..api import errors
from ..api.parsing import split_list
from ..models import Taxonomy, Term
from ..text import escape_html, sanitize_text_field, sanitize_title
from .slugs import assign_term_slug

# Marks a field an update leaves alone (None is a meaningful parent: top level).
UNCHANGED = object()

_QUOTE = re.compile(r"""(["'])""")
NAME_MAX_LENGTH = Term._meta.get_field("name").max_length


def term_exists(taxonomy, existing_id):
    if taxonomy == Taxonomy.CATEGORY:
        message = _("A term with the name provided already exists with this parent.")
    else:
        message = _("A term with the name provided already exists in this taxonomy.")
    return errors.ApiError("term_exists", message, 400, term_id=existing_id)


def duplicate_term_slug(slug):
    return errors.ApiError(
        "duplicate_term_slug", _("The slug “%(slug)s” is already in use by another term.") % {"slug": slug}, 400
    )


def not_hierarchical():
    return errors.ApiError("rest_taxonomy_not_hierarchical", _("Can not set resource parent, taxonomy is not hierarchical."), 400)


def cannot_delete():
    return errors.ApiError("rest_cannot_delete", _("The term cannot be deleted."), 500)


def sanitize_term_name(value):
    """WordPress's `pre_term_name` filters: plain text, `&` (and `<`, `>`) as entities, quotes kept."""
    text = sanitize_text_field(str(value))
    return "".join(part if _QUOTE.fullmatch(part) else escape_html(part) for part in _QUOTE.split(text))


def clean_name(value, param="name"):
    """The name as it will be stored; 400 when nothing is left of it or it does not fit the column."""
    name = sanitize_term_name(value)
    if not name:
        raise errors.invalid_param(param)
    if len(name) > NAME_MAX_LENGTH:
        reason = _("%(param)s is longer than %(max)s characters.") % {"param": param, "max": NAME_MAX_LENGTH}
        raise errors.invalid_param(param, reason)
    return name


def localized_text(field):
    """`field` in the active language, falling back to English where that translation is empty."""
    english = build_localized_fieldname(field, "en")
    active = build_localized_fieldname(field, get_language() or "en")
    text = TextField()
    if active == english:
        return Coalesce(F(english), Value(""), output_field=text)
    return Coalesce(NullIf(F(active), Value(""), output_field=text), F(english), Value(""), output_field=text)


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


def _write_text(term, field, value, creating):
    """Write the active language; the first write also fills English so every language can fall back to it."""
    setattr(term, field, value)
    english = build_localized_fieldname(field, "en")
    if creating and not getattr(term, english):
        setattr(term, english, value)


def create_term(taxonomy, *, name, description=None, slug=None, parent=None):
    """A new term (terms.md §4). Raises 400 `term_exists` for a duplicate name at the same level."""
    name = clean_name(name)
    parent_id = parent.pk if parent is not None else None
    with transaction.atomic():
        existing = _name_match(taxonomy, name, parent_id)
        requested = sanitize_title(slug) if slug is not None else ""
        if existing is not None:
            # A distinct slug nobody uses lets the duplicate name in (WordPress convention).
            slug_used = Term.objects.filter(taxonomy=taxonomy, slug=requested).exists()
            slug_free = requested and requested != existing.slug and not slug_used
            if not slug_free:
                raise term_exists(taxonomy, existing.pk)
        term = Term(taxonomy=taxonomy, parent=parent)
        _write_text(term, "name", name, creating=True)
        _write_text(term, "description", description or "", creating=True)
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
    """Change only the given fields (terms.md §5). Raises 400 `duplicate_term_slug`."""
    with transaction.atomic():
        if name is not UNCHANGED:
            _write_text(term, "name", clean_name(name), creating=False)
        if description is not UNCHANGED:
            _write_text(term, "description", description, creating=False)
        parent_changed = False
        if parent is not UNCHANGED:
            if parent is not None and would_loop(term, parent):
                raise errors.invalid_param("parent")
            parent_changed = (parent.pk if parent is not None else None) != term.parent_id
            term.parent = parent
        if slug is not UNCHANGED:
            requested = sanitize_title(slug)
            if not requested:
                # An empty slug is derived from the name again, made unique.
                assign_term_slug(term)
            elif Term.objects.filter(taxonomy=term.taxonomy, slug=requested).exclude(pk=term.pk).exists():
                # WordPress lets a moved term take a suffixed slug, and refuses otherwise.
                if not parent_changed:
                    raise duplicate_term_slug(requested)
                assign_term_slug(term, requested)
            else:
                term.slug = requested
        term.save()
    return term


def delete_term(term):
    """Permanent deletion: links to events go, child categories move up to the term's parent."""
    with transaction.atomic():
        Term.objects.filter(parent_id=term.pk).update(parent_id=term.parent_id)
        term.events.clear()
        deleted, _rows = Term.objects.filter(pk=term.pk).delete()
    if not deleted:
        raise cannot_delete()


def resolve_terms(values, taxonomy):
    """The terms named by an event write's `categories`/`tags` (events.md §4, terms.md §7).

    Each value is a term ID, slug or name; unknown names and slugs become new terms (no manage-terms
    right needed), unknown numeric IDs are skipped, `""` or an empty list means none. The result
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
    terms = Term.objects.filter(taxonomy=taxonomy)
    if isinstance(item, float) and item.is_integer():
        item = int(item)
    text = str(item).strip()
    if not text:
        return None
    if text.isdigit():
        return terms.filter(pk=int(text)).first() if int(text) < 2**63 else None
    by_slug = terms.filter(slug__in={text, sanitize_title(text)}).order_by("pk").first()
    if by_slug is not None:
        return by_slug
    # Event writes never fail over a term: an overlong name is cut to fit.
    name = sanitize_term_name(text)[:NAME_MAX_LENGTH]
    if not name:
        return None
    by_name = terms.filter(same_name(name)).order_by("pk").first()
    if by_name is not None:
        return by_name
    term = Term(taxonomy=taxonomy)
    _write_text(term, "name", name, creating=True)
    _write_text(term, "description", "", creating=True)
    assign_term_slug(term)
    term.save()
    return term
