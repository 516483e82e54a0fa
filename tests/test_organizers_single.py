"""Single organizer reads by ID and by slug (docs/contract/venues-organizers.md §3): the organizer codes of each step."""

import pytest

from .conftest import API
from .factories import make_event, make_organizer, make_user, make_venue

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("route", ["id", "slug"])
def test_published_organizer_is_read_with_json_ld(api, route):
    organizer = make_organizer("Jazz club", slug="jazz-club")
    path = f"{API}/organizers/{organizer.pk}" if route == "id" else f"{API}/organizers/by-slug/JAZZ-CLUB"
    response = api.get(path)
    assert response.status_code == 200
    assert response.json()["id"] == organizer.pk
    assert response.json()["json_ld"]["@type"] == "Person"


@pytest.mark.parametrize("build", [make_event, make_venue, lambda: None], ids=["event", "venue", "unused"])
def test_ids_that_are_not_organizers_are_400(api, build):
    record = build()
    record_id = record.pk if record is not None else 987654
    response = api.get(f"{API}/organizers/{record_id}")
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_param"


def test_unknown_slug_is_400(api):
    make_venue("Venue slug", slug="venue-slug")
    response = api.get(f"{API}/organizers/by-slug/venue-slug")
    assert response.status_code == 400
    assert response.json()["data"]["params"] == {"slug": "Invalid parameter."}


@pytest.mark.parametrize("role", [None, "subscriber", "contributor", "author"])
@pytest.mark.parametrize("status", ["draft", "pending", "private", "future", "trash"])
def test_others_unpublished_organizers_are_not_accessible(api, as_role, role, status):
    client = as_role(role) if role else api
    organizer = make_organizer(status=status, author=make_user("editor"))
    response = client.get(f"{API}/organizers/{organizer.pk}")
    assert response.status_code == 403
    assert response.json() == {
        "code": "organizer-not-accessible",
        "message": f"You are not allowed to read the organizer with the ID {organizer.pk}.",
        "data": {"status": 403},
    }


@pytest.mark.parametrize("status", ["draft", "trash"])
def test_editors_and_owners_read_unpublished_organizers(as_role, status):
    contributor, editor = as_role("contributor"), as_role("editor")
    organizer = make_organizer(status=status, author=contributor.user)
    for client in (contributor, editor):
        response = client.get(f"{API}/organizers/{organizer.pk}")
        assert response.status_code == 200
        assert response.json()["status"] == status
