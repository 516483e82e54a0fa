"""The API's renderers of the rendered-record store, given to it by `register_store_renderers()`
(EventsConfig.ready), and the RenderingRequest they render against (docs/architecture-store.md)."""

import functools
from urllib.parse import urlsplit

from django.contrib.auth.models import AnonymousUser
from django.utils.encoding import iri_to_uri

from .. import store
from .context import api_context
from .serializers.events import EventRecordSerializer
from .serializers.images import image_record
from .serializers.json_ld import event_json_ld, organizer_json_ld, venue_json_ld
from .serializers.organizers import OrganizerRecordSerializer
from .serializers.terms import CategoryTree, TermRecordSerializer, embedded_term
from .serializers.venues import VenueRecordSerializer


class RenderingRequest:
    """What the serializers read of a request, with markers where the real request's values go.

    One is made per batch of records and language, so what the batch shares is read once for it.
    """

    user = AnonymousUser()

    def __init__(self):
        context = api_context(self)
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


def register_store_renderers():
    store.register_rendering_request(RenderingRequest)
    # Linked records and terms as references, joined at read time.
    store.register_renderer(store.EVENT, _serialized(EventRecordSerializer, references=True))
    # The event's own part: the venue's and organizer's JSON-LD are stored as rows of their own.
    store.register_renderer(store.EVENT_LD, functools.partial(event_json_ld, linked=False))
    store.register_renderer(store.VENUE, _serialized(VenueRecordSerializer, json_ld=False, embedded=True))
    store.register_renderer(store.VENUE_LD, venue_json_ld)
    store.register_renderer(store.ORGANIZER, _serialized(OrganizerRecordSerializer, json_ld=False, embedded=True))
    store.register_renderer(store.ORGANIZER_LD, organizer_json_ld)
    store.register_renderer(store.IMAGE, image_record)
    # Events list their terms by name in the language (then ID), as WordPress does.
    store.register_renderer(store.TERM, embedded_term, sort_name=lambda term: term.name or "")
    store.register_renderer(store.TERM_RECORD, _serialized(TermRecordSerializer))
