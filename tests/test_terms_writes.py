"""Creating, updating and deleting categories and tags (docs/contract/terms.md §4-§6)."""

import pytest
from django.utils import translation

from events.models import Event, Term

from .conftest import API
from .factories import make_category, make_event, make_tag

pytestmark = pytest.mark.django_db

ROOT = "http://testserver/wp-json/tribe/events/v1"


@pytest.fixture(autouse=True)
def english_between_tests():
    # A language-prefixed request leaves its language active in the thread; factories write in it.
    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    # Every request authenticates by HTTP Basic; the production hasher would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def assert_error(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    assert body["data"]["status"] == status
    return body


def assert_invalid(response, param):
    body = assert_error(response, 400, "rest_invalid_param")
    assert list(body["data"]["params"]) == [param]


# --- create -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("collection", ["categories", "tags"])
def test_create_answers_201_with_the_record_and_location(editor, collection):
    response = editor.post(f"{API}/{collection}", {"name": "Jazz", "description": "Swing and bop"})
    assert response.status_code == 201, response.content
    body = response.json()
    term = Term.objects.get(pk=body["id"])
    assert (body["name"], body["slug"], body["description"], body["count"]) == ("Jazz", "jazz", "Swing and bop", 0)
    assert response["Location"] == body["urls"]["self"] == f"{ROOT}/{collection}/{term.pk}"
    assert term.taxonomy == {"categories": "tribe_events_cat", "tags": "post_tag"}[collection]


@pytest.mark.parametrize(
    "send",
    [
        lambda client, url, data: client.post(url, data),
        lambda client, url, data: client.post(url, data, format="json"),
        lambda client, url, data: client.post(url, data, format="multipart"),
        lambda client, url, data: client.post(f"{url}?name={data['name']}"),
    ],
    ids=["form", "json", "multipart", "query"],
)
def test_create_reads_every_body_encoding(editor, send):
    response = send(editor, f"{API}/tags", {"name": "Outdoor"})
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Outdoor"


def test_create_category_under_a_parent(editor):
    parent = make_category("Music")
    body = editor.post(f"{API}/categories", {"name": "Jazz", "parent": parent.pk}).json()
    assert body["parent"] == parent.pk
    assert body["url"] == "http://testserver/events/category/music/jazz/"
    assert body["urls"]["up"] == f"{ROOT}/categories/{parent.pk}"


@pytest.mark.parametrize(
    "name, stored",
    [
        ("Rock & roll", "Rock &amp; roll"),
        ("Rock &amp; roll", "Rock &amp; roll"),
        ("<b>Bold</b> move", "Bold move"),
        ("  Spaced   out  ", "Spaced out"),
        ('Say "hi"', 'Say "hi"'),
    ],
    ids=["ampersand", "entity-kept", "tags-stripped", "whitespace", "quotes-kept"],
)
def test_name_is_sanitised(editor, name, stored):
    body = editor.post(f"{API}/tags", {"name": name}, format="json").json()
    assert body["name"] == stored
    assert Term.objects.get(pk=body["id"]).name_en == stored


@pytest.mark.parametrize(
    "payload, slug",
    [
        ({"name": "Jazz Night"}, "jazz-night"),
        ({"name": "Jazz", "slug": "My Slug!"}, "my-slug"),
        ({"name": "Café Société"}, "cafe-societe"),
        ({"name": "爵士"}, "%e7%88%b5%e5%a3%ab"),
        ({"name": "Jazz", "slug": "!!!"}, "jazz"),
    ],
    ids=["from-name", "given-sanitised", "accents", "chinese", "unusable-slug-falls-back-to-name"],
)
def test_slug_rules(editor, payload, slug):
    assert editor.post(f"{API}/categories", payload).json()["slug"] == slug


def test_given_slug_is_made_unique_in_the_taxonomy(editor):
    make_tag("Something", slug="taken")
    make_tag("Else", slug="taken-2")
    make_category("Category", slug="free")
    assert editor.post(f"{API}/tags", {"name": "New", "slug": "taken"}).json()["slug"] == "taken-3"
    # Slugs are unique per taxonomy only.
    assert editor.post(f"{API}/tags", {"name": "Other", "slug": "free"}).json()["slug"] == "free"


def test_derived_slug_is_made_unique(editor):
    make_tag("Jazz", slug="jazz")
    assert editor.post(f"{API}/categories", {"name": "Jazz"}).json()["slug"] == "jazz"
    body = editor.post(f"{API}/tags", {"name": "JAZZ", "slug": "jazz"}).json()
    assert body["code"] == "term_exists"


def test_missing_name(editor):
    body = assert_error(editor.post(f"{API}/categories", {"description": "x"}), 400, "rest_missing_callback_param")
    assert body["data"]["params"] == ["name"]


@pytest.mark.parametrize(
    "payload, param",
    [
        ({"name": ""}, "name"),
        ({"name": "A", "description": ""}, "description"),
        ({"name": "A", "slug": ""}, "slug"),
        ({"name": "A", "parent": ""}, "parent"),
        ({"name": "A", "parent": "2389"}, "parent"),
        ({"name": "A", "parent": "foo"}, "parent"),
        ({"name": "A", "parent": "0"}, "parent"),
        ({"name": "A", "wpml_language": "de"}, "wpml_language"),
    ],
    ids=[
        "empty-name",
        "empty-description",
        "empty-slug",
        "empty-parent",
        "unknown-parent",
        "word-parent",
        "zero-parent",
        "language",
    ],
)
def test_create_validation(editor, payload, param):
    assert_invalid(editor.post(f"{API}/categories", payload), param)
    assert not Term.objects.filter(name_en="A").exists()


@pytest.mark.parametrize("value", [12, True, ["a"]], ids=["number", "boolean", "list"])
def test_name_must_be_a_json_string(editor, value):
    response = editor.post(f"{API}/tags", {"name": value}, format="json")
    assert_invalid(response, "name")
    assert response.json()["data"]["details"]["name"]["code"] == "rest_invalid_type"


def test_name_empty_after_sanitising_is_invalid(editor):
    assert_invalid(editor.post(f"{API}/tags", {"name": "<b></b>"}), "name")


def test_parent_must_be_a_category(editor):
    tag = make_tag("Tagged")
    assert_invalid(editor.post(f"{API}/categories", {"name": "Child", "parent": tag.pk}), "parent")


def test_validation_comes_before_permission(api, as_role):
    assert_invalid(api.post(f"{API}/categories", {"name": ""}), "name")
    assert_invalid(as_role("subscriber").post(f"{API}/tags", {"name": "A", "slug": ""}), "slug")


def test_parent_on_tags_is_not_hierarchical(editor, api):
    category = make_category("Anything")
    assert_error(
        editor.post(f"{API}/tags", {"name": "Child", "parent": category.pk}), 400, "rest_taxonomy_not_hierarchical"
    )
    # The check runs in the handler, after the route's permission check.
    assert_error(api.post(f"{API}/tags", {"name": "Child", "parent": category.pk}), 401, "rest_forbidden")
    assert not Term.objects.filter(name_en="Child").exists()


# --- duplicate names --------------------------------------------------------------------------------


def test_duplicate_tag_name_anywhere(editor):
    existing = make_tag("Jazz")
    body = assert_error(editor.post(f"{API}/tags", {"name": "jazz"}), 400, "term_exists")
    assert body["data"] == {"status": 400, "term_id": existing.pk}


def test_duplicate_category_name_at_the_same_level(editor):
    parent = make_category("Music")
    existing = make_category("Jazz", parent=parent)
    body = assert_error(editor.post(f"{API}/categories", {"name": "JAZZ", "parent": parent.pk}), 400, "term_exists")
    assert body["data"]["term_id"] == existing.pk


def test_same_category_name_under_another_parent_is_allowed(editor):
    make_category("Jazz", parent=make_category("Music"))
    response = editor.post(f"{API}/categories", {"name": "Jazz"})
    assert response.status_code == 201
    assert response.json()["slug"] == "jazz-2"


@pytest.mark.parametrize(
    "slug, allowed",
    [("jazz-club", True), ("jazz", False), ("taken", False), (None, False)],
    ids=["distinct-unused", "the-existing-slug", "used-by-another", "none"],
)
def test_duplicate_name_with_a_slug(editor, slug, allowed):
    make_tag("Jazz", slug="jazz")
    make_tag("Other", slug="taken")
    payload = {"name": "Jazz"} if slug is None else {"name": "Jazz", "slug": slug}
    response = editor.post(f"{API}/tags", payload)
    if allowed:
        assert response.status_code == 201
        assert response.json()["slug"] == slug
    else:
        assert_error(response, 400, "term_exists")


# --- update -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["post", "put", "patch"])
def test_update_changes_only_the_fields_sent(editor, method):
    parent = make_category("Music")
    category = make_category("Jazz", slug="jazz", description="Swing", parent=parent)
    make_event(categories=[category])
    response = getattr(editor, method)(f"{API}/categories/{category.pk}", {"description": "Bebop"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["name"], body["slug"], body["description"], body["parent"], body["count"]) == (
        "Jazz",
        "jazz",
        "Bebop",
        parent.pk,
        1,
    )


def test_method_override_to_patch(editor):
    tag = make_tag("Old")
    response = editor.post(
        f"{API}/tags/{tag.pk}?_method=PATCH", "name=New", content_type="application/x-www-form-urlencoded"
    )
    assert response.json()["name"] == "New"


def test_renaming_keeps_the_slug(editor):
    tag = make_tag("Old name")
    body = editor.post(f"{API}/tags/{tag.pk}", {"name": "New & improved"}).json()
    assert (body["name"], body["slug"]) == ("New &amp; improved", "old-name")


def test_update_slug(editor):
    tag = make_tag("Jazz")
    assert editor.post(f"{API}/tags/{tag.pk}", {"slug": "Smooth Jazz"}).json()["slug"] == "smooth-jazz"
    # Its own slug again is no conflict.
    assert editor.post(f"{API}/tags/{tag.pk}", {"slug": "smooth-jazz"}).status_code == 200


def test_duplicate_slug_on_update_is_400(editor):
    make_tag("Other", slug="taken")
    tag = make_tag("Mine", slug="mine")
    body = assert_error(editor.post(f"{API}/tags/{tag.pk}", {"slug": "taken"}), 400, "duplicate_term_slug")
    assert body["data"] == {"status": 400}
    assert Term.objects.get(pk=tag.pk).slug == "mine"


def test_slug_of_the_other_taxonomy_is_no_conflict(editor):
    make_category("Jazz", slug="jazz")
    tag = make_tag("Mine")
    assert editor.post(f"{API}/tags/{tag.pk}", {"slug": "jazz"}).json()["slug"] == "jazz"


def test_moving_a_category_gives_a_conflicting_slug_a_suffix(editor):
    make_category("Jazz", slug="jazz")
    category = make_category("Mine", slug="mine")
    parent = make_category("Music")
    body = editor.post(f"{API}/categories/{category.pk}", {"slug": "jazz", "parent": parent.pk}).json()
    assert (body["slug"], body["parent"]) == ("jazz-2", parent.pk)


def test_move_under_another_parent(editor):
    old, new = make_category("Old"), make_category("New")
    category = make_category("Moved", parent=old)
    body = editor.put(f"{API}/categories/{category.pk}", {"parent": new.pk}, format="json").json()
    assert body["parent"] == new.pk
    assert body["url"] == "http://testserver/events/category/new/moved/"


@pytest.mark.parametrize("target", ["itself", "child", "grandchild"])
def test_parent_cycles_are_refused(editor, target):
    top = make_category("Top")
    child = make_category("Child", parent=top)
    grandchild = make_category("Grandchild", parent=child)
    parent = {"itself": top, "child": child, "grandchild": grandchild}[target]
    assert_invalid(editor.post(f"{API}/categories/{top.pk}", {"parent": parent.pk}), "parent")
    assert Term.objects.get(pk=top.pk).parent_id is None


def test_a_parent_cycle_is_a_validation_error_before_permission(as_role):
    top = make_category("Top")
    child = make_category("Child", parent=top)
    assert_invalid(as_role("subscriber").post(f"{API}/categories/{top.pk}", {"parent": child.pk}), "parent")


@pytest.mark.parametrize(
    "payload, param",
    [
        ({"name": ""}, "name"),
        ({"description": ""}, "description"),
        ({"slug": ""}, "slug"),
        ({"parent": "2389"}, "parent"),
        ({"parent": ""}, "parent"),
    ],
    ids=["empty-name", "empty-description", "empty-slug", "unknown-parent", "empty-parent"],
)
def test_update_validation(editor, payload, param):
    category = make_category("Kept")
    assert_invalid(editor.post(f"{API}/categories/{category.pk}", payload), param)
    assert Term.objects.get(pk=category.pk).name_en == "Kept"


def test_update_parent_on_tags_is_not_hierarchical(editor):
    tag = make_tag("Flat")
    assert_error(
        editor.post(f"{API}/tags/{tag.pk}", {"parent": make_category("C").pk}), 400, "rest_taxonomy_not_hierarchical"
    )


@pytest.mark.parametrize("role", [None, "subscriber", "editor"], ids=["anonymous", "subscriber", "editor"])
@pytest.mark.parametrize("method", ["post", "delete"], ids=["update", "delete"])
def test_unknown_id_is_400_before_permission(api, as_role, role, method):
    client = as_role(role) if role else api
    tag = make_tag("A tag")
    for path in ("/categories/2389", f"/categories/{tag.pk}"):
        assert_invalid(getattr(client, method)(f"{API}{path}", {"name": "x"}), "id")


def test_update_in_a_language_writes_only_that_language(editor, api):
    tag = make_tag("Evening")
    assert editor.post(f"/zh-hant{API}/tags/{tag.pk}", {"name": "晚間"}).status_code == 200
    stored = Term.objects.get(pk=tag.pk)
    assert (stored.name_en, stored.name_zh_hant, stored.slug) == ("Evening", "晚間", "evening")


def test_update_does_not_touch_events(editor):
    tag = make_tag("Jazz")
    event = make_event(tags=[tag])
    editor.post(f"{API}/tags/{tag.pk}", {"name": "Jazz and blues"})
    assert list(Event.objects.get(pk=event.pk).terms.values_list("pk", flat=True)) == [tag.pk]


# --- delete -----------------------------------------------------------------------------------------


def test_delete_answers_the_term_as_it_was(editor, api):
    category = make_category("Jazz", description="Swing")
    make_event(categories=[category])
    before = api.get(f"{API}/categories/{category.pk}").json()
    response = editor.delete(f"{API}/categories/{category.pk}")
    assert response.status_code == 200
    assert response.json() == before
    assert not Term.objects.filter(pk=category.pk).exists()


def test_delete_again_is_400(editor):
    tag = make_tag("Gone")
    assert editor.delete(f"{API}/tags/{tag.pk}").status_code == 200
    assert_invalid(editor.delete(f"{API}/tags/{tag.pk}"), "id")


def test_delete_unlinks_events_and_keeps_them(editor, api):
    doomed, kept = make_tag("Doomed"), make_tag("Kept")
    event = make_event(tags=[doomed, kept])
    editor.delete(f"{API}/tags/{doomed.pk}")
    assert [tag["name"] for tag in api.get(f"{API}/events/{event.pk}").json()["tags"]] == ["Kept"]


def test_delete_moves_children_up_to_the_parent(editor, api):
    top = make_category("Top")
    middle = make_category("Middle", parent=top)
    child = make_category("Child", parent=middle)
    orphan_parent = make_category("Root child")
    grandchild = make_category("Leaf", parent=orphan_parent)
    editor.delete(f"{API}/categories/{middle.pk}")
    assert api.get(f"{API}/categories/{child.pk}").json()["parent"] == top.pk
    editor.delete(f"{API}/categories/{orphan_parent.pk}")
    body = api.get(f"{API}/categories/{grandchild.pk}").json()
    assert body["parent"] == 0
    assert "up" not in body["urls"]


def test_delete_through_the_method_override(editor):
    tag = make_tag("Gone")
    response = editor.post(f"{API}/tags/{tag.pk}", HTTP_X_HTTP_METHOD_OVERRIDE="DELETE")
    assert response.status_code == 200
    assert not Term.objects.filter(pk=tag.pk).exists()


def test_a_name_in_another_language_is_a_duplicate_too(editor):
    existing = make_category("Classical", name_zh_hans="古典")
    body = assert_error(editor.post(f"/zh-hant{API}/categories", {"name": "古典"}), 400, "term_exists")
    assert body["data"]["term_id"] == existing.pk


def test_create_in_a_language_fills_english(editor):
    body = editor.post(f"/zh-hans{API}/tags", {"name": "户外", "description": "室外活动"}).json()
    stored = Term.objects.get(pk=body["id"])
    assert (stored.name_en, stored.name_zh_hans, stored.description_en) == ("户外", "户外", "室外活动")
    assert stored.name_zh_hant in (None, "")


@pytest.mark.parametrize("name", ["x" * 201, "&" * 50], ids=["too-long", "too-long-once-escaped"])
def test_name_longer_than_the_column_is_invalid(editor, name):
    tag = make_tag("Kept")
    response = editor.post(f"{API}/tags", {"name": name})
    assert_invalid(response, "name")
    assert response.json()["data"]["params"]["name"] == "name is longer than 200 characters."
    assert_invalid(editor.post(f"{API}/tags/{tag.pk}", {"name": name}), "name")


def test_name_of_exactly_200_characters_fits(editor):
    assert editor.post(f"{API}/tags", {"name": "x" * 200}).json()["name"] == "x" * 200
