"""The stored term `count` after the writes that do not go through the API: admin, commands, bulk writes, migration."""

import importlib
import types
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events import pipeline
from events.models import Event, PostStatus, Term
from events.term_counts import recount_all_terms

from .conftest import API
from .factories import make_category, make_event, make_tag
from .test_admin import event_form, staff_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor():
    return staff_client("editor")


def counts(api, collection):
    return {
        term["name"]: term["count"] for term in api.get(f"{API}/{collection}", {"hide_empty": 0}).json()[collection]
    }


def true_counts():
    """What each term's count must be: its links to published events, counted from the tables."""
    links = Event.terms.through.objects.filter(event__status=PostStatus.PUBLISH)
    return {term.pk: links.filter(term_id=term.pk).count() for term in Term.objects.all()}


def served_counts(api):
    served = {}
    for collection in ("categories", "tags"):
        response = api.get(f"{API}/{collection}", {"hide_empty": 0, "per_page": 100})
        served.update({term["id"]: term["count"] for term in response.json()[collection]})
    return served


# --- the admin ------------------------------------------------------------------------------------


def test_admin_save_changing_the_categories_moves_the_counts(api, editor):
    music, theatre, tag = make_category("Music"), make_category("Theatre"), make_tag("Live")
    event = make_event("Show", categories=[music], tags=[tag])
    data = event_form(title_en="Show", slug=event.slug, categories=[str(theatre.pk)], tags=[str(tag.pk)])
    response = editor.post(f"/admin/events/event/{event.pk}/change/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert counts(api, "categories") == {"Music": 0, "Theatre": 1}
    assert counts(api, "tags") == {"Live": 1}
    embedded = api.get(f"{API}/events/{event.pk}").json()
    assert [(term["name"], term["count"]) for term in embedded["categories"]] == [("Theatre", 1)]


def test_admin_add_and_status_change_count(api, editor):
    music = make_category("Music")
    response = editor.post("/admin/events/event/add/", event_form(categories=[str(music.pk)]))
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert counts(api, "categories") == {"Music": 1}
    event = Event.objects.get()
    data = event_form(slug=event.slug, status="draft", categories=[str(music.pk)])
    assert editor.post(f"/admin/events/event/{event.pk}/change/", data).status_code == 302
    assert counts(api, "categories") == {"Music": 0}


def test_admin_trash_restore_and_delete(api, editor):
    tag = make_tag("Kept count")
    event = make_event("Gala", tags=[tag])
    make_event(tags=[tag])
    editor.post("/admin/events/event/", {"action": "move_to_trash", "_selected_action": [event.pk]})
    assert counts(api, "tags") == {"Kept count": 1}
    editor.post("/admin/events/event/", {"action": "restore_from_trash", "_selected_action": [event.pk]})
    assert counts(api, "tags") == {"Kept count": 2}
    assert editor.post(f"/admin/events/event/{event.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()
    assert counts(api, "tags") == {"Kept count": 1}


def test_admin_bulk_delete_of_events(api, editor):
    tag = make_tag("Bulk")
    doomed = [make_event(tags=[tag]) for _ in range(2)]
    make_event(tags=[tag])
    response = editor.post(
        "/admin/events/event/", {"action": "delete_selected", "_selected_action": [e.pk for e in doomed], "post": "yes"}
    )
    assert response.status_code == 302
    assert counts(api, "tags") == {"Bulk": 1}


def test_admin_term_list_shows_and_sorts_by_the_count(editor):
    busy, quiet = make_tag("Busy"), make_tag("Quiet")
    make_event(tags=[busy])
    make_event(tags=[busy, quiet])
    response = editor.get("/admin/events/tag/", {"o": "-3"})
    assert response.status_code == 200
    rows = [(tag.name, tag.count) for tag in response.context["cl"].result_list]
    assert rows == [("Busy", 2), ("Quiet", 1)]


# --- bulk writes and commands ---------------------------------------------------------------------


def test_bulk_links_are_counted_by_recount_all_terms(api):
    tag = make_tag("Bulk linked")
    events = [make_event(), make_event(), make_event(status=PostStatus.DRAFT)]
    Event.terms.through.objects.bulk_create(Event.terms.through(event=event, term=tag) for event in events)
    Event.objects.filter(pk=events[0].pk).update(status=PostStatus.PRIVATE)
    recount_all_terms()
    assert counts(api, "tags") == {"Bulk linked": 1}


def test_a_unit_told_to_recount_every_term_counts_right_when_it_ends(api):
    tag = make_tag("Deferred")
    with pipeline.unit() as work:
        work.recount_all_terms()
        for _ in range(3):
            make_event(tags=[tag])
        make_event(tags=[tag]).delete()
    assert counts(api, "tags") == {"Deferred": 3}


def test_demo_calendar_has_true_counts(api):
    call_command("events_demo", "--no-admin", stdout=StringIO())
    assert served_counts(api) == true_counts()
    assert any(true_counts().values())


def test_clear_then_demo_again_has_true_counts(api):
    call_command("events_demo", "--no-admin", stdout=StringIO())
    call_command("events_clear", "--yes", stdout=StringIO())
    assert served_counts(api) == {}
    call_command("events_demo", "--no-admin", stdout=StringIO())
    assert served_counts(api) == true_counts()


def test_migration_fills_the_counts_of_existing_terms(api):
    from django.apps import apps

    migration = importlib.import_module("events.migrations.0003_term_count_listing_index")
    music, tag = make_category("Music"), make_tag("Live")
    make_event(categories=[music], tags=[tag])
    make_event(categories=[music], status=PostStatus.DRAFT)
    # As the rows stood before the column existed: no count stored.
    Term.objects.update(count=0)
    migration.fill_term_counts(apps, types.SimpleNamespace(connection=connection))
    assert counts(api, "categories") == {"Music": 1}
    assert counts(api, "tags") == {"Live": 1}


def test_a_save_that_keeps_the_status_leaves_the_terms_alone(api):
    jazz = make_category("Jazz")
    make_event("Concert", categories=[jazz])
    event = Event.objects.get(title="Concert")
    event.title = "Recital"
    with CaptureQueriesContext(connection) as saved:
        event.save()
    assert not any("events_term" in query["sql"] for query in saved.captured_queries)

    event.status = PostStatus.DRAFT
    with CaptureQueriesContext(connection) as unpublished:
        event.save()
    assert any("events_term" in query["sql"] for query in unpublished.captured_queries)
    assert api.get(f"{API}/categories/{jazz.pk}").json()["count"] == 0
