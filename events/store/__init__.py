"""The rendered-record store: records rendered when they change, not when they are read.

A record's JSON depends on the record and the language, almost never on the request. So each event,
venue, organizer, image and term is rendered once per language and kept as a `RenderedRecord` row:

- what depends on the request is left as markers and spliced in at read time: the site home with
  its language prefix, the REST root, the host of global IDs and the origin of image URLs;
- an event embeds its venue, organizers, terms and image by reference ("\\x00venue:12"), joined at
  read time, so a venue edit re-renders one venue, not every event that shows it. Venues and
  organizers carry their image inline: images are edited far less often than they are shown;
- single reads add schema.org JSON-LD, stored beside each record as its own fragment ("*_ld").

The store never imports the API. The API registers a renderer for each kind of row, and the request
object they are given, when the app is ready (registry.py); a reader passes the values the markers
stand for in its request (MarkerValues), which the API works out from the request.

Writes keep the store true. Every save, delete and link change of a record marks it stale
(receivers.py): its rows are deleted in the writer's transaction at once, and it is rendered again
(all languages) either by `flush()` at the end of the service that wrote it, inside the same
transaction, or right after the commit. A reader that finds no row builds the record the slow way,
answers, and stores what it built only if no row exists by then (insert-or-nothing): a writer's
rows always win, so a reader that read before a commit can never leave a stale row behind a writer
that rendered after it.

A row is read only under the current epoch (epoch.py), a digest of the settings that shape records
(time zone, currency defaults, namespace, media URL, languages) and of FORMAT_VERSION: change one,
and every stored row is ignored until `manage.py events_render` rebuilds. FORMAT_VERSION is bumped
by hand when a renderer's output changes, and tests/test_store_format.py makes sure it is: it
renders a fixed set of records and compares the rows with tests/store_format/format-<version>.json.
After a deliberate change, bump FORMAT_VERSION and write the new file with
`EVENTS_REGENERATE_STORE_FORMAT=1 .venv/bin/python -m pytest tests/test_store_format.py`
(docs/architecture-store.md).
"""
from .assemble import Assembler, MarkerValues, RecordFacts, Unresolved
from .epoch import FORMAT_VERSION, current_epoch
from .receivers import connect_receivers
from .registry import register_renderer, register_rendering_request
from .rows import (
    EVENT,
    EVENT_LD,
    GLOBAL_ID_HOST,
    HOME,
    IMAGE,
    ORGANIZER,
    ORGANIZER_LD,
    ORIGIN,
    SOURCE_KINDS,
    SOURCE_OF_ROW,
    TERM,
    TERM_RECORD,
    VENUE,
    VENUE_LD,
    NotRenderable,
    reference,
)
from .writes import flush, mark_stale, render, render_all, rendered_rows, stale_rows

__all__ = [
    "Assembler", "MarkerValues", "RecordFacts", "Unresolved",
    "FORMAT_VERSION", "current_epoch",
    "connect_receivers",
    "register_renderer", "register_rendering_request",
    "EVENT", "EVENT_LD", "GLOBAL_ID_HOST", "HOME", "IMAGE", "ORGANIZER", "ORGANIZER_LD", "ORIGIN", "SOURCE_KINDS",
    "SOURCE_OF_ROW", "TERM", "TERM_RECORD", "VENUE", "VENUE_LD", "NotRenderable", "reference",
    "flush", "mark_stale", "render", "render_all", "rendered_rows", "stale_rows",
]
