"""Records as the v1 API shows them to one caller, joined from the rendering store: the events of a
list page, and the records the change feed's entries and the webhook deliveries carry."""

import json

from django.utils import translation

from .. import roles, store
from ..json_text import to_json
from ..models import ChangeAction, ChangeKind, Event, Organizer, PostStatus, Taxonomy, Term, Venue
from .events import EventRecordSerializer, blank_protected, events_for_records, is_protected
from .links import marker_values
from .organizers import OrganizerRecordSerializer
from .terms import TermRecordSerializer
from .venues import VenueRecordSerializer

POSTS = {ChangeKind.EVENT: Event, ChangeKind.VENUE: Venue, ChangeKind.ORGANIZER: Organizer}
LINKED_SERIALIZERS = {ChangeKind.VENUE: VenueRecordSerializer, ChangeKind.ORGANIZER: OrganizerRecordSerializer}
ROW_KINDS = {
    ChangeKind.EVENT: store.EVENT,
    ChangeKind.VENUE: store.VENUE,
    ChangeKind.ORGANIZER: store.ORGANIZER,
    ChangeKind.CATEGORY: store.TERM_RECORD,
    ChangeKind.TAG: store.TERM_RECORD,
}
TAXONOMIES = {ChangeKind.CATEGORY: Taxonomy.CATEGORY, ChangeKind.TAG: Taxonomy.TAG}


def event_texts(request, assembler, event_ids, facts, events):
    """{ID: JSON text} of these events as a v1 list shows them to the caller of `request`: stored
    renderings joined (blanked where a password hides them), the others built with the serializer
    from `events()`, a queryset made only then, and stored. `facts[ID]` holds what the password rule
    reads of each event."""
    assembler.fetch_events(event_ids)
    records = {}
    for pk in event_ids:
        try:
            text = assembler.event_text(pk)
        except store.Unresolved:
            continue
        # docs/contract/events.md §1.6: what a password-protected event shows depends on the request.
        if is_protected(facts[pk], request):
            text = to_json(blank_protected(json.loads(text)))
        records[pk] = text
    built = [pk for pk in event_ids if pk not in records]
    if built:
        context = {"request": request, "blank_protected": True}
        for event in events().filter(pk__in=built):
            records[event.pk] = to_json(EventRecordSerializer(event, context=context).data)
        assembler.keep_missing()
    return records


def records_for(request, entries, facts=None):
    """{(kind, ID): JSON text} of the records these entries (or deliveries) are about that the
    caller of `request` may read now, as the v1 API shows them to that caller. `facts`: the
    RecordFacts of those that are events, venues or organizers and exist (the feed reads them with
    its entries), else read here."""
    wanted = {}
    for entry in entries:
        if entry.action != ChangeAction.DELETED:
            wanted.setdefault(entry.kind, set()).add(entry.record_id)
    if facts is None:
        facts = _read_facts(wanted)
    readable = _readable(request.user, wanted, facts)
    # No `state` (as lists give theirs), so no process memory of rows: a feed page is seldom read
    # twice, and remembering its rows cost more than it saved (bench/README.md, "Changes feed page").
    assembler = store.Assembler(marker_values(request), translation.get_language())

    def stored(kind, pk):
        # What a venue's or organizer's password hides depends on the request: always built.
        return kind == ChangeKind.EVENT or not (kind in POSTS and facts[kind, pk].password)

    # The events and every row they embed in one statement, then the other kinds' rows not among
    # those in one more: event_texts and record_texts find them held.
    event_ids = sorted(record_id for kind, record_id in readable if kind == ChangeKind.EVENT)
    texts = {
        (ChangeKind.EVENT, pk): text
        for pk, text in event_texts(
            request, assembler, event_ids, {pk: facts[ChangeKind.EVENT, pk] for pk in event_ids}, events_for_records
        ).items()
    }
    assembler.fetch([(ROW_KINDS[kind], pk) for kind, pk in readable if kind != ChangeKind.EVENT and stored(kind, pk)])

    for kind in sorted({kind for kind, _record_id in readable} - {ChangeKind.EVENT}):
        ids = sorted(record_id for other, record_id in readable if other == kind)
        built = assembler.record_texts(
            ROW_KINDS[kind],
            ids,
            lambda missing, kind=kind: _built(request, kind, missing),
            stored=lambda pk, kind=kind: stored(kind, pk),
        )
        texts.update(((kind, pk), text) for pk, text in built.items())
    return texts


def _read_facts(wanted):
    """{(kind, ID): RecordFacts} of the existing events, venues and organizers among `wanted`."""
    facts = {}
    for kind, model in POSTS.items():
        if wanted.get(kind):
            rows = model.objects.filter(pk__in=wanted[kind]).values_list("pk", "status", "author_id", "password")
            facts.update(((kind, row[0]), store.RecordFacts(model.KIND, *row)) for row in rows)
    return facts


def _readable(user, wanted, facts):
    """{(kind, ID)} of `wanted` this caller may read now: the events, venues and organizers whose
    `facts` roles.can_read lets them read (none in the trash, none that no longer exists), and
    every term (one deleted since has no rendering and is not built)."""
    readable = set()
    for kind, ids in wanted.items():
        for pk in ids:
            record = facts.get((kind, pk))
            if kind not in POSTS or (
                record is not None and record.status != PostStatus.TRASH and roles.can_read(user, record)
            ):
                readable.add((kind, pk))
    return readable


def _built(request, kind, ids):
    """{ID: JSON text} of records the store had no rendering of (or whose password hides them)."""
    if kind in LINKED_SERIALIZERS:
        context = {"request": request, "password": None, "edit_context": False}
        records = POSTS[kind].objects.select_related("image").filter(pk__in=ids)
        return {record.pk: to_json(LINKED_SERIALIZERS[kind](record, context=context).data) for record in records}
    context = {"request": request}
    terms = Term.objects.filter(pk__in=ids, taxonomy=TAXONOMIES[kind])
    return {term.pk: to_json(TermRecordSerializer(term, context=context).data) for term in terms}
