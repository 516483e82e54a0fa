"""The admin's import pages: sources made through the sources service, "Run now", the history, an event's "Imported from" box."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from events.models import Event, ImportSource

pytestmark = pytest.mark.django_db

PASSWORD = "admin-pass-123"
FEED = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:u1\r\nDTSTART:20270301T100000Z\r\n"
    "DTEND:20270301T110000Z\r\nSUMMARY:Imported talk\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


def staff_client(role):
    call_command("events_user", f"{role}-staff", "--password", PASSWORD, "--role", role, stdout=StringIO())
    client = Client()
    assert client.login(username=f"{role}-staff", password=PASSWORD)
    client.user = get_user_model().objects.get(username=f"{role}-staff")
    return client


def source_form(**overrides):
    return {
        "name": "Town feed",
        "url": "https://example.org/town.ics",
        "policy": "overwrite",
        "status": "publish",
        "categories": "Town, Imported",
        "interval_minutes": "60",
        "active": "on",
        "owner": "",
        "runs-TOTAL_FORMS": "0",
        "runs-INITIAL_FORMS": "0",
        "runs-MIN_NUM_FORMS": "0",
        "runs-MAX_NUM_FORMS": "0",
        **overrides,
    }


def test_only_administrators_see_the_import_pages():
    assert staff_client("editor").get("/admin/events/importsource/").status_code == 403
    assert staff_client("administrator").get("/admin/events/importsource/").status_code == 200


def test_a_source_is_added_run_and_its_events_say_where_they_came_from(tmp_path):
    admin = staff_client("administrator")
    response = admin.post("/admin/events/importsource/add/", source_form())
    assert response.status_code == 302, response.context["adminform"].form.errors
    source = ImportSource.objects.get()
    assert (source.categories, source.owner, source.interval_minutes) == (["Town", "Imported"], admin.user, 60)

    refused = admin.post("/admin/events/importsource/add/", source_form(url="", interval_minutes="1"))
    assert refused.status_code == 200 and ImportSource.objects.count() == 1

    path = tmp_path / "town.ics"
    path.write_text(FEED)
    ImportSource.objects.filter(pk=source.pk).update(url="", path=str(path))
    response = admin.post(
        "/admin/events/importsource/", {"action": "run_now", "_selected_action": [source.pk]}, follow=True
    )
    assert "1 created" in response.content.decode()
    page = admin.get(f"/admin/events/importsource/{source.pk}/change/").content.decode()
    assert "import runs" in page.lower() and "could not be read" not in page
    event = Event.objects.get(title="Imported talk")
    assert sorted(term.name for term in event.terms.all()) == ["Imported", "Town"]
    change = admin.get(f"/admin/events/event/{event.pk}/change/").content.decode()
    assert "Imported from" in change and "Town feed" in change and "u1" in change
    other = admin.get("/admin/events/event/add/").content.decode()
    assert "Imported from" not in other


def test_an_uploaded_file_is_a_source():
    from django.core.files.uploadedfile import SimpleUploadedFile

    admin = staff_client("administrator")
    upload = SimpleUploadedFile("town.ics", FEED.encode(), content_type="text/calendar")
    response = admin.post("/admin/events/importsource/add/", source_form(url="", interval_minutes="0", file=upload))
    assert response.status_code == 302, response.context["adminform"].form.errors
    source = ImportSource.objects.get()
    admin.post("/admin/events/importsource/", {"action": "run_now", "_selected_action": [source.pk]})
    source.refresh_from_db()
    assert source.kind == "ical"
    assert Event.objects.filter(title="Imported talk").exists()
