"""Simultaneous event creates naming the same new venue and organizer make each of them once (PostgreSQL)."""
import threading

import pytest
from django.db import connection

from events.models import Event, Organizer, Venue

from .conftest import post_json

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITERS = 20
WAIT_SECONDS = 60


def test_twenty_simultaneous_creates_share_one_new_venue_and_organizer(as_role):
    clients = [as_role("editor") for _ in range(WRITERS)]
    start = threading.Barrier(WRITERS)
    statuses, failures = [], []

    def create(client, number):
        try:
            start.wait(WAIT_SECONDS)
            response = post_json(client, "/events", {
                "title": f"Session {number}",
                "start_date": "2031-03-01 10:00", "end_date": "2031-03-01 11:00",
                "status": "publish",
                "venue": {"venue": "Grand Hall", "city": "Lyon"},
                "organizer": [{"organizer": "Friends of Jazz"}],
            })
            statuses.append(response.status_code)
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(client, n)) for n, client in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_SECONDS)
    assert failures == []
    assert statuses == [201] * WRITERS
    assert Venue.objects.filter(title_en="Grand Hall").count() == 1
    assert Organizer.objects.filter(title_en="Friends of Jazz").count() == 1
    venue = Venue.objects.get(title_en="Grand Hall")
    assert Event.objects.filter(venue=venue).count() == WRITERS
