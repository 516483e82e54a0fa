"""The rendered-record store: records rendered when they change, not when they are read.

Each event, venue, organizer, image and term is kept rendered once per language, what depends on
the request left as markers, linked records as references joined at read time. Writes keep it true
(events.pipeline drops what each write changes and renders it again); a row is read only under the
current epoch. docs/architecture-store.md explains how, and what tests/test_store_format.py asks of
a change to a renderer.
"""

from .assemble import Assembler, MarkerValues, RecordFacts, Unresolved
from .epoch import FORMAT_VERSION, current_epoch
from .registry import RENDERERS
from .rows import (
    EVENT,
    EVENT_LD,
    GLOBAL_ID_HOST,
    HOME,
    IMAGE,
    ORGANIZER,
    ORGANIZER_LD,
    ORIGIN,
    ROW_KINDS,
    SOURCE_KINDS,
    SOURCE_OF_ROW,
    TERM,
    TERM_RECORD,
    VENUE,
    VENUE_LD,
    NotRenderable,
    reference,
)
from .writes import drop_rows, render, render_all, render_made, rendered_rows, stale_rows

__all__ = [
    "Assembler",
    "MarkerValues",
    "RecordFacts",
    "Unresolved",
    "FORMAT_VERSION",
    "current_epoch",
    "RENDERERS",
    "EVENT",
    "EVENT_LD",
    "GLOBAL_ID_HOST",
    "HOME",
    "IMAGE",
    "ORGANIZER",
    "ORGANIZER_LD",
    "ORIGIN",
    "ROW_KINDS",
    "SOURCE_KINDS",
    "SOURCE_OF_ROW",
    "TERM",
    "TERM_RECORD",
    "VENUE",
    "VENUE_LD",
    "NotRenderable",
    "reference",
    "drop_rows",
    "render",
    "render_all",
    "render_made",
    "rendered_rows",
    "stale_rows",
]
