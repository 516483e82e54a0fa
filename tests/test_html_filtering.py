"""Stored HTML by role: authors and contributors get WordPress's kses on save, editors and administrators do not."""

import pytest

from events.models import Event, Organizer, Venue

from .conftest import post_json

pytestmark = pytest.mark.django_db

HOSTILE = (
    '<b>kept</b><script>alert(1)</script><img src="x.png" onerror="alert(2)"><a href="javascript:alert(3)">link</a>'
)
DANGEROUS = ("<script", "onerror", "javascript:")
FILTERED_ROLES = ["author", "contributor"]
UNFILTERED_ROLES = ["administrator", "editor"]


def create_event(client, **fields):
    body = {"title": "Night", "start_date": "2031-02-01 20:00", "end_date": "2031-02-01 22:00", **fields}
    response = post_json(client, "/events", body)
    assert response.status_code == 201, response.content
    return Event.objects.get(pk=response.json()["id"])


def stored(record, field):
    return getattr(record, f"{field}_en")


@pytest.mark.parametrize("role", FILTERED_ROLES + UNFILTERED_ROLES)
@pytest.mark.parametrize("field", ["title", "description", "excerpt"])
def test_event_fields(as_role, role, field):
    event = create_event(as_role(role), **{field: f"Text {HOSTILE}"})
    value = stored(event, field)
    assert "<b>kept</b>" in value
    if role in FILTERED_ROLES:
        assert not any(marker in value for marker in DANGEROUS), value
    else:
        assert value == f"Text {HOSTILE}"


@pytest.mark.parametrize("role", FILTERED_ROLES + UNFILTERED_ROLES)
def test_nested_venue_and_organizer_descriptions(as_role, role):
    event = create_event(
        as_role(role),
        venue={"venue": "Hall", "description": HOSTILE},
        organizer=[{"organizer": "Ada", "description": HOSTILE}],
    )
    for record in (Venue.objects.get(pk=event.venue_id), Organizer.objects.get()):
        value = stored(record, "description")
        assert "<b>kept</b>" in value
        assert any(marker in value for marker in DANGEROUS) is (role in UNFILTERED_ROLES)


@pytest.mark.parametrize("route, name_key", [("/venues", "venue"), ("/organizers", "organizer")])
def test_linked_routes_filter_contributors(as_role, route, name_key):
    response = post_json(as_role("contributor"), route, {name_key: "Place", "description": HOSTILE})
    assert response.status_code == 201
    assert not any(marker in response.content.decode() for marker in DANGEROUS)


def test_what_post_kses_allows_survives(as_role):
    html = (
        '<p class="lead" data-x="1" aria-label="intro">A <a href="https://example.org/" target="_blank">link</a>, '
        '<img src="https://example.org/a.png" alt="A" width="10"> and <!--more--> a list</p><ul><li>one</li></ul>'
    )
    event = create_event(as_role("contributor"), description=html)
    assert stored(event, "description") == html


def test_plain_text_with_ampersands_is_stored_as_sent(as_role):
    event = create_event(as_role("author"), description="Tom & Jerry, 5 > 3")
    assert stored(event, "description") == "Tom & Jerry, 5 > 3"


def test_the_admin_filters_a_contributors_html_in_every_language():
    from io import StringIO

    from django.core.management import call_command
    from django.test import Client

    from .test_admin import event_form

    call_command("events_user", "carla", "--password", "admin-pass-123", "--role", "contributor", stdout=StringIO())
    browser = Client()
    assert browser.login(username="carla", password="admin-pass-123")
    response = browser.post(
        "/admin/events/event/add/",
        event_form(
            status="draft", title_en="Gig", description_en=HOSTILE, description_zh_hant=HOSTILE, excerpt_zh_hans=HOSTILE
        ),
    )
    assert response.status_code == 302, response.content[:500]
    event = Event.objects.get()
    for value in (event.description_en, event.description_zh_hant, event.excerpt_zh_hans):
        assert "<b>kept</b>" in value
        assert not any(marker in value for marker in DANGEROUS)
