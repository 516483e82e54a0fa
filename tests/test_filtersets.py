"""The list filters are django-filter FilterSets: a site subclasses one, names it in
EVENTS["FILTERSETS"], and its filters work through the API list, the namespace index and the
OpenAPI document like the app's own (docs/install.md, "Extending list filters")."""

import datetime as dt

import pytest

from events.queries.filtersets import EventFilterSet

from . import site_filters
from .conftest import API
from .factories import make_event, make_venue

pytestmark = pytest.mark.django_db

SITE_FILTERSETS = {
    "events": "tests.site_filters.AllDayEventFilterSet",
    "venues": "tests.site_filters.CityVenueFilterSet",
}


@pytest.fixture
def site_filtersets(settings):
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "FILTERSETS": SITE_FILTERSETS}
    site_filters.parsed_values.clear()


def titles(response):
    assert response.status_code == 200, response.content
    return sorted(record["title"] for record in response.json()["events"])


def index_args(api, route):
    index = api.get(f"{API}/").json()
    return index["routes"][f"/{API.removeprefix('/wp-json/')}{route}"]["endpoints"][0]["args"]


def test_a_site_filter_narrows_the_api_list(api, site_filtersets):
    make_event("Festival", all_day=True)
    make_event("Concert")
    assert titles(api.get(f"{API}/events", {"all_day": "true"})) == ["Festival"]
    assert titles(api.get(f"{API}/events", {"all_day": "false"})) == ["Concert"]
    # The app's own filters still apply beside it.
    assert titles(api.get(f"{API}/events", {"all_day": "true", "search": "concert"})) == []


def test_a_site_filter_with_a_parser_reads_each_value_once(api, site_filtersets):
    first, second = make_event("First"), make_event("Second")
    assert titles(api.get(f"{API}/events", {"from_id": str(second.pk)})) == ["Second"]
    assert site_filters.parsed_values == [str(second.pk)]
    assert first.pk < second.pk


def test_a_site_filter_refuses_as_the_contract_words_it(api, site_filtersets):
    response = api.get(f"{API}/events", {"from_id": "abc"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert body["data"]["params"] == {"from_id": "Invalid parameter."}


def test_site_filters_appear_in_the_namespace_index(api, site_filtersets):
    args = index_args(api, "/events")
    assert args["all_day"] == {
        "description": "Only all-day events (true) or only timed ones (false).",
        "type": "boolean",
        "required": False,
    }
    assert args["from_id"]["type"] == "integer"
    # After the app's filters, before the language parameter every route takes.
    assert list(args)[-3:] == ["all_day", "from_id", "wpml_language"]
    assert "city" in index_args(api, "/venues")


def test_site_filters_appear_in_the_openapi_document(api, site_filtersets):
    document = api.get(f"{API}/doc").json()
    parameters = {parameter["name"]: parameter for parameter in document["paths"]["/events"]["get"]["parameters"]}
    assert parameters["all_day"]["schema"]["type"] == "string"
    assert parameters["from_id"]["schema"] == {"type": "integer", "minimum": 1}


def test_a_site_venue_filter_narrows_the_venues_list(api, site_filtersets):
    make_venue("Hall", city="Rome")
    make_venue("Barn", city="Oslo")
    response = api.get(f"{API}/venues", {"city": "rome"})
    assert response.status_code == 200
    assert [venue["venue"] for venue in response.json()["venues"]] == ["Hall"]


def test_the_calendar_files_take_a_site_filter(client, site_filtersets):
    make_event("Festival", all_day=True)
    make_event("Concert")
    response = client.get("/events/", {"all_day": "true", "ical": "1"})
    assert response.status_code == 200
    assert b"SUMMARY:Festival" in response.content
    assert b"SUMMARY:Concert" not in response.content


def test_without_the_setting_the_site_parameters_are_ignored(api):
    make_event("Festival", all_day=True)
    make_event("Concert")
    assert titles(api.get(f"{API}/events", {"all_day": "true"})) == ["Concert", "Festival"]
    assert "all_day" not in index_args(api, "/events")


@pytest.mark.parametrize("rows", [1, 20])
def test_a_site_filter_costs_no_query_per_row(api, site_filtersets, django_assert_max_num_queries, rows):
    for number in range(rows):
        make_event(f"Festival {number}", all_day=True)
    query = {"all_day": "true", "per_page": 50}
    api.get(f"{API}/events", query)
    # As the app's own filters (tests/test_events_list.py): a warm list costs the same few queries.
    with django_assert_max_num_queries(4):
        assert len(titles(api.get(f"{API}/events", query))) == rows


def test_the_public_feeds_read_the_filters_of_the_filterset():
    values = EventFilterSet.parse({"featured": "true", "start_date": "2031-06-01"})
    filterset = EventFilterSet(data=values)
    assert filterset.values["featured"] is True
    assert filterset.window.bounds[0].value == dt.datetime(2031, 6, 1, 0, 0)
