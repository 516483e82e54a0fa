"""The demo loader and the calendar reset: what they create, keep and remove, as the API and the admin see it."""

import datetime as dt
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from events.models import (
    Attachment,
    Category,
    Event,
    EventOrganizer,
    Organizer,
    PostIdentity,
    PostStatus,
    Tag,
    Term,
    Venue,
)
from events.roles import ROLES, role_of

from .conftest import API
from .factories import make_event, make_image, make_organizer, make_tag, make_user, make_venue

pytestmark = pytest.mark.django_db


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def calendar_counts():
    return {
        model.__name__: model.objects.count()
        for model in (Event, Venue, Organizer, Term, Attachment, EventOrganizer, PostIdentity)
    }


# events_demo --------------------------------------------------------------------------------------


def test_demo_loads_a_calendar_the_api_lists(api):
    output = run("events_demo")

    assert "Demo calendar loaded: 33 events, 7 venues, 6 organizers, 12 categories, 6 tags." in output
    response = api.get(f"{API}/events", {"per_page": 50})
    assert response.status_code == 200
    body = response.json()
    # The draft and the pending event stay out of the public list.
    assert body["total"] == 31 == len(body["events"])
    assert Event.objects.filter(status=PostStatus.DRAFT).count() == 1
    assert Event.objects.filter(status=PostStatus.PENDING).count() == 1


@pytest.mark.parametrize("prefix, free", [("", "Free"), ("/zh-hans", "免费"), ("/zh-hant", "免費")])
def test_demo_free_events_read_free_in_the_readers_language(api, prefix, free):
    run("events_demo")
    free_event = Event.objects.filter(status=PostStatus.PUBLISH, cost=["0"]).first()
    record = api.get(f"{prefix}/wp-json/tribe/events/v1/events/{free_event.pk}").json()
    assert record["cost"] == free
    page = Client().get(f"{prefix}/events/")
    assert free in page.content.decode() and (free == "Free" or "Free" not in page.content.decode())


def test_demo_prints_the_admin_login_of_the_site_it_is_served_on():
    assert "Admin login: http://127.0.0.1:8000/admin/ " in run("events_demo")
    assert "Admin login: http://127.0.0.1:8765/admin/ " in run("events_demo", "--site-url=http://127.0.0.1:8765/")


def test_demo_events_lie_in_the_coming_months():
    run("events_demo")
    today = timezone.now()
    starts = sorted(Event.objects.values_list("start_utc", flat=True))
    assert starts[0] > today
    assert starts[-1] < today + dt.timedelta(days=100)


def test_demo_covers_what_the_api_can_show():
    run("events_demo")
    events = Event.objects.all()
    assert events.filter(featured=True).count() >= 3
    assert events.filter(all_day=True).count() >= 2
    multi_day = [e for e in events if e.end_local.date() > e.start_local.date()]
    assert len(multi_day) >= 2
    assert events.filter(post_parent__isnull=False).count() == 2
    assert events.filter(image__isnull=False).count() >= 3
    assert len(set(events.values_list("timezone_name", flat=True))) == 3
    assert Venue.objects.filter(geo_lat__isnull=False).count() >= 3
    assert Venue.objects.filter(geo_lat__isnull=True).count() >= 1
    assert Category.objects.filter(parent__isnull=False).exists()
    assert {cost for event in events for cost in event.cost} >= {"0", "$25", "NT$600", "¥50"}
    assert EventOrganizer.objects.exists() and Tag.objects.count() == 6


@pytest.mark.parametrize(
    "model, field",
    [(Event, "title"), (Event, "description"), (Venue, "title"), (Organizer, "title"), (Term, "name")],
    ids=["event-title", "event-description", "venue-title", "organizer-title", "term-name"],
)
def test_every_demo_text_is_translated_into_both_chinese_scripts(model, field):
    run("events_demo")
    for record in model.objects.all():
        english = getattr(record, f"{field}_en")
        simplified = getattr(record, f"{field}_zh_hans")
        traditional = getattr(record, f"{field}_zh_hant")
        assert english and simplified and traditional, record.pk
        if any("\u4e00" <= char <= "\u9fff" for char in simplified + traditional):
            assert simplified != english and traditional != english


def test_traditional_chinese_uses_its_own_words_not_only_other_characters():
    run("events_demo")
    titles = dict(Event.objects.values_list("title_en", "title_zh_hant"))
    assert titles["Yoga in the Park"] == "公園瑜珈"
    assert titles["Hackathon: Apps for the City"] == "城市應用黑客松"
    assert "影片" in titles["Online Workshop: Video Editing Basics"]


def test_demo_is_served_in_traditional_chinese(api):
    run("events_demo")
    event = Event.objects.get(title_en="Symphony in the Park")
    body = api.get(f"/zh-hant{API}/events/{event.pk}").json()
    assert body["title"] == "公園交響音樂會"
    assert body["venue"]["venue"] == "金門公園露天音樂台"


def test_running_the_demo_twice_does_not_duplicate():
    run("events_demo")
    before = calendar_counts()
    output = run("events_demo")
    assert "nothing loaded" in output
    assert calendar_counts() == before


def test_demo_leaves_a_calendar_with_content_alone():
    make_event("Our own event")
    run("events_demo")
    assert list(Event.objects.values_list("title_en", flat=True)) == ["Our own event"]


def test_demo_reset_replaces_the_calendar():
    make_event("Our own event")
    run("events_demo", "--reset")
    assert not Event.objects.filter(title_en="Our own event").exists()
    assert Event.objects.count() == 33


def test_demo_prints_a_working_admin_login():
    output = run("events_demo")
    line = next(line for line in output.splitlines() if line.startswith("Admin login:"))
    password = line.split("password: ", 1)[1].strip()
    admin = get_user_model().objects.get(username="admin")
    assert role_of(admin) == "administrator" and admin.is_staff
    client = Client()
    assert client.login(username="admin", password=password)
    assert client.get("/admin/events/event/").status_code == 200


def test_a_password_starting_with_a_dash_is_taken_as_a_password():
    run("events_demo", "--admin-password=-dash-first-123")
    assert get_user_model().objects.get(username="admin").check_password("-dash-first-123")


def test_demo_renews_the_admin_password_each_run():
    first = run("events_demo", "--admin-password", "first-password-1")
    second = run("events_demo")
    assert "first-password-1" in first and "first-password-1" not in second
    assert get_user_model().objects.filter(username="admin").count() == 1
    assert not get_user_model().objects.get(username="admin").check_password("first-password-1")


# events_clear -------------------------------------------------------------------------------------


def test_clear_refuses_without_yes():
    make_event("Keep me")
    with pytest.raises(CommandError) as refused:
        call_command("events_clear", stdout=StringIO())
    assert "--yes" in str(refused.value)
    assert refused.value.returncode == 1
    assert Event.objects.count() == 1


def test_clear_empties_the_calendar_and_keeps_users_roles_and_tokens(django_capture_on_commit_callbacks):
    run("events_demo")
    editor = make_user("editor")
    token = Token.objects.create(user=editor)
    make_event("Extra", venue=make_venue(), organizers=[make_organizer()], tags=[make_tag()], image=make_image())
    files = [a.file.name for a in Attachment.objects.all()]
    assert files and all(default_storage.exists(name) for name in files)
    users_before = get_user_model().objects.count()

    with django_capture_on_commit_callbacks(execute=True):
        output = run("events_clear", "--yes")

    assert "Calendar emptied" in output
    assert set(calendar_counts().values()) == {0}
    assert Event.terms.through.objects.count() == 0
    assert not any(default_storage.exists(name) for name in files)
    assert get_user_model().objects.count() == users_before
    assert set(Group.objects.values_list("name", flat=True)) >= set(ROLES)
    assert Group.objects.get(name="editor").permissions.exists()
    assert Token.objects.filter(key=token.key).exists()
    assert role_of(editor) == "editor"


def test_the_api_is_empty_after_a_clear_and_ids_keep_counting(api):
    first = make_event("Before")
    call_command("events_clear", "--yes", stdout=StringIO())
    assert api.get(f"{API}/events").json()["total"] == 0
    assert make_event("After").pk > first.pk


def test_demo_loads_again_after_a_clear():
    run("events_demo")
    call_command("events_clear", "--yes", stdout=StringIO())
    assert "Demo calendar loaded" in run("events_demo")
    assert Event.objects.count() == 33


def test_the_installed_version_is_the_apps_one():
    from importlib.metadata import version

    import events

    assert version("django-events-calendar") == events.__version__
