"""The admin writes through the API's services: the same rules whichever way a write comes in, refusals shown on the form."""

import pytest

from events.admin import actions
from events.exceptions import DELETE, CouldNotWrite, NotPermitted
from events.kses import filter_post_html, filter_title_html
from events.models import Event, PostKind, PostStatus, Venue
from events.services import terms as term_service
from events.services.events import trash_event
from events.services.linked import trash_venue

from .concurrency import all_at_once
from .conftest import RoleClient, post_json
from .factories import make_category, make_event, make_venue
from .test_admin import PASSWORD, event_form, staff_client
from .test_admin_editing import venue_form

pytestmark = pytest.mark.django_db

SCRIPTED = '<p onclick="steal()">Hello <script>alert(1)</script><strong>world</strong></p>'


def api_client(staff):
    """The same user, through the API."""
    return RoleClient(staff.user, PASSWORD)


# HTML filtering by role -------------------------------------------------------------------------


@pytest.mark.parametrize("role, filtered", [("author", True), ("editor", False)], ids=["author", "editor"])
def test_an_events_html_is_filtered_by_role_in_every_language_as_through_the_api(role, filtered):
    staff = staff_client(role)
    data = event_form(
        title_en="Jazz <em>night</em><script>x</script>",
        description_en=SCRIPTED,
        description_zh_hant=SCRIPTED,
        excerpt_zh_hans=SCRIPTED,
    )
    assert staff.post("/admin/events/event/add/", data).status_code == 302
    event = Event.objects.get()

    kept = filter_post_html(SCRIPTED) if filtered else SCRIPTED
    assert (event.description_en, event.description_zh_hant, event.excerpt_zh_hans) == (kept, kept, kept)
    title = "Jazz <em>night</em><script>x</script>"
    assert event.title_en == (filter_title_html(title) if filtered else title)
    assert "<script>" not in event.description_en if filtered else "<script>" in event.description_en

    through_api = post_json(
        api_client(staff),
        "/events",
        {
            "title": title,
            "description": SCRIPTED,
            "start_date": "2030-07-01 19:30",
            "end_date": "2030-07-01 22:00",
        },
    )
    assert through_api.status_code == 201
    assert Event.objects.get(pk=through_api.json()["id"]).description_en == event.description_en


def test_an_authors_venue_description_and_excerpt_are_filtered():
    author = staff_client("author")
    assert (
        author.post(
            "/admin/events/venue/add/", venue_form(status="publish", description_zh_hans=SCRIPTED, excerpt_en=SCRIPTED)
        ).status_code
        == 302
    )
    venue = Venue.objects.get()
    assert venue.description_zh_hans == venue.excerpt_en == filter_post_html(SCRIPTED)


# Scheduling -------------------------------------------------------------------------------------


@pytest.mark.parametrize("date, status", [("2020-01-01", "publish"), ("2099-01-01", "future")], ids=["past", "future"])
def test_publishing_follows_the_publication_date(date, status):
    editor = staff_client("editor")
    assert editor.post("/admin/events/event/add/", event_form(status="publish", date_0=date)).status_code == 302
    event = Event.objects.get()
    assert event.status == status

    data = event_form(
        title_en="Jazz night",
        slug=event.slug,
        status="publish",
        date_0="2099-06-01" if status == "publish" else "2020-06-01",
    )
    assert editor.post(f"/admin/events/event/{event.pk}/change/", data).status_code == 302
    event.refresh_from_db()
    assert event.status == ("future" if status == "publish" else "publish")


# Trash and restore ------------------------------------------------------------------------------


def trashed_namesakes(status):
    """Two events once called "gala" (a slug event drafts may share), now both in the trash."""
    events = [make_event("Gala", slug="gala", status=status) for _ in range(2)]
    for event in events:
        trash_event(event)
    return sorted(events, key=lambda event: event.pk)


@pytest.mark.parametrize("status", ["publish", "draft"])
def test_restoring_namesakes_in_bulk_gives_distinct_slugs_as_the_api_does(status):
    def restored(events):
        return sorted(Event.objects.filter(pk__in=[event.pk for event in events]).values_list("status", "slug"))

    editor = staff_client("editor")
    events = trashed_namesakes(status)
    editor.post("/admin/events/event/", {"action": "restore_from_trash", "_selected_action": [e.pk for e in events]})
    in_admin = restored(events)

    Event.objects.all().delete()
    events = trashed_namesakes(status)
    client = api_client(editor)
    for event in events:
        assert post_json(client, f"/events/{event.pk}", {"status": status}).status_code == 200

    assert in_admin == restored(events) == [(status, "gala"), (status, "gala-2")]


def test_restoring_venues_in_bulk_makes_their_slugs_unique():
    editor = staff_client("editor")
    venues = [make_venue("Hall", slug="hall") for _ in range(2)]
    for venue in venues:
        trash_venue(venue)
    editor.post("/admin/events/venue/", {"action": "restore_from_trash", "_selected_action": [v.pk for v in venues]})
    assert sorted(Venue.objects.values_list("status", "slug")) == [("publish", "hall"), ("publish", "hall-2")]


def test_restoring_an_event_from_its_form_gives_its_slug_back():
    editor = staff_client("editor")
    event = make_event("Gala", slug="gala")
    trash_event(event)
    data = event_form(title_en="Gala", slug="gala__trashed", status="publish")
    assert editor.post(f"/admin/events/event/{event.pk}/change/", data).status_code == 302
    event.refresh_from_db()
    assert (event.status, event.slug, event.slug_before_trash) == ("publish", "gala", "")


# Refusals ---------------------------------------------------------------------------------------


def test_a_refused_event_save_is_a_form_error_and_saves_nothing():
    editor = staff_client("editor")
    # 22:00 on the calendar's last day in New York is already past its end in UTC.
    data = event_form(start_0="9999-12-31", start_1="22:00", end_0="9999-12-31", end_1="23:00")

    response = editor.post("/admin/events/event/add/", data)

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["start"] == ["Invalid parameter."]
    assert not Event.objects.exists()


def test_a_refused_venue_name_is_shown_on_the_title():
    editor = staff_client("editor")
    response = editor.post("/admin/events/venue/add/", venue_form(title_en="<b></b>", status="publish"))
    assert response.status_code == 200
    assert "title_en" in response.context["adminform"].form.errors
    assert not Venue.objects.exists()


def test_a_refused_change_keeps_the_stored_record():
    editor = staff_client("editor")
    event = make_event("Gala", slug="gala")
    data = event_form(
        title_en="Renamed", slug="gala", start_0="9999-12-31", start_1="22:00", end_0="9999-12-31", end_1="23:00"
    )
    response = editor.post(f"/admin/events/event/{event.pk}/change/", data)
    assert response.status_code == 200 and "start" in response.context["adminform"].form.errors
    event.refresh_from_db()
    assert event.title_en == "Gala"


def test_a_refused_bulk_action_is_a_message_and_changes_nothing(monkeypatch):
    editor = staff_client("editor")
    events = trashed_namesakes("publish")
    restore = actions.RESTORE[PostKind.EVENT]
    calls = []

    def refuse_the_second(event, user):
        calls.append(event.pk)
        if len(calls) == 2:
            raise NotPermitted()
        return restore(event, user)

    monkeypatch.setitem(actions.RESTORE, PostKind.EVENT, refuse_the_second)
    response = editor.post(
        "/admin/events/event/",
        {"action": "restore_from_trash", "_selected_action": [e.pk for e in events]},
        follow=True,
    )

    assert response.status_code == 200
    assert "Sorry, you are not allowed to do that." in [str(message) for message in response.context["messages"]]
    assert set(Event.objects.values_list("status", flat=True)) == {PostStatus.TRASH}


def test_a_refused_delete_is_a_message(monkeypatch):
    editor = staff_client("editor")
    category = make_category("Arts")

    def refuse(term):
        raise CouldNotWrite("term", DELETE)

    monkeypatch.setattr(term_service, "delete_term", refuse)
    response = editor.post(f"/admin/events/category/{category.pk}/delete/", {"post": "yes"}, follow=True)

    assert response.status_code == 200
    assert "The term cannot be deleted." in [str(message) for message in response.context["messages"]]


# Concurrency ------------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("model", ["event", "venue"])
def test_an_admin_restore_and_an_api_restore_at_once_take_turns_on_the_slug(model):
    editor = staff_client("editor")
    client = api_client(editor)
    if model == "event":
        first, second = trashed_namesakes("publish")
    else:
        first, second = (make_venue("Hall", slug="gala") for _ in range(2))
        for venue in (first, second):
            trash_venue(venue)
    statuses = all_at_once(
        [
            lambda: (
                editor.post(
                    f"/admin/events/{model}/", {"action": "restore_from_trash", "_selected_action": [first.pk]}
                ).status_code
            ),
            lambda: post_json(client, f"/{model}s/{second.pk}", {"status": "publish"}).status_code,
        ]
    )
    assert sorted(statuses) == [200, 302]
    model_class = Event if model == "event" else Venue
    assert sorted(model_class.objects.values_list("slug", flat=True)) == ["gala", "gala-2"]
