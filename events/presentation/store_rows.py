"""The rows of the rendered-record store: which record shape each kind of row holds, rendered against
a RenderingRequest whose URLs hold the store's markers (docs/architecture-store.md). Importing this
module fills the store's table with them (EventsConfig.ready() does): the store may not import
presentation, which reads the store."""

import functools
from urllib.parse import urlsplit

from django.contrib.auth.models import AnonymousUser
from django.utils.encoding import iri_to_uri

from .. import store
from .events import EventRecordSerializer
from .images import image_record
from .json_ld import event_json_ld, organizer_json_ld, venue_json_ld
from .organizers import OrganizerRecordSerializer
from .rendering import rendering_context
from .terms import CategoryTree, TermRecordSerializer, embedded_term
from .venues import VenueRecordSerializer


class RenderingRequest:
    """What the renderers read of a request, with markers where the real request's values go.

    One is made per batch of records and language, so what the batch shares is read once for it.
    """

    user = AnonymousUser()

    def __init__(self):
        context = rendering_context(self)
        context.rest_root = f"{store.HOME}wp-json/"
        # links.global_id() takes the host of global IDs from here while the REST root matches.
        context.global_id_base = (context.rest_root, store.GLOBAL_ID_HOST)
        # Category URLs carry their ancestors' slugs: the categories are read once per batch.
        self.category_tree = CategoryTree()

    def build_absolute_uri(self, location):
        location = str(location)
        parts = urlsplit(location)
        if parts.scheme and parts.netloc:
            return iri_to_uri(location)
        if (
            location.startswith("/")
            and not location.startswith("//")
            and "/./" not in location
            and "/../" not in location
        ):
            return store.ORIGIN + iri_to_uri(location)
        raise store.NotRenderable(location)


def _serialized(serializer, **context):
    """A renderer: the record as `serializer` writes it with `context`."""

    def render(record, request):
        # The batch's category tree: a category's URL carries its ancestors' slugs.
        return serializer(record, context={"request": request, "category_tree": request.category_tree, **context}).data

    return render


# {row kind: (render(record, request) → the row's data, sort_name(record) → the row's sort name, or None)}
ROW_RENDERERS = {
    # Linked records and terms as references, joined at read time.
    store.EVENT: (_serialized(EventRecordSerializer, references=True), None),
    # The event's own part: the venue's and organizer's JSON-LD are stored as rows of their own.
    store.EVENT_LD: (functools.partial(event_json_ld, linked=False), None),
    store.VENUE: (_serialized(VenueRecordSerializer, json_ld=False, embedded=True), None),
    store.VENUE_LD: (venue_json_ld, None),
    store.ORGANIZER: (_serialized(OrganizerRecordSerializer, json_ld=False, embedded=True), None),
    store.ORGANIZER_LD: (organizer_json_ld, None),
    store.IMAGE: (image_record, None),
    # Events list their terms by name in the language (then ID), as WordPress does.
    store.TERM: (embedded_term, lambda term: term.name or ""),
    store.TERM_RECORD: (_serialized(TermRecordSerializer), None),
}


def rendered_rows(kind, records):
    """{(row kind, record ID): (data, sort name)} of these records of source `kind`, in the active
    language; a record that raises NotRenderable keeps only the rows rendered before."""
    request = RenderingRequest()
    rows = {}
    for record in records:
        for row_kind in store.ROW_KINDS[kind]:
            render, sort_name = ROW_RENDERERS[row_kind]
            try:
                data = render(record, request)
            except store.NotRenderable:
                break
            rows[(row_kind, record.pk)] = data, sort_name(record) if sort_name else ""
    return rows


store.RENDERERS.update({kind: functools.partial(rendered_rows, kind) for kind in store.ROW_KINDS})
