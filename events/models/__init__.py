"""Data model of the calendar: one module per record kind."""

from .application_password import ApplicationPassword
from .attachment import Attachment
from .change import ChangeAction, ChangeEntry, ChangeKind
from .event import Event, EventOrganizer, link_prefetches, links_prefetched
from .idempotency import IdempotentRequest
from .identity import PostIdentity, PostKind
from .imports import ImportedRecord, ImportKind, ImportPolicy, ImportRun, ImportSource
from .organizer import Organizer
from .rendering import RenderedRecord
from .series import Series
from .status import PostStatus
from .term import Category, Tag, Taxonomy, Term
from .venue import Venue
from .webhook import DeliveryStatus, WebhookDelivery, WebhookSubscription

__all__ = [
    "ApplicationPassword",
    "Attachment",
    "Category",
    "ChangeAction",
    "ChangeEntry",
    "ChangeKind",
    "DeliveryStatus",
    "Event",
    "EventOrganizer",
    "IdempotentRequest",
    "ImportedRecord",
    "ImportKind",
    "ImportPolicy",
    "ImportRun",
    "ImportSource",
    "Organizer",
    "PostIdentity",
    "PostKind",
    "PostStatus",
    "RenderedRecord",
    "Series",
    "Tag",
    "Taxonomy",
    "Term",
    "Venue",
    "link_prefetches",
    "links_prefetched",
    "WebhookDelivery",
    "WebhookSubscription",
]
