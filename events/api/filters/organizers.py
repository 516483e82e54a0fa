"""Filters of `GET /organizers`: the organizer columns searched, and organizers linked through EventOrganizer."""
from ...models import Event, EventOrganizer, Organizer
from .linked import LinkedFilterSet


class OrganizerFilterSet(LinkedFilterSet):
    plain_search_fields = ("phone", "email", "website")

    class Meta:
        model = Organizer
        fields = []

    def linked_ids(self, event_condition):
        events = Event.objects.filter(event_condition).order_by().values("pk")
        return EventOrganizer.objects.filter(event_id__in=events).order_by().values("organizer_id")
