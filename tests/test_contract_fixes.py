"""Contract details that cut across routes: scheduling by publication date, the language parameter's
enum and OPTIONS answers, language-independent global IDs, and `Location` on every create."""

import pytest
from django.utils import translation

from events.api.parameters.fields import Params
from events.api.routes import ROUTES

from .conftest import API, comparable_endpoints, post_json
from .factories import make_event, make_organizer, make_venue

pytestmark = pytest.mark.django_db

NS = "/tribe/events/v1"
# docs/contract/discovery.md §1: the enum every endpoint publishes for the language parameter.
LANGUAGE_ENUM = ["zh-hans", "zh-hant", "en"]
PREFIXES = {"en": "", "zh-hans": "/zh-hans", "zh-hant": "/zh-hant"}


# --- status follows the publication date (docs/contract/events.md §4.1) ----------------------------------------

# (kind, status sent, date sent) → stored status. "+1 minute" is exactly one minute ahead of the
# clock the write reads, the boundary from which WordPress schedules.
SCHEDULING_CASES = [
    ("venues", None, "+1 minute", "future"),
    ("venues", "publish", "+1 minute", "future"),
    ("venues", "future", "+1 minute", "future"),
    ("venues", "publish", "+59 seconds", "publish"),
    ("venues", "future", "+59 seconds", "publish"),
    ("organizers", "publish", "+1 minute", "future"),
    ("organizers", "future", "+59 seconds", "publish"),
]


@pytest.mark.parametrize(
    "collection, status, date, stored",
    SCHEDULING_CASES,
    ids=[f"{kind}-{status or 'default'}-{date}" for kind, status, date, _ in SCHEDULING_CASES],
)
@pytest.mark.parametrize("date_field", ["date", "date_utc"])
def test_publication_date_at_least_a_minute_ahead_schedules(editor, collection, status, date, stored, date_field):
    name_key = collection.removesuffix("s")
    data = {name_key: f"Dated {collection}", date_field: date}
    if status is not None:
        data["status"] = status
    response = post_json(editor, f"/{collection}", data)
    assert response.status_code == 201, response.content
    assert response.json()["status"] == stored


@pytest.mark.parametrize(
    "status, date, stored",
    [
        (None, "+1 minute", "future"),
        ("publish", "+1 minute", "future"),
        ("publish", "+59 seconds", "publish"),
        ("future", "+59 seconds", "publish"),
    ],
)
@pytest.mark.parametrize("date_field", ["date", "date_utc"])
def test_events_schedule_from_the_same_boundary(editor, status, date, stored, date_field):
    data = {"title": "Dated event", "start_date": "2031-05-01 10:00", "end_date": "2031-05-01 11:00", date_field: date}
    if status is not None:
        data["status"] = status
    response = post_json(editor, "/events", data)
    assert response.status_code == 201, response.content
    assert response.json()["status"] == stored


def test_a_contributor_asking_for_a_future_date_still_gets_pending(as_role):
    response = post_json(as_role("contributor"), "/venues", {"venue": "Soon", "status": "future", "date": "+1 day"})
    assert response.json()["status"] == "pending"


# --- the language parameter: one enum everywhere --------------------------------------------------


def test_every_index_endpoint_publishes_the_contract_enum(api):
    routes = api.get(f"{API}/").json()["routes"]
    published = [
        endpoint["args"]["wpml_language"]["enum"] for route in routes.values() for endpoint in route["endpoints"]
    ]
    assert len(published) == sum(len(route.endpoints) for route in ROUTES)
    assert all(enum == LANGUAGE_ENUM for enum in published)


def _enums_naming_languages(node):
    if isinstance(node, dict):
        if "en" in node.get("enum", []):
            yield node["enum"]
        for value in node.values():
            yield from _enums_naming_languages(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums_naming_languages(value)


def test_the_doc_route_publishes_the_same_enum(api):
    document = api.get(f"{API}/doc").json()
    enums = list(_enums_naming_languages(document["paths"]))
    assert len(enums) >= len(document["paths"])
    assert all(enum == LANGUAGE_ENUM for enum in enums)


def test_a_refused_language_names_the_values_as_the_contract_words_it(api):
    response = api.get(f"{API}/events", {"wpml_language": "fr"})
    assert response.status_code == 400
    body = response.json()
    assert body["data"]["params"]["wpml_language"] == "wpml_language is not one of en, zh-hans, zh-hant."
    assert body["data"]["details"]["wpml_language"]["code"] == "rest_not_in_enum"


@pytest.mark.parametrize("language", LANGUAGE_ENUM)
def test_every_published_value_is_accepted(api, language):
    assert api.get(f"{API}/events", {"wpml_language": language}).status_code == 200


# --- OPTIONS honours the language parameter --------------------------------------------------------


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_options_descriptions_follow_the_language_parameter(api, language):
    answered = api.options(f"{API}/events?wpml_language={language}")
    assert answered.status_code == 200
    translated = api.get(f"{PREFIXES[language]}{API}/").json()["routes"][f"{NS}/events"]
    assert comparable_endpoints(answered.json()["endpoints"]) == comparable_endpoints(translated["endpoints"])
    with translation.override(language):
        expected = str(Params().fields["wpml_language"].help_text)
    assert answered.json()["endpoints"][0]["args"]["wpml_language"]["description"] == expected


def test_options_language_parameter_beats_the_path_language(api):
    answered = api.options(f"/zh-hans{API}/venues?wpml_language=en").json()
    english = api.get(f"{API}/").json()["routes"][f"{NS}/venues"]
    assert comparable_endpoints(answered["endpoints"]) == comparable_endpoints(english["endpoints"])


def test_options_with_an_unknown_language_answers_in_the_path_language(api):
    # WordPress answers OPTIONS before it validates parameters.
    answered = api.options(f"/zh-hant{API}/events?wpml_language=fr")
    assert answered.status_code == 200
    traditional = api.get(f"/zh-hant{API}/").json()["routes"][f"{NS}/events"]
    assert comparable_endpoints(answered.json()["endpoints"]) == comparable_endpoints(traditional["endpoints"])


# --- global IDs name the record, whatever the language (docs/contract/events.md §1) -------------------------------


@pytest.fixture
def event_with_links():
    venue = make_venue("Town hall")
    organizer = make_organizer("Music society")
    return make_event("Concert", venue=venue, organizers=[organizer])


def _global_ids(event_body):
    ids = [event_body["global_id"], *event_body["global_id_lineage"]]
    ids += [event_body["venue"]["global_id"], *event_body["venue"]["global_id_lineage"]]
    for organizer in event_body["organizer"]:
        ids += [organizer["global_id"], *organizer["global_id_lineage"]]
    return ids


@pytest.mark.parametrize("language", list(PREFIXES))
def test_global_ids_are_the_same_in_every_language(api, event_with_links, language):
    event = event_with_links
    organizer_id = event.organizers.get().pk
    body = api.get(f"{PREFIXES[language]}{API}/events/{event.pk}").json()
    assert _global_ids(body) == [
        f"testserver?id={event.pk}",
        f"testserver?id={event.pk}",
        f"testserver?id={event.venue_id}",
        f"testserver?id={event.venue_id}",
        f"testserver?id={organizer_id}",
        f"testserver?id={organizer_id}",
    ]


@pytest.mark.parametrize("language", list(PREFIXES))
def test_global_ids_by_parameter_and_on_every_route(api, event_with_links, language):
    event = event_with_links
    query = {"wpml_language": language}
    listed = api.get(f"{API}/events", query).json()["events"][0]
    assert listed["global_id"] == f"testserver?id={event.pk}"
    venue = api.get(f"{PREFIXES[language]}{API}/venues/{event.venue_id}").json()
    assert (venue["global_id"], venue["global_id_lineage"]) == (
        f"testserver?id={event.venue_id}",
        [f"testserver?id={event.venue_id}"],
    )
    organizers = api.get(f"{PREFIXES[language]}{API}/organizers").json()["organizers"]
    assert [item["global_id"] for item in organizers] == [f"testserver?id={organizers[0]['id']}"]


@pytest.mark.parametrize("language", list(PREFIXES))
def test_global_ids_keep_the_path_the_site_is_mounted_under(api, event_with_links, language):
    event = event_with_links
    body = api.get(f"{PREFIXES[language]}{API}/events/{event.pk}", SCRIPT_NAME="/calendar").json()
    assert body["rest_url"] == f"http://testserver/calendar{PREFIXES[language]}{API}/events/{event.pk}"
    assert body["global_id"] == f"testserver/calendar?id={event.pk}"
    assert body["venue"]["global_id"] == f"testserver/calendar?id={event.venue_id}"


def test_global_ids_follow_force_script_name(api, event_with_links, settings):
    settings.FORCE_SCRIPT_NAME = "/site/"
    body = api.get(f"/zh-hant{API}/events/{event_with_links.pk}").json()
    assert body["global_id"] == f"testserver/site?id={event_with_links.pk}"


def test_global_ids_in_write_responses_have_no_language_prefix(editor):
    response = post_json(editor, "/venues", {"venue": "新场地"}, prefix="/zh-hans")
    body = response.json()
    assert body["global_id_lineage"] == [body["global_id"]] == [f"testserver?id={body['id']}"]


# --- Location on every 201 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "collection, data",
    [
        ("venues", {"venue": "Blue Note"}),
        ("organizers", {"organizer": "Jazz Society"}),
        ("events", {"title": "Gig", "start_date": "2031-01-01 20:00", "end_date": "2031-01-01 22:00"}),
        ("categories", {"name": "Jazz"}),
        ("tags", {"name": "late"}),
    ],
)
@pytest.mark.parametrize("prefix", ["", "/zh-hant"], ids=["en", "zh-hant"])
def test_every_create_sends_the_location_of_the_new_record(editor, collection, data, prefix):
    response = post_json(editor, f"/{collection}", data, prefix=prefix)
    assert response.status_code == 201, response.content
    record_id = response.json()["id"]
    assert response["Location"] == f"http://testserver{prefix}{API}/{collection}/{record_id}"
    assert editor.get(response["Location"]).json()["id"] == record_id


def test_a_reused_duplicate_is_located_too(editor):
    existing = make_venue("Blue Note")
    response = post_json(editor, "/venues", {"venue": "blue note", "city": "Rome"})
    assert (response.status_code, response.json()["id"]) == (201, existing.pk)
    assert response["Location"] == f"http://testserver{API}/venues/{existing.pk}"
