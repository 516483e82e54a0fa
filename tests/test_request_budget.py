"""Every API request has a time budget: past it, its next statement ends it with a 503 and nothing is written."""

import pytest

from events.models import Event

from .conftest import API, post_json
from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def spent_budget(settings, monkeypatch):
    """A budget that is over as soon as it starts (the clock jumps a minute after it is set)."""
    import events.api.deadline as deadline

    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "REQUEST_SECONDS": 1}
    readings = iter([0.0])
    monkeypatch.setattr(deadline, "_clock", lambda: next(readings, 60.0))


def test_a_read_past_its_budget_is_503_with_retry_after(api, spent_budget):
    make_event("Concert")
    response = api.get(f"{API}/events")
    assert response.status_code == 503
    assert response.json()["code"] == "rest_request_timeout"
    assert response.json()["data"] == {"status": 503}
    assert int(response["Retry-After"]) > 0


def test_a_write_past_its_budget_writes_nothing(editor, spent_budget):
    response = post_json(
        editor, "/events", {"title": "Late", "start_date": "2031-03-01 10:00", "end_date": "2031-03-01 11:00"}
    )
    assert (response.status_code, response.json()["code"]) == (503, "rest_request_timeout")
    assert not Event.objects.filter(title_en="Late").exists()


def test_requests_within_their_budget_are_answered(api):
    make_event("Concert")
    assert api.get(f"{API}/events").status_code == 200
