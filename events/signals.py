"""Receivers that keep each term's stored `count` right on every per-record write (connected in apps.py).

A count changes when a link between an event and a term appears or goes, and when a linked event
enters or leaves the published status. Writes that send no signal (bulk_create, queryset update)
recount themselves: see events.services.terms.recount_all_terms().
"""

from django.db.models.signals import m2m_changed, post_delete, post_save, pre_delete

from .models import Event
from .services.terms import recount_terms, term_counts_deferred

TermLink = Event.terms.through

# Where the term IDs of an event about to lose its links wait for the recount after the deletion.
_TERMS_BEFORE = "_term_ids_before_unlinking"


def linked_term_ids(event_id, using):
    return list(TermLink.objects.using(using).filter(event_id=event_id).values_list("term_id", flat=True))


def recount_after_event_save(sender, instance, created, using, update_fields=None, **kwargs):
    """A status change moves the event in or out of its terms' counts. A new event has no links yet;
    an event read from the database (Event.from_db) and saved with the same status moves nothing."""
    if update_fields is not None and "status" not in update_fields:
        return
    unchanged = getattr(instance, "status_in_database", None) == instance.status
    if created or unchanged or term_counts_deferred():
        return
    recount_terms(linked_term_ids(instance.pk, using), using)


def remember_terms_before_event_delete(sender, instance, using, **kwargs):
    if not term_counts_deferred():
        setattr(instance, _TERMS_BEFORE, linked_term_ids(instance.pk, using))


def recount_after_event_delete(sender, instance, using, **kwargs):
    term_ids = instance.__dict__.pop(_TERMS_BEFORE, None)
    if term_ids and not term_counts_deferred():
        recount_terms(term_ids, using)


def recount_after_link_change(sender, instance, action, reverse, pk_set, using, **kwargs):
    """add/remove/set/clear on `event.terms` or on `term.events`.

    From the term's side (`reverse`) only that term's count moves; from the event's side, the terms
    added or removed, or for a clear every term the event had just before.
    """
    if term_counts_deferred():
        return
    if reverse:
        if action in ("post_add", "post_remove", "post_clear"):
            recount_terms([instance.pk], using)
        return
    if action == "pre_clear":
        setattr(instance, _TERMS_BEFORE, linked_term_ids(instance.pk, using))
    elif action == "post_clear":
        recount_terms(instance.__dict__.pop(_TERMS_BEFORE, ()), using)
    elif action in ("post_add", "post_remove"):
        recount_terms(pk_set or (), using)


def connect_term_counts():
    post_save.connect(recount_after_event_save, sender=Event, dispatch_uid="events.term_counts.save")
    pre_delete.connect(remember_terms_before_event_delete, sender=Event, dispatch_uid="events.term_counts.pre_delete")
    post_delete.connect(recount_after_event_delete, sender=Event, dispatch_uid="events.term_counts.delete")
    m2m_changed.connect(recount_after_link_change, sender=TermLink, dispatch_uid="events.term_counts.links")
