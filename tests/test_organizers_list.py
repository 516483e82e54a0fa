"""`GET /organizers` (docs/contract/venues-organizers.md §2): what differs from venues, and the shared rules on this route."""

import datetime as dt
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from .conftest import API
from .factories import make_event, make_image, make_organizer, make_venue

pytestmark = pytest.mark.django_db

ROOT = "http://testserver/wp-json/tribe/events/v1"


def listed(client, **query):
    response = client.get(f"{API}/organizers", query)
    assert response.status_code == 200, response.content
    return response.json()


def ids(body):
    return {organizer["id"] for organizer in body["organizers"]}


def invalid(response, name):
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "rest_invalid_param"
    assert name in response.json()["data"]["params"]


def test_envelope_uses_the_organizers_key(api):
    organizer = make_organizer("Only")
    response = api.get(f"{API}/organizers")
    body = response.json()
    assert list(body) == ["organizers", "rest_url", "total", "total_pages"]
    assert [item["id"] for item in body["organizers"]] == [organizer.pk]
    assert body["rest_url"] == f"{ROOT}/organizers/?page=1&per_page=10&status=publish"
    assert (response["X-TEC-Total"], response["X-TEC-TotalPages"]) == ("1", "1")


def test_newest_first_and_page_links(api):
    now = timezone.now()
    for n in range(3):
        make_organizer(f"O{n}", date=now - dt.timedelta(days=n))
    body = listed(api, per_page=2, page=2)
    assert [item["organizer"] for item in body["organizers"]] == ["O2"]
    assert body["previous_rest_url"] == f"{ROOT}/organizers/?per_page=2&status=publish"


def test_empty_later_page_is_404(api):
    response = api.get(f"{API}/organizers", {"page": 3})
    assert response.status_code == 404
    assert response.json()["code"] == "organizer-archive-page-not-found"


@pytest.fixture
def searchable():
    return {
        "name": make_organizer("Jazz Society"),
        "phone": make_organizer("P", phone="+44 20 7946 0000"),
        "email": make_organizer("E", email="jazz@society.example"),
        "website": make_organizer("W", website="https://jazz-society.example"),
        "content": make_organizer("C", description="The jazz society of nowhere"),
        "other": make_organizer("Rock club"),
    }


@pytest.mark.parametrize(
    "search, expected",
    [
        ("society jazz", ["name", "email", "website", "content"]),
        ("jazz-society", ["website"]),
        ("7946", ["phone"]),
        ("rock society", []),
    ],
    ids=["name-email-website-content", "website-with-dash", "phone", "fragments-in-two-records"],
)
def test_search_covers_name_content_phone_email_and_website(api, searchable, search, expected):
    body = listed(api, search=search)
    assert ids(body) == {searchable[key].pk for key in expected}
    assert body["total"] == len(expected)


def test_event_keeps_the_organizers_of_that_event(api):
    first, second = make_organizer("First"), make_organizer("Second")
    make_organizer("Unlinked")
    event = make_event(organizers=[first, second])
    assert ids(listed(api, event=event.pk)) == {first.pk, second.pk}


@pytest.mark.parametrize("value", ["23", "x"], ids=["unknown", "word"])
def test_event_must_exist(api, value):
    invalid(api.get(f"{API}/organizers", {"event": value}), "event")


def test_event_id_of_an_organizer_is_refused(api):
    organizer = make_organizer()
    invalid(api.get(f"{API}/organizers", {"event": organizer.pk}), "event")


def test_has_events_and_only_with_upcoming(api):
    tomorrow = dt.datetime.combine(timezone.now().date() + dt.timedelta(days=1), dt.time(9))
    upcoming, past, drafted, alone = (make_organizer(name) for name in ("Upcoming", "Past", "Drafted", "Alone"))
    make_event(organizers=[upcoming], start=tomorrow)
    make_event(organizers=[past], start=tomorrow - dt.timedelta(days=20))
    make_event(organizers=[drafted], start=tomorrow, status="draft")
    assert ids(listed(api, has_events="1")) == {upcoming.pk, past.pk}
    assert ids(listed(api, has_events="0")) == {drafted.pk, alone.pk}
    assert ids(listed(api, only_with_upcoming="yes")) == {upcoming.pk}
    assert ids(listed(api, only_with_upcoming="no")) == {upcoming.pk, past.pk, drafted.pk, alone.pk}


def test_status_by_role(api, as_role):
    published = make_organizer("Pub")
    draft = make_organizer("Draft", status="draft")
    assert ids(listed(api)) == {published.pk}
    invalid(api.get(f"{API}/organizers", {"status": "draft"}), "status")
    editor = as_role("editor")
    assert ids(listed(editor)) == {published.pk, draft.pk}
    assert ids(listed(editor, status="draft")) == {draft.pk}
    # The organizer right is checked, not the venue right: both come with the role, so the
    # contributor's own drafts show and others' do not.
    contributor = as_role("contributor")
    own = make_organizer("Own", status="pending", author=contributor.user)
    assert ids(listed(contributor)) == {published.pk, own.pk}


def test_query_count_does_not_grow_with_the_page_size(api, django_assert_max_num_queries):
    venue = make_venue()
    for n in range(50):
        organizer = make_organizer(
            f"Org {n}", image=make_image() if n % 10 == 0 else None, password="pw" if n % 9 == 0 else ""
        )
        if n % 5 == 0:
            make_event(organizers=[organizer], venue=venue)
    counts = []
    for per_page in (1, 50):
        with CaptureQueriesContext(connection) as queries:
            response = api.get(f"{API}/organizers", {"per_page": per_page, "search": "org"})
        assert len(response.json()["organizers"]) == per_page
        counts.append(len(queries))
    assert counts[0] == counts[1]
    with django_assert_max_num_queries(counts[0]):
        response = api.get(f"{API}/organizers", {"per_page": 50, "has_events": "1", "only_with_upcoming": "1"})
    assert response.json()["total"] == 10


def test_links_echo_the_filters(api):
    event = make_event(organizers=[make_organizer("Linked")])
    body = listed(api, event=event.pk, search="linked", only_with_upcoming="1", has_events="1")
    query = dict(parse_qsl(urlsplit(body["rest_url"]).query))
    assert query == {
        "page": "1",
        "per_page": "10",
        "search": "linked",
        "event": str(event.pk),
        "has_events": "1",
        "only_with_upcoming": "1",
        "status": "publish",
    }
