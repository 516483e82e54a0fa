"""Slugs as WordPress makes them: from the title, normalised, unique per record kind."""

from ..models import Event, PostStatus, Term
from ..text import SLUG_MAX_LENGTH, sanitize_title, truncate_post_slug, unique_slug

# WordPress leaves drafts without a slug until they are published (events only: the plugin
# generates venue and organizer slugs even for drafts).
UNSLUGGED_STATUSES = {PostStatus.DRAFT, PostStatus.PENDING}
# What WordPress appends to a trashed post's slug, which frees the slug for another record.
TRASHED_SUFFIX = "__trashed"


def waits_for_slug(record):
    """Whether the record stays without a generated slug for now (an event draft)."""
    return isinstance(record, Event) and record.status in UNSLUGGED_STATUSES


def slug_is_taken(model, slug, exclude_pk=None):
    taken = model.objects.filter(slug=slug)
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    return taken.exists()


def assign_post_slug(record, requested=None):
    """Set `record.slug` from `requested` (explicit) or the title, as WordPress would."""
    model = type(record)
    if requested is not None:
        slug = sanitize_title(requested)
        if waits_for_slug(record):
            # Explicit slugs of drafts are kept as given, without de-duplication.
            record.slug = slug
            return record.slug
    else:
        if record.slug and not record.slug.endswith(TRASHED_SUFFIX):
            return record.slug
        if waits_for_slug(record):
            record.slug = ""
            return record.slug
        slug = sanitize_title(record.title_en or record.title or "")
    record.slug = unique_slug(slug, lambda candidate: slug_is_taken(model, candidate, record.pk))
    return record.slug


def trashed_slug(slug):
    """`slug` with the trash suffix, shortened first so that the whole still fits the slug column
    (`wp_add_trashed_suffix_to_post_name_for_post`); the record keeps the whole slug for its restore."""
    if not slug or slug.endswith(TRASHED_SUFFIX):
        return slug
    return truncate_post_slug(slug, SLUG_MAX_LENGTH - len(TRASHED_SUFFIX)) + TRASHED_SUFFIX


def assign_term_slug(term, requested=None):
    base = sanitize_title(requested if requested is not None else (term.name_en or term.name or ""))
    siblings = Term.objects.filter(taxonomy=term.taxonomy)
    if term.pk is not None:
        siblings = siblings.exclude(pk=term.pk)
    term.slug = unique_slug(base, lambda candidate: siblings.filter(slug=candidate).exists())
    return term.slug
