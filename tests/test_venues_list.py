"""`GET /venues` (docs/contract/venues-organizers.md §2): every parameter, visibility by role, paging links, query count."""

import datetime as dt
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from events.models import PostStatus

from .conftest import API
from .factories import make_event, make_image, make_venue

pytestmark = pytest.mark.django_db

ROOT = "http://testserver/wp-json/tribe/events/v1"


def listed(client, **query):
    response = client.get(f"{API}/venues", query)
    assert response.status_code == 200, response.content
    return response.json()


def names(body):
    return [venue["venue"] for venue in body["venues"]]


def query_of(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}", dict(parse_qsl(parts.query, keep_blank_values=True))


def invalid(response, name):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert name in body["data"]["params"]


def dated(title, days_ago, **fields):
    return make_venue(title, date=timezone.now() - dt.timedelta(days=days_ago), **fields)


# --- paging -------------------------------------------------------------------------------------


def test_newest_first_ten_per_page_with_totals_headers_and_links(api):
    for n in range(12):
        dated(f"V{n:02}", days_ago=n)
    response = api.get(f"{API}/venues")
    body = response.json()
    assert names(body) == [f"V{n:02}" for n in range(10)]
    assert (body["total"], body["total_pages"]) == (12, 2)
    assert (response["X-TEC-Total"], response["X-TEC-TotalPages"]) == ("12", "2")
    assert body["rest_url"] == f"{ROOT}/venues/?page=1&per_page=10&status=publish"
    assert body["next_rest_url"] == f"{ROOT}/venues/?per_page=10&status=publish&page=2"
    assert "previous_rest_url" not in body
    assert list(body) == ["venues", "rest_url", "next_rest_url", "total", "total_pages"]


def test_second_page_links_back_without_page(api):
    for n in range(5):
        dated(f"V{n}", days_ago=n)
    body = listed(api, page=2, per_page=2)
    assert names(body) == ["V2", "V3"]
    assert body["previous_rest_url"] == f"{ROOT}/venues/?per_page=2&status=publish"
    assert body["next_rest_url"] == f"{ROOT}/venues/?per_page=2&status=publish&page=3"
    last = listed(api, page=3, per_page=2)
    assert names(last) == ["V4"]
    assert "next_rest_url" not in last
    assert last["previous_rest_url"] == f"{ROOT}/venues/?per_page=2&status=publish&page=2"


def test_same_date_ties_are_broken_by_id_descending(api):
    moment = timezone.now() - dt.timedelta(days=1)
    first, second = make_venue("First", date=moment), make_venue("Second", date=moment)
    assert [venue["id"] for venue in listed(api)["venues"]] == [second.pk, first.pk]


def test_per_page_is_capped_at_fifty(api):
    for n in range(52):
        make_venue(f"Bulk {n}", slug=f"bulk-{n}")
    body = listed(api, per_page=500)
    assert len(body["venues"]) == 50
    assert body["total_pages"] == 2
    assert query_of(body["rest_url"])[1]["per_page"] == "50"


def test_empty_first_page_is_200_and_later_pages_404(api):
    body = listed(api)
    assert body == {
        "venues": [],
        "rest_url": f"{ROOT}/venues/?page=1&per_page=10&status=publish",
        "total": 0,
        "total_pages": 0,
    }
    make_venue()
    response = api.get(f"{API}/venues", {"page": 2})
    assert response.status_code == 404
    assert response.json() == {
        "code": "venue-archive-page-not-found",
        "message": "The requested page of venues does not exist.",
        "data": {"status": 404},
    }


@pytest.mark.parametrize("name", ["page", "per_page"])
@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", ""], ids=["zero", "negative", "word", "fraction", "empty"])
def test_page_and_per_page_must_be_positive_integers(api, name, value):
    invalid(api.get(f"{API}/venues", {name: value}), name)


# --- search (§2.1) --------------------------------------------------------------------------------


@pytest.fixture
def london():
    return {
        "temple": make_venue("Le Temple", address="100, Avenue du Temple", city="Paris", country="France"),
        "barbican": make_venue("Barbican", city="London", stateprovince="Greater London"),
        "o2": make_venue("The O2", province="Greater London"),
        "idf": make_venue("Stade", state="Ile de France", zip="93200", phone="+33 1 02"),
        "web": make_venue("Web only", website="https://greater-london.example", country="Greater London"),
    }


@pytest.mark.parametrize(
    "search, expected",
    [
        ("temple avenue", ["temple"]),
        ("greater london", ["barbican", "o2"]),
        ("france, ile de", ["idf"]),
        ("LONDON", ["barbican", "o2"]),
        ("93200", ["idf"]),
        ("+33", ["idf"]),
        ("Temple-free", []),
        ("paris london", []),
    ],
    ids=[
        "any-order-in-address",
        "two-venues",
        "comma-separated",
        "case-insensitive",
        "zip",
        "phone",
        "dash-kept",
        "fragments-in-different-fields",
    ],
)
def test_search_needs_every_fragment_in_one_field(api, london, search, expected):
    body = listed(api, search=search)
    assert sorted(venue["id"] for venue in body["venues"]) == sorted(london[key].pk for key in expected)
    assert body["total"] == len(expected)


def test_search_ignores_country_and_website(api, london):
    assert listed(api, search="france")["total"] == 1  # the state "Ile de France", not the country
    assert listed(api, search="example")["total"] == 0


def test_search_in_name_description_and_excerpt(api):
    by_name = make_venue("Blue note")
    by_description = make_venue("A", description="Home of blue jazz")
    by_excerpt = make_venue("B", excerpt="blue hour")
    make_venue("Red")
    found = {venue["id"] for venue in listed(api, search="blue")["venues"]}
    assert found == {by_name.pk, by_description.pk, by_excerpt.pk}


def test_search_with_no_match_totals_zero_and_echoes_the_search(api):
    make_venue("Somewhere")
    body = listed(api, search="nowhere at all")
    assert (body["venues"], body["total"], body["total_pages"]) == ([], 0, 0)
    assert query_of(body["rest_url"])[1]["search"] == "nowhere at all"


def test_search_of_separators_only_matches_nothing(api):
    make_venue("Somewhere")
    assert listed(api, search="!!! ,,")["total"] == 0


def test_search_is_unicode_aware(api):
    hall = make_venue("北京音乐厅", city="北京")
    make_venue("上海大剧院")
    assert [venue["id"] for venue in listed(api, search="音乐，北京")["venues"]] == [hall.pk]
    assert listed(api, search="Müller")["total"] == 0
    muller = make_venue("Müllerhalle")
    assert [venue["id"] for venue in listed(api, search="müller")["venues"]] == [muller.pk]


def test_search_reads_the_requested_language_falling_back_to_english(api):
    translated = make_venue("Concert hall")
    translated.title_zh_hans = "音乐厅"
    translated.save()
    untranslated = make_venue("Opera house")
    response = api.get(f"/zh-hans{API}/venues", {"search": "音乐"})
    assert [venue["id"] for venue in response.json()["venues"]] == [translated.pk]
    response = api.get(f"/zh-hans{API}/venues", {"search": "opera"})
    assert [venue["id"] for venue in response.json()["venues"]] == [untranslated.pk]
    translation.activate("en")


def test_empty_search_is_refused(api):
    invalid(api.get(f"{API}/venues", {"search": ""}), "search")


# --- links to events ------------------------------------------------------------------------------


def test_event_keeps_the_venue_of_that_event(api):
    venue = make_venue("Linked")
    make_venue("Other")
    event = make_event(venue=venue)
    body = listed(api, event=event.pk)
    assert [item["id"] for item in body["venues"]] == [venue.pk]
    assert query_of(body["rest_url"])[1]["event"] == str(event.pk)


def test_event_of_a_draft_venue_hides_it_from_anonymous_callers(api, as_role):
    venue = make_venue("Draft", status="draft")
    event = make_event(venue=venue)
    assert listed(api, event=event.pk)["total"] == 0
    assert listed(as_role("editor"), event=event.pk)["total"] == 1


@pytest.mark.parametrize("value", ["23", "abc", "0", "venue"], ids=["unknown", "word", "zero", "venue-id"])
def test_event_must_be_an_existing_event(api, value):
    venue = make_venue()
    value = str(venue.pk) if value == "venue" else value
    invalid(api.get(f"{API}/venues", {"event": value}), "event")


@pytest.fixture
def linked_venues():
    published, drafted, unlinked, trashed_event = (
        make_venue(name) for name in ("Published", "Drafted", "Unlinked", "Trash")
    )
    make_event(venue=published)
    make_event(venue=drafted, status="draft")
    make_event(venue=drafted, status="pending")
    make_event(venue=trashed_event, status="trash")
    return published, drafted, unlinked, trashed_event


@pytest.mark.parametrize("value", ["1", "true", "yes", "on", "TRUE"])
def test_has_events_truthy_keeps_venues_with_a_non_draft_event(api, linked_venues, value):
    published, drafted, unlinked, trashed_event = linked_venues
    found = {venue["id"] for venue in listed(api, has_events=value)["venues"]}
    assert found == {published.pk, trashed_event.pk}


@pytest.mark.parametrize("value", ["0", "false", "no", "", "nope"], ids=["zero", "false", "no", "empty", "other-word"])
def test_has_events_falsy_keeps_venues_without_one(api, linked_venues, value):
    published, drafted, unlinked, trashed_event = linked_venues
    body = listed(api, has_events=value)
    assert {venue["id"] for venue in body["venues"]} == {drafted.pk, unlinked.pk}
    assert query_of(body["rest_url"])[1]["has_events"] == value


@pytest.fixture
def upcoming_venues():
    soon, past, private, draft, none = (make_venue(name) for name in ("Soon", "Past", "Private", "DraftOnly", "None"))
    tomorrow = dt.datetime.combine(timezone.now().date() + dt.timedelta(days=1), dt.time(10))
    make_event(venue=soon, start=tomorrow)
    make_event(venue=past, start=tomorrow - dt.timedelta(days=30))
    make_event(venue=private, start=tomorrow, status="private")
    make_event(venue=draft, start=tomorrow, status="draft")
    return {"soon": soon, "past": past, "private": private, "draft": draft, "none": none}


def ids_of(venues, keys):
    return {venues[key].pk for key in keys}


def test_only_with_upcoming_for_anonymous_counts_published_events(api, upcoming_venues):
    body = listed(api, only_with_upcoming="true")
    assert {venue["id"] for venue in body["venues"]} == ids_of(upcoming_venues, ["soon"])
    assert query_of(body["rest_url"])[1]["only_with_upcoming"] == "true"


def test_only_with_upcoming_for_editors_counts_private_events(as_role, upcoming_venues):
    found = {venue["id"] for venue in listed(as_role("editor"), only_with_upcoming="1")["venues"]}
    assert ids_of(upcoming_venues, ["soon", "private"]) <= found
    assert not ids_of(upcoming_venues, ["past", "none"]) & found


@pytest.mark.parametrize("value", ["false", "0", "no"])
def test_only_with_upcoming_falsy_filters_nothing(api, upcoming_venues, value):
    assert listed(api, only_with_upcoming=value)["total"] == 5


def test_filters_intersect(api, upcoming_venues):
    body = listed(api, only_with_upcoming="1", has_events="1", search="soon")
    assert [venue["id"] for venue in body["venues"]] == [upcoming_venues["soon"].pk]
    assert listed(api, only_with_upcoming="1", search="past")["total"] == 0


# --- status and visibility by role ----------------------------------------------------------------


@pytest.fixture
def statuses(as_role):
    contributor = as_role("contributor")
    records = {status: make_venue(f"Venue {status}", status=status) for status in PostStatus.values}
    records["own-draft"] = make_venue("Own draft", status="draft", author=contributor.user)
    return contributor, records


def test_anonymous_sees_published_only(api, statuses):
    _contributor, records = statuses
    assert [venue["id"] for venue in listed(api)["venues"]] == [records["publish"].pk]
    assert listed(api, status="publish")["total"] == 1


@pytest.mark.parametrize("role", [None, "subscriber"])
@pytest.mark.parametrize("status", ["draft", "publish,draft", "any", "foo"])
def test_callers_without_the_edit_right_may_only_ask_for_publish(api, as_role, statuses, role, status):
    client = as_role(role) if role else api
    invalid(client.get(f"{API}/venues", {"status": status}), "status")


def test_editors_see_every_visible_status_of_every_author_by_default(as_role, statuses):
    _contributor, records = statuses
    body = listed(as_role("editor"))
    expected = {records[key].pk for key in ("publish", "future", "draft", "pending", "private", "own-draft")}
    assert {venue["id"] for venue in body["venues"]} == expected
    assert query_of(body["rest_url"])[1]["status"] == "any"
    assert query_of(body["next_rest_url"] if "next_rest_url" in body else body["rest_url"])[1]["status"] == "any"


@pytest.mark.parametrize(
    "status, keys",
    [
        ("trash", ["trash"]),
        ("draft, pending", ["draft", "pending", "own-draft"]),
        ("any", ["publish", "future", "draft", "pending", "private", "own-draft"]),
    ],
    ids=["trash", "csv", "any"],
)
def test_editors_filter_by_status(as_role, statuses, status, keys):
    _contributor, records = statuses
    body = listed(as_role("editor"), status=status)
    assert {venue["id"] for venue in body["venues"]} == {records[key].pk for key in keys}


def test_editors_are_refused_unknown_statuses(as_role):
    invalid(as_role("editor").get(f"{API}/venues", {"status": "publish,foo"}), "status")


def test_contributors_see_published_rows_and_only_their_own_others(statuses):
    contributor, records = statuses
    found = {venue["id"] for venue in listed(contributor)["venues"]}
    assert found == {records["publish"].pk, records["own-draft"].pk}
    assert {venue["id"] for venue in listed(contributor, status="draft")["venues"]} == {records["own-draft"].pk}


def test_rest_url_echoes_every_argument_and_the_links_keep_them(as_role):
    event = make_event(venue=make_venue("Alpha one"))
    for n in range(3):
        make_event(venue=make_venue(f"Alpha {n}"))
    client = as_role("editor")
    body = listed(
        client, page=1, per_page=1, search="alpha", has_events="yes", only_with_upcoming="1", status="publish"
    )
    base, query = query_of(body["rest_url"])
    assert base == f"{ROOT}/venues/"
    assert query == {
        "page": "1",
        "per_page": "1",
        "search": "alpha",
        "has_events": "yes",
        "only_with_upcoming": "1",
        "status": "publish",
    }
    assert query_of(body["next_rest_url"])[1] == {**query, "page": "2"}
    with_event = listed(client, event=event.pk, wpml_language="zh-hans")
    translation.activate("en")
    assert query_of(with_event["rest_url"])[1] == {
        "page": "1",
        "per_page": "10",
        "event": str(event.pk),
        "status": "any",
        "wpml_language": "zh-hans",
    }


# --- cost ---------------------------------------------------------------------------------------


def test_query_count_does_not_grow_with_the_page_size(as_role, django_assert_max_num_queries):
    client = as_role("editor")
    for n in range(50):
        make_venue(f"Venue {n}", image=make_image() if n % 10 == 0 else None, password="pw" if n % 7 == 0 else "")
    counts = []
    for per_page in (1, 50):
        query = {"per_page": per_page, "context": "edit", "search": "venue"}
        client.get(f"{API}/venues", query)  # stores the records the first read builds
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"{API}/venues", query)
        assert len(response.json()["venues"]) == per_page
        counts.append(len(queries))
    # Stored records are read in one query, and protected ones (what they show depends on the
    # request) are built in one more when the page has any, whatever their number.
    assert counts[1] in (counts[0], counts[0] + 1)
    query = {"per_page": 50, "has_events": "1", "only_with_upcoming": "1"}
    client.get(f"{API}/venues", query)
    with django_assert_max_num_queries(counts[1]):
        client.get(f"{API}/venues", query)
