"""The write rules every post kind (event, venue, organizer) shares: author, texts, image, status, trash and slug."""

from .. import roles
from ..exceptions import InvalidValue, NotPermitted
from ..html_shape import check_html
from ..kses import filter_post_html, filter_title_html
from ..models import PostStatus
from ..text import sanitize_title
from .images import ImageImportError, import_image_from_url
from .languages import translated_values, write_translated
from .locks import lock_until_commit
from .slugs import TRASHED_SUFFIX, assign_post_slug, slug_is_taken, trashed_slug, unique_slug, waits_for_slug

# What authors and contributors may keep of each text's HTML (WordPress's kses, decisions.md).
HTML_FILTERS = {"title": filter_title_html, "description": filter_post_html, "excerpt": filter_post_html}
# Stored as given: fields only the admin edits.
PLAIN_FIELDS = ("password",)


def caller_id(user):
    return user.pk if user is not None and user.is_authenticated else None


def check_author(record, user, fields, creating):
    """Only callers who may edit others' records may make someone else the author (docs/contract/auth.md §3.1, Recommended)."""
    if "author" not in fields:
        return
    author_id = fields["author"]
    unchanged = not creating and author_id == record.author_id
    if author_id != caller_id(user) and not unchanged and not roles.has_right(user, record.KIND, roles.EDIT_OTHERS):
        raise NotPermitted()


def apply_author(record, user, fields, creating):
    """The author given (check_author() allowed it), else the caller for a new record."""
    if "author" in fields:
        record.author_id = fields["author"]
    elif creating:
        record.author_id = caller_id(user)


def write_html_text(record, user, fields, name, creating):
    """A title, description or excerpt, in one language or several: its HTML within the caps of
    events.html_shape (InvalidValue past them), filtered unless the caller may write it unfiltered;
    a new record's text not given is empty."""
    if name in fields:
        values = fields[name] or ""
        # Unfiltered HTML is capped too: every page, feed and export that shows it parses it again.
        for text in translated_values(values).values():
            check_html(name, text or "")
        if not roles.may_write_unfiltered_html(user):
            html_filter = HTML_FILTERS[name]
            values = {language: html_filter(text or "") for language, text in translated_values(values).items()}
        write_translated(record, name, values, creating)
    elif creating:
        write_translated(record, name, "", creating)


def apply_plain_fields(record, fields, names=PLAIN_FIELDS):
    for name in names:
        if name in fields:
            setattr(record, name, fields[name])


def apply_image(record, fields, user, imported):
    """The image chosen (an ImageChoice): kept, removed, or imported from its URL into `imported`."""
    if "image" not in fields:
        return
    choice = fields["image"]
    if choice is None or choice.removes:
        record.image = None
    elif choice.attachment is not None:
        record.image = choice.attachment
    else:
        try:
            attachment = import_image_from_url(choice.import_url, user)
        except ImageImportError as error:
            raise InvalidValue("image", error.reason) from error
        imported.append(attachment)
        record.image = attachment


def apply_status(record, user, fields, creating, now, reschedule):
    """The status a write gives: scaled to the caller's rights, then, when `reschedule`, `publish`
    or `future` by the publication date (docs/contract/events.md §4.1); into or out of the trash as WordPress
    moves records. True when this write moves the record to the trash."""
    kind = record.KIND
    if "status" in fields:
        status = roles.scaled_status(user, kind, fields["status"])
    elif creating:
        status = roles.default_status(user, kind)
    else:
        status = record.status
    if reschedule:
        status = roles.scheduled_status(status, record.date, now)
    was_trashed = not creating and record.status == PostStatus.TRASH
    if status == PostStatus.TRASH and not was_trashed:
        move_to_trash(record)
        return True
    if was_trashed and status != PostStatus.TRASH:
        _restore_slug(record)
        record.status_before_trash = ""
    record.status = status
    return False


def move_to_trash(record):
    """Trash like WordPress: remember the status and the slug, and suffix the slug so that another
    record may take it."""
    record.status_before_trash = record.status
    record.slug_before_trash = record.slug
    record.slug = trashed_slug(record.slug)
    record.status = PostStatus.TRASH


def _restore_slug(record):
    """Leaving the trash gives the record its old slug back, made unique again (WordPress convention)."""
    wanted = record.slug_before_trash or record.slug.removesuffix(TRASHED_SUFFIX)
    record.slug_before_trash = ""
    lock_slug(record, wanted)
    record.slug = unique_slug(wanted, lambda slug: slug_is_taken(type(record), slug, record.pk))


def apply_slug(record, fields):
    """docs/contract/README.md §6: an explicit slug is sanitised (and made unique unless the record is an event
    draft); a record without one, or given an empty one, gets one from its title, unless it waits
    for it (event drafts)."""
    if record.status == PostStatus.TRASH:
        return
    requested = fields.get("slug") or None
    if requested is None:
        if record.slug and "slug" not in fields:
            return
        record.slug = ""
    lock_slug(record, sanitize_title(requested if requested is not None else (record.title_en or record.title or "")))
    assign_post_slug(record, requested)


def slug_from_id_if_none(record):
    """A saved title with nothing sluggable in it: WordPress falls back to the post ID."""
    if record.slug or record.status == PostStatus.TRASH or waits_for_slug(record):
        return
    record.slug = unique_slug(str(record.pk), lambda slug: slug_is_taken(type(record), slug, record.pk))
    record.save(update_fields=["slug"])


def lock_slug(record, base):
    """Serialise slug choice per kind and base slug until commit, so concurrent writes of one title
    get -2, -3... Post slugs carry no unique constraint (event drafts may share explicit slugs)."""
    if base:
        lock_until_commit(record.KIND, base)
