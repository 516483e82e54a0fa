"""The rendering store: reads served from stored renderings equal fresh serializations, after every
kind of write, in every language, and writes keep the stored rows true (events/store)."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from events import store
from events.models import Attachment, Event, EventOrganizer, Organizer, PostStatus, RenderedRecord, Term, Venue

from .conftest import API, post_json
from .factories import (
    finish_writes,
    make_category,
    make_event,
    make_image,
    make_organizer,
    make_tag,
    make_user,
    make_venue,
)

LANGUAGES = ["", "/zh-hans", "/zh-hant"]


def stored_read_queries(single=False):
    """A stored read's statements: (the page with its total,) then the stored event with every row
    it embeds. PostgreSQL joins an event's links in the same statement; SQLite reads them next."""
    embedded = 0 if connection.vendor == "postgresql" else 1
    return (1 if single else 2) + embedded


WINDOW = {"start_date": "2020-01-01", "end_date": "2040-12-31"}


@pytest.fixture
def calendar(db):
    """Events with everything a record embeds, in three languages, one of them password-protected."""
    poster = make_image("poster.png", size=(40, 30))
    hall = make_venue("Hall", image=poster, address="1 Main St", city="Berlin", geo_lat=52.5, geo_lng=13.4)
    Venue.objects.filter(pk=hall.pk).update(title_zh_hant="大廳")
    bands = [make_organizer(f"Band {n}", email=f"band{n}@example.org", image=poster if n else None) for n in range(2)]
    music = make_category("Music")
    jazz = make_category("Jazz", parent=music)
    free = make_tag("Free entry")
    start = dt.datetime.combine(timezone.now().date() + dt.timedelta(days=3), dt.time(20, 0))
    events = [
        make_event(
            "Concert",
            start=start,
            venue=hall,
            organizers=bands,
            categories=[jazz, music],
            tags=[free],
            image=poster,
            timezone_name="Europe/Berlin",
            cost=["10", "20"],
        ),
        make_event("Quiet evening", start=start + dt.timedelta(days=1), organizers=bands[::-1]),
        make_event(
            "Members only", start=start + dt.timedelta(days=2), venue=hall, password="secret", categories=[music]
        ),
    ]
    Event.objects.filter(pk=events[0].pk).update(title_zh_hans="音乐会", title_zh_hant="音樂會")
    return {"events": events, "venue": hall, "organizers": bands, "terms": [music, jazz, free], "image": poster}


def urls(calendar):
    concert = calendar["events"][0]
    return [
        f"{API}/events?start_date={WINDOW['start_date']}&end_date={WINDOW['end_date']}",
        f"{API}/events/{concert.pk}",
        f"{API}/events/by-slug/{concert.slug}",
    ]


def stored_and_fresh(client, url):
    """(stored, fresh): the answer read from the store, and the answer built without it."""
    client.get(url)  # stores what was missing
    stored = client.get(url)
    RenderedRecord.objects.all().delete()
    fresh = client.get(url)
    return stored, fresh


@pytest.mark.parametrize("prefix", LANGUAGES, ids=["en", "zh-hans", "zh-hant"])
def test_reads_from_the_store_equal_fresh_serializations(api, calendar, prefix):
    for url in urls(calendar):
        stored, fresh = stored_and_fresh(api, f"{prefix}{url}")
        assert stored.status_code == fresh.status_code == 200
        assert stored.content == fresh.content, url
        assert stored["ETag"] == fresh["ETag"]


@pytest.mark.parametrize("collection", ["venues", "organizers"])
@pytest.mark.parametrize("prefix", LANGUAGES, ids=["en", "zh-hans", "zh-hant"])
def test_venue_and_organizer_lists_from_the_store_equal_fresh_ones(api, editor, calendar, collection, prefix):
    make_venue("Back room", password="pw")
    make_organizer("Secret band", password="pw")
    for client, query in ((api, ""), (editor, "?context=edit&password=pw")):
        stored, fresh = stored_and_fresh(client, f"{prefix}{API}/{collection}{query}")
        assert stored.status_code == 200
        assert stored.content == fresh.content


@pytest.mark.parametrize("collection", ["categories", "tags"])
@pytest.mark.parametrize("prefix", LANGUAGES, ids=["en", "zh-hans", "zh-hant"])
def test_term_lists_from_the_store_equal_fresh_ones(api, calendar, collection, prefix):
    Term.objects.filter(pk=calendar["terms"][1].pk).update(name_zh_hans="爵士")
    for query in ("", "?per_page=1&page=2", "?orderby=count&order=desc&hide_empty=false"):
        stored, fresh = stored_and_fresh(api, f"{prefix}{API}/{collection}{query}")
        assert stored.status_code == 200
        assert stored.content == fresh.content
        assert stored["X-TEC-Total"] == fresh["X-TEC-Total"]


def test_a_stored_term_list_runs_two_queries_and_shows_each_category_url(api, calendar, django_assert_num_queries):
    url = f"{API}/categories"
    api.get(url)
    with django_assert_num_queries(2):  # the page with its total, the stored records
        categories = api.get(url).json()["categories"]
    jazz = next(category for category in categories if category["name"] == "Jazz")
    assert jazz["url"].endswith("/events/category/music/jazz/")


def test_a_stored_list_page_runs_its_few_queries_and_shows_every_embedded_record(
    api, calendar, django_assert_num_queries
):
    url = urls(calendar)[0]
    api.get(url)
    with django_assert_num_queries(stored_read_queries()):
        page = api.get(url).json()
    concert = page["events"][0]
    assert concert["venue"]["venue"] == "Hall"
    assert [organizer["organizer"] for organizer in concert["organizer"]] == ["Band 0", "Band 1"]
    assert [term["name"] for term in concert["categories"]] == ["Jazz", "Music"]
    assert concert["image"]["id"] == calendar["image"].pk
    assert concert["venue"]["image"]["url"].startswith("http://testserver/media/")


@pytest.mark.parametrize("prefix", LANGUAGES, ids=["en", "zh-hans", "zh-hant"])
def test_a_stored_single_read_runs_one_statement_on_postgresql(api, calendar, prefix, django_assert_num_queries):
    concert = calendar["events"][0]
    url = f"{prefix}{API}/events/{concert.pk}"
    api.get(url)
    with django_assert_num_queries(stored_read_queries(single=True)):
        record = api.get(url).json()
    assert record["venue"]["json_ld"]["name"] in ("Hall", "大廳")
    assert [organizer["json_ld"]["name"] for organizer in record["organizer"]] == ["Band 0", "Band 1"]
    assert record["json_ld"]["location"]["name"] == record["venue"]["venue"]


def test_an_event_row_lists_the_rows_it_embeds(calendar):
    call_command("events_render")
    concert = calendar["events"][0]
    row = RenderedRecord.objects.get(kind="event", record_id=concert.pk, language="en")
    assert set(row.links.split()) == {
        f"venue:{calendar['venue'].pk}",
        *(f"organizer:{organizer.pk}" for organizer in calendar["organizers"]),
        *(f"term:{term.pk}" for term in calendar["terms"]),
        f"image:{calendar['image'].pk}",
    }
    assert RenderedRecord.objects.exclude(kind="event").filter(links__gt="").count() == 0


def test_the_request_host_and_language_prefix_are_spliced_in(api, calendar):
    url = urls(calendar)[1]
    api.get(url)
    record = api.get(f"/zh-hant{url}", HTTP_HOST="127.0.0.1").json()
    assert record["title"] == "音樂會"
    assert record["url"].startswith("http://127.0.0.1/zh-hant/event/")
    assert record["rest_url"].startswith("http://127.0.0.1/zh-hant/wp-json/")
    assert record["global_id"] == f"127.0.0.1?id={record['id']}"
    assert record["venue"]["venue"] == "大廳"


def test_a_password_protected_event_is_blanked_in_lists_unless_its_password_is_sent(api, calendar):
    url = urls(calendar)[0]
    api.get(url)
    protected = next(event for event in api.get(url).json()["events"] if event["title"] == "Members only")
    assert protected["venue"] == [] and protected["description"] == ""
    unlocked = next(
        event for event in api.get(f"{url}&password=secret").json()["events"] if event["title"] == "Members only"
    )
    assert unlocked["venue"]["venue"] == "Hall"


def test_json_ld_of_a_linked_draft_is_shown_only_to_who_may_read_it(api, as_role, calendar):
    Venue.objects.filter(pk=calendar["venue"].pk).update(status=PostStatus.DRAFT)
    url = urls(calendar)[1]
    editor = as_role("editor")
    for client, shown in ((api, False), (editor, True)):
        stored, fresh = stored_and_fresh(client, url)
        assert stored.content == fresh.content
        assert ("json_ld" in stored.json()["venue"]) is shown
        assert "location" in stored.json()["json_ld"]


def _api_update(editor, calendar):
    return post_json(editor, f"/events/{calendar['events'][0].pk}", {"title": "Concert (moved)", "featured": True})


WRITES = {
    "event through the API": _api_update,
    "venue through the API": lambda editor, c: post_json(editor, f"/venues/{c['venue'].pk}", {"venue": "Great Hall"}),
    "organizer through the API": lambda editor, c: post_json(
        editor, f"/organizers/{c['organizers'][1].pk}", {"organizer": "Band B"}
    ),
    "term renamed through the API": lambda editor, c: post_json(
        editor, f"/categories/{c['terms'][1].pk}", {"name": "Bebop"}
    ),
    "term deleted through the API": lambda editor, c: editor.delete(f"{API}/categories/{c['terms'][1].pk}?force=true"),
    "status change moves term counts": lambda editor, c: post_json(
        editor, f"/events/{c['events'][0].pk}", {"status": "draft"}
    ),
    "links replaced through the API": lambda editor, c: post_json(
        editor,
        f"/events/{c['events'][1].pk}",
        {"organizer": [c["organizers"][0].pk], "categories": [c["terms"][0].pk], "venue": c["venue"].pk},
    ),
    "venue trashed through the API": lambda editor, c: editor.delete(f"{API}/venues/{c['venue'].pk}"),
    "translation saved": lambda editor, c: _saved(Event.objects.get(pk=c["events"][0].pk), title_zh_hant="新音樂會"),
    "image sizes changed": lambda editor, c: _saved(Attachment.objects.get(pk=c["image"].pk), width=41),
    "venue deleted": lambda editor, c: Venue.objects.filter(pk=c["venue"].pk).delete(),
    "organizer deleted": lambda editor, c: Organizer.objects.get(pk=c["organizers"][0].pk).delete(),
    "image deleted": lambda editor, c: Attachment.objects.get(pk=c["image"].pk).delete(),
    "organizer link removed": lambda editor, c: EventOrganizer.objects.filter(event=c["events"][0]).first().delete(),
    "term link added": lambda editor, c: c["events"][1].terms.add(c["terms"][2]),
    "queryset update of a venue": lambda editor, c: Venue.objects.filter(pk=c["venue"].pk).update(phone="+49 30 1234"),
    # Venues and organizers hold their image inline.
    "queryset update of an image": lambda editor, c: Attachment.objects.filter(pk=c["image"].pk).update(width=41),
    "queryset update of terms": lambda editor, c: Term.objects.filter(pk__in=[t.pk for t in c["terms"]]).update(
        description="Live"
    ),
    # A category's record URL holds its ancestors' slugs.
    "parent category renamed through the API": lambda editor, c: post_json(
        editor, f"/categories/{c['terms'][0].pk}", {"slug": "musik"}
    ),
    "queryset update of a parent's slug": lambda editor, c: Term.objects.filter(pk=c["terms"][0].pk).update(
        slug="tunes"
    ),
    "author deleted": lambda editor, c: get_user_model().objects.filter(pk=c["author"].pk).delete(),
}


def _saved(record, **fields):
    for name, value in fields.items():
        setattr(record, name, value)
    record.save()


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_every_kind_of_write_keeps_the_store_true(api, editor, calendar, django_capture_on_commit_callbacks, write):
    author = make_user("author")
    Event.objects.filter(pk=calendar["events"][0].pk).update(author=author)
    calendar["author"] = author
    call_command("events_render", stdout=None)
    # What the fixture's writes left to finish (their commit never comes inside a test): finished
    # now, so that only what the write itself drops is rendered after it.
    finish_writes()
    # Read once before the write too: whatever a read keeps (joined texts) must not outlive it.
    for prefix in LANGUAGES:
        for url in urls(calendar)[:2]:
            assert api.get(f"{prefix}{url}").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = WRITES[write](editor, calendar)
    assert getattr(response, "status_code", 200) < 400, getattr(response, "content", b"")
    assert store.stale_rows() == []
    for prefix in LANGUAGES:
        for url in urls(calendar)[:2]:
            stored = api.get(f"{prefix}{url}")
            kept = {(row.kind, row.record_id, row.language) for row in RenderedRecord.objects.all()}
            RenderedRecord.objects.all().delete()
            fresh = api.get(f"{prefix}{url}")
            assert stored.status_code == fresh.status_code
            assert stored.content == fresh.content, (write, prefix, url)
            _restore(kept)


def _restore(keys):
    """Render again what was stored before a comparison emptied the store."""
    by_source = {}
    for kind, record_id, _language in keys:
        by_source.setdefault(store.SOURCE_OF_ROW[kind], set()).add(record_id)
    for kind, ids in by_source.items():
        store.render(kind, ids)


def test_a_service_write_stores_the_new_rendering_in_its_own_transaction(editor, calendar):
    concert = calendar["events"][0]
    call_command("events_render")
    assert _api_update(editor, calendar).status_code == 200
    # No commit has happened (the test runs in one transaction): the service rendered before it.
    stored = RenderedRecord.objects.get(kind="event", record_id=concert.pk, language="en")
    assert '"title":"Concert (moved)"' in stored.body
    assert store.stale_rows() == []


def test_rows_of_another_epoch_are_never_read(api, calendar, settings, django_assert_max_num_queries):
    url = urls(calendar)[0]
    api.get(url)
    before = api.get(url)
    settings.EVENTS = {"DEFAULT_CURRENCY_SYMBOL": "€"}
    after = api.get(url)
    assert after.json()["events"][0]["cost"] != before.json()["events"][0]["cost"]
    assert "€" in after.json()["events"][0]["cost"]


def test_the_check_command_finds_a_stale_row(calendar):
    call_command("events_render")
    call_command("events_render", "--check")
    row = RenderedRecord.objects.filter(kind="venue").first()
    RenderedRecord.objects.filter(pk=row.pk).update(body=row.body.replace("Hall", "Barn"))
    with pytest.raises(CommandError, match="1 stored renderings differ"):
        call_command("events_render", "--check")
