"""`GET events-calendar/v1/changes`: the change log as a feed a client follows with a cursor.

Each entry carries the record as the v1 API shows it to this caller now, joined from the
rendering store as the lists join theirs; a deletion carries none (a tombstone). An entry about a
record the caller may not read (a draft, a private record, another author's pending one) is left
out, unless it moved the record to the trash or deleted it: then it says so, with no record.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework.response import Response

from ... import store
from ...changelog.feed import Cursor, entries_after
from ...json_text import to_json
from ...models import ChangeAction
from ...presentation.records import POSTS, records_for
from ..calendar_doc import build_calendar_document
from ..parameters.fields import Params, PositiveIntegerParam, StringParam
from ..renderers import JSONText
from .base import WPViewSet

DEFAULT_PER_PAGE, MAX_PER_PAGE = 50, 100
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


class CalendarDocViewSet(WPViewSet):
    """`GET events-calendar/v1/doc`: the OpenAPI document of the calendar's own namespace."""

    params_classes = {"doc": Params}

    def doc(self, request, *args, **kwargs):
        return Response(build_calendar_document(request))
