"""Simultaneous writes naming one new category or tag make it once (PostgreSQL)."""

import pytest

from events.models import Event, Taxonomy, Term

from .concurrency import all_at_once
from .conftest import API, post_json

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITERS = 12


def test_simultaneous_event_creates_share_one_new_category_and_tag(as_role, api):
    clients = [as_role("editor") for _ in range(WRITERS)]

    def create(client, number):
        return lambda: post_json(
            client,
            "/events",
            {
                "title": f"Session {number}",
                "start_date": "2031-03-01 10:00",
                "end_date": "2031-03-01 11:00",
                "status": "publish",
                "categories": ["Late Night Jazz"],
                "tags": ["improvised"],
            },
        )

    responses = all_at_once([create(client, number) for number, client in enumerate(clients)])
    assert [response.status_code for response in responses] == [201] * WRITERS
    category = Term.objects.get(taxonomy=Taxonomy.CATEGORY)
    tag = Term.objects.get(taxonomy=Taxonomy.TAG)
    assert (category.name, tag.name) == ("Late Night Jazz", "improvised")
    assert {tuple(term["id"] for term in response.json()["categories"]) for response in responses} == {(category.pk,)}
    assert {tuple(term["id"] for term in response.json()["tags"]) for response in responses} == {(tag.pk,)}
    assert Event.objects.filter(terms=category).filter(terms=tag).count() == WRITERS
    assert api.get(f"{API}/categories/{category.pk}").json()["count"] == WRITERS


def test_simultaneous_creates_of_one_category_make_it_once(as_role):
    clients = [as_role("editor") for _ in range(WRITERS)]
    responses = all_at_once(
        [lambda client=client: post_json(client, "/categories", {"name": "Open Air"}) for client in clients]
    )
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [201] + [400] * (WRITERS - 1)
    created = next(response.json() for response in responses if response.status_code == 201)
    refusals = [response.json() for response in responses if response.status_code == 400]
    assert {refusal["code"] for refusal in refusals} == {"term_exists"}
    assert {refusal["data"]["term_id"] for refusal in refusals} == {created["id"]}
    assert Term.objects.filter(taxonomy=Taxonomy.CATEGORY).count() == 1


def test_simultaneous_creates_of_tags_whose_slugs_meet_make_each_once(as_role):
    """Different names that sanitise to one slug: each writer's slug check sees the others' terms."""
    names = ["Rock & Roll", "Rock Roll", "rock roll!", "ROCK-ROLL"] * 3
    clients = [as_role("editor") for _ in names]
    responses = all_at_once(
        [
            lambda client=client, name=name: post_json(client, "/tags", {"name": name})
            for client, name in zip(clients, names)
        ]
    )
    assert sorted(response.status_code for response in responses) == [201] * 4 + [400] * 8
    assert all(response.json()["code"] == "term_exists" for response in responses if response.status_code == 400)
    slugs = sorted(Term.objects.filter(taxonomy=Taxonomy.TAG).values_list("slug", flat=True))
    assert slugs == ["rock-roll", "rock-roll-2", "rock-roll-3", "rock-roll-4"]
