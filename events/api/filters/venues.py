"""Filters of `GET /venues`: the venue columns searched, and venues linked to events through `Event.venue`."""
from ...models import Event, Venue
from .linked import LinkedFilterSet


class VenueFilterSet(LinkedFilterSet):
    # Not country, not website (§2.1).
    plain_search_fields = ("address", "city", "province", "state", "stateprovince", "zip", "phone")

    class Meta:
        model = Venue
        fields = []

    def linked_ids(self, event_condition):
        # NULLs kept out: `NOT IN` a list holding NULL would exclude every venue.
        return Event.objects.filter(event_condition, venue_id__isnull=False).order_by().values("venue_id")
