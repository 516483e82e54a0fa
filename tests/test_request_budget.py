"""Every request has a time budget: past it, it is stopped wherever it is, answered 503, and has written nothing.

The statement check is shown with a clock that jumps; the watchdog with a small real budget and a
function on the request's way that loops in Python, running no SQL, for much longer than the budget
(events/deadline.py).
"""

import time

import pytest
from django.db import connection

from events.models import Event

from .conftest import API, post_json
from .factories import make_event

pytestmark = pytest.mark.django_db

# Seconds of a small budget; the spinning functions below loop for many times as long, so an answer
# before they would have finished shows the watchdog stopped them.
BUDGET = 0.2
SPIN_SECONDS = 10
# Generous against a loaded machine, and still far below SPIN_SECONDS.
SOON = 25 * BUDGET
NEW_EVENT = {"title": "Late", "start_date": "2031-03-01 10:00", "end_date": "2031-03-01 11:00"}


@pytest.fixture
def spent_budget(settings, monkeypatch):
    """A budget that is over as soon as it starts (the statement check's clock jumps an hour after
    it is set; the watchdog, on real time, is half a minute away)."""
    import events.deadline as deadline

    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "REQUEST_SECONDS": 30}
    readings = iter([0.0])
    monkeypatch.setattr(deadline, "_clock", lambda: next(readings, 3600.0))


@pytest.fixture
def request_seconds(settings):
    """Set REQUEST_SECONDS, read by each request as it begins."""

    def set_budget(seconds):
        settings.EVENTS = {**getattr(settings, "EVENTS", {}), "REQUEST_SECONDS": seconds}

    return set_budget


def spinning(original, seconds=SPIN_SECONDS):
    """`original`, after looping in Python for `seconds` (no SQL, no sleep: CPU work) on its first
    call only: the answer to a stopped request is rendered by the same function."""
    calls = []

    def spin(*args, **kwargs):
        if not calls:
            calls.append(1)
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                pass
        return original(*args, **kwargs)

    return spin


def written_then_spinning(original):
    """`original`, then a loop in Python: a service's writing step, whose rows are written and
    whose transaction is still open when the loop begins."""

    def write_then_spin(*args, **kwargs):
        written = original(*args, **kwargs)
        spinning(lambda: None)()
        return written

    return write_then_spin


def spin_while_rendering(monkeypatch, seconds=SPIN_SECONDS):
    """The API's JSON renderer, which runs inside the dispatch after a write's service, spins first."""
    from events.api.renderers import WPJSONRenderer

    monkeypatch.setattr(WPJSONRenderer, "render", spinning(WPJSONRenderer.render, seconds))


def assert_timed_out(response):
    assert response.status_code == 503
    assert response.json() == {
        "code": "rest_request_timeout",
        "message": "The request took too long and was stopped; nothing was written. Try again shortly.",
        "data": {"status": 503},
    }
    assert int(response["Retry-After"]) > 0


# --- the statement check -------------------------------------------------------------------------


def test_a_read_past_its_budget_is_503_with_retry_after(api, spent_budget):
    make_event("Concert")
    assert_timed_out(api.get(f"{API}/events"))


def test_a_write_past_its_budget_writes_nothing(editor, spent_budget):
    assert_timed_out(post_json(editor, "/events", NEW_EVENT))
    assert not Event.objects.filter(title_en="Late").exists()


def test_requests_within_their_budget_are_answered(api):
    make_event("Concert")
    assert api.get(f"{API}/events").status_code == 200


# --- the watchdog: work that runs no SQL ----------------------------------------------------------
# Transactional: an interrupted request's connection is closed, and a write's commit must be real.


@pytest.mark.django_db(transaction=True)
def test_a_read_looping_in_python_is_stopped_at_its_budget(api, request_seconds, monkeypatch):
    make_event("Concert")
    request_seconds(BUDGET)
    spin_while_rendering(monkeypatch)
    began = time.monotonic()
    response = api.get(f"{API}/events")
    assert time.monotonic() - began < SOON
    assert_timed_out(response)


@pytest.mark.django_db(transaction=True)
def test_a_read_that_swallows_its_interruption_is_interrupted_again(api, request_seconds, monkeypatch):
    """Code that catches Exception, or a finalizer CPython delivered it in, may swallow one."""
    from events.api.renderers import WPJSONRenderer

    original_render = WPJSONRenderer.render
    calls = []

    def swallow_then_spin(*args, **kwargs):
        if not calls:
            calls.append(1)
            try:
                spinning(lambda: None)()
            except Exception:  # noqa: BLE001, S110 - what the test is about
                pass
            spinning(lambda: None)()
        return original_render(*args, **kwargs)

    make_event("Concert")
    request_seconds(BUDGET)
    monkeypatch.setattr(WPJSONRenderer, "render", swallow_then_spin)
    began = time.monotonic()
    response = api.get(f"{API}/events")
    assert time.monotonic() - began < SOON
    assert_timed_out(response)


@pytest.mark.django_db(transaction=True)
def test_a_write_stopped_in_the_middle_of_its_work_has_written_nothing(editor, request_seconds, monkeypatch):
    import events.services.events as services

    request_seconds(BUDGET)
    monkeypatch.setattr(services, "_write", written_then_spinning(services._write))
    began = time.monotonic()
    response = post_json(editor, "/events", NEW_EVENT)
    assert time.monotonic() - began < SOON
    assert_timed_out(response)
    assert not Event.objects.filter(title_en="Late").exists()


@pytest.mark.django_db(transaction=True)
def test_a_write_with_an_idempotency_key_stopped_before_its_commit_may_be_sent_again(
    editor, request_seconds, monkeypatch
):
    """With a key, the answer is rendered inside the write's transaction: stopped there, nothing is
    kept, not even the key, and the retry runs afresh."""
    request_seconds(BUDGET)
    spin_while_rendering(monkeypatch)
    headers = {"HTTP_IDEMPOTENCY_KEY": "retry-me"}
    body = '{"title": "Late", "start_date": "2031-03-01 10:00", "end_date": "2031-03-01 11:00"}'
    assert_timed_out(editor.post(f"{API}/events", body, content_type="application/json", **headers))
    assert not Event.objects.filter(title_en="Late").exists()
    monkeypatch.undo()
    request_seconds(30)
    retried = editor.post(f"{API}/events", body, content_type="application/json", **headers)
    assert retried.status_code == 201
    assert Event.objects.filter(title_en="Late").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_write_that_committed_is_answered_for_what_it_did_past_its_budget(editor, request_seconds, monkeypatch):
    """Its commit ends the budget: rendering the answer long after it is never a 503 for a saved write."""
    request_seconds(BUDGET)
    spin_while_rendering(monkeypatch, seconds=4 * BUDGET)
    response = post_json(editor, "/events", NEW_EVENT)
    assert response.status_code == 201
    assert response.json()["title"] == "Late"
    assert Event.objects.filter(title_en="Late").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_requests_after_a_stopped_one_are_answered(api, editor, request_seconds, monkeypatch):
    """The stopped request's connection was closed: the next ones, on the same thread, get a new
    one, and no interruption meant for the stopped request reaches them."""
    make_event("Concert")
    request_seconds(BUDGET)
    spin_while_rendering(monkeypatch)
    assert_timed_out(api.get(f"{API}/events"))
    monkeypatch.undo()
    request_seconds(30)
    until = time.monotonic() + 3 * BUDGET
    answered = 0
    while time.monotonic() < until or answered < 5:
        response = api.get(f"{API}/events")
        assert response.status_code == 200
        assert [event["title"] for event in response.json()["events"]] == ["Concert"]
        answered += 1
    assert post_json(editor, "/events", NEW_EVENT).status_code == 201


@pytest.mark.django_db(transaction=True)
def test_the_deadline_of_a_request_answered_in_time_never_reaches_the_next_one(api, request_seconds, monkeypatch):
    """The watchdog's deadline for a request that finished passes during the thread's next request,
    which has a long budget: that request is answered."""
    make_event("Concert")
    request_seconds(1)
    assert api.get(f"{API}/events").status_code == 200
    request_seconds(30)
    spin_while_rendering(monkeypatch, seconds=1.5)
    assert api.get(f"{API}/events").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_write_stopped_among_its_statements_leaves_a_connection_the_next_requests_can_use(
    api, editor, request_seconds, monkeypatch
):
    """With the statement check's clock stopped, only the watchdog ends this write, wherever it is
    in its stream of statements: maybe inside the database driver or Django's bookkeeping. Nothing
    is written, and the connection it left is not reused as it was."""
    import events.deadline as deadline
    import events.services.events as services

    original_write = services._write

    def write_then_query(*args, **kwargs):
        written = original_write(*args, **kwargs)
        until = time.monotonic() + SPIN_SECONDS
        with connection.cursor() as cursor:
            while time.monotonic() < until:
                cursor.execute("SELECT 1")
        return written

    request_seconds(BUDGET)
    monkeypatch.setattr(deadline, "_clock", lambda: 0.0)
    monkeypatch.setattr(services, "_write", write_then_query)
    began = time.monotonic()
    response = post_json(editor, "/events", NEW_EVENT)
    assert time.monotonic() - began < SOON
    assert_timed_out(response)
    monkeypatch.undo()
    request_seconds(30)
    assert not Event.objects.filter(title_en="Late").exists()
    assert api.get(f"{API}/events").status_code == 200
    assert post_json(editor, "/events", NEW_EVENT).status_code == 201
    assert Event.objects.filter(title_en="Late").count() == 1


# --- public pages and calendar files --------------------------------------------------------------


def assert_page_unavailable(response):
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db(transaction=True)
def test_a_public_page_looping_in_python_is_503_at_its_budget(client, request_seconds, monkeypatch):
    from events.public.views import UpcomingEvents

    make_event("Concert")
    request_seconds(BUDGET)
    monkeypatch.setattr(UpcomingEvents, "load", spinning(UpcomingEvents.load))
    began = time.monotonic()
    response = client.get("/events/")
    assert time.monotonic() - began < SOON
    assert_page_unavailable(response)
    monkeypatch.undo()
    assert client.get("/events/").status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/events/?ical=1", "/event/concert/ical/"], ids=["list-file", "event-file"])
def test_a_calendar_file_looping_in_python_is_503_at_its_budget(client, request_seconds, monkeypatch, path):
    import events.public.ical as ical

    make_event("Concert", slug="concert")
    request_seconds(BUDGET)
    monkeypatch.setattr(ical, "calendar_file", spinning(ical.calendar_file))
    began = time.monotonic()
    response = client.get(path)
    assert time.monotonic() - began < SOON
    assert_page_unavailable(response)
    monkeypatch.undo()
    response = client.get(path)
    assert response.status_code == 200
    assert b"SUMMARY:Concert" in response.content


def test_a_public_page_past_its_budget_is_503(client, spent_budget):
    make_event("Concert")
    assert_page_unavailable(client.get("/events/"))
