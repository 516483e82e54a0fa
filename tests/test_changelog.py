"""The change log: one entry per record each committed write changes, from every way in, none for a rollback."""

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from events.changelog import recording
from events.models import ChangeEntry, Event, PostStatus
from events.services.events import update_event

from .conftest import API, post_json
from .factories import finish_writes, make_category, make_event, make_organizer, make_tag, make_venue
from .test_admin import staff_client

pytestmark = pytest.mark.django_db


def logged(after=0):
    return list(ChangeEntry.objects.filter(pk__gt=after).order_by("pk").values_list("kind", "record_id", "action"))


def last_position():
    """The log's end, once what the factories wrote (saving models directly) is appended, as a
    service's end appends it."""
    finish_writes()
    return ChangeEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def test_an_event_created_updated_trashed_restored_and_its_terms_through_the_api(editor):
    category = make_category("Jazz")
    start = last_position()
    created = post_json(
        editor,
        "/events",
        {
            "title": "Night",
            "start_date": "2031-03-01 20:00",
            "end_date": "2031-03-01 22:00",
            "status": "publish",
            "categories": [category.pk],
        },
    )
    assert created.status_code == 201
    event_id = created.json()["id"]
    assert logged(start) == [("event", event_id, "created"), ("category", category.pk, "updated")]

    start = last_position()
    assert post_json(editor, f"/events/{event_id}", {"title": "Late night"}).status_code == 200
    assert editor.delete(f"{API}/events/{event_id}").status_code == 200
    # The category's count moves with the event's status: its record changes.
    assert logged(start) == [
        ("event", event_id, "updated"),
        ("event", event_id, "trashed"),
        ("category", category.pk, "updated"),
    ]

    start = last_position()
    assert post_json(editor, f"/events/{event_id}", {"status": "publish"}).status_code == 200
    assert logged(start) == [("event", event_id, "restored"), ("category", category.pk, "updated")]


def test_a_venue_edit_logs_the_venue_and_each_event_showing_it_once(editor):
    venue = make_venue("Hall")
    events = [make_event(venue=venue) for _ in range(3)]
    make_event()
    start = last_position()
    assert post_json(editor, f"/venues/{venue.pk}", {"venue": "Great Hall", "city": "Lyon"}).status_code == 200
    assert logged(start) == [("event", event.pk, "updated") for event in events] + [("venue", venue.pk, "updated")]


def test_a_write_changing_more_records_than_one_statement_holds_logs_them_all_in_order(editor, monkeypatch):
    """PostgreSQL caps a statement's parameters: a venue shown by more events than one INSERT of
    the log holds (ENTRIES_PER_STATEMENT, made small here) appends in several, in order."""
    monkeypatch.setattr(recording, "ENTRIES_PER_STATEMENT", 2)
    venue = make_venue("Hall")
    events = [make_event(venue=venue) for _ in range(5)]
    start = last_position()
    assert post_json(editor, f"/venues/{venue.pk}", {"venue": "Great Hall"}).status_code == 200
    assert logged(start) == [("event", event.pk, "updated") for event in events] + [("venue", venue.pk, "updated")]


def test_trashing_an_organizer_logs_it_and_the_events_it_leaves(editor):
    organizer = make_organizer("Friends")
    event = make_event(organizers=[organizer])
    start = last_position()
    assert editor.delete(f"{API}/organizers/{organizer.pk}").status_code == 200
    assert logged(start) == [("event", event.pk, "updated"), ("organizer", organizer.pk, "trashed")]


def test_deleting_a_tag_logs_its_deletion_and_the_events_that_showed_it(as_role):
    admin = as_role("administrator")
    tag = make_tag("Outdoor")
    event = make_event(tags=[tag])
    start = last_position()
    assert admin.delete(f"{API}/tags/{tag.pk}?force=true").status_code == 200
    assert logged(start) == [("event", event.pk, "updated"), ("tag", tag.pk, "deleted")]


def test_a_category_renamed_logs_its_subcategories_whose_urls_hold_its_slug(as_role):
    admin = as_role("administrator")
    parent = make_category("Music")
    child = make_category("Jazz", parent=parent)
    start = last_position()
    assert post_json(admin, f"/categories/{parent.pk}", {"slug": "sounds"}).status_code == 200
    assert logged(start) == [("category", parent.pk, "updated"), ("category", child.pk, "updated")]


def test_a_rolled_back_write_leaves_no_entry(editor):
    event = make_event()
    start = last_position()
    with pytest.raises(RuntimeError), transaction.atomic():
        update_event(event, editor.user, {"title": "Never"})
        raise RuntimeError
    update_event(Event.objects.get(pk=event.pk), editor.user, {"excerpt": "Kept"})
    assert logged(start) == [("event", event.pk, "updated")]


def test_a_refused_api_write_leaves_no_entry(editor):
    event = make_event()
    start = last_position()
    assert post_json(editor, f"/events/{event.pk}", {"title": "X", "start_date": "not a date"}).status_code == 400
    assert logged(start) == []


def test_an_admin_form_save_logs_the_event():
    from .test_admin import event_form

    staff = staff_client("editor")
    start = last_position()
    assert staff.post("/admin/events/event/add/", event_form(title_en="From the admin")).status_code == 302
    event = Event.objects.get(title_en="From the admin")
    assert logged(start) == [("event", event.pk, "created")]


def test_an_admin_bulk_trash_logs_each_record_once():
    staff = staff_client("editor")
    venue = make_venue()
    events = [make_event(venue=venue) for _ in range(3)]
    start = last_position()
    response = staff.post(
        "/admin/events/event/", {"action": "move_to_trash", "_selected_action": [e.pk for e in events]}
    )
    assert response.status_code == 302
    assert logged(start) == [("event", event.pk, "trashed") for event in sorted(events, key=lambda e: e.pk)]


def test_an_admin_bulk_venue_trash_logs_an_event_showing_two_of_them_once():
    staff = staff_client("editor")
    first, second = make_venue(), make_venue()
    event = make_event(venue=first)
    organizer = make_organizer()
    other = make_event(venue=second, organizers=[organizer])
    start = last_position()
    response = staff.post(
        "/admin/events/venue/", {"action": "move_to_trash", "_selected_action": [first.pk, second.pk]}
    )
    assert response.status_code == 302
    assert logged(start) == [
        ("event", event.pk, "updated"),
        ("event", other.pk, "updated"),
        ("venue", first.pk, "trashed"),
        ("venue", second.pk, "trashed"),
    ]


def test_the_clear_command_logs_every_deletion():
    event = make_event()
    venue = make_venue()
    tag = make_tag()
    start = last_position()
    call_command("events_clear", "--yes", stdout=open("/dev/null", "w"))
    assert sorted(logged(start)) == sorted(
        [
            ("event", event.pk, "deleted"),
            ("venue", venue.pk, "deleted"),
            ("tag", tag.pk, "deleted"),
        ]
    )


def test_the_demo_command_logs_what_it_creates():
    start = last_position()
    call_command("events_demo", stdout=open("/dev/null", "w"))
    entries = logged(start)
    assert {kind for kind, _id, _action in entries} == {"event", "venue", "organizer", "category", "tag"}
    assert {action for _kind, _id, action in entries} == {"created"}
    assert len(entries) == len(set(entries))
    assert sorted(record_id for kind, record_id, _action in entries if kind == "event") == sorted(
        Event.objects.values_list("pk", flat=True)
    )


@pytest.mark.django_db(transaction=True)
def test_a_committed_write_has_its_entry_and_a_rolled_back_one_none():
    event = make_event(status=PostStatus.DRAFT)
    start = last_position()
    with pytest.raises(RuntimeError), transaction.atomic():
        event.title = "Rolled back"
        event.save()
        raise RuntimeError
    assert logged(start) == []
    event.title = "Saved outside a service"
    event.save()
    assert logged(start) == [("event", event.pk, "updated")]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_reader_following_the_log_misses_no_entry_of_concurrent_writers():
    """Each writer holds its transaction open a moment after its write, as a view does before it
    commits: were positions not taken in commit order, the reader would step over an entry."""
    import datetime as dt
    import random
    import threading
    import time

    from events.services.events import create_event

    from .concurrency import all_at_once
    from .factories import make_user

    user = make_user("editor")
    writers, writes_each = 6, 5
    done = threading.Event()
    seen = []

    def follow():
        cursor = 0
        try:
            while True:
                finished = done.is_set()
                fresh = list(ChangeEntry.objects.filter(pk__gt=cursor).order_by("pk").values_list("pk", flat=True))
                seen.extend(fresh)
                cursor = fresh[-1] if fresh else cursor
                if finished:
                    return
        finally:
            connection.close()

    def writer(number):
        def write():
            for index in range(writes_each):
                with transaction.atomic():
                    create_event(
                        user,
                        {
                            "title": f"W{number}-{index}",
                            "start_date": dt.datetime(2031, 1, 1, 10),
                            "end_date": dt.datetime(2031, 1, 1, 11),
                            "status": "publish",
                        },
                    )
                    time.sleep(random.uniform(0, 0.02))
            return number

        return write

    reader = threading.Thread(target=follow)
    reader.start()
    all_at_once([writer(number) for number in range(writers)])
    done.set()
    reader.join(60)
    every = list(ChangeEntry.objects.order_by("pk").values_list("pk", flat=True))
    assert len(every) == writers * writes_each
    assert seen == every


# --- the languages each entry names ---------------------------------------------------------------

FEED = "/wp-json/events-calendar/v1/changes"
EVERY_LANGUAGE = ["en", "zh-hans", "zh-hant"]


def fed(after):
    """(kind, ID, action, languages) of the feed's entries after position `after`, as a visitor reads them."""
    from rest_framework.test import APIClient

    finish_writes()
    response = APIClient().get(FEED, {"per_page": 100})
    assert response.status_code == 200
    return [
        (change["kind"], change["id"], change["action"], change["languages"])
        for change in response.json()["changes"]
        if change["position"] > after
    ]


def test_an_api_write_names_the_languages_whose_text_it_changed(editor):
    created = post_json(
        editor,
        "/events",
        {"title": "Night", "start_date": "2031-03-01 20:00", "end_date": "2031-03-01 22:00", "status": "publish"},
    )
    event_id = created.json()["id"]
    # A new record: every language it has text in (an API write speaks one language).
    assert fed(0) == [("event", event_id, "created", ["en"])]

    start = last_position()
    assert post_json(editor, f"/events/{event_id}", {"title": "夜晚"}, prefix="/zh-hans").status_code == 200
    assert post_json(editor, f"/events/{event_id}", {"title": "夜晚場"}, prefix="/zh-hant").status_code == 200
    assert fed(start) == [("event", event_id, "updated", ["zh-hans"]), ("event", event_id, "updated", ["zh-hant"])]

    start = last_position()
    # The same text again, and a change of what every language shows alike: no language.
    assert post_json(editor, f"/events/{event_id}", {"title": "夜晚場"}, prefix="/zh-hant").status_code == 200
    assert post_json(editor, f"/events/{event_id}", {"featured": True}).status_code == 200
    assert fed(start) == [("event", event_id, "updated", []), ("event", event_id, "updated", [])]

    start = last_position()
    assert editor.delete(f"{API}/events/{event_id}").status_code == 200
    assert post_json(editor, f"/events/{event_id}", {"status": "publish"}).status_code == 200
    assert fed(start) == [
        ("event", event_id, "trashed", EVERY_LANGUAGE),
        ("event", event_id, "restored", EVERY_LANGUAGE),
    ]


def test_an_admin_edit_of_the_zh_hant_title_names_only_zh_hant():
    from .test_admin import event_form

    staff = staff_client("editor")
    assert staff.post("/admin/events/event/add/", event_form(title_en="Jazz night")).status_code == 302
    event = Event.objects.get(title_en="Jazz night")
    assert fed(0) == [("event", event.pk, "created", EVERY_LANGUAGE)]

    start = last_position()
    edited = event_form(title_en="Jazz night", title_zh_hant="爵士之夜（加場）", slug=event.slug)
    assert staff.post(f"/admin/events/event/{event.pk}/change/", edited).status_code == 302
    assert Event.objects.get(pk=event.pk).title_zh_hant == "爵士之夜（加場）"
    assert fed(start) == [("event", event.pk, "updated", ["zh-hant"])]


def test_a_venue_renamed_in_one_language_names_it_on_the_events_that_show_it(editor):
    venue = make_venue("Hall", title_zh_hans="大厅", title_zh_hant="大廳")
    events = [make_event(venue=venue) for _ in range(2)]
    start = last_position()
    assert post_json(editor, f"/venues/{venue.pk}", {"venue": "Great Hall"}).status_code == 200
    assert fed(start) == [("event", event.pk, "updated", ["en"]) for event in events] + [
        ("venue", venue.pk, "updated", ["en"])
    ]

    start = last_position()
    assert post_json(editor, f"/venues/{venue.pk}", {"venue": "大会堂"}, prefix="/zh-hans").status_code == 200
    assert fed(start) == [("event", event.pk, "updated", ["zh-hans"]) for event in events] + [
        ("venue", venue.pk, "updated", ["zh-hans"])
    ]

    start = last_position()
    # An address is the same in every language.
    assert post_json(editor, f"/venues/{venue.pk}", {"city": "Lyon"}).status_code == 200
    assert fed(start) == [("event", event.pk, "updated", []) for event in events] + [("venue", venue.pk, "updated", [])]


def test_a_venue_renamed_in_english_in_the_admin_names_english_on_its_events():
    from .test_admin_editing import venue_form

    staff = staff_client("editor")
    venue = make_venue("Harbour hall", title_zh_hans="海港礼堂", title_zh_hant="海港禮堂")
    event = make_event(venue=venue)
    start = last_position()
    form = venue_form(
        title_en="Harbour concert hall", title_zh_hans="海港礼堂", title_zh_hant="海港禮堂", slug=venue.slug
    )
    assert staff.post(f"/admin/events/venue/{venue.pk}/change/", {**form, "status": "publish"}).status_code == 302
    assert fed(start) == [("event", event.pk, "updated", ["en"]), ("venue", venue.pk, "updated", ["en"])]


def test_a_term_renamed_in_zh_hans_names_zh_hans_on_the_term_and_its_events(as_role):
    admin = as_role("administrator")
    category = make_category("Jazz", name_zh_hans="爵士", name_zh_hant="爵士")
    child = make_category("Bebop", parent=category)
    event = make_event(categories=[category])
    start = last_position()
    assert post_json(admin, f"/categories/{category.pk}", {"name": "爵士乐"}, prefix="/zh-hans").status_code == 200
    # The subcategory's record changes with its parent's URL, not its text.
    assert fed(start) == [
        ("event", event.pk, "updated", ["zh-hans"]),
        ("category", category.pk, "updated", ["zh-hans"]),
        ("category", child.pk, "updated", []),
    ]


def test_a_deleted_record_names_every_language_it_had_text_in_and_the_events_it_leaves_none(as_role):
    admin = as_role("administrator")
    tag = make_tag("Outdoor", name_zh_hant="戶外")
    event = make_event(tags=[tag])
    start = last_position()
    assert admin.delete(f"{API}/tags/{tag.pk}?force=true").status_code == 200
    # The event loses a link: its own text, and that of what it still shows, did not change.
    assert fed(start) == [("event", event.pk, "updated", []), ("tag", tag.pk, "deleted", ["en", "zh-hant"])]


def test_a_new_series_announces_every_occurrence_as_created_with_its_languages(editor):
    start = last_position()
    created = post_json(
        editor,
        "/events",
        {
            "title": "Weekly",
            "description": "Every week",
            "start_date": "2031-03-03 20:00",
            "end_date": "2031-03-03 22:00",
            "status": "publish",
            "categories": ["Weekly nights"],
            "recurrence": {"rules": ["FREQ=WEEKLY;COUNT=4"]},
        },
        prefix="/zh-hant",
    )
    assert created.status_code == 201, created.content
    occurrences = sorted(Event.objects.filter(series_id=created.json()["id"]).values_list("pk", flat=True))
    assert len(occurrences) == 4
    events = [entry for entry in fed(start) if entry[0] == "event"]
    # Every occurrence has the text of the first, in the languages it has it in.
    languages = events[0][3]
    assert "zh-hant" in languages
    assert events == [("event", pk, "created", languages) for pk in occurrences]


def test_a_series_edit_names_the_languages_on_every_occurrence_it_carries_them_to(editor):
    created = post_json(
        editor,
        "/events",
        {
            "title": "Weekly",
            "start_date": "2031-03-03 20:00",
            "end_date": "2031-03-03 22:00",
            "status": "publish",
            "recurrence": {"rules": ["FREQ=WEEKLY;COUNT=3"]},
        },
    )
    assert created.status_code == 201, created.content
    first = created.json()["id"]
    occurrences = sorted(Event.objects.filter(series_id=first).values_list("pk", flat=True))
    assert len(occurrences) == 3
    start = last_position()
    edited = post_json(editor, f"/events/{first}", {"title": "每週", "recurrence_scope": "all"}, prefix="/zh-hant")
    assert edited.status_code == 200, edited.content
    assert fed(start) == [("event", pk, "updated", ["zh-hant"]) for pk in occurrences]


def test_a_title_edit_costs_the_statements_of_any_other_edit(editor, django_assert_max_num_queries):
    """The languages come from the values the record was read with: no statement of their own."""
    from django.test.utils import CaptureQueriesContext

    venue = make_venue("Hall")
    event = make_event(venue=venue, organizers=[make_organizer()], categories=[make_category()])
    last_position()

    def statements(prefix, fields):
        with CaptureQueriesContext(connection) as captured:
            assert post_json(editor, f"/events/{event.pk}", fields, prefix=prefix).status_code == 200
        return [query["sql"] for query in captured.captured_queries]

    statements("", {"excerpt": "warm up"})
    flag = statements("", {"featured": True})
    title = statements("/zh-hant", {"title": "新標題"})
    assert len(title) == len(flag)
    # One INSERT appends the write's entry, with its languages.
    assert len([sql for sql in title if "events_changeentry" in sql]) == 1
    assert len([sql for sql in flag if "events_changeentry" in sql]) == 1
    assert ChangeEntry.objects.order_by("-pk").values_list("languages", flat=True).first() == "zh-hant"
    # What this update cost before the log named languages, on both databases.
    with django_assert_max_num_queries(20):
        assert post_json(editor, f"/events/{event.pk}", {"title": "Hall night"}).status_code == 200


def test_a_bulk_update_names_the_languages_of_the_columns_it_writes():
    from django.utils import translation

    from events.models import Venue

    venue = make_venue("Hall")
    event = make_event(venue=venue)
    start = last_position()
    with transaction.atomic():
        Venue.objects.filter(pk=venue.pk).update(title_zh_hant="禮堂")
        with translation.override("zh-hans"):
            # Without its language, the active one's column.
            Venue.objects.filter(pk=venue.pk).update(description="大厅")
        finish_writes()
    assert fed(start) == [
        ("event", event.pk, "updated", ["zh-hans", "zh-hant"]),
        ("venue", venue.pk, "updated", ["zh-hans", "zh-hant"]),
    ]
    assert Venue.objects.get(pk=venue.pk).description_zh_hans == "大厅"


def test_two_writes_of_a_record_in_one_transaction_make_one_entry_naming_the_languages_of_both(editor):
    from django.test.utils import CaptureQueriesContext
    from django.utils import translation

    event = make_event()
    start = last_position()
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        with translation.override("zh-hans"):
            update_event(Event.objects.get(pk=event.pk), editor.user, {"title": "夜晚"})
        with translation.override("zh-hant"):
            update_event(Event.objects.get(pk=event.pk), editor.user, {"title": "夜晚場"})
    # The second write's languages are added to the entry the first appended (not yet committed).
    assert [query["sql"].split()[0] for query in captured.captured_queries if "events_changeentry" in query["sql"]] == [
        "INSERT",
        "UPDATE",
    ]
    assert fed(start) == [("event", event.pk, "updated", ["zh-hans", "zh-hant"])]
