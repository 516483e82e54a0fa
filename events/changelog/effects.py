"""What each write changes, learnt once from the writes' signals: the one set of receivers that
keeps the rendering store true (which rows to drop and render again) and fills the change log
(which entries to append), with the languages whose content changed.

A write changes its own record, and the records that show it:

- records holding a copy of it: the venues and organizers holding an image (inline in their
  record), the categories below a term (their record URLs hold its slug). Found when the write
  happens: the store drops their rows, the log notes them.
- events referring to it: the events showing a venue, organizers, terms or an image. Their stored
  rows hold references, joined at read time, so the store renders them again only when the
  record goes (the deletion rewrites the references without signals: found before it, while
  they exist); the log notes them on every change, looked up once per write when it appends
  (`events_showing`, for recording.py).

Per-record writes send Django's model signals; bulk writes (links, queryset updates) announce
themselves through events.changes, and every service ends with `changes.finished()`, where the
store renders what went stale and then the log appends (taking its lock last, held to the commit).
No service has a hook of its own: a new way in that sends these signals keeps both true.
"""

from functools import cache

from django.contrib.auth import get_user_model
from django.db.models.signals import m2m_changed, post_delete, post_init, post_save, pre_delete
from modeltranslation.fields import TranslationField
from modeltranslation.utils import get_language

from .. import changes, store
from ..models import Attachment, Category, ChangeKind, Event, EventOrganizer, Organizer, PostStatus, Tag, Term, Venue
from . import recording
from .recording import (
    CREATED,
    DELETED,
    IMAGE_LINK,
    ORGANIZER_LINK,
    RESTORED,
    TAXONOMY_KINDS,
    TERM,
    TERM_LINK,
    TRASHED,
    UPDATED,
    VENUE_LINK,
)

POSTS = (Event, Venue, Organizer)
# The change-log kind of each source model (a term's is its taxonomy's, TERM when only its ID is known).
LOG_KINDS = {Event: ChangeKind.EVENT, Venue: ChangeKind.VENUE, Organizer: ChangeKind.ORGANIZER, Term: TERM}
# What events show of each kind of record, and how an event refers to it.
LINKS = {Venue: VENUE_LINK, Organizer: ORGANIZER_LINK, Term: TERM_LINK, Attachment: IMAGE_LINK}
EVENT_LOOKUPS = {
    VENUE_LINK: "venue_id",
    ORGANIZER_LINK: "organizer_links__organizer_id",
    TERM_LINK: "terms__pk",
    IMAGE_LINK: "image_id",
}
NONE = frozenset()


# --- languages ------------------------------------------------------------------------------------
#
# An entry names the languages whose translated text (events.translation: a post's title,
# description and excerpt, a term's name and description) the write changed, compared with the
# values the record was read with (kept in memory when it is instantiated: no statement). A
# language that shows another's text by fallback is not named: its own text did not change.


@cache
def _translated(model):
    """(attname, language) of the model's translated columns."""
    return tuple(
        (field.attname, field.language) for field in model._meta.concrete_fields if isinstance(field, TranslationField)
    )


_AS_LOADED = "_texts_as_loaded"
_ABSENT = object()


def _remember_texts(sender, instance, **kwargs):
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


# --- which records a write changes ------------------------------------------------------------------


def _changed(model, ids, action, using, languages=NONE, shown=False, kind=None):
    """These records of `model` changed: the store drops their rows (rendered again at the write's
    end); the log notes them and, when `shown`, the events showing them (looked up when it appends)."""
    ids = [record_id for record_id in ids if record_id is not None]
    if not ids:
        return
    store.mark_stale(store.SOURCE_KINDS[model], ids, using)
    recording.note(
        kind or LOG_KINDS.get(model),
        ids,
        action,
        using,
        linked=LINKS.get(model) if shown else None,
        languages=languages,
    )


def _holders_changed(image_ids, using):
    """Venues and organizers carry their image inline: their records change with it."""
    for model in (Venue, Organizer):
        holders = model.objects.using(using).filter(image_id__in=image_ids).values_list("pk", flat=True)
        _changed(model, list(holders), UPDATED, using, shown=True)


def _descendants_changed(term_ids, using):
    """A category's record URL holds its ancestors' slugs."""
    _changed(Term, Term.descendant_ids(term_ids, using), UPDATED, using)


def events_showing(linked, using):
    """{event ID: languages} of the events showing one of the `linked` records ({VENUE_LINK: {ID:
    languages}, ...}), each with the languages changed in the records it shows: one statement per
    kind of link."""
    shown = {}
    events = Event.objects.using(using).order_by()
    for source, lookup in EVENT_LOOKUPS.items():
        records = linked.get(source)
        if records:
            rows = events.filter(**{f"{lookup}__in": list(records)}).values_list("pk", lookup).distinct()
            for event_id, record_id in rows:
                shown[event_id] = shown.get(event_id, NONE) | records[record_id]
    return shown


def _source_model(sender):
    for model in (*POSTS, Term, Attachment):
        if issubclass(sender, model):
            return model
    raise LookupError(sender)


def _post_action(instance, created):
    """created, trashed, restored or updated, from the status the record was read with."""
    before = instance.__dict__.get("status_in_database")
    after = instance.status
    if created:
        return CREATED
    if after == PostStatus.TRASH and before != PostStatus.TRASH:
        return TRASHED
    if before == PostStatus.TRASH and after != PostStatus.TRASH:
        return RESTORED
    return UPDATED


# --- the receivers ----------------------------------------------------------------------------------


def _saved(sender, instance, created, using, update_fields=None, **kwargs):
    model = _source_model(sender)
    if model is Attachment:
        _changed(Attachment, [instance.pk], UPDATED, using, shown=True)
        _holders_changed([instance.pk], using)
        return
    # A new, trashed or restored record changes in every language it has; an update in those it rewrote.
    languages = changed_languages(instance, update_fields)
    if model is Term:
        kind = TAXONOMY_KINDS[instance.taxonomy]
        if created:
            _changed(Term, [instance.pk], CREATED, using, content_languages(instance), kind=kind)
            return
        _changed(Term, [instance.pk], UPDATED, using, languages, shown=True, kind=kind)
        _descendants_changed([instance.pk], using)
        return
    action = _post_action(instance, created)
    if action != UPDATED:
        languages = content_languages(instance)
    _changed(model, [instance.pk], action, using, languages, shown=not created)


def _deleting(sender, instance, using, **kwargs):
    """What shows a record about to go: the deletion rewrites the references to it without
    signals, so the events showing it are found now, while the references exist."""
    model = _source_model(sender)
    # The events lose a link; their own text stays (no language), as when a trash unlinks them.
    _changed(Event, list(events_showing({LINKS[model]: {instance.pk: NONE}}, using)), UPDATED, using)
    if model is Attachment:
        _holders_changed([instance.pk], using)
    elif model is Term:
        _descendants_changed([instance.pk], using)


def _deleted(sender, instance, using, **kwargs):
    model = _source_model(sender)
    if model is Attachment:
        _changed(Attachment, [instance.pk], DELETED, using)
        return
    kind = TAXONOMY_KINDS[instance.taxonomy] if model is Term else None
    _changed(model, [instance.pk], DELETED, using, content_languages(instance), kind=kind)


def _organizer_link_changed(sender, instance, using, **kwargs):
    _changed(Event, [instance.event_id], UPDATED, using)


def _term_links_changed(sender, instance, action, reverse, pk_set, using, **kwargs):
    if not action.startswith("post_"):
        if action == "pre_clear" and reverse:
            _changed(Event, list(instance.events.using(using).values_list("pk", flat=True)), UPDATED, using)
        return
    _changed(Event, (pk_set or ()) if reverse else [instance.pk], UPDATED, using)


def _author_deleting(sender, instance, using, **kwargs):
    """Deleting a user sets `author` to none on their records, without signals."""
    for model in POSTS:
        _changed(
            model,
            list(model.objects.using(using).filter(author_id=instance.pk).values_list("pk", flat=True)),
            UPDATED,
            using,
        )


def _records_changed(sender, ids, using, fields=None, **kwargs):
    model = _source_model(sender)
    if model is Attachment:
        _changed(Attachment, ids, UPDATED, using, shown=True)
        _holders_changed(ids, using)
        return
    # A stored count follows the events' statuses (a derived number): the term's own record says
    # it, and the events that embed the term are not each notified of it (docs/decisions.md).
    count_only = fields is not None and set(fields) <= {"count"}
    _changed(model, ids, UPDATED, using, field_languages(model, fields), shown=not count_only)
    if model is Term and (fields is None or {"slug", "parent", "parent_id"} & set(fields)):
        _descendants_changed(ids, using)


def _records_made(sender, records, using, **kwargs):
    model = _source_model(sender)
    # Made in bulk (a series' occurrences), so no post_save said so: each is noted as the creation it
    # is, with the languages it has text in, whatever updates the same write noted for it before.
    by_languages = {}
    for record in records:
        by_languages.setdefault(content_languages(record), []).append(record.pk)
    for languages, ids in by_languages.items():
        # Only the log: the store has no rows of records just made, and renders these below.
        recording.note(LOG_KINDS.get(model), ids, CREATED, using, languages=languages)
    store.render_made(store.SOURCE_KINDS[model], records, using)


def _writes_finished(sender, using, **kwargs):
    # The store renders first; the log appends last, taking its lock, which it holds until the commit.
    store.flush(using)
    recording.append_pending(using)


def connect_receivers():
    """Follow every write of the records the store renders and the log lists (from `ready`)."""
    recording.look_up_showing(events_showing)
    for model in (*POSTS, Term, Category, Tag):
        post_init.connect(_remember_texts, sender=model, dispatch_uid=f"events.changes.texts.{model.__name__}")
    for model in (*POSTS, Attachment, Term, Category, Tag):
        name = model.__name__
        post_save.connect(_saved, sender=model, dispatch_uid=f"events.changes.save.{name}")
        if model is not Event:
            pre_delete.connect(_deleting, sender=model, dispatch_uid=f"events.changes.deleting.{name}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"events.changes.delete.{name}")
    post_save.connect(_organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.changes.organizer_link.save")
    post_delete.connect(
        _organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.changes.organizer_link.delete"
    )
    m2m_changed.connect(_term_links_changed, sender=Event.terms.through, dispatch_uid="events.changes.term_links")
    pre_delete.connect(_author_deleting, sender=get_user_model(), dispatch_uid="events.changes.author")
    changes.records_changed.connect(_records_changed, dispatch_uid="events.changes.changed")
    changes.records_made.connect(_records_made, dispatch_uid="events.changes.made")
    changes.writes_finished.connect(_writes_finished, dispatch_uid="events.changes.finished")
