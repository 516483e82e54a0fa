"""If-Match under concurrent writers: exactly one of the writers holding the same ETag wins (PostgreSQL)."""

import pytest

from events.models import Event, Term, Venue

from .concurrency import all_at_once
from .conftest import API
from .factories import make_category, make_event, make_venue

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITERS = 12


def race(clients, url, method, bodies):
    etag = clients[0].get(url)["ETag"]

    def write(client, body):
        return lambda: getattr(client, method)(url, body, format="json", HTTP_IF_MATCH=etag)

    responses = all_at_once([write(client, body) for client, body in zip(clients, bodies)])
    return sorted(response.status_code for response in responses), responses


@pytest.mark.parametrize("path", ["/events/{id}", "/events/by-slug/concert"])
def test_one_of_twelve_updates_with_the_same_etag_wins(as_role, path):
    event = make_event("Concert", slug="concert")
    clients = [as_role("editor") for _ in range(WRITERS)]
    titles = [f"Title {n}" for n in range(WRITERS)]
    statuses, responses = race(clients, API + path.format(id=event.pk), "patch", [{"title": t} for t in titles])
    assert statuses == [200] + [412] * (WRITERS - 1)
    winner = next(response for response in responses if response.status_code == 200)
    assert {r.json()["code"] for r in responses if r.status_code == 412} == {"rest_precondition_failed"}
    # What the winner was told it wrote is what stays.
    assert Event.objects.get(pk=event.pk).title_en == winner.json()["title"]


def test_one_of_twelve_venue_updates_wins_and_nothing_else_changes(as_role):
    venue = make_venue("Hall")
    clients = [as_role("editor") for _ in range(WRITERS)]
    statuses, responses = race(
        clients, f"{API}/venues/{venue.pk}", "post", [{"city": f"City {n}"} for n in range(WRITERS)]
    )
    assert statuses == [200] + [412] * (WRITERS - 1)
    winner = next(response for response in responses if response.status_code == 200)
    assert Venue.objects.get(pk=venue.pk).city == winner.json()["city"]


def test_one_of_twelve_term_renames_wins(as_role):
    category = make_category("Music")
    clients = [as_role("editor") for _ in range(WRITERS)]
    statuses, responses = race(
        clients, f"{API}/categories/{category.pk}", "post", [{"name": f"Music {n}"} for n in range(WRITERS)]
    )
    assert statuses == [200] + [412] * (WRITERS - 1)
    winner = next(response for response in responses if response.status_code == 200)
    assert Term.objects.get(pk=category.pk).name_en == winner.json()["name"]


def test_a_delete_racing_updates_with_the_same_etag_is_one_of_them(as_role):
    event = make_event("Concert")
    clients = [as_role("editor") for _ in range(WRITERS)]
    url = f"{API}/events/{event.pk}"
    etag = clients[0].get(url)["ETag"]
    calls = [lambda c=clients[0]: c.delete(url, HTTP_IF_MATCH=etag)]
    calls += [
        lambda c=c, n=n: c.patch(url, {"title": f"T{n}"}, format="json", HTTP_IF_MATCH=etag)
        for n, c in enumerate(clients[1:])
    ]
    statuses = sorted(response.status_code for response in all_at_once(calls))
    assert statuses == [200] + [412] * (WRITERS - 1)
