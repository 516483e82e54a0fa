"""What keeps the store true on every write: receivers of the model signals and of events.changes.

Per-record writes send Django's model signals; bulk writes (links, queryset updates) announce
themselves through events.changes. Each receiver marks the records whose rows the write changed.
"""

from django.contrib.auth import get_user_model
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete

from .. import changes
from ..models import Attachment, Category, Event, EventOrganizer, Organizer, Tag, Term, Venue
from .rows import EVENT, IMAGE, ORGANIZER, SOURCE_KINDS, TERM, VENUE
from .writes import flush, mark_stale


def _saved(sender, instance, using, **kwargs):
    kind = SOURCE_KINDS[_source_model(sender)]
    mark_stale(kind, [instance.pk], using)
    if kind == IMAGE:
        _mark_image_holders(instance.pk, using)
    elif kind == TERM:
        _mark_term_descendants([instance.pk], using)


def _mark_term_descendants(ids, using):
    mark_stale(TERM, Term.descendant_ids(ids, using), using)


def _mark_image_holders(image_id, using):
    """Venues and organizers carry their image inline."""
    for model in (Venue, Organizer):
        mark_stale(
            SOURCE_KINDS[model],
            model.objects.using(using).filter(image_id=image_id).values_list("pk", flat=True),
            using,
        )


def _deleting(sender, instance, using, **kwargs):
    """What refers to a record about to go: the deletion rewrites those references without signals."""
    kind = SOURCE_KINDS[_source_model(sender)]
    events = Event.objects.using(using)
    if kind == VENUE:
        mark_stale(EVENT, events.filter(venue_id=instance.pk).values_list("pk", flat=True), using)
    elif kind == ORGANIZER:
        mark_stale(EVENT, events.filter(organizer_links__organizer_id=instance.pk).values_list("pk", flat=True), using)
    elif kind == TERM:
        mark_stale(EVENT, events.filter(terms__pk=instance.pk).values_list("pk", flat=True), using)
        _mark_term_descendants([instance.pk], using)
    elif kind == IMAGE:
        mark_stale(EVENT, events.filter(image_id=instance.pk).values_list("pk", flat=True), using)
        _mark_image_holders(instance.pk, using)


def _deleted(sender, instance, using, **kwargs):
    mark_stale(SOURCE_KINDS[_source_model(sender)], [instance.pk], using)


def _organizer_link_changed(sender, instance, using, **kwargs):
    mark_stale(EVENT, [instance.event_id], using)


def _term_links_changed(sender, instance, action, reverse, pk_set, using, **kwargs):
    if not action.startswith("post_"):
        if action == "pre_clear" and reverse:
            mark_stale(EVENT, instance.events.using(using).values_list("pk", flat=True), using)
        return
    if reverse:
        mark_stale(EVENT, pk_set or (), using)
    else:
        mark_stale(EVENT, [instance.pk], using)


def _author_deleting(sender, instance, using, **kwargs):
    """Deleting a user sets `author` to none on their records, without signals."""
    for model in (Event, Venue, Organizer):
        mark_stale(
            SOURCE_KINDS[model],
            model.objects.using(using).filter(author_id=instance.pk).values_list("pk", flat=True),
            using,
        )


def _records_changed(sender, ids, using, fields=None, **kwargs):
    kind = SOURCE_KINDS[_source_model(sender)]
    mark_stale(kind, ids, using)
    if kind == TERM and (fields is None or {"slug", "parent", "parent_id"} & set(fields)):
        _mark_term_descendants(ids, using)


def _writes_finished(sender, using, **kwargs):
    flush(using)


def _source_model(sender):
    for model in SOURCE_KINDS:
        if issubclass(sender, model):
            return model
    raise LookupError(sender)


def connect_receivers():
    """Keep the store true on every per-record write (from `ready`); bulk writes mark themselves."""
    for model in (Event, Venue, Organizer, Attachment, Term, Category, Tag):
        name = model.__name__
        post_save.connect(_saved, sender=model, dispatch_uid=f"events.store.save.{name}")
        pre_delete.connect(_deleting, sender=model, dispatch_uid=f"events.store.deleting.{name}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"events.store.delete.{name}")
    post_save.connect(_organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.store.organizer_link.save")
    post_delete.connect(
        _organizer_link_changed, sender=EventOrganizer, dispatch_uid="events.store.organizer_link.delete"
    )
    m2m_changed.connect(_term_links_changed, sender=Event.terms.through, dispatch_uid="events.store.term_links")
    pre_delete.connect(_author_deleting, sender=get_user_model(), dispatch_uid="events.store.author")
    changes.records_changed.connect(_records_changed, dispatch_uid="events.store.changed")
    changes.writes_finished.connect(_writes_finished, dispatch_uid="events.store.finished")
