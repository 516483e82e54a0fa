"""The optional cache of anonymous reads: served again without SQL, never stale after a write."""

import pytest
from django.core.cache import cache, caches
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection
from django.test import override_settings

from events.api import read_cache as read_cache_module
from events.memory import forget_all
from events.models import Event
from events.read_cache_version import VERSION_KEY

from .conftest import API, post_json
from .factories import make_category, make_event, make_venue

pytestmark = pytest.mark.django_db


@pytest.fixture
def read_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "reads"}}
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "READ_CACHE_SECONDS": 60}
    cache.clear()
    yield
    cache.clear()


def titles(response):
    return [event["title"] for event in response.json()["events"]]


def test_off_by_default_every_read_runs_its_queries(api, django_assert_max_num_queries, django_assert_num_queries):
    make_event("Concert")
    api.get(f"{API}/events")
    with pytest.raises(pytest.fail.Exception), django_assert_num_queries(0):
        api.get(f"{API}/events")


def test_a_repeated_anonymous_read_runs_no_sql_and_keeps_its_headers(api, read_cache, django_assert_num_queries):
    make_event("Concert")
    first = api.get(f"{API}/events")
    with django_assert_num_queries(0):
        again = api.get(f"{API}/events")
    assert again.status_code == 200
    assert again.json() == first.json()
    for header in ("X-TEC-Total", "X-TEC-TotalPages", "Content-Type", "Content-Language", "Link", "Allow"):
        assert again[header] == first[header]


def test_an_api_write_shows_at_once(api, as_role, read_cache):
    event = make_event("Concert")
    assert titles(api.get(f"{API}/events")) == ["Concert"]
    editor = as_role("editor")
    assert editor.post(f"{API}/events/{event.pk}", {"title": "Recital"}, format="json").status_code == 200
    assert titles(api.get(f"{API}/events")) == ["Recital"]
    assert editor.delete(f"{API}/events/{event.pk}").status_code == 200
    assert titles(api.get(f"{API}/events")) == []


def test_an_admin_or_orm_save_shows_at_once(api, read_cache):
    venue = make_venue("Hall")
    event = make_event("Concert", venue=venue)
    assert api.get(f"{API}/events/{event.pk}").json()["venue"]["venue"] == "Hall"
    venue.title = "Great Hall"
    venue.save()
    assert api.get(f"{API}/events/{event.pk}").json()["venue"]["venue"] == "Great Hall"


def test_a_new_category_link_shows_at_once(api, read_cache):
    event = make_event("Concert")
    jazz = make_category("Jazz")
    assert api.get(f"{API}/events/{event.pk}").json()["categories"] == []
    Event.objects.get(pk=event.pk).terms.add(jazz)
    assert [term["name"] for term in api.get(f"{API}/events/{event.pk}").json()["categories"]] == ["Jazz"]


def test_signed_in_callers_are_never_served_from_the_cache(api, as_role, read_cache):
    make_event("Concert")
    make_event("Rehearsal", status="draft")
    assert titles(api.get(f"{API}/events?status=publish")) == ["Concert"]
    editor = as_role("editor")
    assert sorted(titles(editor.get(f"{API}/events?status=publish"))) == ["Concert"]
    assert sorted(titles(editor.get(f"{API}/events?status=draft"))) == ["Rehearsal"]
    # And what they read is not handed to anonymous callers.
    assert api.get(f"{API}/events?status=draft").status_code == 400


def test_each_language_has_its_own_entry(api, read_cache):
    event = make_event("Concert", title_zh_hans="音乐会")
    assert api.get(f"{API}/events/{event.pk}").json()["title"] == "Concert"
    assert api.get(f"{API}/events/{event.pk}?wpml_language=zh-hans").json()["title"] == "音乐会"
    assert api.get(f"/zh-hans{API}/events/{event.pk}").json()["title"] == "音乐会"
    assert api.get(f"{API}/events/{event.pk}").json()["title"] == "Concert"


def test_answers_shaped_after_the_cached_part_are_never_served_from_it(api, read_cache, django_assert_num_queries):
    """`_fields` and `_envelope` reshape the answer: such requests always run; a value that merely
    spells one of their names is an ordinary request, cached as any other."""
    make_event("Concert")
    for query in ("_fields=id", "per_page=5&_envelope", "_envelope=1&_fields=title"):
        first = api.get(f"{API}/events?{query}")
        with pytest.raises(pytest.fail.Exception), django_assert_num_queries(0):
            assert api.get(f"{API}/events?{query}").content == first.content
    api.get(f"{API}/events?search=_fields")
    with django_assert_num_queries(0):
        assert api.get(f"{API}/events?search=_fields").status_code == 200


def test_errors_are_not_stored(api, read_cache):
    assert api.get(f"{API}/events/999999").status_code == 404
    event = make_event("Concert")
    assert api.get(f"{API}/events/{event.pk}").status_code == 200


def test_a_per_process_cache_is_reported_by_the_system_check(read_cache):
    with pytest.raises(SystemCheckError, match="events.W001"):
        call_command("check", fail_level="WARNING")


def test_a_shared_cache_passes_the_system_check(settings, read_cache):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:6379/15"}
    }
    call_command("check", fail_level="WARNING")


@pytest.fixture
def redis_read_cache(settings, read_cache):
    """The read cache on the Redis that runs beside the suite (skipped where there is none)."""
    import redis

    location = "redis://127.0.0.1:6379/15"
    try:
        redis.Redis.from_url(location, socket_connect_timeout=1).flushdb()
    except redis.exceptions.ConnectionError:
        pytest.skip("Redis is not reachable on 127.0.0.1:6379")
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": location}}
    return redis.Redis.from_url(location)


def test_reads_are_served_from_redis_and_a_queryset_update_invalidates_them(
    redis_read_cache, api, django_assert_num_queries
):
    """The Redis path (one connection per thread, one round trip per hit), where Redis runs."""
    event = make_event("Concert")
    url = f"{API}/events/{event.pk}"
    first = api.get(url)
    with django_assert_num_queries(0):
        hit = api.get(url)
    assert hit.content == first.content
    Event.objects.filter(pk=event.pk).update(title="Matinee")
    assert api.get(url).json()["title"] == "Matinee"


def test_a_hit_reads_a_body_it_holds_from_its_own_memory_and_one_it_lacks_from_redis(
    api, redis_read_cache, django_assert_num_queries
):
    """An entry's body is stored apart under its ETag: a process that holds it reads only the
    entry's head; another process (an emptied memory here) reads the body; a body gone from
    Redis is a miss, answered afresh."""
    make_event("Concert")
    url = f"{API}/events"
    forget_all()
    fresh = api.get(url)
    bodies = [key for key in redis_read_cache.keys("*") if b":body:" in key]
    assert len(bodies) == 1
    redis_read_cache.delete(*bodies)
    with django_assert_num_queries(0):
        held = api.get(url)  # the head is there, the body is this process's own
    assert held.content == fresh.content and held["ETag"] == fresh["ETag"]
    forget_all()
    answered_afresh = api.get(url)  # neither here nor in Redis: a miss
    assert answered_afresh.content == fresh.content
    forget_all()  # another process: only Redis has it now
    with django_assert_num_queries(0):
        from_redis = api.get(url)
    assert from_redis.content == fresh.content and from_redis["ETag"] == fresh["ETag"]


CACHED_HEADERS = ("ETag", "Vary", "Cache-Control", "Link", "Allow", "X-TEC-Total", "X-TEC-TotalPages", "Content-Type")


def test_an_answer_from_the_cache_is_finished_as_a_fresh_one(api, redis_read_cache, django_assert_num_queries):
    make_event("Concert")
    url = f"{API}/events"
    fresh = api.get(url)
    with django_assert_num_queries(0):
        hit = api.get(url)
        not_modified = api.get(url, HTTP_IF_NONE_MATCH=fresh["ETag"])
        head = api.head(url)
    for header in CACHED_HEADERS:
        assert hit[header] == fresh[header]
    assert not_modified.status_code == 304 and not_modified.content == b""
    for header in ("ETag", "Vary", "Cache-Control", "Link", "Allow"):
        assert not_modified[header] == fresh[header]
    assert head.status_code == 200 and head.content == b"" and head["ETag"] == fresh["ETag"]


def test_cors_headers_are_the_requests_own_never_the_stored_ones(api, redis_read_cache, django_assert_num_queries):
    make_event("Concert")
    url = f"{API}/events"
    from_widget = api.get(url, HTTP_ORIGIN="https://widget.example")
    assert from_widget["Access-Control-Allow-Origin"] == "https://widget.example"
    with django_assert_num_queries(0):
        plain = api.get(url)
        from_other = api.get(url, HTTP_ORIGIN="https://other.example")
        revalidated = api.get(url, HTTP_ORIGIN="https://other.example", HTTP_IF_NONE_MATCH=plain["ETag"])
    assert "Access-Control-Allow-Origin" not in plain
    assert "Origin" not in plain["Vary"]
    assert from_other["Access-Control-Allow-Origin"] == "https://other.example"
    assert "Origin" in from_other["Vary"]
    assert revalidated.status_code == 304
    assert revalidated["Access-Control-Allow-Origin"] == "https://other.example"


def test_a_hit_survives_redis_dropping_the_connection(api, redis_read_cache, django_assert_num_queries):
    event = make_event("Concert")
    url = f"{API}/events/{event.pk}"
    first = api.get(url)
    api.get(url)  # this thread now holds its connection
    # Only that connection: other tests and servers may be using this Redis at the same time.
    held = read_cache_module._held.connections[id(cache._cache)][2]
    host, port = held._sock.getsockname()[:2]
    assert redis_read_cache.client_kill(f"{host}:{port}")
    with django_assert_num_queries(0):
        again = api.get(url)
    assert again.status_code == 200 and again.content == first.content


def test_reads_go_on_when_the_cache_is_unreachable(api, read_cache, caplog):
    event = make_event("Concert")
    # Nothing listens on port 1: every cache operation fails at once.
    unreachable = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    with override_settings(CACHES=unreachable):
        for _ in range(2):
            response = api.get(f"{API}/events/{event.pk}")
            assert response.status_code == 200
            assert response.json()["title"] == "Concert"
            assert response["ETag"]
    assert "read cache could not be read" in caplog.text


def test_a_write_while_the_cache_is_unreachable_is_refused_with_503_and_writes_nothing(api, editor, read_cache, caplog):
    """Written anyway, the change would hide behind answers cached before it."""
    event = make_event("Concert")
    unreachable = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    with override_settings(CACHES=unreachable):
        updated = post_json(editor, f"/events/{event.pk}", {"title": "Renamed"})
        created = post_json(
            editor, "/events", {"title": "New", "start_date": "tomorrow 10:00", "end_date": "tomorrow 11:00"}
        )
    for response in (updated, created):
        assert response.status_code == 503
        assert response.json()["code"] == "rest_cache_unavailable"
        assert response["Retry-After"] == "5"
    assert [title for title in Event.objects.values_list("title", flat=True)] == ["Concert"]
    assert "write is refused" in caplog.text
    # Once the cache is back, the same write goes through.
    assert post_json(editor, f"/events/{event.pk}", {"title": "Renamed"}).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_write_starts_one_version_after_its_commit_not_one_per_row(api, editor, read_cache, monkeypatch):
    """An event with its venue, organizer and terms saves a row each: its unit of work starts one
    version when it finishes inside the transaction, and one more once it commits."""
    venue, category = make_venue("Hall"), make_category("Jazz")
    event = make_event("Concert")
    inside_transaction = []
    backend = caches["default"]
    real_set = backend.set

    def set_and_note(key, value, *args, **kwargs):
        if key == VERSION_KEY:
            inside_transaction.append(connection.in_atomic_block)
        return real_set(key, value, *args, **kwargs)

    monkeypatch.setattr(backend, "set", set_and_note)
    body = {
        "title": "Concert at the Hall",
        "venue": venue.pk,
        "categories": [category.pk],
        "organizer": [{"organizer": "Band"}],
    }
    assert post_json(editor, f"/events/{event.pk}", body).status_code == 200
    assert inside_transaction.count(True) == 1
    assert inside_transaction.count(False) == 1
    # And the write shows at once.
    assert api.get(f"{API}/events/{event.pk}").json()["venue"]["venue"] == "Hall"
