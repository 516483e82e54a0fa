"""The venues and organizers lists (docs/contract/venues-organizers.md §2): what each caller may list, their filters and their order."""

import re

from django.db.models import F, Q, TextField, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from ..list_versions import Reads
from ..models import Event, EventOrganizer, Organizer, PostStatus, Venue
from . import search, visibility
from .filtering import localized_text

# §2.1, Recommended: any character that is not a letter or digit (Unicode-aware) separates fragments; "-" does not.
SEARCH_FRAGMENT = re.compile(r"(?:[^\W_]|-)+")
TRANSLATED_SEARCH_FIELDS = ("title", "description", "excerpt")
# has_events: links to events in these statuses do not count.
UNFINISHED_EVENT_STATUSES = (PostStatus.DRAFT, PostStatus.PENDING)
# The newest first, the ID breaking ties.
LIST_ORDERING = ("-date", "-id")


def listable(user, kind, requested_statuses=None):
    """A Q keeping the records of `kind` `user` may list, in the statuses a `status` filter asked for (docs/contract/auth.md §2.2)."""
    return visibility.listable(user, kind, visibility.listed_statuses(user, kind, requested_statuses))


def search_fragments(text):
    return SEARCH_FRAGMENT.findall(text)


# Each kind's own columns a search looks at, beside the translated ones.
PLAIN_SEARCH_FIELDS = {
    # Not country, not website (§2.1).
    Venue: ("address", "city", "province", "state", "stateprovince", "zip", "phone"),
    Organizer: ("phone", "email", "website"),
}


def linked_ids(model, event_condition):
    """Values queryset of the IDs of `model` records (venues or organizers) linked to an event
    matching `event_condition` (a Q on Event)."""
    if model is Venue:
        # NULLs kept out: `NOT IN` a list holding NULL would exclude every venue.
        return Event.objects.filter(event_condition, venue_id__isnull=False).order_by().values("venue_id")
    events = Event.objects.filter(event_condition).order_by().values("pk")
    return EventOrganizer.objects.filter(event_id__in=events).order_by().values("organizer_id")


def searched(queryset, text):
    """§2.1: a record matches when one of its fields contains every fragment of the search."""
    fragments = search_fragments(text)
    if not fragments:
        return queryset.none()
    plain_fields = PLAIN_SEARCH_FIELDS[queryset.model]
    queryset = queryset.alias(
        **{f"searched_{field}": localized_text(field) for field in TRANSLATED_SEARCH_FIELDS},
        **{f"searched_{field}": Coalesce(F(field), Value(""), output_field=TextField()) for field in plain_fields},
    )
    found = Q()
    for field in (*TRANSLATED_SEARCH_FIELDS, *plain_fields):
        all_fragments = Q()
        for fragment in fragments:
            all_fragments &= Q(**{f"searched_{field}__icontains": fragment})
        found |= all_fragments
    # Each implied by `found`, so the results are the same: they only let an index find the rows.
    queryset = search.with_documents(queryset, TRANSLATED_SEARCH_FIELDS, plain_fields)
    narrowed = [search.indexed(queryset, fragment) for fragment in fragments]
    return queryset.filter(*(condition for condition in narrowed if condition is not None), found)


def linked_to_event(queryset, event_id):
    return queryset.filter(pk__in=linked_ids(queryset.model, Q(pk=event_id)))


def with_events(queryset, wanted):
    linked = linked_ids(queryset.model, ~Q(status__in=UNFINISHED_EVENT_STATUSES))
    return queryset.filter(pk__in=linked) if wanted else queryset.exclude(pk__in=linked)


def with_upcoming_events(queryset, statuses):
    """Linked to an event that starts from now on, in a status the caller may list."""
    return queryset.filter(pk__in=linked_ids(queryset.model, Q(start_utc__gte=timezone.now(), status__in=statuses)))


# What the filters naming events read beside the kind's own table (linked_ids: venues are linked by
# a column of the events table, organizers through the link table).
LINKED_EVENT_READS = {Venue: Reads.of(Event), Organizer: Reads.of(Event, EventOrganizer)}
