"""Three languages end to end: selection by path prefix or parameter, content, fallback, links, writes, search."""

import pytest

from .conftest import API
from .factories import make_category, make_event, make_organizer, make_tag, make_user, make_venue

pytestmark = pytest.mark.django_db

PREFIX = {"en": "", "zh-hans": "/zh-hans", "zh-hant": "/zh-hant"}
TITLES = {"en": "Concert", "zh-hans": "音乐会", "zh-hant": "音樂會"}


@pytest.fixture
def concert(db):
    venue = make_venue("Town Hall", title_zh_hans="市政厅", title_zh_hant="市政廳")
    organizer = make_organizer("Music Society", title_zh_hans="音乐协会", title_zh_hant="音樂協會")
    category = make_category("Classical", name_zh_hans="古典音乐", name_zh_hant="古典音樂")
    tag = make_tag("Evening", name_zh_hans="晚间", name_zh_hant="晚間")
    return make_event(
        TITLES["en"],
        title_zh_hans=TITLES["zh-hans"],
        title_zh_hant=TITLES["zh-hant"],
        description="A night of strings.",
        description_zh_hans="弦乐之夜。",
        description_zh_hant="弦樂之夜。",
        venue=venue,
        organizers=[organizer],
        categories=[category],
        tags=[tag],
    )


def get(client, language, path, **query):
    response = client.get(f"{PREFIX[language]}{API}{path}", query)
    assert response.status_code == 200, response.content
    return response.json()


# (path language, wpml_language or None, language expected in the response)
SELECTIONS = [
    ("en", None, "en"),
    ("zh-hans", None, "zh-hans"),
    ("zh-hant", None, "zh-hant"),
    ("en", "zh-hans", "zh-hans"),
    ("en", "zh-hant", "zh-hant"),
    ("zh-hans", "zh-hant", "zh-hant"),
    ("zh-hant", "en", "en"),
]
SELECTION_IDS = [f"path-{path}-param-{param or 'none'}" for path, param, _ in SELECTIONS]


@pytest.mark.parametrize("path_language, parameter, expected", SELECTIONS, ids=SELECTION_IDS)
def test_event_read_in_the_selected_language(api, concert, path_language, parameter, expected):
    query = {"wpml_language": parameter} if parameter else {}
    event = get(api, path_language, f"/events/{concert.pk}", **query)
    assert event["title"] == TITLES[expected]
    descriptions = {"en": "<p>A night of strings.</p>", "zh-hans": "<p>弦乐之夜。</p>", "zh-hant": "<p>弦樂之夜。</p>"}
    assert event["description"] == descriptions[expected]
    venues = {"en": "Town Hall", "zh-hans": "市政厅", "zh-hant": "市政廳"}
    assert event["venue"]["venue"] == venues[expected]
    organizers = {"en": "Music Society", "zh-hans": "音乐协会", "zh-hant": "音樂協會"}
    assert [organizer["organizer"] for organizer in event["organizer"]] == [organizers[expected]]
    assert [term["name"] for term in event["categories"]] == [
        {"en": "Classical", "zh-hans": "古典音乐", "zh-hant": "古典音樂"}[expected]
    ]
    assert [term["name"] for term in event["tags"]] == [
        {"en": "Evening", "zh-hans": "晚间", "zh-hant": "晚間"}[expected]
    ]


@pytest.mark.parametrize("path_language, parameter, expected", SELECTIONS, ids=SELECTION_IDS)
def test_by_slug_and_list_reads_in_the_selected_language(api, concert, path_language, parameter, expected):
    query = {"wpml_language": parameter} if parameter else {}
    # Slugs are shared by all languages of a record.
    assert get(api, path_language, f"/events/by-slug/{concert.slug}", **query)["title"] == TITLES[expected]
    listed = get(api, path_language, "/events", **query)["events"]
    assert [event["title"] for event in listed] == [TITLES[expected]]


@pytest.mark.parametrize(
    "path, key, expected",
    [
        ("/venues/{venue}", "venue", {"en": "Town Hall", "zh-hans": "市政厅", "zh-hant": "市政廳"}),
        ("/organizers/{organizer}", "organizer", {"en": "Music Society", "zh-hans": "音乐协会", "zh-hant": "音樂協會"}),
        ("/categories/{category}", "name", {"en": "Classical", "zh-hans": "古典音乐", "zh-hant": "古典音樂"}),
        ("/tags/{tag}", "name", {"en": "Evening", "zh-hans": "晚间", "zh-hant": "晚間"}),
    ],
    ids=["venue", "organizer", "category", "tag"],
)
@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_linked_records_read_in_each_language(api, concert, path, key, expected, language):
    ids = {
        "venue": concert.venue_id,
        "organizer": concert.organizer_links.get().organizer_id,
        "category": concert.terms.get(taxonomy="tribe_events_cat").pk,
        "tag": concert.terms.get(taxonomy="post_tag").pk,
    }
    assert get(api, language, path.format(**ids))[key] == expected[language]
    assert get(api, "en", path.format(**ids), wpml_language=language)[key] == expected[language]


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_untranslated_text_falls_back_to_english(api, language):
    event = make_event("Open rehearsal", description="Free entry.", venue=make_venue("Annex"))
    body = get(api, language, f"/events/{event.pk}")
    assert body["title"] == "Open rehearsal"
    assert body["description"] == "<p>Free entry.</p>"
    assert body["venue"]["venue"] == "Annex"


def test_partly_translated_record_falls_back_field_by_field(api):
    event = make_event("Open rehearsal", title_zh_hant="公開排練", description="Free entry.")
    body = get(api, "zh-hant", f"/events/{event.pk}")
    assert (body["title"], body["description"]) == ("公開排練", "<p>Free entry.</p>")


def urls_in(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from urls_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from urls_in(item)
    elif isinstance(value, str) and value.startswith("http://testserver/"):
        yield value


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
@pytest.mark.parametrize(
    "path",
    [
        "/events?per_page=1",
        "/events/{event}",
        "/venues?per_page=1",
        "/venues/{venue}",
        "/organizers",
        "/categories",
        "/tags",
    ],
    ids=["events", "event", "venues", "venue", "organizers", "categories", "tags"],
)
def test_every_url_keeps_the_language_prefix(api, concert, language, path):
    make_event("Second concert", venue=concert.venue)
    make_venue("Side hall")
    url = f"{PREFIX[language]}{API}{path.format(event=concert.pk, venue=concert.venue_id)}"
    response = api.get(url)
    assert response.status_code == 200
    urls = list(urls_in(response.json()))
    assert urls
    outside = [
        found for found in urls if not found.startswith(f"http://testserver/{language}/") and "/media/" not in found
    ]
    assert outside == []


def test_next_page_link_keeps_the_selected_language(api, concert):
    make_event("Encore", title_zh_hant="安可")
    first = get(api, "en", "/events", per_page=1, wpml_language="zh-hant")
    assert first["events"][0]["title"] == "音樂會"
    following = api.get(first["next_rest_url"])
    assert following.status_code == 200
    assert [event["title"] for event in following.json()["events"]] == ["安可"]


def test_language_prefix_is_kept_in_the_rest_root_link_header(api):
    response = api.get(f"/zh-hant{API}")
    assert response["Link"] == '<http://testserver/zh-hant/wp-json/>; rel="https://api.w.org/"'


@pytest.mark.parametrize("value", ["fr", "ZH", "zh_hant", ""], ids=["unknown", "bare-zh", "underscore", "empty"])
def test_invalid_language_parameter_is_refused(api, value):
    response = api.get(f"{API}/events", {"wpml_language": value})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == ["wpml_language"]


def test_language_parameter_in_a_write_body_is_honoured(as_role):
    editor = as_role("editor")
    response = editor.post(
        f"{API}/events",
        {
            "title": "爵士之夜",
            "start_date": "2030-05-01 20:00",
            "end_date": "2030-05-01 23:00",
            "wpml_language": "zh-hant",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["title"] == "爵士之夜"


def read_title(client, language, event_id):
    return get(client, language, f"/events/{event_id}")["title"]


def test_write_in_traditional_then_read_in_all_three(as_role, api):
    editor = as_role("editor")
    created = editor.post(
        f"/zh-hant{API}/events",
        {
            "title": "爵士之夜",
            "description": "現場演奏。",
            "start_date": "2030-05-01 20:00",
            "end_date": "2030-05-01 23:00",
        },
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["title"] == "爵士之夜"
    event_id = body["id"]
    # The first write also fills English, so every language has a text to fall back to.
    assert {language: read_title(api, language, event_id) for language in PREFIX} == {
        "en": "爵士之夜",
        "zh-hans": "爵士之夜",
        "zh-hant": "爵士之夜",
    }
    assert get(api, "en", f"/events/{event_id}")["description"] == "<p>現場演奏。</p>"

    assert editor.post(f"{API}/events/{event_id}", {"title": "Jazz night"}).status_code == 200
    assert editor.post(f"/zh-hans{API}/events/{event_id}", {"title": "爵士之夜（简体）"}).status_code == 200
    assert {language: read_title(api, language, event_id) for language in PREFIX} == {
        "en": "Jazz night",
        "zh-hans": "爵士之夜（简体）",
        "zh-hant": "爵士之夜",
    }
    # Slugs are shared: renaming in a language does not move the record.
    slug = body["slug"]
    assert get(api, "zh-hans", f"/events/by-slug/{slug}")["id"] == event_id
    assert get(api, "en", f"/events/{event_id}")["slug"] == slug


def test_write_through_the_parameter_stores_that_language(as_role, api, concert):
    editor = as_role("editor")
    response = editor.post(f"{API}/events/{concert.pk}", {"title": "音樂會（加場）", "wpml_language": "zh-hant"})
    assert response.status_code == 200, response.content
    assert {language: read_title(api, language, concert.pk) for language in PREFIX} == {
        "en": "Concert",
        "zh-hans": "音乐会",
        "zh-hant": "音樂會（加場）",
    }


@pytest.mark.parametrize(
    "collection, payload, key, read_key",
    [
        ("venues", {"venue": "國家音樂廳", "city": "臺北"}, "venue", "venue"),
        ("organizers", {"organizer": "臺北愛樂"}, "organizer", "organizer"),
        ("categories", {"name": "爵士樂"}, "name", "name"),
        ("tags", {"name": "戶外"}, "name", "name"),
    ],
    ids=["venue", "organizer", "category", "tag"],
)
def test_create_in_traditional_fills_english(as_role, api, collection, payload, key, read_key):
    editor = as_role("editor")
    created = editor.post(f"/zh-hant{API}/{collection}", payload)
    assert created.status_code == 201, created.content
    record_id = created.json()["id"]
    for language in PREFIX:
        assert get(api, language, f"/{collection}/{record_id}")[read_key] == payload[key]
    renamed = editor.post(f"{API}/{collection}/{record_id}", {key: "Renamed"})
    assert renamed.status_code == 200, renamed.content
    assert get(api, "en", f"/{collection}/{record_id}")[read_key] == "Renamed"
    assert get(api, "zh-hant", f"/{collection}/{record_id}")[read_key] == payload[key]


@pytest.mark.parametrize(
    "language, search, found",
    [
        ("zh-hans", "音乐", True),
        ("zh-hant", "音樂", True),
        ("zh-hant", "弦樂", True),
        ("en", "音乐", False),
        ("zh-hans", "音樂", False),
        ("en", "Concert", True),
    ],
    ids=[
        "simplified",
        "traditional",
        "traditional-description",
        "chinese-in-english",
        "traditional-in-simplified",
        "english",
    ],
)
def test_event_search_matches_the_selected_language(api, concert, language, search, found):
    titles = [event["title"] for event in get(api, language, "/events", search=search)["events"]]
    assert titles == ([TITLES[language]] if found else [])


def test_event_search_matches_the_english_fallback(api):
    make_event("Brass quintet")
    assert [event["title"] for event in get(api, "zh-hans", "/events", search="quintet")["events"]] == ["Brass quintet"]


@pytest.mark.parametrize(
    "path, key, language, search, expected",
    [
        ("/venues", "venues", "zh-hant", "市政廳", ["市政廳"]),
        ("/venues", "venues", "zh-hans", "市政厅", ["市政厅"]),
        ("/organizers", "organizers", "zh-hans", "协会", ["音乐协会"]),
        ("/categories", "categories", "zh-hant", "古典", ["古典音樂"]),
        ("/tags", "tags", "zh-hans", "晚间", ["晚间"]),
    ],
    ids=["venues-traditional", "venues-simplified", "organizers", "categories", "tags"],
)
def test_search_in_chinese_on_other_lists(api, concert, path, key, language, search, expected):
    records = get(api, language, path, search=search)[key]
    name = {"venues": "venue", "organizers": "organizer"}.get(key, "name")
    assert [record[name] for record in records] == expected


ADMIN_LABELS = {
    "en": ["Title [en]:", "Time zone:", "Venue:", "Event categories:", "Featured image:"],
    "zh-hans": ["标题 [en]:", "时区:", "场地:", "活动分类:", "特色图片:"],
    "zh-hant": ["標題 [en]：", "時區：", "場地：", "活動分類：", "精選圖片："],
}


@pytest.mark.parametrize("language", list(PREFIX))
def test_admin_field_labels_come_from_the_catalogs(client, language):
    client.force_login(make_user("administrator", is_staff=True, is_superuser=True))
    response = client.get(f"{PREFIX[language]}/admin/events/event/add/")
    assert response.status_code == 200
    page = response.content.decode()
    for label in ADMIN_LABELS[language]:
        assert f">{label}</label>" in page, label
    app_name = {"en": "Events calendar", "zh-hans": "活动日历", "zh-hant": "活動行事曆"}[language]
    assert app_name in client.get(f"{PREFIX[language]}/admin/").content.decode()


@pytest.mark.parametrize("fallbacks_on", [True, False], ids=["fallbacks", "no fallbacks"])
def test_the_renderers_read_of_a_text_is_the_models_own(concert, fallbacks_on):
    """Renderers read translated text through events.translation.shown_text, which must give what
    the model's attribute gives in every language, with or without fallbacks, for text a
    language has of its own, text it lacks (empty or NULL) and text no language has."""
    from django.utils import translation
    from modeltranslation.utils import fallbacks

    from events.models import Event, Venue
    from events.translation import shown_text

    Event.objects.filter(pk=concert.pk).update(excerpt_zh_hans=None, excerpt_zh_hant="")
    records = [Event.objects.get(pk=concert.pk), Venue.objects.get(pk=concert.venue_id), Event(title_en="New")]
    with fallbacks(fallbacks_on):
        for language in PREFIX:
            with translation.override(language):
                for record in records:
                    for name in ("title", "description", "excerpt"):
                        assert shown_text(record, name) == getattr(record, name), (language, record, name)
