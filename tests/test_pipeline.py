"""The write pipeline (events/pipeline.py): what a unit of work records, when it finishes, and what
its end sets off, in order; and the one fallback for a site's own ORM writes outside any unit."""

import pytest
from django.core.cache import cache, caches
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from events import pipeline, store
from events.models import ChangeEntry, Event, RenderedRecord, Term, Venue
from events.notifications import wake_if_subscribed
from events.read_cache_version import VERSION_KEY

from .conftest import post_json
from .factories import finish_writes, make_category, make_event, make_venue

pytestmark = pytest.mark.django_db


def logged(after=0):
    return list(ChangeEntry.objects.filter(pk__gt=after).order_by("pk").values_list("kind", "record_id", "action"))


def log_end():
    return ChangeEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def stored(kind, record_id):
    return RenderedRecord.objects.filter(kind=kind, record_id=record_id).exists()


def test_a_nested_unit_that_raises_leaves_no_entry_and_no_stale_row():
    event, venue = make_event("Kept"), make_venue("Hall")
    call_command("events_render", stdout=None)
    finish_writes()
    start = log_end()
    with pipeline.unit():
        renamed = Event.objects.get(pk=event.pk)
        renamed.title = "Renamed"
        renamed.save()
        with pytest.raises(RuntimeError), pipeline.unit():
            venue.title = "Rolled back"
            venue.save()
            raise RuntimeError
    assert logged(start) == [("event", event.pk, "updated")]
    assert Venue.objects.get(pk=venue.pk).title == "Hall"
    assert stored(store.VENUE, venue.pk)
    assert store.stale_rows() == []


def test_nested_units_finish_once_at_the_outermost_end():
    venue = make_venue("Hall")
    call_command("events_render", stdout=None)
    finish_writes()
    start = log_end()
    with pipeline.unit():
        with pipeline.unit():
            venue.title = "Great Hall"
            venue.save()
        # The inner unit's end finished nothing: its rows are dropped, not yet rendered, not logged.
        assert not stored(store.VENUE, venue.pk)
        assert logged(start) == []
        with pipeline.unit():
            venue.title = "Greater Hall"
            venue.save()
    assert logged(start) == [("venue", venue.pk, "updated")]
    assert stored(store.VENUE, venue.pk)
    assert store.stale_rows() == []


@pytest.fixture
def read_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "units"}}
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "READ_CACHE_SECONDS": 60}
    cache.clear()
    yield
    cache.clear()


def _normalised(sql):
    return sql.replace('"', "").lower()


def test_a_write_sets_off_counts_then_store_then_log_then_cache_then_wakes_after_commit(
    editor, read_cache, monkeypatch, django_capture_on_commit_callbacks
):
    category = make_category("Jazz")
    finish_writes()
    backend = caches["default"]
    real_set = backend.set
    version_set_after = []

    def set_and_note(key, value, *args, **kwargs):
        if key == VERSION_KEY:
            version_set_after.append(len(captured.captured_queries))
        return real_set(key, value, *args, **kwargs)

    monkeypatch.setattr(backend, "set", set_and_note)
    body = {"title": "Night", "start_date": "2031-03-01 20:00", "end_date": "2031-03-01 22:00", "status": "publish"}
    with (
        CaptureQueriesContext(connection) as captured,
        django_capture_on_commit_callbacks(execute=False) as callbacks,
    ):
        assert post_json(editor, "/events", {**body, "categories": [category.pk]}).status_code == 201
    statements = [_normalised(query["sql"]) for query in captured.captured_queries]

    def first(prefix, after=0):
        return next(index for index, sql in enumerate(statements) if index >= after and sql.startswith(prefix))

    recount = first("update events_term set count")
    rendered = first("insert into events_renderedrecord", after=recount)
    appended = first("insert into events_changeentry", after=rendered)
    # The log is the last write of the transaction: its lock is held only for the commit.
    assert not any(sql.startswith(("insert", "update", "delete")) for sql in statements[appended + 1 :])
    assert version_set_after and version_set_after[0] > appended
    assert Term.objects.get(pk=category.pk).count == 1
    assert wake_if_subscribed in callbacks


@pytest.mark.django_db(transaction=True)
def test_a_site_s_own_write_in_autocommit_is_logged_once_and_the_store_is_true():
    venue = make_venue("Hall")
    event = make_event("Concert", venue=venue)
    call_command("events_render", stdout=None)
    start = log_end()
    venue.title = "Great Hall"
    venue.save()
    assert logged(start) == [("event", event.pk, "updated"), ("venue", venue.pk, "updated")]
    assert stored(store.VENUE, venue.pk)
    assert store.stale_rows() == []


@pytest.mark.django_db(transaction=True)
def test_a_site_s_own_writes_in_its_own_transaction_are_logged_once_after_its_commit():
    venue = make_venue("Hall")
    tag = make_category("Jazz")
    call_command("events_render", stdout=None)
    start = log_end()
    with transaction.atomic():
        venue.title = "Great Hall"
        venue.save()
        venue.title = "Greatest Hall"
        venue.save()
        event = make_event("Concert", venue=venue, categories=[tag])
        # Readers in the transaction see the truth at once: the count, and no stale row.
        assert Term.objects.get(pk=tag.pk).count == 1
        assert logged(start) == []
    assert logged(start) == [
        ("event", event.pk, "created"),
        ("venue", venue.pk, "updated"),
        ("category", tag.pk, "updated"),
    ]
    assert store.stale_rows() == []


@pytest.mark.django_db(transaction=True)
def test_a_site_s_own_savepoint_rolled_back_leaves_no_entry():
    venue, other = make_venue("Hall"), make_venue("Annex")
    start = log_end()
    with transaction.atomic():
        venue.title = "Great Hall"
        venue.save()
        with pytest.raises(RuntimeError), transaction.atomic():
            other.title = "Rolled back"
            other.save()
            raise RuntimeError
    assert logged(start) == [("venue", venue.pk, "updated")]
