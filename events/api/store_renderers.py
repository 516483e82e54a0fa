"""The API's renderers of the rendered-record store, given to it by `register_store_renderers()`
(EventsConfig.ready), and the RenderingRequest they render against (docs/architecture-store.md)."""
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
        if location.startswith("/") and not location.startswith("//") and "/./" not in location and "/../" not in location:
            return store.ORIGIN + iri_to_uri(location)
        raise store.NotRenderable(location)


def event_row(event, request):
    # Linked records and terms as references, joined at read time.
    return EventRecordSerializer(event, context={"request": request, "references": True}).data


def event_json_ld_row(event, request):
    # The event's own part: the venue's and organizer's JSON-LD are stored as rows of their own.
    return event_json_ld(event, request, linked=False)


def venue_row(venue, request):
    return VenueRecordSerializer(venue, context={"request": request, "json_ld": False, "embedded": True}).data


def organizer_row(organizer, request):
    return OrganizerRecordSerializer(organizer, context={"request": request, "json_ld": False, "embedded": True}).data


def term_record_row(term, request):
    return TermRecordSerializer(term, context={"request": request, "category_tree": request.category_tree}).data


def term_sort_name(term):
    """Events list their terms by name in the language (then ID), as WordPress does."""
    return term.name or ""


def register_store_renderers():
    store.register_rendering_request(RenderingRequest)
    store.register_renderer(store.EVENT, event_row)
    store.register_renderer(store.EVENT_LD, event_json_ld_row)
    store.register_renderer(store.VENUE, venue_row)
    store.register_renderer(store.VENUE_LD, venue_json_ld)
    store.register_renderer(store.ORGANIZER, organizer_row)
    store.register_renderer(store.ORGANIZER_LD, organizer_json_ld)
    store.register_renderer(store.IMAGE, image_record)
    store.register_renderer(store.TERM, embedded_term, sort_name=term_sort_name)
    store.register_renderer(store.TERM_RECORD, term_record_row)
