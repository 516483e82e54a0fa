"""Simultaneous event creates naming the same new venue and organizer make each of them once (PostgreSQL)."""

import pytest

from events.models import Event, Organizer, Venue

from .concurrency import all_at_once
from .conftest import post_json

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITERS = 20


def test_twenty_simultaneous_creates_share_one_new_venue_and_organizer(as_role):
    clients = [as_role("editor") for _ in range(WRITERS)]

    def create(client, number):
        return lambda: (
            post_json(
                client,
                "/events",
                {
                    "title": f"Session {number}",
                    "start_date": "2031-03-01 10:00",
                    "end_date": "2031-03-01 11:00",
                    "status": "publish",
                    "venue": {"venue": "Grand Hall", "city": "Lyon"},
                    "organizer": [{"organizer": "Friends of Jazz"}],
                },
            ).status_code
        )

    statuses = all_at_once([create(client, number) for number, client in enumerate(clients)])
    assert statuses == [201] * WRITERS
    assert Venue.objects.filter(title_en="Grand Hall").count() == 1
    assert Organizer.objects.filter(title_en="Friends of Jazz").count() == 1
    venue = Venue.objects.get(title_en="Grand Hall")
    assert Event.objects.filter(venue=venue).count() == WRITERS
