"""Golden shapes of a category or tag: the standalone record (docs/contract/terms.md §1) and the one embedded in events."""

import pytest
from django.utils import translation

from .conftest import API
from .factories import make_category, make_event, make_tag

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_between_tests():
    # A language-prefixed request leaves its language active in the thread; factories write in it.
    translation.activate("en")
    yield
    translation.activate("en")


ROOT = "http://testserver/wp-json/tribe/events/v1"


@pytest.fixture
def family():
    grandparent = make_category("Music", slug="music")
    parent = make_category("Foo parent", slug="foo-parent", parent=grandparent)
    child = make_category("foo", slug="foo-bar", parent=parent, description="Term description")
    return grandparent, parent, child


def test_category_with_ancestors(api, family):
    grandparent, parent, child = family
    make_event(categories=[child])
    make_event(categories=[child])
    body = api.get(f"{API}/categories/{child.pk}").json()
    expected = {
        "id": child.pk,
        "count": 2,
        "description": "Term description",
        "name": "foo",
        "slug": "foo-bar",
        "taxonomy": "tribe_events_cat",
        "parent": parent.pk,
        "meta": [],
        "url": "http://testserver/events/category/music/foo-parent/foo-bar/",
        "urls": {
            "self": f"{ROOT}/categories/{child.pk}",
            "collection": f"{ROOT}/categories",
            "up": f"{ROOT}/categories/{parent.pk}",
        },
    }
    assert body == expected
    # Key order is part of the contract (clients and golden files compare serialisations).
    assert list(body) == list(expected)


def test_top_level_category_has_parent_zero_and_no_up_link(api):
    category = make_category("Jazz", description="")
    body = api.get(f"{API}/categories/{category.pk}").json()
    assert body == {
        "id": category.pk,
        "count": 0,
        "description": "",
        "name": "Jazz",
        "slug": "jazz",
        "taxonomy": "tribe_events_cat",
        "parent": 0,
        "meta": [],
        "url": "http://testserver/events/category/jazz/",
        "urls": {"self": f"{ROOT}/categories/{category.pk}", "collection": f"{ROOT}/categories"},
    }


def test_tag_has_no_parent_key(api):
    tag = make_tag("Open air", description="Outdoors")
    make_event(tags=[tag])
    body = api.get(f"{API}/tags/{tag.pk}").json()
    expected = {
        "id": tag.pk,
        "count": 1,
        "description": "Outdoors",
        "name": "Open air",
        "slug": "open-air",
        "taxonomy": "post_tag",
        "meta": [],
        "url": "http://testserver/tag/open-air/",
        "urls": {"self": f"{ROOT}/tags/{tag.pk}", "collection": f"{ROOT}/tags"},
    }
    assert body == expected
    assert list(body) == list(expected)


def test_meta_is_an_empty_json_array(api):
    tag = make_tag("Folk")
    assert b'"meta":[]' in api.get(f"{API}/tags/{tag.pk}").content.replace(b" ", b"")


def test_list_items_have_the_standalone_shape(api, family):
    _, parent, child = family
    make_event(categories=[child])
    single = api.get(f"{API}/categories/{child.pk}").json()
    listed = api.get(f"{API}/categories", {"include": child.pk}).json()["categories"]
    assert listed == [single]


def test_embedded_in_an_event(api, family):
    _, parent, child = family
    tag = make_tag("Evening")
    event = make_event(categories=[child], tags=[tag])
    make_event(tags=[tag], status="draft")
    body = api.get(f"{API}/events/{event.pk}").json()
    expected_category = {
        "name": "foo",
        "slug": "foo-bar",
        "term_group": 0,
        "term_taxonomy_id": child.pk,
        "taxonomy": "tribe_events_cat",
        "description": "Term description",
        "parent": parent.pk,
        "count": 1,
        "filter": "raw",
        "id": child.pk,
        "urls": {
            "self": f"{ROOT}/categories/{child.pk}",
            "collection": f"{ROOT}/categories",
            "up": f"{ROOT}/categories/{parent.pk}",
        },
    }
    expected_tag = {
        "name": "Evening",
        "slug": "evening",
        "term_group": 0,
        "term_taxonomy_id": tag.pk,
        "taxonomy": "post_tag",
        "description": "",
        "parent": 0,
        "count": 1,
        "filter": "raw",
        "id": tag.pk,
        "urls": {"self": f"{ROOT}/tags/{tag.pk}", "collection": f"{ROOT}/tags"},
    }
    assert body["categories"] == [expected_category]
    assert body["tags"] == [expected_tag]
    assert [list(item) for item in body["categories"]] == [list(expected_category)]


def test_name_is_returned_as_stored(api):
    tag = make_tag("Rock &amp; roll", slug="rock-roll")
    assert api.get(f"{API}/tags/{tag.pk}").json()["name"] == "Rock &amp; roll"


def test_chinese_slug_is_percent_encoded_in_the_url(api):
    category = make_category("爵士")
    body = api.get(f"{API}/categories/{category.pk}").json()
    assert body["slug"] == "%e7%88%b5%e5%a3%ab"
    assert body["url"] == "http://testserver/events/category/%e7%88%b5%e5%a3%ab/"
