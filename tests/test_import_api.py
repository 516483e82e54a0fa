"""`events-calendar/v1/imports`: administrators manage sources, run them, read their history and each event's origin;
v1 records stay as they were."""

import json

import pytest

from events.models import Event, ImportSource

pytestmark = pytest.mark.django_db

IMPORTS = "/wp-json/events-calendar/v1/imports"
FEED = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:u1\r\nDTSTART:20270301T100000Z\r\n"
    "DTEND:20270301T110000Z\r\nSUMMARY:Imported talk\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


@pytest.mark.parametrize(
    ("role", "expected"),
    [("administrator", 200), ("editor", 403), ("author", 403), ("subscriber", 403), (None, 401)],
    ids=["administrator", "editor", "author", "subscriber", "anonymous"],
)
def test_only_administrators_manage_imports(as_role, api, role, expected):
    client = as_role(role) if role else api
    assert client.get(IMPORTS).status_code == expected
    assert client.post(IMPORTS, {"url": "https://example.org/feed.ics"}, format="json").status_code == (
        201 if expected == 200 else expected
    )


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"url": "ftp://example.org/feed.ics"}, "url"),
        ({"url": "https://example.org/a.ics", "policy": "sometimes"}, "policy"),
        ({"url": "https://example.org/a.ics", "status": "trash"}, "status"),
        ({"url": "https://example.org/a.ics", "interval_minutes": 1}, "interval_minutes"),
    ],
    ids=["not-http", "policy", "status", "interval"],
)
def test_invalid_sources_are_refused_in_the_contract_shape(as_role, body, param):
    response = as_role("administrator").post(IMPORTS, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_param"
    assert param in json.dumps(response.json())


def test_run_history_and_origin(as_role, tmp_path, api):
    admin = as_role("administrator")
    created = admin.post(IMPORTS, {"url": "https://example.org/feed.ics", "policy": "keep_local"}, format="json")
    assert created.status_code == 201
    source = ImportSource.objects.get(pk=created.json()["id"])
    assert (created.json()["policy"], created.json()["interval_minutes"]) == ("keep_local", 1440)
    # A file on the server stands in for the feed (the command's way): the API never names paths.
    path = tmp_path / "feed.ics"
    path.write_text(FEED)
    ImportSource.objects.filter(pk=source.pk).update(url="", path=str(path))
    run = admin.post(f"{IMPORTS}/{source.pk}/run")
    assert run.status_code == 200
    assert (run.json()["created"], run.json()["errors"], run.json()["failure"]) == (1, 0, "")
    history = admin.get(f"{IMPORTS}/{source.pk}/runs").json()
    assert [entry["created"] for entry in history] == [1]
    event = Event.objects.get(title="Imported talk")
    origin = admin.get(f"{IMPORTS}/events/{event.pk}").json()
    assert (origin["source"]["id"], origin["remote_id"]) == (source.pk, "u1")
    assert admin.get(f"{IMPORTS}/events/{event.pk + 1000}").json()["code"] == "rest_import_no_origin"
    record = api.get(f"/wp-json/tribe/events/v1/events/{event.pk}").json()
    assert not any("import" in key for key in record)
    assert admin.get(f"{IMPORTS}/{source.pk + 1}").json()["code"] == "rest_import_invalid_id"
    assert admin.delete(f"{IMPORTS}/{source.pk}").json()["deleted"] is True
    assert Event.objects.filter(pk=event.pk).exists()
