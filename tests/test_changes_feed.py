"""`GET events-calendar/v1/changes`: every change once, in order, as each caller may see it; cursors, 400, 410, 304."""

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone
from openapi_spec_validator import validate as validate_openapi

from events.changelog.feed import Cursor
from events.models import ChangeEntry, PostStatus

from .conftest import API, post_json
from .factories import finish_writes, make_category, make_event, make_organizer, make_tag, make_venue

pytestmark = pytest.mark.django_db

FEED = "/wp-json/events-calendar/v1/changes"


def logged():
    """Append what the factories wrote, as a service's end does (they save models directly)."""
    finish_writes()


def feed(client, **params):
    response = client.get(FEED, params)
    assert response.status_code == 200, response.content
    return response.json()


def entries(page):
    return [(change["kind"], change["id"], change["action"]) for change in page["changes"]]


def create_event(client, title, **fields):
    response = post_json(
        client,
        "/events",
        {
            "title": title,
            "start_date": "2031-03-01 20:00",
            "end_date": "2031-03-01 22:00",
            "status": "publish",
            **fields,
        },
    )
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_a_client_following_the_cursor_gets_each_change_once_in_order(api, editor):
    first = create_event(editor, "First")
    page = feed(api)
    assert entries(page) == [("event", first, "created")]
    change = page["changes"][0]
    assert list(change) == ["position", "kind", "id", "action", "time", "languages", "record"]
    assert change["record"]["title"] == "First"
    # The time the log holds, in UTC to the microsecond, and the languages whose content changed.
    logged_entry = ChangeEntry.objects.get(pk=change["position"])
    assert dt.datetime.fromisoformat(change["time"]) == logged_entry.time
    assert change["time"].endswith("Z") and "+" not in change["time"]
    assert change["languages"] == logged_entry.languages.split() != []

    second = create_event(editor, "Second")
    assert post_json(editor, f"/events/{first}", {"title": "First, again"}).status_code == 200
    page = feed(api, since=page["next"])
    assert entries(page) == [("event", second, "created"), ("event", first, "updated")]
    assert page["changes"][1]["record"]["title"] == "First, again"
    # Caught up: nothing more, and the cursor stays usable.
    again = feed(api, since=page["next"])
    assert again["changes"] == []
    assert feed(api, since=again["next"])["changes"] == []


def test_pages_of_per_page_entries_cover_the_log_without_overlap(api):
    events = [make_event(title=f"E{number}") for number in range(5)]
    for event in events:
        event.title = f"{event.title}!"
        event.save()
    logged()
    seen, cursor = [], None
    while True:
        page = feed(api, per_page=2, **({"since": cursor} if cursor else {}))
        if not page["changes"]:
            break
        assert len(page["changes"]) <= 2
        seen += [change["position"] for change in page["changes"]]
        cursor = page["next"]
    assert seen == list(ChangeEntry.objects.order_by("pk").values_list("pk", flat=True))


def test_the_record_is_the_v1_record_of_each_kind(api, editor):
    venue = make_venue("Hall")
    organizer = make_organizer("Friends")
    category, tag = make_category("Jazz"), make_tag("Outdoor")
    start = ChangeEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    event_id = create_event(
        editor, "Night", venue=venue.pk, organizer=[organizer.pk], categories=[category.pk], tags=[tag.pk]
    )
    post_json(editor, f"/venues/{venue.pk}", {"city": "Lyon"})
    changes = [change for change in feed(api, per_page=100)["changes"] if change["position"] > start]
    records = {(change["kind"], change["id"]): change["record"] for change in changes}
    assert records["event", event_id] == api.get(f"{API}/events", {"include": event_id}).json()["events"][0] | {
        "venue": records["event", event_id]["venue"]
    }
    assert records["venue", venue.pk] == next(
        record for record in api.get(f"{API}/venues").json()["venues"] if record["id"] == venue.pk
    )
    assert records["category", category.pk] == api.get(f"{API}/categories/{category.pk}").json()
    assert records["tag", tag.pk] == api.get(f"{API}/tags/{tag.pk}").json()


def test_drafts_appear_only_to_callers_who_may_read_them(api, as_role):
    author, other_author, editor = as_role("author"), as_role("author"), as_role("editor")
    draft = create_event(author, "Secret", status="draft")
    public = create_event(editor, "Public")
    assert entries(feed(api)) == [("event", public, "created")]
    assert entries(feed(other_author)) == [("event", public, "created")]
    assert entries(feed(author)) == [("event", draft, "created"), ("event", public, "created")]
    assert entries(feed(editor)) == [("event", draft, "created"), ("event", public, "created")]


def test_a_trashed_or_deleted_record_is_a_change_without_record(api, as_role):
    admin = as_role("administrator")
    event = create_event(admin, "Gone soon")
    tag = make_tag("Old")
    logged()
    start = feed(api)["next"]
    assert admin.delete(f"{API}/events/{event}").status_code == 200
    assert admin.delete(f"{API}/tags/{tag.pk}?force=true").status_code == 200
    page = feed(api, since=start)
    assert [(change["kind"], change["id"], change["action"], change["record"]) for change in page["changes"]] == [
        ("event", event, "trashed", None),
        ("tag", tag.pk, "deleted", None),
    ]


def test_a_password_protected_event_is_blanked_as_in_the_list(api):
    event = make_event(title="Members", password="s3cret", description="Inside")
    logged()
    record = feed(api)["changes"][0]["record"]
    listed = api.get(f"{API}/events", {"include": event.pk}).json()["events"][0]
    assert record == listed
    assert record["description"] == ""


@pytest.mark.parametrize(
    "since", ["nonsense", "MTIzLg", "-1", Cursor(5, 1).__str__() + "x"], ids=["word", "half", "negative", "extra"]
)
def test_a_cursor_that_is_not_ours_is_400(api, since):
    response = api.get(FEED, {"since": since})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert body["data"]["status"] == 400
    assert "since" in body["data"]["params"]


def test_a_cursor_older_than_the_retention_is_410(api, settings):
    settings.EVENTS = {"CHANGES_RETENTION_DAYS": 7}
    make_event()
    logged()
    old = Cursor(0, int((timezone.now() - dt.timedelta(days=8)).timestamp()))
    response = api.get(FEED, {"since": str(old)})
    assert response.status_code == 410
    assert response.json()["code"] == "changes_cursor_expired"
    assert response.json()["data"]["status"] == 410
    recent = Cursor(0, int((timezone.now() - dt.timedelta(days=6)).timestamp()))
    assert api.get(FEED, {"since": str(recent)}).status_code == 200


def test_removing_expired_entries_keeps_every_entry_a_live_cursor_needs(settings):
    from events.changelog.feed import remove_expired

    settings.EVENTS = {"CHANGES_RETENTION_DAYS": 7}
    event = make_event()
    logged()
    ChangeEntry.objects.update(time=timezone.now() - dt.timedelta(days=7, minutes=30))
    make_event()
    logged()
    # Past the retention, within the grace: a cursor handed out just before its time may need it.
    assert remove_expired() == 0
    ChangeEntry.objects.filter(record_id=event.pk).update(time=timezone.now() - dt.timedelta(days=7, hours=2))
    assert remove_expired() == 1
    assert list(ChangeEntry.objects.values_list("record_id", flat=True)) != [event.pk]
    assert ChangeEntry.objects.count() == 1


def test_a_full_page_cursor_carries_the_time_of_its_last_entry(api, settings):
    settings.EVENTS = {"CHANGES_RETENTION_DAYS": 7}
    make_event()
    make_event()
    logged()
    ChangeEntry.objects.update(time=timezone.now() - dt.timedelta(days=6, hours=23, minutes=59))
    page = feed(api, per_page=1)
    next_cursor = Cursor.parse(page["next"])
    assert next_cursor.given_at == int(ChangeEntry.objects.order_by("pk").first().time.timestamp())


def test_a_caught_up_follower_gets_304_until_something_is_written(api, editor, monkeypatch):
    """A caught-up reader's `next` carries the hour it read in, not the second: asking again a
    minute later with If-None-Match is a 304 while nothing was written, and the cursor it was given
    still leads to every later change."""
    create_event(editor, "One")
    now = timezone.now().replace(minute=10, second=0)
    # The clock of every reader (the feed reads it through django.utils.timezone); undone before writing.
    monkeypatch.setattr(timezone, "now", lambda: now)
    page = api.get(FEED)
    cursor = page.json()["next"]
    assert Cursor.parse(cursor).given_at == int(now.replace(minute=0, microsecond=0).timestamp())
    now += dt.timedelta(minutes=1, seconds=7)
    assert api.get(FEED, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    caught_up = api.get(FEED, {"since": cursor})
    assert caught_up.json() == {"changes": [], "next": cursor}
    assert api.get(FEED, {"since": cursor}, HTTP_IF_NONE_MATCH=caught_up["ETag"]).status_code == 304
    monkeypatch.undo()
    later = create_event(editor, "Two")
    assert entries(feed(api, since=cursor)) == [("event", later, "created")]


def test_the_feed_has_an_etag_and_answers_304_until_something_changes(api, editor):
    create_event(editor, "One")
    response = api.get(FEED)
    etag = response["ETag"]
    assert api.get(FEED, HTTP_IF_NONE_MATCH=etag).status_code == 304
    create_event(editor, "Two")
    assert api.get(FEED, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_a_page_costs_the_same_queries_for_one_entry_as_for_a_hundred(api, django_assert_max_num_queries):
    venue, organizer = make_venue(), make_organizer()
    make_event(venue=venue, organizers=[organizer], categories=[make_category()], tags=[make_tag()])
    logged()
    # The entries, what the read rules need of events, venues and organizers,
    # the stored renderings, and the rows the events embed.
    with django_assert_max_num_queries(6) as few:
        feed(api, per_page=5)
    for number in range(25):
        event = make_event(
            venue=make_venue(), organizers=[make_organizer()], categories=[make_category()], tags=[make_tag()]
        )
        event.status = PostStatus.DRAFT if number % 5 == 0 else PostStatus.PUBLISH
        event.save()
    logged()
    assert ChangeEntry.objects.count() >= 100
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert len(feed(api, per_page=100)["changes"]) > 50


def test_the_feed_lives_in_its_own_namespace_listed_in_the_index(api):
    assert api.get("/wp-json/").json()["namespaces"] == ["tribe/events/v1", "events-calendar/v1", "wp/v2"]
    assert api.get(f"{API}/changes").status_code == 404


def test_the_feed_is_documented_in_its_namespace_document_and_on_the_api_page(api):
    document = api.get("/wp-json/events-calendar/v1/doc").json()
    operation = document["paths"]["/changes"]["get"]
    assert {parameter["name"] for parameter in operation["parameters"]} == {"since", "per_page", "wpml_language"}
    assert set(operation["responses"]) == {"200", "400", "410"}
    assert set(document["paths"]) == {
        "/changes",
        "/webhooks",
        "/webhooks/{id}",
        "/webhooks/{id}/deliveries",
        "/imports",
        "/imports/{id}",
        "/imports/{id}/runs",
        "/imports/{id}/run",
        "/imports/events/{id}",
    }
    assert set(document["paths"]["/webhooks/{id}"]) == {"get", "post", "put", "patch", "delete"}
    assert document["servers"] == [{"url": "http://testserver/wp-json/events-calendar/v1/"}]
    validate_openapi(document)
    webhook = document["paths"]["/webhooks/{id}"]["get"]["parameters"]
    path_id = next(parameter for parameter in webhook if parameter["in"] == "path")
    assert {key: path_id[key] for key in ("name", "required", "schema")} == {
        "name": "id",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    }
    per_page = next(parameter for parameter in operation["parameters"] if parameter["name"] == "per_page")
    assert per_page["schema"]["type"] == "integer" and per_page["schema"]["minimum"] == 1
    # A string that is not one of the feed's cursors is refused (400): a schema cannot say so.
    since = next(parameter for parameter in operation["parameters"] if parameter["name"] == "since")
    assert since["x-server-checked"] is True and "x-server-checked" not in per_page
    assert "201" in document["paths"]["/webhooks"]["post"]["responses"]
    page = api.get("/zh-hans/api-docs/").content.decode()
    assert "http://testserver/zh-hans/wp-json/events-calendar/v1/changes" in page
    assert "events-calendar/v1/doc" in page


def test_each_change_names_the_languages_whose_text_it_changed(api, editor):
    event_id = create_event(editor, "Night")
    assert post_json(editor, f"/events/{event_id}", {"title": "夜晚場"}, prefix="/zh-hant").status_code == 200
    assert post_json(editor, f"/events/{event_id}", {"end_date": "2031-03-01 23:00"}).status_code == 200
    expected = [("created", ["en"]), ("updated", ["zh-hant"]), ("updated", [])]
    assert [(change["action"], change["languages"]) for change in feed(api)["changes"]] == expected
    # Codes, the same whatever language the feed is read in.
    chinese = api.get(f"/zh-hans{FEED}").json()["changes"]
    assert [(change["action"], change["languages"]) for change in chinese] == expected


def test_a_page_of_stored_records_costs_the_same_few_statements_at_any_size(
    api, as_role, django_assert_max_num_queries
):
    for number in range(30):
        make_event(
            venue=make_venue(),
            organizers=[make_organizer()],
            categories=[make_category()],
            tags=[make_tag()],
            status=PostStatus.DRAFT if number % 5 == 4 else PostStatus.PUBLISH,
        )
    logged()
    feed(api, per_page=100)  # every record is stored by then
    # The entries with their records' status, author and password; the stored events with every row
    # they embed (SQLite reads those in a second statement); the other kinds' stored records.
    page = 3 if connection.vendor == "postgresql" else 4
    # A signed caller's request also reads its user, then its rights (to judge the drafts).
    for caller, statements in ((api, page), (as_role("author"), page + 2)):
        for per_page in (1, 100):
            with django_assert_max_num_queries(statements):
                assert len(feed(caller, per_page=per_page)["changes"]) > per_page * 0.7
