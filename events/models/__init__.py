"""Data model of the calendar: one module per record kind."""
from .identity import PostIdentity, PostKind
from .status import PostStatus
from .application_password import ApplicationPassword
from .attachment import Attachment
from .term import Term, Category, Tag, Taxonomy
from .venue import Venue
from .organizer import Organizer
from .event import Event, EventOrganizer
from .rendering import RenderedRecord
from .idempotency import IdempotentRequest
from .series import Series
from .change import ChangeAction, ChangeEntry, ChangeKind
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
    "WebhookDelivery",
    "WebhookSubscription",
]
