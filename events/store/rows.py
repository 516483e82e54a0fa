"""What the store holds: the kinds of rows, and the markers and references written into their texts."""

import re

from ..models import Attachment, Event, Organizer, PostKind, Term, Venue

# Stand for the request's values in a stored text; the Assembler replaces them at read time.
HOME = "\x01home\x01"
GLOBAL_ID_HOST = "\x01gid\x01"
ORIGIN = "\x01origin\x01"
REFERENCE = "\x00"

# The kinds of rows and what each holds.
EVENT, EVENT_LD = "event", "event_ld"
VENUE, VENUE_LD = "venue", "venue_ld"
ORGANIZER, ORGANIZER_LD = "organizer", "organizer_ld"
IMAGE = "image"
# A term as events embed it, and its standalone record (the categories and tags routes).
TERM, TERM_RECORD = "term", "term_record"
ROW_KINDS = {
    EVENT: (EVENT, EVENT_LD),
    VENUE: (VENUE, VENUE_LD),
    ORGANIZER: (ORGANIZER, ORGANIZER_LD),
    IMAGE: (IMAGE,),
    TERM: (TERM, TERM_RECORD),
}
SOURCE_OF_ROW = {row: source for source, rows in ROW_KINDS.items() for row in rows}
SOURCE_KINDS = {Event: EVENT, Venue: VENUE, Organizer: ORGANIZER, Attachment: IMAGE, Term: TERM}
RECORD_KINDS = {EVENT: PostKind.EVENT, VENUE: PostKind.VENUE, ORGANIZER: PostKind.ORGANIZER}

# A reference as it reads in a stored JSON text: its kind and record ID.
REFERENCE_TEXT = re.compile(r'"\\u0000(\w+):(\d+)"')


class NotRenderable(Exception):
    """A record whose output would depend on the request in a way markers cannot stand for."""


def reference(kind, record_id):
    """What an event's row holds in place of a record it embeds ("\\x00venue:12"), joined at read time."""
    return f"{REFERENCE}{kind}:{record_id}"


def references_in(body):
    """((row kind, record ID), …) an event's stored text refers to."""
    return tuple((kind, int(record_id)) for kind, record_id in REFERENCE_TEXT.findall(body))
