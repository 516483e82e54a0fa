"""What each write does to which record, learnt from the signals the rendering store learns from.

Per-record writes send Django's model signals; bulk writes (links, queryset updates) announce
themselves through events.changes, and every service ends with `changes.finished()`: the log needs
no hook in any service, and a new way in that keeps the store true keeps the log true too.
"""

from django.contrib.auth import get_user_model
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete

from .. import changes
from ..models import Attachment, Category, ChangeKind, Event, EventOrganizer, Organizer, PostStatus, Tag, Term, Venue
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
    append_pending,
    note,
    note_records_showing,
)

POSTS = {Event: ChangeKind.EVENT, Venue: ChangeKind.VENUE, Organizer: ChangeKind.ORGANIZER}
LINKS = {Venue: VENUE_LINK, Organizer: ORGANIZER_LINK, Term: TERM_LINK, Attachment: IMAGE_LINK}


def _kind_of(sender):
    for model, kind in POSTS.items():
        if issubclass(sender, model):
            return model, kind
    if issubclass(sender, Term):
        return Term, TERM
    return Attachment, None


def _post_action(instance, created):
    """created, trashed, restored or updated, from the status the record was read with."""
    before = instance.__dict__.get("status_as_loaded")
    after = instance.status
    instance.status_as_loaded = after
    if created:
        return CREATED
    if after == PostStatus.TRASH and before != PostStatus.TRASH:
        return TRASHED
    if before == PostStatus.TRASH and after != PostStatus.TRASH:
        return RESTORED
    return UPDATED


def _saved(sender, instance, created, using, update_fields=None, **kwargs):
    model, kind = _kind_of(sender)
    if model is Attachment:
        # An image changes the venues and organizers holding it and the events showing it or them.
        note(None, [instance.pk], UPDATED, using, linked=IMAGE_LINK)
        return
    if model is Term:
        note(
            TAXONOMY_KINDS[instance.taxonomy],
            [instance.pk],
            CREATED if created else UPDATED,
            using,
            linked=None if created else TERM_LINK,
        )
        if not created:
            note(TERM, Term.descendant_ids([instance.pk], using), UPDATED, using)
        return
    note(kind, [instance.pk], _post_action(instance, created), using, linked=None if created else LINKS.get(model))


def _deleting(sender, instance, using, **kwargs):
    model, _kind = _kind_of(sender)
    # The deletion rewrites the references to the record without signals: noted while they exist.
    note_records_showing(LINKS[model], [instance.pk], using)
    if model is Term:
        note(TERM, Term.descendant_ids([instance.pk], using), UPDATED, using)


def _deleted(sender, instance, using, **kwargs):
    model, kind = _kind_of(sender)
    if model is Attachment:
        return
    note(TAXONOMY_KINDS[instance.taxonomy] if model is Term else kind, [instance.pk], DELETED, using)


def _organizer_link_changed(sender, instance, using, **kwargs):
    note(ChangeKind.EVENT, [instance.event_id], UPDATED, using)


def _term_links_changed(sender, instance, action, reverse, pk_set, using, **kwargs):
    if not action.startswith("post_"):
        if action == "pre_clear" and reverse:
            note(ChangeKind.EVENT, instance.events.using(using).values_list("pk", flat=True), UPDATED, using)
        return
    if reverse:
        note(ChangeKind.EVENT, pk_set or (), UPDATED, using)
    else:
        note(ChangeKind.EVENT, [instance.pk], UPDATED, using)


def _author_deleting(sender, instance, using, **kwargs):
    """Deleting a user sets `author` to none on their records, without signals."""
    for model, kind in POSTS.items():
        note(
            kind, model.objects.using(using).filter(author_id=instance.pk).values_list("pk", flat=True), UPDATED, using
        )


def _records_changed(sender, ids, using, fields=None, **kwargs):
    model, kind = _kind_of(sender)
    if model is Attachment:
        note(None, ids, UPDATED, using, linked=IMAGE_LINK)
        return
    # A stored count follows the events' statuses (a derived number): the term's own record says
    # it, and the events that embed the term are not each notified of it (docs/decisions.md).
    count_only = fields is not None and set(fields) <= {"count"}
    note(kind, ids, UPDATED, using, linked=None if count_only else LINKS.get(model))
    if model is Term and (fields is None or {"slug", "parent", "parent_id"} & set(fields)):
        note(TERM, Term.descendant_ids(ids, using), UPDATED, using)


def _writes_finished(sender, using, **kwargs):
    append_pending(using)


def connect_receivers():
    """Note every write of the logged record kinds (from `ready`, after the store's receivers: the
    store renders at `finished()` before the log takes its lock, which it then holds until the commit)."""
    for model in (Event, Venue, Organizer, Attachment, Term, Category, Tag):
        name = model.__name__
        post_save.connect(_saved, sender=model, dispatch_uid=f"events.changelog.save.{name}")
        if model is not Event:
            pre_delete.connect(_deleting, sender=model, dispatch_uid=f"events.changelog.deleting.{name}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"events.changelog.delete.{name}")
    post_save.connect(
        _organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.changelog.organizer_link.save"
    )
    post_delete.connect(
        _organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.changelog.organizer_link.delete"
    )
    m2m_changed.connect(_term_links_changed, sender=Event.terms.through, dispatch_uid="events.changelog.term_links")
    pre_delete.connect(_author_deleting, sender=get_user_model(), dispatch_uid="events.changelog.author")
    changes.records_changed.connect(_records_changed, dispatch_uid="events.changelog.changed")
    changes.writes_finished.connect(_writes_finished, dispatch_uid="events.changelog.finished")
