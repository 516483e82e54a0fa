"""The admin as an editor's tool (issue 15): read-only values, plain-text names, popups, bulk actions, the list."""

import datetime as dt
import re

import pytest

from events.models import Category, Event, Tag

from .factories import make_category, make_event, make_organizer, make_tag, make_user, make_venue
from .test_admin import event_form, staff_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor():
    return staff_client("editor")


def readonly_values(response):
    """Label → text of each read-only field on a change page."""
    values = {}
    for fieldset in response.context["adminform"]:
        for line in fieldset:
            for field in line:
                if field.is_readonly:
                    values[str(field.field["label"])] = re.sub(r"<br>", "\n", str(field.contents()))
    return values


# Read-only views --------------------------------------------------------------------------------


def test_a_contributor_viewing_someone_elses_event_reads_its_real_values():
    event = make_event(
        "Board meeting",
        author=make_user("administrator"),
        start=dt.datetime(2030, 3, 5, 14, 0),
        end=dt.datetime(2030, 3, 5, 16, 30),
        timezone_name="Europe/Berlin",
        categories=[make_category("Arts & Culture")],
        tags=[make_tag("outdoor")],
        cost=["€15", "€25"],
    )
    contributor = staff_client("contributor")

    values = readonly_values(contributor.get(f"/admin/events/event/{event.pk}/change/"))

    assert values["Start"] == "2030-03-05 14:00"
    assert values["End"] == "2030-03-05 16:30"
    assert values["Event categories"] == "Arts &amp; Culture"  # HTML-escaped once: reads "Arts & Culture"
    assert values["Tags"] == "outdoor"
    assert values["Cost"] == "€15\n€25"


def test_an_all_day_event_reads_as_dates_only():
    event = make_event(
        "Fair",
        author=make_user("administrator"),
        start=dt.datetime(2030, 3, 5, 0, 0),
        end=dt.datetime(2030, 3, 6, 23, 59, 59),
        all_day=True,
    )
    values = readonly_values(staff_client("contributor").get(f"/admin/events/event/{event.pk}/change/"))
    assert (values["Start"], values["End"]) == ("2030-03-05", "2030-03-06")


# Plain-text names -------------------------------------------------------------------------------


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


@pytest.mark.parametrize("model, kind", [("category", Category), ("tag", Tag)], ids=["category", "tag"])
def test_a_name_with_an_ampersand_round_trips_as_plain_text(editor, model, kind):
    response = editor.post(f"/admin/events/{model}/add/", term_form(name_en="Kids & Family"), follow=True)
    term = kind.objects.get()
    # Stored (and returned by the API) as WordPress stores it.
    assert term.name_en == "Kids &amp; Family"
    assert "&amp;amp;" not in response.content.decode()  # the success message

    form = editor.get(f"/admin/events/{model}/{term.pk}/change/").context["adminform"].form
    assert form["name_en"].value() == "Kids & Family"

    unchanged = term_form(name_en=form["name_en"].value(), slug=term.slug)
    assert editor.post(f"/admin/events/{model}/{term.pk}/change/", unchanged).status_code == 302
    term.refresh_from_db()
    assert term.name_en == "Kids &amp; Family"

    changelist = editor.get(f"/admin/events/{model}/").content.decode()
    assert "Kids &amp; Family" in changelist and "&amp;amp;" not in changelist


def test_event_list_filters_and_pickers_show_plain_names(editor):
    arts = make_category("Arts &amp; Culture")
    make_event("Gala", categories=[arts])
    changelist = editor.get("/admin/events/event/").content.decode()
    assert "Arts &amp; Culture" in changelist and "&amp;amp;" not in changelist

    url = "/admin/autocomplete/?app_label=events&model_name=event&field_name=terms&term=arts&taxonomy=tribe_events_cat"
    assert [item["text"] for item in editor.get(url).json()["results"]] == ["Arts & Culture"]

    event = Event.objects.get()
    form = editor.get(f"/admin/events/event/{event.pk}/change/").context["adminform"].form
    assert [label for _value, label in form.fields["categories"].choices] == ["Arts & Culture"]


# Bulk actions -----------------------------------------------------------------------------------


def offered_actions(client, model="event"):
    action_form = client.get(f"/admin/events/{model}/").context["action_form"]
    if action_form is None:  # no action at all: the admin hides the selection column
        return set()
    return {name for name, _label in action_form.fields["action"].choices if name}


@pytest.mark.parametrize(
    "role, expected",
    [
        ("contributor", {"duplicate_as_draft"}),
        ("author", {"delete_selected", "move_to_trash", "restore_from_trash", "duplicate_as_draft"}),
        ("editor", {"delete_selected", "move_to_trash", "restore_from_trash", "duplicate_as_draft"}),
    ],
    ids=["contributor", "author", "editor"],
)
def test_bulk_actions_are_offered_only_to_roles_that_may_perform_them(role, expected):
    make_event("Published")
    assert offered_actions(staff_client(role)) == expected


def test_a_contributor_posting_a_bulk_trash_changes_nothing():
    contributor = staff_client("contributor")
    mine = make_event("Mine", author=contributor.user, status="draft", slug="")
    response = contributor.post("/admin/events/event/", {"action": "move_to_trash", "_selected_action": [mine.pk]})
    assert response.status_code in (200, 302)
    mine.refresh_from_db()
    assert mine.status == "draft"


# Venues and organizers made from the event form -------------------------------------------------


def venue_form(**overrides):
    data = {
        "title_en": "Harbour hall",
        "title_zh_hans": "",
        "title_zh_hant": "",
        "slug": "",
        "address": "",
        "city": "",
        "zip": "",
        "state": "",
        "province": "",
        "country": "",
        "geo_lat": "",
        "geo_lng": "",
        "phone": "",
        "website": "",
        "description_en": "",
        "description_zh_hans": "",
        "description_zh_hant": "",
        "excerpt_en": "",
        "excerpt_zh_hans": "",
        "excerpt_zh_hant": "",
        "date_0": "2024-01-01",
        "date_1": "10:00",
        "author": "",
        "password": "",
        "image": "",
        "show_map": "unknown",
        "show_map_link": "unknown",
    }
    data.update(overrides)
    return data


def organizer_form(**overrides):
    data = {
        "title_en": "Friends of jazz",
        "title_zh_hans": "",
        "title_zh_hant": "",
        "slug": "",
        "email": "",
        "phone": "",
        "website": "",
        "description_en": "",
        "description_zh_hans": "",
        "description_zh_hant": "",
        "excerpt_en": "",
        "excerpt_zh_hans": "",
        "excerpt_zh_hant": "",
        "date_0": "2024-01-01",
        "date_1": "10:00",
        "author": "",
        "password": "",
        "image": "",
    }
    data.update(overrides)
    return data


def add_from_popup(client, model, data):
    response = client.post(
        f"/admin/events/{model}/add/?_to_field=id&_popup=1", {**data, "_popup": "1", "_to_field": "id"}
    )
    assert response.status_code == 200 and b"popup_response" in response.content, (
        response.context and response.context["adminform"].form.errors
    )


@pytest.mark.parametrize(
    "event_status, expected", [("publish", "publish"), ("draft", "draft")], ids=["published", "draft"]
)
def test_popup_venue_and_organizer_take_the_status_of_the_event_they_were_made_for(editor, event_status, expected):
    from events.models import Organizer, Venue

    add_from_popup(editor, "venue", venue_form())
    add_from_popup(editor, "organizer", organizer_form())
    venue, organizer = Venue.objects.get(), Organizer.objects.get()
    assert venue.status == organizer.status == "draft"

    data = event_form(venue=str(venue.pk), status=event_status)
    data.update(
        {
            "organizer_links-TOTAL_FORMS": "1",
            "organizer_links-0-organizer": str(organizer.pk),
            "organizer_links-0-position": "0",
        }
    )
    assert editor.post("/admin/events/event/add/", data).status_code == 302

    venue.refresh_from_db()
    organizer.refresh_from_db()
    assert venue.status == organizer.status == expected
    if expected == "publish":
        assert (venue.slug, organizer.slug) == ("harbour-hall", "friends-of-jazz")
        assert editor.get(f"/venue/{venue.slug}/").status_code == 200


def test_a_contributors_popup_venue_waits_for_review_with_their_event():
    from events.models import Venue

    contributor = staff_client("contributor")
    add_from_popup(contributor, "venue", venue_form())
    venue = Venue.objects.get()
    assert (
        contributor.post("/admin/events/event/add/", event_form(venue=str(venue.pk), status="pending")).status_code
        == 302
    )
    venue.refresh_from_db()
    assert venue.status == "pending"


def test_a_venue_made_on_its_own_page_starts_published_for_an_editor(editor):
    form = editor.get("/admin/events/venue/add/").context["adminform"].form
    assert (form["status"].value(), form["author"].value()) == ("publish", editor.user.pk)


@pytest.mark.parametrize(
    "model, maker, form",
    [("venue", make_venue, venue_form), ("organizer", make_organizer, organizer_form)],
    ids=["venue", "organizer"],
)
def test_a_namesake_is_warned_of_before_it_is_made(editor, model, maker, form):
    existing = maker("Harbour Hall" if model == "venue" else "Friends of Jazz")
    data = form(status="publish")

    refused = editor.post(f"/admin/events/{model}/add/", data)

    assert refused.status_code == 200
    errors = refused.context["adminform"].form.errors
    assert f"/admin/events/{model}/{existing.pk}/change/" in str(errors["title_en"])
    assert "allow_namesake" in refused.context["adminform"].form.fields
    assert type(existing).objects.count() == 1

    assert editor.post(f"/admin/events/{model}/add/", {**data, "allow_namesake": "on"}).status_code == 302
    assert type(existing).objects.count() == 2


# Dates and times --------------------------------------------------------------------------------


def test_times_are_picked_to_the_minute_with_pickers_that_keep_the_end_after_the_start(editor):
    event = make_event("Tea", start=dt.datetime(2030, 3, 5, 14, 0))
    content = editor.get(f"/admin/events/event/{event.pk}/change/").content.decode()
    assert 'type="date" name="start_0" value="2030-03-05"' in content
    assert 'type="time" name="start_1" value="14:00"' in content
    assert 'type="time" name="date_1"' in content
    assert "events/admin/event_times.js" in content
    data = event_form(start_1="19:30", end_1="22:00", date_1="10:00", slug=event.slug)
    assert editor.post(f"/admin/events/event/{event.pk}/change/", data).status_code == 302


# The events list --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, expected",
    [
        pytest.param(
            {
                "start": dt.datetime(2027, 1, 23, 9, 0),
                "end": dt.datetime(2027, 1, 23, 12, 0),
                "timezone_name": "Europe/Berlin",
            },
            "Sat 23 Jan 2027, 09:00–12:00 CET",
            id="same-day",
        ),
        pytest.param(
            {
                "start": dt.datetime(2027, 1, 23, 20, 0),
                "end": dt.datetime(2027, 1, 24, 2, 0),
                "timezone_name": "Europe/Berlin",
            },
            "Sat 23 Jan 2027, 20:00 – Sun 24 Jan 2027, 02:00 CET",
            id="overnight",
        ),
        pytest.param(
            {
                "start": dt.datetime(2027, 1, 23, 9, 0),
                "end": dt.datetime(2027, 1, 23, 12, 0),
                "timezone_name": "Asia/Shanghai",
            },
            "Sat 23 Jan 2027, 09:00–12:00 Asia/Shanghai",
            id="ambiguous-abbreviation",
        ),
        pytest.param(
            {
                "start": dt.datetime(2027, 1, 23, 9, 0),
                "end": dt.datetime(2027, 1, 23, 12, 0),
                "timezone_name": "America/Sao_Paulo",
            },
            "Sat 23 Jan 2027, 09:00–12:00 America/Sao_Paulo",
            id="numeric-abbreviation",
        ),
        pytest.param(
            {"start": dt.datetime(2027, 1, 23), "end": dt.datetime(2027, 1, 23, 23, 59, 59), "all_day": True},
            "Sat 23 Jan 2027, all day",
            id="all-day",
        ),
        pytest.param(
            {"start": dt.datetime(2027, 1, 23), "end": dt.datetime(2027, 1, 24, 23, 59, 59), "all_day": True},
            "Sat 23 Jan 2027 – Sun 24 Jan 2027, all day",
            id="all-day-over-two-days",
        ),
    ],
)
def test_the_when_column_reads_like_a_calendar(editor, fields, expected):
    from events.admin.events import describe_when

    assert describe_when(make_event("Concert", **fields)) == expected
    assert expected.replace("–", "&ndash;") in editor.get("/admin/events/event/").content.decode().replace(
        "–", "&ndash;"
    )


def listed_titles(client, query=""):
    return sorted(event.title for event in client.get(f"/admin/events/event/?{query}").context["cl"].result_list)


def test_upcoming_today_and_past_filters(editor):
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    make_event("Last year", start=now - dt.timedelta(days=365), end=now - dt.timedelta(days=365, hours=-2))
    make_event("Next month", start=now + dt.timedelta(days=30))
    make_event("Running now", start=now - dt.timedelta(minutes=30), end=now + dt.timedelta(minutes=30))
    assert listed_titles(editor, "when=past") == ["Last year"]
    assert listed_titles(editor, "when=upcoming") == ["Next month", "Running now"]
    assert listed_titles(editor, "when=today") == ["Running now"]


def test_category_filter_includes_subcategories(editor):
    arts = make_category("Arts")
    theatre = make_category("Theatre", parent=arts)
    opera = make_category("Opera", parent=theatre)
    make_event("Play", categories=[theatre])
    make_event("Aida", categories=[opera, arts])
    make_event("Lecture")
    assert listed_titles(editor, f"category={arts.pk}") == ["Aida", "Play"]
    assert listed_titles(editor, f"category={opera.pk}") == ["Aida"]
    response = editor.get("/admin/events/event/")
    labels = [
        choice["display"]
        for spec in response.context["cl"].filter_specs
        if getattr(spec, "parameter_name", "") == "category"
        for choice in spec.choices(response.context["cl"])
    ]
    assert labels[1:] == ["Arts", "— Theatre", "— — Opera"]


def test_venue_organizer_author_and_mine_filters(editor):
    hall, friends = make_venue("Hall"), make_organizer("Friends")
    other = make_user("author")
    make_event("Mine at the hall", venue=hall, author=editor.user)
    make_event("Theirs with friends", organizers=[friends], author=other)
    assert listed_titles(editor, f"venue__id__exact={hall.pk}") == ["Mine at the hall"]
    assert listed_titles(editor, f"organizers__id__exact={friends.pk}") == ["Theirs with friends"]
    assert listed_titles(editor, "author=mine") == ["Mine at the hall"]
    assert listed_titles(editor, f"author={other.pk}") == ["Theirs with friends"]


def test_duplicate_copies_an_event_as_a_draft(editor):
    from events.models import Attachment

    from .factories import make_image

    music, outdoor = make_category("Music"), make_tag("outdoor")
    first, second = make_organizer("First"), make_organizer("Second")
    event = make_event(
        "Gala",
        venue=make_venue("Hall"),
        organizers=[second, first],
        categories=[music],
        tags=[outdoor],
        image=make_image(),
        author=make_user("author"),
        cost=["$5"],
        timezone_name="Europe/Berlin",
    )
    Event.objects.filter(pk=event.pk).update(title_zh_hant="晚會", description_zh_hans="<p>描述</p>")

    response = editor.post("/admin/events/event/", {"action": "duplicate_as_draft", "_selected_action": [event.pk]})

    assert response.status_code == 302
    copy = Event.objects.exclude(pk=event.pk).get()
    assert (copy.status, copy.slug, copy.author) == ("draft", "", editor.user)
    assert (copy.title_en, copy.title_zh_hant, copy.description_zh_hans) == ("Gala", "晚會", "<p>描述</p>")
    assert (copy.start_utc, copy.end_utc, copy.timezone_name, copy.cost) == (
        event.start_utc,
        event.end_utc,
        "Europe/Berlin",
        ["$5"],
    )
    assert (copy.venue, copy.image) == (event.venue, event.image)
    assert [link.organizer for link in copy.organizer_links.all()] == [second, first]
    assert set(copy.terms.all()) == {music, outdoor}
    assert Attachment.objects.count() == 1
    music.refresh_from_db()
    assert music.count == 1  # the draft copy does not count


# Organizers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix, header", [("", "Organizer"), ("/zh-hant", "主辦單位")], ids=["en", "zh-hant"])
def test_organizers_sit_under_where_labelled_by_name_in_their_order(editor, prefix, header):
    first, second = make_organizer("Ann Arts"), make_organizer("Bob Beats")
    event = make_event("Gala", venue=make_venue("Hall"), organizers=[second, first])

    response = editor.get(f"{prefix}/admin/events/event/{event.pk}/change/")

    content = response.content.decode()
    assert "EventOrganizer object" not in content
    assert content.index("Bob Beats") < content.index("Ann Arts")
    venue_field, organizers, description = (
        content.index('name="venue"'),
        content.index('id="organizer_links-group"'),
        content.index('name="description_en"'),
    )
    assert venue_field < organizers < description
    inline = response.context["inline_admin_formsets"][0]
    assert header in [str(field["label"]) for field in inline.fields() if not field.get("is_hidden")]
    assert "adminsortable2" in content  # the drag handles' script


def test_organizers_are_saved_in_the_order_dragged(editor):
    first, second, third = make_organizer("First"), make_organizer("Second"), make_organizer("Third")
    event = make_event("Gala", organizers=[first, second, third])
    links = list(event.organizer_links.all())
    data = event_form(title_en="Gala", slug=event.slug)
    data.update({"organizer_links-TOTAL_FORMS": "3", "organizer_links-INITIAL_FORMS": "3"})
    for index, (link, position) in enumerate(zip(links, (3, 1, 2))):
        data.update(
            {
                f"organizer_links-{index}-id": str(link.pk),
                f"organizer_links-{index}-event": str(event.pk),
                f"organizer_links-{index}-organizer": str(link.organizer_id),
                f"organizer_links-{index}-position": str(position),
            }
        )
    response = editor.post(f"/admin/events/event/{event.pk}/change/", data)
    assert response.status_code == 302, response.context and response.context["inline_admin_formsets"][0].formset.errors
    assert [link.organizer for link in event.organizer_links.all()] == [second, third, first]


# Rich text --------------------------------------------------------------------------------------

# What the editor writes with each of its tools (the browser test checks the live editor's output too).
EDITOR_OUTPUT = (
    '<h2>Programme</h2><p>Some <strong>bold</strong>, <em>italic</em> and <a target="_blank" '
    'rel="noopener noreferrer nofollow" href="https://example.org/?a=1&amp;b=2">a link</a>.<br>Next line</p>'
    '<ul><li><p>one</p></li></ul><ol start="3"><li><p>three</p></li></ol><blockquote><p>Quoted</p></blockquote>'
)


def test_descriptions_and_excerpts_get_the_rich_text_editor_from_local_files(editor):
    content = editor.get("/admin/events/event/add/").content.decode()
    for field in ("description_en", "description_zh_hant", "excerpt_zh_hans"):
        assert re.search(
            rf'<textarea[^>]*data-django-prose-editor-configurable[^>]*name="{field}"|'
            rf'<textarea[^>]*name="{field}"[^>]*data-django-prose-editor-configurable',
            content,
        ), field
    assert "django_prose_editor/editor.js" in content
    assert not re.search(r'<script[^>]+src="(https?:)?//', content)  # no script from another host


def test_the_editors_html_is_stored_unchanged_for_a_contributor():
    from events.kses import filter_post_html

    assert filter_post_html(EDITOR_OUTPUT) == EDITOR_OUTPUT
    contributor = staff_client("contributor")
    data = event_form(status="draft", description_en=EDITOR_OUTPUT, excerpt_zh_hant=EDITOR_OUTPUT)
    assert contributor.post("/admin/events/event/add/", data).status_code == 302
    event = Event.objects.get()
    assert event.description_en == event.excerpt_zh_hant == EDITOR_OUTPUT


def test_text_with_blank_lines_opens_in_the_editor_as_paragraphs(editor):
    event = make_event("Talk", description="First paragraph.\n\nSecond paragraph.")
    form = editor.get(f"/admin/events/event/{event.pk}/change/").context["adminform"].form
    rendered = form["description_en"].as_widget()
    assert "&lt;p&gt;First paragraph.&lt;/p&gt;" in rendered and "&lt;p&gt;Second paragraph." in rendered


# The form ---------------------------------------------------------------------------------------


def test_a_title_in_traditional_chinese_alone_is_enough_and_fills_english(editor):
    data = event_form(title_en="", title_zh_hans="", title_zh_hant="爵士之夜")
    assert editor.post("/zh-hant/admin/events/event/add/", data).status_code == 302
    event = Event.objects.get()
    assert (event.title_en, event.title_zh_hant) == ("爵士之夜", "爵士之夜")
    assert not event.title_zh_hans


def test_an_event_needs_a_title_in_some_language(editor):
    response = editor.post("/admin/events/event/add/", event_form(title_en="", title_zh_hans="", title_zh_hant=""))
    assert response.status_code == 200
    assert "title_en" in response.context["adminform"].form.errors
    assert "English" in str(response.context["adminform"].form.fields["title_zh_hant"].help_text)


def test_translations_are_shown_as_language_tabs_on_every_translated_page(editor):
    for url in ("/admin/events/event/add/", "/admin/events/venue/add/", "/admin/events/category/add/"):
        content = editor.get(url).content.decode()
        assert "events/admin/translation_tabs.js" in content, url
        # One row per language, which the script groups into tabs.
        assert re.search(r'class="form-row[^"]*field-(title|name)_zh_hant"', content), url


@pytest.mark.parametrize(
    "stored, shown", [(None, True), (True, True), (False, False)], ids=["never-stored", "on", "off"]
)
def test_map_flags_are_checkboxes_on_unless_turned_off(editor, stored, shown):
    event = make_event("Fair", show_map=stored, show_map_link=stored)
    form = editor.get(f"/admin/events/event/{event.pk}/change/").context["adminform"].form
    assert 'type="checkbox"' in form["show_map"].as_widget()
    assert ("checked" in form["show_map"].as_widget()) is shown


def test_map_flags_unticked_are_stored_off_and_new_events_have_them_on(editor):
    new = editor.get("/admin/events/event/add/").context["adminform"].form
    assert "checked" in new["show_map"].as_widget() and "checked" in new["show_map_link"].as_widget()
    data = event_form()
    del data["show_map"]  # an unticked checkbox is not sent
    assert editor.post("/admin/events/event/add/", data).status_code == 302
    event = Event.objects.get()
    assert (event.show_map, event.show_map_link) == (False, True)


def test_a_new_event_is_the_editors_own(editor):
    form = editor.get("/admin/events/event/add/").context["adminform"].form
    assert form["author"].value() == editor.user.pk


def test_the_featured_image_shows_its_thumbnail_and_can_be_uploaded_from_the_event_form(editor):
    from events.models import Attachment

    from .factories import make_image
    from .test_admin import png_upload

    event = make_event("Poster show", image=make_image("poster.png"))
    content = editor.get(f"/admin/events/event/{event.pk}/change/").content.decode()
    thumbnail = (
        event.image.file.storage.url(event.image.sizes["thumbnail"]["file"])
        if event.image.sizes
        else event.image.file.url
    )
    assert re.search(
        rf'<img class="events-image-preview" data-preview-for="id_image"[^>]* src="{re.escape(thumbnail)}"', content
    )
    assert "/admin/events/attachment/add/?_to_field=id&amp;_popup=1" in content  # the "+" upload

    uploaded = editor.post(
        "/admin/events/attachment/add/?_to_field=id&_popup=1",
        {"file": png_upload(), "title": "New poster", "_popup": "1", "_to_field": "id"},
    )
    assert uploaded.status_code == 200 and b"popup_response" in uploaded.content
    new = Attachment.objects.get(title="New poster")
    assert editor.get(f"/admin/events/attachment/{new.pk}/thumbnail/").status_code == 302
    assert editor.get("/admin/events/attachment/999999/thumbnail/").status_code == 404


# Translations -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prefix, header, when",
    [
        ("", "Events calendar", "Sat 23 Jan 2027, 09:00–12:00 CET"),
        ("/zh-hans", "活动日历", "2027年1月23日 星期六 09:00–12:00 CET"),
        ("/zh-hant", "活動行事曆", "2027年1月23日 星期六 09:00–12:00 CET"),
    ],
    ids=["en", "zh-hans", "zh-hant"],
)
def test_the_admin_names_the_calendar_has_a_favicon_and_speaks_each_language(editor, prefix, header, when):
    make_event(
        "Concert",
        start=dt.datetime(2027, 1, 23, 9, 0),
        end=dt.datetime(2027, 1, 23, 12, 0),
        timezone_name="Europe/Berlin",
    )
    content = editor.get(f"{prefix}/admin/events/event/").content.decode()
    assert f'<div id="site-name"><a href="{prefix}/admin/">{header}</a></div>' in content
    assert "Django administration" not in content and "Django site admin" not in content
    assert 'rel="icon" href="/static/events/favicon.svg"' in content
    assert when in content


def test_the_token_pages_read_in_traditional_chinese():
    content = staff_client("administrator").get("/zh-hant/admin/").content.decode()
    assert "權杖" in content and "Tokens" not in content


def test_trashing_a_venue_in_bulk_unlinks_it_from_its_events_as_the_api_does(editor):
    hall = make_venue("Hall")
    event = make_event("Gala", venue=hall)
    editor.post("/admin/events/venue/", {"action": "move_to_trash", "_selected_action": [hall.pk]})
    hall.refresh_from_db()
    event.refresh_from_db()
    assert (hall.status, event.venue) == ("trash", None)


def test_the_rich_text_editors_dialogs_get_their_translations(editor):
    content = editor.get("/zh-hans/admin/events/event/add/").content.decode()
    assert 'id="id_description_en_editor_strings"' in content
    assert "\\u7f16\\u8f91\\u94fe\\u63a5" in content or "编辑链接" in content  # "Edit Link"
    assert "events/admin/editor_strings.js" in content


def test_read_only_zone_map_flags_and_publication_date_read_as_they_mean():
    event = make_event(
        "Fair",
        author=make_user("administrator"),
        timezone_name="",
        show_map=None,
        show_map_link=False,
        date=dt.datetime(2026, 5, 1, 8, 30, tzinfo=dt.UTC),
    )
    values = readonly_values(staff_client("contributor").get(f"/admin/events/event/{event.pk}/change/"))
    assert values["Time zone"] == "Site time zone (UTC)"
    assert 'alt="True"' in values["show map"] and 'alt="False"' in values["show map link"]
    assert values["publication date"] == "2026-05-01 08:30"
    assert values["Event categories"] == values["Tags"] == values["Cost"] == "-"


# The API's rendering store ----------------------------------------------------------------------


def test_admin_writes_keep_the_apis_rendered_records_true(editor, django_capture_on_commit_callbacks):
    from events import store
    from events.models import RenderedRecord, Venue

    music = make_category("Music")
    first, second = make_organizer("First"), make_organizer("Second")
    with django_capture_on_commit_callbacks(execute=True):
        add_from_popup(editor, "venue", venue_form())
    venue = Venue.objects.get()
    data = event_form(venue=str(venue.pk), categories=[str(music.pk)])
    data.update(
        {
            "organizer_links-TOTAL_FORMS": "2",
            "organizer_links-0-organizer": str(first.pk),
            "organizer_links-1-organizer": str(second.pk),
        }
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert editor.post("/admin/events/event/add/", data).status_code == 302
    event = Event.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        editor.post("/admin/events/event/", {"action": "duplicate_as_draft", "_selected_action": [event.pk]})
    with django_capture_on_commit_callbacks(execute=True):
        editor.post(f"/admin/events/category/{music.pk}/change/", term_form(name_en="Music & Dance", slug="music"))
    with django_capture_on_commit_callbacks(execute=True):
        editor.post("/admin/events/organizer/", {"action": "move_to_trash", "_selected_action": [second.pk]})

    assert store.stale_rows() == []
    copy = Event.objects.exclude(pk=event.pk).get()
    assert RenderedRecord.objects.filter(record_id__in=[event.pk, copy.pk, venue.pk]).exists()
