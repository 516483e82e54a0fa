"""Event updates (docs/contract/events.md §5): only the fields sent change, explicit empty values unlink, by-slug lookup rules."""

import pytest
from django.utils import translation

from events.models import Event, PostStatus, Venue
from events.services.posts import move_to_trash

from .conftest import API
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_venue
from .test_events_create import error_of, table_counts

pytestmark = pytest.mark.django_db

# Always rewritten by a save.
VOLATILE = ("modified", "modified_utc")


@pytest.fixture
def full_event(editor):
    """An event with every field set, made through the API; returns its record."""
    response = editor.post(
        f"{API}/events",
        {
            "title": "Full event",
            "description": "All the details",
            "excerpt": "Short",
            "slug": "full-event",
            "start_date": "2030-01-05 10:00",
            "end_date": "2030-01-05 12:00",
            "timezone": "America/New_York",
            "date": "2024-02-03 04:05:06",
            "cost": "€5",
            "website": "https://full.example/",
            "show_map": True,
            "show_map_link": True,
            "hide_from_listings": True,
            "sticky": True,
            "featured": True,
            "image": str(make_image().pk),
            "categories": [make_category("Music").pk],
            "tags": [make_tag("Live").pk],
            "venue": make_venue("Hall").pk,
            "organizer": [make_organizer("Ann").pk, make_organizer("Bob").pk],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def update(client, event_id, method="post", **fields):
    return getattr(client, method)(f"{API}/events/{event_id}", fields, format="json")


def without(record, *keys):
    return {key: value for key, value in record.items() if key not in (*VOLATILE, *keys)}


def read(client, event_id):
    """The single read without what only single reads add (json_ld, also in the embedded venue and organizers)."""
    record = without(client.get(f"{API}/events/{event_id}").json(), "json_ld")
    if record["venue"]:
        record["venue"] = {key: value for key, value in record["venue"].items() if key != "json_ld"}
    record["organizer"] = [
        {key: value for key, value in item.items() if key != "json_ld"} for item in record["organizer"]
    ]
    return record


# --- only what is sent changes -------------------------------------------------------------------


# (field sent, value, record keys that may change because of it)
SINGLE_CHANGES = [
    ("title", "Renamed", ("title",)),
    ("description", "New details", ("description",)),
    ("excerpt", "New excerpt", ("excerpt",)),
    ("slug", "moved-slug", ("slug", "url")),
    ("cost", "€7", ("cost", "cost_details")),
    ("website", "https://other.example/", ("website",)),
    ("featured", False, ("featured",)),
    ("sticky", False, ("sticky",)),
    ("show_map", False, ("show_map",)),
    ("show_map_link", False, ("show_map_link",)),
    ("hide_from_listings", False, ("hide_from_listings",)),
    ("date", "2024-06-07 08:09:10", ("date", "date_utc")),
    # A draft no longer counts in its terms' published-event count.
    ("status", "draft", ("status", "url", "categories", "tags")),
    ("categories", "Rock", ("categories",)),
    ("tags", "Outdoor", ("tags",)),
    ("venue", {"venue": "Other hall"}, ("venue",)),
    ("organizer", [{"organizer": "Cleo"}], ("organizer",)),
    ("image", "", ("image",)),
    ("start_date", "2030-03-01 09:00", ()),
    ("end_date", "2030-03-01 09:00", ()),
]


@pytest.mark.parametrize(
    "name, value, changing", SINGLE_CHANGES, ids=[f"{name}" for name, _value, _changing in SINGLE_CHANGES]
)
def test_an_update_changes_only_what_it_sends(editor, full_event, name, value, changing):
    response = update(editor, full_event["id"], **{name: value})
    assert response.status_code == 200, response.json()
    after = response.json()
    assert without(after, *changing) == without(full_event, *changing)
    assert read(editor, full_event["id"]) == without(after)


def test_a_lone_start_or_end_is_ignored(editor, full_event):
    for name in ("start_date", "end_date"):
        body = update(editor, full_event["id"], **{name: "2031-01-01 09:00"}).json()
        assert (body["start_date"], body["end_date"]) == ("2030-01-05 10:00:00", "2030-01-05 12:00:00")


@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_the_rule_for_a_lone_start_or_end_is_where_clients_read_the_parameters(api, language):
    prefix = "" if language == "en" else f"/{language}"
    index = api.get(f"{prefix}/wp-json/tribe/events/v1/").json()
    update = next(
        endpoint
        for endpoint in index["routes"]["/tribe/events/v1/events/(?P<id>\\d+)"]["endpoints"]
        if "PATCH" in endpoint["methods"]
    )
    for name in ("start_date", "end_date"):
        description = update["args"][name]["description"]
        assert "start_date" in description and "end_date" in description
    document = api.get(f"{prefix}/wp-json/tribe/events/v1/doc").json()
    assert "start_date" in str(document["paths"]) and update["args"]["end_date"]["description"] in str(document)


def test_a_lone_start_or_end_is_still_validated(editor, full_event):
    response = update(editor, full_event["id"], start_date="garbage")
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["start_date"]


def test_both_ends_move_the_event(editor, full_event):
    body = update(editor, full_event["id"], start_date="2031-02-03 18:00", end_date="2031-02-03 20:00").json()
    assert (body["start_date"], body["end_date"]) == ("2031-02-03 18:00:00", "2031-02-03 20:00:00")
    assert (body["utc_start_date"], body["timezone"]) == ("2031-02-03 23:00:00", "America/New_York")


def test_a_new_time_zone_keeps_the_wall_clock(editor, full_event):
    body = update(editor, full_event["id"], timezone="Europe/Paris").json()
    assert (body["start_date"], body["end_date"]) == ("2030-01-05 10:00:00", "2030-01-05 12:00:00")
    assert (body["utc_start_date"], body["timezone"], body["timezone_abbr"]) == (
        "2030-01-05 09:00:00",
        "Europe/Paris",
        "CET",
    )


def test_an_empty_time_zone_is_the_site_zone(editor, full_event):
    body = update(editor, full_event["id"], timezone="").json()
    assert (body["timezone"], body["utc_start_date"]) == ("UTC", "2030-01-05 10:00:00")


def test_all_day_alone_widens_the_stored_days(editor, full_event):
    body = update(editor, full_event["id"], all_day=True).json()
    assert (body["all_day"], body["start_date"], body["end_date"]) == (
        True,
        "2030-01-05 00:00:00",
        "2030-01-05 23:59:59",
    )


def test_new_dates_are_read_in_a_time_zone_sent_with_them(editor, full_event):
    body = update(
        editor, full_event["id"], timezone="Asia/Tokyo", start_date="2030-01-05 10:00", end_date="2030-01-05 11:00"
    ).json()
    assert (body["start_date"], body["utc_start_date"], body["timezone_abbr"]) == (
        "2030-01-05 10:00:00",
        "2030-01-05 01:00:00",
        "JST",
    )


@pytest.mark.parametrize("method", ["post", "put", "patch"])
def test_post_put_and_patch_update_alike(editor, full_event, method):
    response = update(editor, full_event["id"], method=method, title="Same by any method")
    assert response.status_code == 200
    assert response.json()["title"] == "Same by any method"
    assert response.json()["featured"] is True


def test_cost_symbol_follows_a_new_cost(editor, full_event):
    body = update(editor, full_event["id"], cost="12").json()
    assert (body["cost"], body["cost_details"]["currency_symbol"]) == ("$12", "")


def test_an_update_in_another_language_writes_only_that_language(editor, full_event):
    response = editor.post(f"/zh-hant{API}/events/{full_event['id']}", {"title": "完整活動"}, format="json")
    assert response.status_code == 200
    assert response.json()["title"] == "完整活動"
    event = Event.objects.get(pk=full_event["id"])
    assert (event.title_en, event.title_zh_hant, event.title_zh_hans) == ("Full event", "完整活動", None)
    with translation.override("en"):
        assert editor.get(f"{API}/events/{full_event['id']}").json()["title"] == "Full event"


# --- explicit empty values unlink ----------------------------------------------------------------


EMPTYING = [
    ("organizer", [], "organizer", []),
    ("organizer", "", "organizer", []),
    ("venue", [], "venue", []),
    ("venue", 0, "venue", []),
    ("venue", "", "venue", []),
    ("venue", None, "venue", []),
    ("categories", "", "categories", []),
    ("categories", [], "categories", []),
    ("tags", [], "tags", []),
    ("tags", "", "tags", []),
    ("image", "", "image", False),
    ("cost", "", "cost", ""),
    ("website", "", "website", ""),
]


@pytest.mark.parametrize(
    "name, value, key, expected", EMPTYING, ids=[f"{name}-{value!r}" for name, value, _key, _expected in EMPTYING]
)
def test_explicit_empty_values_unlink(editor, full_event, name, value, key, expected):
    body = update(editor, full_event["id"], **{name: value}).json()
    assert body[key] == expected
    assert without(body, key, "cost_details") == without(full_event, key, "cost_details")


def test_emptying_categories_keeps_tags(editor, full_event):
    body = update(editor, full_event["id"], categories="").json()
    assert (body["categories"], [tag["name"] for tag in body["tags"]]) == ([], ["Live"])


def test_unlinking_keeps_the_linked_records(editor, full_event):
    update(editor, full_event["id"], venue=0, organizer=[])
    assert Venue.objects.filter(pk=full_event["venue"]["id"]).exists()


def test_organizers_are_replaced_in_the_new_order(editor, full_event):
    ann, bob = (item["id"] for item in full_event["organizer"])
    body = update(editor, full_event["id"], organizer=f"{bob},{ann}").json()
    assert [item["organizer"] for item in body["organizer"]] == ["Bob", "Ann"]


def test_form_encoded_empty_organizer_unlinks(editor, full_event):
    response = editor.post(f"{API}/events/{full_event['id']}", {"organizer": ""})
    assert response.json()["organizer"] == []


# --- status, author, slug on update ---------------------------------------------------------------


def test_a_draft_is_published_with_its_slug(as_role):
    author = as_role("author")
    event = make_event("Draft to publish", status=PostStatus.DRAFT, slug="", author=author.user)
    body = update(author, event.pk, status="publish").json()
    assert (body["status"], body["slug"]) == ("publish", "draft-to-publish")


def test_publishing_with_a_future_date_schedules(editor):
    event = make_event(status=PostStatus.DRAFT, author=None)
    assert update(editor, event.pk, status="publish", date="+2 weeks").json()["status"] == "future"


def test_a_contributor_publishing_their_draft_gets_pending(as_role):
    contributor = as_role("contributor")
    event = make_event(status=PostStatus.DRAFT, author=contributor.user)
    assert update(contributor, event.pk, status="publish").json()["status"] == "pending"


def test_slug_update_is_made_unique(editor):
    make_event("Taken", slug="taken")
    event = make_event("Mine", slug="mine")
    assert update(editor, event.pk, slug="taken").json()["slug"] == "taken-2"
    assert update(editor, event.pk, slug="taken-2").json()["slug"] == "taken-2"


def test_editors_may_hand_an_event_to_another_author(editor, as_role):
    other = as_role("author").user
    event = make_event(author=editor.user)
    assert update(editor, event.pk, author=other.pk).json()["author"] == str(other.pk)


def test_authors_may_not_hand_their_event_to_someone_else(as_role):
    author = as_role("author")
    other = as_role("author").user
    event = make_event(author=author.user)
    response = update(author, event.pk, author=other.pk, title="Not saved")
    assert response.status_code == 403
    assert error_of(response) == "rest_forbidden"
    assert Event.objects.get(pk=event.pk).title == event.title


def test_a_trashed_event_can_be_updated(editor):
    event = make_event("In the bin", slug="in-the-bin")
    move_to_trash(event)
    event.save()
    response = update(editor, event.pk, title="Still in the bin")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["slug"]) == ("trash", "in-the-bin__trashed")


def test_leaving_the_trash_restores_the_slug(editor):
    event = make_event("Back again", slug="back-again")
    move_to_trash(event)
    event.save()
    body = update(editor, event.pk, status="publish").json()
    assert (body["status"], body["slug"]) == ("publish", "back-again")


def test_status_trash_moves_to_the_trash(editor):
    event = make_event("Binned by update", slug="binned")
    body = update(editor, event.pk, status="trash").json()
    assert (body["status"], body["slug"]) == ("trash", "binned__trashed")


# --- the event behind the route -------------------------------------------------------------------


def test_unknown_id_is_404(editor):
    response = update(editor, 987654, title="x")
    assert response.status_code == 404
    assert error_of(response) == "rest-event-not-found"


@pytest.mark.parametrize("build", [make_venue, make_organizer, make_image], ids=["venue", "organizer", "attachment"])
def test_another_kinds_id_is_400(editor, build):
    response = update(editor, build().pk, title="x")
    assert response.status_code == 400
    assert error_of(response) == "rest-invalid-event-id"


def test_update_by_slug(editor):
    event = make_event("By slug", slug="by-slug")
    response = editor.post(f"{API}/events/by-slug/by-slug", {"title": "Found by slug"}, format="json")
    assert response.status_code == 200
    assert (response.json()["id"], response.json()["title"], response.json()["slug"]) == (
        event.pk,
        "Found by slug",
        "by-slug",
    )
    assert read(editor, event.pk) == without(response.json())


def test_by_slug_lookup_is_normalised(editor):
    event = make_event("Normalised", slug="normalised-slug")
    response = editor.patch(f"{API}/events/by-slug/Normalised.Slug", {"featured": True}, format="json")
    assert (response.status_code, response.json()["id"]) == (200, event.pk)


def test_a_body_slug_names_the_event_and_renames_nothing(editor):
    path_event = make_event("Path", slug="path-event")
    body_event = make_event("Body", slug="body-event")
    response = editor.post(
        f"{API}/events/by-slug/path-event", {"slug": "body-event", "title": "Body renamed"}, format="json"
    )
    assert response.json()["id"] == body_event.pk
    assert response.json()["slug"] == "body-event"
    assert Event.objects.get(pk=path_event.pk).title == "Path"


@pytest.mark.parametrize("slug", ["no-such-event", "..."], ids=["unknown", "nothing-sluggable"])
def test_update_by_unknown_slug_is_404_for_id_0(editor, slug):
    response = editor.post(f"{API}/events/by-slug/{slug}", {"title": "x"}, format="json")
    assert response.status_code == 404
    assert error_of(response) == "rest-event-not-found"
    assert "0" in response.json()["message"]


def test_update_by_slug_with_an_empty_body_slug_is_400(editor):
    make_event("Exists", slug="exists")
    response = editor.post(f"{API}/events/by-slug/exists", {"slug": ""}, format="json")
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["slug"]


# --- bad input changes nothing ------------------------------------------------------------------


BAD_UPDATES = [
    ("title", ""),
    ("title", "x" * 501),
    ("start_date", "never"),
    ("featured", "yes"),
    ("image", 17),
    ("status", "foo"),
    ("venue", 999999),
    ("organizer", [999999]),
    ("organizer", [{"organizer": ""}]),
    ("website", "foo"),
    ("timezone", "Nowhere/Special"),
    ("author", 999999),
]


@pytest.mark.parametrize(
    "name, value", BAD_UPDATES, ids=[f"{name}-{i}" for i, (name, _value) in enumerate(BAD_UPDATES)]
)
def test_bad_input_is_400_and_changes_nothing(editor, full_event, name, value):
    before = table_counts()
    response = update(editor, full_event["id"], **{name: value}, title_ignored="x")
    assert response.status_code == 400
    assert error_of(response) == "rest_invalid_param"
    assert list(response.json()["data"]["params"]) == [name]
    assert table_counts() == before
    assert read(editor, full_event["id"]) == without(full_event)


def test_several_venues_on_update_change_nothing(editor, full_event):
    before = table_counts()
    response = update(editor, full_event["id"], venue=[{"venue": "One"}, {"venue": "Two"}], title="Not saved")
    assert (response.status_code, error_of(response)) == (400, "could-not-create-venue")
    assert table_counts() == before
    assert read(editor, full_event["id"]) == without(full_event)
