"""The venues and organizers lists (venues-organizers.md §2): what each caller may list, their filters and their order."""
import re

import django_filters
from django.db.models import F, Q, TextField, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from ..models import Event, EventOrganizer, Organizer, PostStatus, Venue
from ..services import visibility
from ..services.terms import localized_text
from .filtersets import ValidatedFilterSet

# §2.1, Recommended: any character that is not a letter or digit (Unicode-aware) separates fragments; "-" does not.
SEARCH_FRAGMENT = re.compile(r"(?:[^\W_]|-)+")
TRANSLATED_SEARCH_FIELDS = ("title", "description", "excerpt")
# has_events: links to events in these statuses do not count.
UNFINISHED_EVENT_STATUSES = (PostStatus.DRAFT, PostStatus.PENDING)
# The newest first, the ID breaking ties.
LIST_ORDERING = ("-date", "-id")


def listable(user, kind, requested_statuses=None):
    """A Q keeping the records of `kind` `user` may list, in the statuses a `status` filter asked for (auth.md §2.2)."""
    return visibility.listable(user, kind, visibility.listed_statuses(user, kind, requested_statuses))


def search_fragments(text):
    return SEARCH_FRAGMENT.findall(text)


class LinkedFilterSet(ValidatedFilterSet):
    """`data` holds already-validated parameter values; the filters combine with AND.

    Subclasses name the plain columns searched and how records link to events.
    """

    plain_search_fields: tuple = ()

    search = django_filters.Filter(method="filter_search")
    event = django_filters.Filter(method="filter_event")
    has_events = django_filters.Filter(method="filter_has_events")
    upcoming_statuses = django_filters.Filter(method="filter_upcoming")

    def linked_ids(self, event_condition):
        """Values queryset of the IDs of records linked to an event matching `event_condition` (a Q on Event)."""
        raise NotImplementedError

    def filter_search(self, queryset, name, text):
        """§2.1: a record matches when one of its fields contains every fragment of the search."""
        fragments = search_fragments(text)
        if not fragments:
            return queryset.none()
        queryset = queryset.alias(
            **{f"searched_{field}": localized_text(field) for field in TRANSLATED_SEARCH_FIELDS},
            **{f"searched_{field}": Coalesce(F(field), Value(""), output_field=TextField()) for field in self.plain_search_fields},
        )
        found = Q()
        for field in (*TRANSLATED_SEARCH_FIELDS, *self.plain_search_fields):
            all_fragments = Q()
            for fragment in fragments:
                all_fragments &= Q(**{f"searched_{field}__icontains": fragment})
            found |= all_fragments
        return queryset.filter(found)

    def filter_event(self, queryset, name, event_id):
        return queryset.filter(pk__in=self.linked_ids(Q(pk=event_id)))

    def filter_has_events(self, queryset, name, wanted):
        linked = self.linked_ids(~Q(status__in=UNFINISHED_EVENT_STATUSES))
        return queryset.filter(pk__in=linked) if wanted else queryset.exclude(pk__in=linked)

    def filter_upcoming(self, queryset, name, statuses):
        """Linked to an event that starts from now on, in a status the caller may list."""
        return queryset.filter(pk__in=self.linked_ids(Q(start_utc__gte=timezone.now(), status__in=statuses)))


class VenueFilterSet(LinkedFilterSet):
    # Not country, not website (§2.1).
    plain_search_fields = ("address", "city", "province", "state", "stateprovince", "zip", "phone")

    class Meta:
        model = Venue
        fields = []

    def linked_ids(self, event_condition):
        # NULLs kept out: `NOT IN` a list holding NULL would exclude every venue.
        return Event.objects.filter(event_condition, venue_id__isnull=False).order_by().values("venue_id")


class OrganizerFilterSet(LinkedFilterSet):
    plain_search_fields = ("phone", "email", "website")

    class Meta:
        model = Organizer
        fields = []

    def linked_ids(self, event_condition):
        events = Event.objects.filter(event_condition).order_by().values("pk")
        return EventOrganizer.objects.filter(event_id__in=events).order_by().values("organizer_id")
