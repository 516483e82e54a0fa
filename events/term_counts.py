"""Each term's stored `count` (published events linked to it), recounted when a write's unit of work
finishes (events.pipeline) for the terms whose links, or whose linked events' status, changed."""

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from .models import Event, PostStatus, Term

TermLink = Event.terms.through


def published_event_count():
    """The SQL of a term's `count`: published events linked to the outer term row."""
    links = TermLink.objects.filter(term_id=OuterRef("pk"), event__status=PostStatus.PUBLISH)
    counted = links.order_by().values("term_id").annotate(n=Count("event_id")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def linked_term_ids(event_ids, using=DEFAULT_DB_ALIAS):
    """The IDs of the terms linked to these events."""
    event_ids = list(event_ids)
    if not event_ids:
        return []
    return list(TermLink.objects.using(using).filter(event_id__in=event_ids).values_list("term_id", flat=True))


def recount_terms(term_ids, using=DEFAULT_DB_ALIAS):
    """Store again the `count` of these terms, from the links and event statuses this transaction sees.

    The rows are locked first, in ID order, so concurrent writers touching the same terms take
    turns; the UPDATE that follows (a new statement, hence on PostgreSQL a new snapshot) then
    counts the links a writer that went first has committed.
    """
    ids = sorted({int(term_id) for term_id in term_ids if term_id is not None})
    if not ids:
        return
    terms = Term.objects.using(using).filter(pk__in=ids)
    with transaction.atomic(using=using, savepoint=False):
        _lock(terms, using)
        terms.update(count=published_event_count())


def recount_all_terms(using=DEFAULT_DB_ALIAS):
    """Store again the `count` of every term (a unit told `work.recount_all_terms()`: a bulk load,
    a clear, links written in bulk)."""
    with transaction.atomic(using=using, savepoint=False):
        _lock(Term.objects.using(using).all(), using)
        Term.objects.using(using).update(count=published_event_count())


def _lock(terms, using):
    # NO KEY UPDATE where the database has it: it still serialises recounts, but lets other
    # writers link events to these terms meanwhile (the link's foreign-key check takes KEY SHARE),
    # so a writer holding such a check and waiting for this lock cannot deadlock with it.
    no_key = connections[using].features.has_select_for_no_key_update
    list(terms.select_for_update(no_key=no_key).order_by("pk").values_list("pk", flat=True))
