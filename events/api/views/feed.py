"""`GET events-calendar/v1/changes`: the change log as a feed a client follows with a cursor.

Each entry carries the record as the v1 API shows it to this caller now, joined from the
rendering store as the lists join theirs; a deletion carries none (a tombstone). An entry about a
record the caller may not read (a draft, a private record, another author's pending one) is left
out, unless it moved the record to the trash or deleted it: then it says so, with no record.
"""

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from rest_framework.response import Response

from ... import roles, store
from ...changelog.feed import Cursor, entries_after
from ...json_text import to_json
from ...models import ChangeAction, ChangeKind, Event, Organizer, PostStatus, Taxonomy, Term, Venue
from ..calendar_doc import build_calendar_document
from ..links import marker_values
from ..params import Params, PositiveIntegerParam, StringParam
from ..renderers import JSONText
from ..serializers.organizers import OrganizerRecordSerializer
from ..serializers.terms import TermRecordSerializer
from ..serializers.venues import VenueRecordSerializer
from .base import WPViewSet
from .events import EventViewSet, event_texts

DEFAULT_PER_PAGE, MAX_PER_PAGE = 50, 100
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
# Shown to a caller who may not read the record: it left their view.
GONE = {ChangeAction.TRASHED, ChangeAction.DELETED}


class ChangesParams(Params):
    # Any string fits the schema; only the server can tell one of its own cursors (400 otherwise).
    since = StringParam(
        server_checked=True,
        help_text=_("The cursor a previous page gave as `next`; without it, the feed starts at its oldest entry."),
    )
    per_page = PositiveIntegerParam(
        default=DEFAULT_PER_PAGE,
        help_text=_("Maximum number of entries to be returned in result set (at most 100)."),
    )


class ChangesViewSet(WPViewSet):
    params_classes = {"list": ChangesParams}

    def list(self, request, *args, **kwargs):
        since = self.params.get("since")
        cursor = Cursor.parse(since) if since else None
        entries, next_cursor = entries_after(cursor, min(self.params["per_page"], MAX_PER_PAGE))
        records = records_for(request, entries, facts_of(entries))
        changes = []
        for entry in entries:
            key = (entry.kind, entry.record_id)
            if key in records:
                record = records[key]
            elif entry.action in GONE:
                record = "null"
            else:
                continue
            changes.append(f'{entry_head(entry)},"record":{record}}}')
        return Response(JSONText(f'{{"changes":[{",".join(changes)}],"next":{to_json(str(next_cursor))}}}'))


def entry_head(entry):
    """The JSON members of an entry before its record: `{"position":…,"languages":[…]` (no closing
    brace). Written directly, as a page writes a hundred: the kind, the action and the language codes
    are words of our own (ChangeKind, ChangeAction, settings.LANGUAGES) that JSON writes as they are."""
    languages = ",".join(f'"{code}"' for code in entry.languages.split())
    return (
        f'{{"position":{entry.pk},"kind":"{entry.kind}","id":{entry.record_id},"action":"{entry.action}",'
        f'"time":"{entry.time.isoformat().replace("+00:00", "Z")}","languages":[{languages}]'
    )


def records_for(request, entries, facts=None):
    """{(kind, ID): JSON text} of the records these entries (or deliveries) are about that the
    caller of `request` may read now, as the v1 API shows them to that caller. `facts`: the
    RecordFacts of those that are events, venues or organizers and exist (facts_of(), for entries
    read with them), else read here."""
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
            request, assembler, event_ids, {pk: facts[ChangeKind.EVENT, pk] for pk in event_ids}, store_free_events
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


def facts_of(entries):
    """{(kind, ID): RecordFacts} of the existing events, venues and organizers the feed's entries
    are about, from the columns read with them (changelog.feed.Entry)."""
    return {
        (entry.kind, entry.record_id): store.RecordFacts(
            POSTS[entry.kind].KIND, entry.record_id, entry.status, entry.author_id, entry.password
        )
        for entry in entries
        if entry.status is not None
    }


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


class CalendarDocViewSet(WPViewSet):
    """`GET events-calendar/v1/doc`: the OpenAPI document of the calendar's own namespace."""

    params_classes = {"doc": Params}

    def doc(self, request, *args, **kwargs):
        return Response(build_calendar_document(request))


def store_free_events():
    """Events with everything their record reads, as the events routes read them."""
    view = EventViewSet()
    view.action = "retrieve"
    return view.get_queryset()
