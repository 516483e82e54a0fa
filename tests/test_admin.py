"""The editors' admin: every page answers, saves go through the API's rules, roles limit what is seen and changed."""

import datetime as dt
from io import BytesIO, StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from PIL import Image

from events.models import Attachment, Category, Event, Organizer, PostStatus, Tag, Term, Venue

from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_user, make_venue

pytestmark = pytest.mark.django_db

PASSWORD = "admin-pass-123"


def staff_client(role, username=None):
    """A browser session of a staff user created the way operators create them."""
    username = username or f"{role}-staff"
    call_command("events_user", username, "--password", PASSWORD, "--role", role, stdout=StringIO())
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    client.user = get_user_model().objects.get(username=username)
    return client


@pytest.fixture
def editor():
    return staff_client("editor")


def event_form(**overrides):
    """The fields the event add/change form posts, with an empty organizer inline."""
    data = {
        "title_en": "Jazz night",
        "title_zh_hans": "爵士之夜",
        "title_zh_hant": "爵士之夜",
        "slug": "",
        "start_0": "2030-07-01",
        "start_1": "19:30:00",
        "end_0": "2030-07-01",
        "end_1": "22:00:00",
        "timezone_name": "America/New_York",
        "venue": "",
        "description_en": "",
        "description_zh_hans": "",
        "description_zh_hant": "",
        "excerpt_en": "",
        "excerpt_zh_hans": "",
        "excerpt_zh_hant": "",
        "cost_text": "",
        "currency_symbol": "",
        "currency_position": "",
        "currency_code": "",
        "status": "publish",
        "date_0": "2024-01-01",
        "date_1": "10:00:00",
        "author": "",
        "password": "",
        "image": "",
        "post_parent": "",
        "website": "",
        "show_map": "unknown",
        "show_map_link": "unknown",
        "organizer_links-TOTAL_FORMS": "0",
        "organizer_links-INITIAL_FORMS": "0",
        "organizer_links-MIN_NUM_FORMS": "0",
        "organizer_links-MAX_NUM_FORMS": "1000",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def with_organizers(data, *organizers):
    data = dict(data)
    data["organizer_links-TOTAL_FORMS"] = str(len(organizers))
    for index, (organizer, position) in enumerate(organizers):
        data[f"organizer_links-{index}-organizer"] = str(organizer.pk)
        data[f"organizer_links-{index}-position"] = str(position)
    return data


def png_upload(name="upload.png", size=(600, 400)):
    buffer = BytesIO()
    Image.new("RGB", size, (30, 60, 90)).save(buffer, format="PNG")
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/png")


# Every page answers -----------------------------------------------------------------------------

RECORDS = {
    "event": lambda: make_event(
        "Opening concert",
        venue=make_venue(),
        organizers=[make_organizer()],
        categories=[make_category("Music")],
        tags=[make_tag("outdoor")],
        image=make_image(),
    ),
    "venue": lambda: make_venue("City hall", city="Boston", geo_lat=42.36, geo_lng=-71.06),
    "organizer": lambda: make_organizer("Friends of music", email="friends@example.org"),
    "category": lambda: make_category("Theatre", parent=make_category("Arts")),
    "tag": lambda: make_tag("family"),
    "attachment": lambda: make_image("poster.png"),
}


@pytest.mark.parametrize("model", list(RECORDS), ids=list(RECORDS))
def test_changelist_add_and_change_pages_answer(editor, model):
    record = RECORDS[model]()
    base = f"/admin/events/{model}/"
    for url in (base, f"{base}add/", f"{base}{record.pk}/change/", f"{base}{record.pk}/delete/"):
        response = editor.get(url)
        assert response.status_code == 200, url


@pytest.mark.parametrize(
    "query",
    [
        "status__exact=publish",
        "featured__exact=1",
        "start_utc__year=2030",
        "q=concert",
        "all_day__exact=0",
        "start_utc__gte=2020-01-01+00%3A00%3A00%2B00%3A00",
    ],
    ids=["status", "featured", "date-hierarchy", "search", "all-day", "date-range"],
)
def test_event_changelist_filters_answer(editor, query):
    make_event("Opening concert", start=dt.datetime(2030, 5, 1, 19, 0))
    response = editor.get(f"/admin/events/event/?{query}")
    assert response.status_code == 200


def test_event_changelist_filters_by_category_and_venue(editor):
    music = make_category("Music")
    hall = make_venue("Hall")
    make_event("Concert", categories=[music], venue=hall)
    make_event("Lecture")
    by_category = editor.get(f"/admin/events/event/?category={music.pk}")
    by_venue = editor.get(f"/admin/events/event/?venue__id__exact={hall.pk}")
    for response in (by_category, by_venue):
        assert [event.title for event in response.context["cl"].result_list] == ["Concert"]


def test_index_hides_the_term_picker_and_lists_each_kind(editor):
    response = editor.get("/admin/")
    content = response.content.decode()
    for model in ("event", "venue", "organizer", "category", "tag", "attachment"):
        assert f"/admin/events/{model}/" in content
    assert "/admin/events/term/" not in content


@pytest.mark.parametrize(
    ("prefix", "calendar", "queue", "results"),
    [
        ("", "Events calendar", "Webhook delivery queue", "Task Results"),
        ("/zh-hans", "活动日历", "网络钩子投递队列", "任务结果"),
        ("/zh-hant", "活動行事曆", "網路鉤子投遞佇列", "任務結果"),
    ],
    ids=["en", "zh-hans", "zh-hant"],
)
def test_index_lists_the_delivery_queue_translated_after_the_calendar(prefix, calendar, queue, results):
    administrator = staff_client("administrator")
    content = administrator.get(f"{prefix}/admin/").content.decode()
    assert calendar in content and queue in content and results in content
    assert content.index(calendar) < content.index(queue)


# Saving an event --------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "/zh-hans", "/zh-hant"], ids=["en", "zh-hans", "zh-hant"])
def test_event_saved_through_the_admin_in_each_language(editor, prefix):
    music, outdoor = make_category("Music"), make_tag("outdoor")
    first, second = make_organizer("First"), make_organizer("Second")
    data = with_organizers(
        event_form(categories=[str(music.pk)], tags=[str(outdoor.pk)], cost_text="€15\n€25"), (second, 0), (first, 1)
    )

    response = editor.post(f"{prefix}/admin/events/event/add/", data)

    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    event = Event.objects.get()
    assert (event.title_en, event.title_zh_hans, event.title_zh_hant) == ("Jazz night", "爵士之夜", "爵士之夜")
    assert event.start_utc == dt.datetime(2030, 7, 1, 23, 30, tzinfo=dt.UTC)
    assert event.end_utc == dt.datetime(2030, 7, 2, 2, 0, tzinfo=dt.UTC)
    assert event.timezone_name == "America/New_York"
    assert event.timezone_abbr == "EDT"
    assert event.slug == "jazz-night"
    assert event.status == PostStatus.PUBLISH
    assert event.author == editor.user
    assert set(event.terms.all()) == {music, outdoor}
    assert [link.organizer for link in event.organizer_links.all()] == [second, first]
    assert event.cost == ["€15", "€25"]
    assert (event.currency_symbol, event.currency_position) == ("€", "prefix")


def test_event_shows_and_keeps_its_wall_clock_on_change(editor):
    event = make_event("Tea ceremony", start=dt.datetime(2030, 3, 5, 14, 0), timezone_name="Asia/Shanghai")
    response = editor.get(f"/admin/events/event/{event.pk}/change/")
    form = response.context["adminform"].form
    assert form.initial["start"] == dt.datetime(2030, 3, 5, 14, 0)

    data = event_form(
        title_en="Tea ceremony",
        start_0="2030-03-05",
        start_1="15:00:00",
        end_0="2030-03-05",
        end_1="16:00:00",
        timezone_name="Asia/Shanghai",
        slug=event.slug,
    )
    assert editor.post(f"/admin/events/event/{event.pk}/change/", data).status_code == 302
    event.refresh_from_db()
    assert event.start_utc == dt.datetime(2030, 3, 5, 7, 0, tzinfo=dt.UTC)
    assert event.timezone_abbr == "CST"


def test_all_day_event_spans_whole_days(editor):
    data = event_form(all_day="on", start_1="10:00:00", end_0="2030-07-02", end_1="11:00:00", timezone_name="UTC")
    assert editor.post("/admin/events/event/add/", data).status_code == 302
    event = Event.objects.get()
    assert event.all_day
    assert event.start_utc == dt.datetime(2030, 7, 1, 0, 0, tzinfo=dt.UTC)
    assert event.end_utc == dt.datetime(2030, 7, 2, 23, 59, 59, tzinfo=dt.UTC)


def test_two_events_with_the_same_title_get_distinct_slugs(editor):
    for _ in range(2):
        assert editor.post("/admin/events/event/add/", event_form(title_en="Jazz night")).status_code == 302
    assert sorted(Event.objects.values_list("slug", flat=True)) == ["jazz-night", "jazz-night-2"]


def test_a_typed_slug_is_normalised_and_made_unique(editor):
    make_event("Other", slug="cafe-night")
    assert editor.post("/admin/events/event/add/", event_form(slug="Café Night!")).status_code == 302
    assert Event.objects.get(title_en="Jazz night").slug == "cafe-night-2"


def test_a_draft_gets_no_generated_slug(editor):
    assert editor.post("/admin/events/event/add/", event_form(status="draft")).status_code == 302
    assert Event.objects.get().slug == ""


def test_publishing_with_a_later_publication_date_schedules(editor):
    data = event_form(date_0="2099-01-01")
    assert editor.post("/admin/events/event/add/", data).status_code == 302
    assert Event.objects.get().status == PostStatus.FUTURE


def test_an_event_cannot_be_its_own_parent(editor):
    event = make_event("Series")
    data = event_form(title_en="Series", post_parent=str(event.pk), slug=event.slug)
    response = editor.post(f"/admin/events/event/{event.pk}/change/", data)
    assert response.status_code == 200
    assert "post_parent" in response.context["adminform"].form.errors


def test_trash_and_restore_actions_keep_the_slug(editor):
    event = make_event("Gala", slug="gala")
    editor.post("/admin/events/event/", {"action": "move_to_trash", "_selected_action": [event.pk]})
    event.refresh_from_db()
    assert (event.status, event.slug) == (PostStatus.TRASH, "gala__trashed")
    editor.post("/admin/events/event/", {"action": "restore_from_trash", "_selected_action": [event.pk]})
    event.refresh_from_db()
    assert (event.status, event.slug) == (PostStatus.PUBLISH, "gala")


def test_category_and_tag_pickers_offer_one_taxonomy_each(editor):
    make_category("Music")
    make_tag("Musical")
    url = "/admin/autocomplete/?app_label=events&model_name=event&field_name=terms&term=mus"
    categories = editor.get(f"{url}&taxonomy=tribe_events_cat").json()["results"]
    tags = editor.get(f"{url}&taxonomy=post_tag").json()["results"]
    assert [item["text"] for item in categories] == ["Music"]
    assert [item["text"] for item in tags] == ["Musical"]


# Roles ------------------------------------------------------------------------------------------


def test_a_contributor_cannot_change_an_administrators_event():
    administrator = make_user("administrator")
    event = make_event("Board meeting", author=administrator)
    contributor = staff_client("contributor")

    response = contributor.post(f"/admin/events/event/{event.pk}/change/", event_form(title_en="Hijacked"))

    assert response.status_code == 403
    event.refresh_from_db()
    assert event.title_en == "Board meeting"
    assert contributor.post(f"/admin/events/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Event.objects.filter(pk=event.pk).exists()


def test_a_contributor_sees_published_events_and_only_their_own_drafts():
    contributor = staff_client("contributor")
    other = make_user("author")
    make_event("Published", author=other)
    make_event("Someone's draft", author=other, status=PostStatus.DRAFT, slug="")
    make_event("My draft", author=contributor.user, status=PostStatus.DRAFT, slug="")

    response = contributor.get("/admin/events/event/")

    assert sorted(event.title for event in response.context["cl"].result_list) == ["My draft", "Published"]


def test_a_contributor_cannot_publish_and_is_the_author():
    contributor = staff_client("contributor")
    response = contributor.get("/admin/events/event/add/")
    offered = [value for value, _label in response.context["adminform"].form.fields["status"].choices]
    assert offered == ["draft", "pending"]
    assert "author" not in response.context["adminform"].form.fields

    refused = contributor.post("/admin/events/event/add/", event_form(status="publish"))
    assert refused.status_code == 200 and "status" in refused.context["adminform"].form.errors

    assert contributor.post("/admin/events/event/add/", event_form(status="pending")).status_code == 302
    event = Event.objects.get()
    assert (event.status, event.author) == (PostStatus.PENDING, contributor.user)


def test_a_contributor_edits_their_own_draft():
    contributor = staff_client("contributor")
    event = make_event("Mine", author=contributor.user, status=PostStatus.DRAFT, slug="")
    data = event_form(title_en="Mine, renamed", status="draft")
    assert contributor.post(f"/admin/events/event/{event.pk}/change/", data).status_code == 302
    event.refresh_from_db()
    assert event.title_en == "Mine, renamed"


@pytest.mark.parametrize(
    "role, model, status",
    [
        ("contributor", "category", 403),
        ("author", "category", 200),
        ("author", "tag", 403),
        ("editor", "tag", 200),
        ("contributor", "attachment", 403),
        ("author", "attachment", 200),
        ("subscriber", "event", 302),
    ],
    ids=[
        "contributor-category",
        "author-category",
        "author-tag",
        "editor-tag",
        "contributor-upload",
        "author-upload",
        "subscriber-not-staff",
    ],
)
def test_add_pages_follow_the_role_capabilities(role, model, status):
    client = staff_client(role)
    assert client.get(f"/admin/events/{model}/add/").status_code == status


# Terms ------------------------------------------------------------------------------------------


def term_form(**fields):
    data = {
        "name_en": "",
        "name_zh_hans": "",
        "name_zh_hant": "",
        "slug": "",
        "parent": "",
        "description_en": "",
        "description_zh_hans": "",
        "description_zh_hant": "",
    }
    data.update(fields)
    return data


def test_category_saved_in_three_languages_with_a_parent(editor):
    arts = make_category("Arts")
    data = term_form(name_en="Music & Dance", name_zh_hans="音乐与舞蹈", name_zh_hant="音樂與舞蹈", parent=str(arts.pk))
    response = editor.post("/zh-hant/admin/events/category/add/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    category = Category.objects.get(parent=arts)
    assert (category.name_en, category.name_zh_hans, category.name_zh_hant) == (
        "Music &amp; Dance",
        "音乐与舞蹈",
        "音樂與舞蹈",
    )
    assert category.slug == "music-dance"


def test_category_cannot_go_under_its_own_child(editor):
    parent = make_category("Arts")
    child = make_category("Theatre", parent=parent)
    response = editor.post(
        f"/admin/events/category/{parent.pk}/change/", term_form(name_en="Arts", slug="arts", parent=str(child.pk))
    )
    assert response.status_code == 200
    assert "parent" in response.context["adminform"].form.errors


def test_duplicate_tag_name_is_refused(editor):
    make_tag("Outdoor")
    response = editor.post("/admin/events/tag/add/", term_form(name_en="outdoor"))
    assert response.status_code == 200
    assert Tag.objects.count() == 1


def test_deleting_a_category_lifts_its_children(editor):
    parent = make_category("Arts")
    child = make_category("Theatre", parent=parent)
    assert editor.post(f"/admin/events/category/{parent.pk}/delete/", {"post": "yes"}).status_code == 302
    child.refresh_from_db()
    assert child.parent is None
    assert not Term.objects.filter(pk=parent.pk).exists()


# Images -----------------------------------------------------------------------------------------


def test_uploaded_image_gets_its_sizes_and_author(editor):
    response = editor.post("/admin/events/attachment/add/", {"file": png_upload(), "title": "Poster"})
    assert response.status_code == 302
    attachment = Attachment.objects.get()
    assert (attachment.width, attachment.height) == (600, 400)
    assert set(attachment.sizes) == {"thumbnail", "medium"}
    assert attachment.author == editor.user
    assert attachment.mime_type == "image/png"


def test_uploading_a_non_image_is_refused(editor):
    fake = SimpleUploadedFile("fake.png", b"not an image", content_type="image/png")
    response = editor.post("/admin/events/attachment/add/", {"file": fake, "title": "Fake"})
    assert response.status_code == 200
    assert not Attachment.objects.exists()


def test_deleting_an_image_removes_its_files(editor, django_capture_on_commit_callbacks):
    editor.post("/admin/events/attachment/add/", {"file": png_upload(), "title": "Poster"})
    attachment = Attachment.objects.get()
    names = [attachment.file.name, *(size["file"] for size in attachment.sizes.values())]
    with django_capture_on_commit_callbacks(execute=True):
        assert editor.post(f"/admin/events/attachment/{attachment.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not any(default_storage.exists(name) for name in names)


# Languages --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prefix, heading",
    [("", "Site administration"), ("/zh-hans", "站点管理"), ("/zh-hant", "網站管理")],
    ids=["en", "zh-hans", "zh-hant"],
)
def test_admin_speaks_each_language_and_links_to_the_others(editor, prefix, heading):
    content = editor.get(f"{prefix}/admin/").content.decode()
    assert heading in content
    for href in ('href="/admin/"', 'href="/zh-hans/admin/"', 'href="/zh-hant/admin/"'):
        assert href in content
    assert "简体中文" in content and "繁體中文" in content


def test_login_page_offers_the_languages():
    content = Client().get("/zh-hans/admin/login/").content.decode()
    assert 'href="/zh-hant/admin/"' in content


def test_venue_saved_with_address_and_coordinates(editor):
    data = {
        "title_en": "Harbour hall",
        "title_zh_hans": "海港礼堂",
        "title_zh_hant": "海港禮堂",
        "slug": "",
        "address": "1 Pier Road",
        "city": "Hong Kong",
        "zip": "",
        "state": "",
        "province": "Hong Kong Island",
        "country": "Hong Kong",
        "geo_lat": "22.28",
        "geo_lng": "114.16",
        "phone": "",
        "website": "",
        "description_en": "",
        "description_zh_hans": "",
        "description_zh_hant": "",
        "excerpt_en": "",
        "excerpt_zh_hans": "",
        "excerpt_zh_hant": "",
        "status": "publish",
        "date_0": "2024-01-01",
        "date_1": "10:00:00",
        "author": "",
        "password": "",
        "image": "",
        "show_map": "unknown",
        "show_map_link": "unknown",
    }
    assert editor.post("/admin/events/venue/add/", data).status_code == 302
    venue = Venue.objects.get()
    assert (venue.slug, venue.stateprovince, venue.geo_lat) == ("harbour-hall", "Hong Kong Island", 22.28)
    assert venue.title_zh_hant == "海港禮堂"


def test_organizer_search_covers_every_language(editor):
    make_organizer("Friends of music", title_zh_hans="音乐之友", title_zh_hant="音樂之友")
    response = editor.get("/admin/events/organizer/?q=音樂")
    assert [o.title_en for o in response.context["cl"].result_list] == ["Friends of music"]
    assert Organizer.objects.count() == 1


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"end_0": "2030-07-01", "end_1": "18:00:00"}, id="earlier-time"),
        pytest.param({"all_day": "on", "end_0": "2030-06-30", "end_1": "23:00:00"}, id="all-day-earlier-date"),
    ],
)
def test_an_end_before_the_start_is_refused_on_the_end_field(editor, fields):
    response = editor.post("/admin/events/event/add/", event_form(**fields))
    assert response.status_code == 200
    assert "end" in response.context["adminform"].form.errors
    assert not Event.objects.exists()


def test_an_all_day_event_ending_the_same_day_is_accepted(editor):
    data = event_form(all_day="on", start_1="10:00:00", end_0="2030-07-01", end_1="09:00:00", timezone_name="UTC")
    assert editor.post("/admin/events/event/add/", data).status_code == 302


# A changelist runs as many queries for a long page as for a short one ---------------------------


def _fill(model, count, batch):
    if model == "event":
        venue, organizer = make_venue(), make_organizer()
        for number in range(count):
            make_event(
                f"Night {batch}-{number}",
                venue=venue if number % 2 else make_venue(),
                organizers=[organizer],
                categories=[make_category(f"Genre {batch}-{number}")],
                tags=[make_tag(f"tag {batch}-{number}")],
            )
    elif model == "venue":
        for number in range(count):
            make_venue(f"Hall {batch}-{number}", author=make_user("author", username=f"venue-author-{batch}-{number}"))
    elif model == "organizer":
        for number in range(count):
            make_organizer(
                f"Band {batch}-{number}", author=make_user("author", username=f"organizer-author-{batch}-{number}")
            )
    elif model == "webhookdelivery":
        from events.models import WebhookDelivery, WebhookSubscription

        for number in range(count):
            hook = WebhookSubscription.objects.create(
                url=f"https://hooks{batch}-{number}.example.org/", secret="whsec_AAAA"
            )
            WebhookDelivery.objects.create(
                subscription=hook,
                position=number + 1,
                kind="event",
                record_id=number + 1,
                action="created",
                change_time=dt.datetime(2030, 1, 1, tzinfo=dt.UTC),
                message_id=f"msg_{batch}_{number}",
            )


@pytest.mark.parametrize("model", ["event", "venue", "organizer", "webhookdelivery"])
def test_a_changelist_runs_the_same_queries_for_many_rows_as_for_few(model, django_assert_max_num_queries):
    admin = staff_client("administrator")
    _fill(model, 2, "few")
    admin.get(f"/admin/events/{model}/")  # sessions and caches settled
    with CaptureQueriesContext(connection) as few:
        assert admin.get(f"/admin/events/{model}/").status_code == 200
    _fill(model, 20, "many")
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = admin.get(f"/admin/events/{model}/")
    assert response.status_code == 200
    assert response.context["cl"].result_count >= 22
