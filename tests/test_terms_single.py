"""`GET /categories/{id}` and `GET /tags/{id}`: public reads of one term of the route's taxonomy (docs/contract/terms.md §3)."""

import pytest
from django.utils import translation

from .conftest import API
from .factories import make_category, make_tag

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_between_tests():
    # A language-prefixed request leaves its language active in the thread; factories write in it.
    translation.activate("en")
    yield
    translation.activate("en")


@pytest.mark.parametrize(
    "collection, build", [("categories", make_category), ("tags", make_tag)], ids=["category", "tag"]
)
def test_read_by_id_is_public(any_role, api, collection, build):
    term = build("Found")
    for client in (api, any_role):
        response = client.get(f"{API}/{collection}/{term.pk}")
        assert response.status_code == 200
        assert (response.json()["id"], response.json()["name"]) == (term.pk, "Found")


def test_unused_term_is_readable_although_lists_hide_it(api):
    tag = make_tag("Unused")
    assert api.get(f"{API}/tags/{tag.pk}").json()["count"] == 0


@pytest.mark.parametrize(
    "collection, target",
    [("categories", "tag"), ("tags", "category"), ("categories", "unknown"), ("tags", "unknown")],
    ids=["tag-on-categories", "category-on-tags", "unknown-category", "unknown-tag"],
)
def test_id_of_another_kind_or_unknown_is_invalid(api, collection, target):
    records = {"tag": make_tag("T").pk, "category": make_category("C").pk, "unknown": 2389}
    response = api.get(f"{API}/{collection}/{records[target]}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == ["id"]


@pytest.mark.parametrize(
    "path",
    ["/categories/foo", "/tags/foo%20bar", "/tags/-1", "/categories/1.5"],
    ids=["word", "space", "negative", "decimal"],
)
def test_non_digit_ids_match_no_route(api, path):
    response = api.get(f"{API}{path}")
    assert response.status_code == 404
    assert response.json()["code"] == "rest_no_route"


@pytest.mark.parametrize("term_id", ["0", "99999999999999999999999"], ids=["zero", "beyond-64-bits"])
def test_ids_that_name_no_term_are_invalid(api, term_id):
    response = api.get(f"{API}/categories/{term_id}")
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_param"


def test_route_is_case_insensitive_with_optional_trailing_slash(api):
    tag = make_tag("Any")
    assert api.get(f"{API}/TAGS/{tag.pk}/").json()["id"] == tag.pk


def test_head_serves_the_headers_without_a_body(api):
    tag = make_tag("Any")
    response = api.head(f"{API}/tags/{tag.pk}")
    assert response.status_code == 200
    assert response.content == b""


def test_allow_header_lists_what_the_caller_may_do(api, as_role):
    category = make_category("Any")
    assert api.get(f"{API}/categories/{category.pk}")["Allow"] == "GET"
    allowed = as_role("author").get(f"{API}/categories/{category.pk}")["Allow"]
    assert set(allowed.replace(" ", "").split(",")) == {"GET", "POST", "PUT", "PATCH", "DELETE"}


def test_translated_name_and_description_with_english_fallback(api):
    category = make_category("Classical", description="Old music", name_zh_hans="古典音乐")
    body = api.get(f"/zh-hans{API}/categories/{category.pk}").json()
    assert (body["name"], body["description"]) == ("古典音乐", "Old music")
    assert body["urls"]["self"] == f"http://testserver/zh-hans/wp-json/tribe/events/v1/categories/{category.pk}"
    assert api.get(f"{API}/categories/{category.pk}", {"wpml_language": "zh-hant"}).json()["name"] == "Classical"


def test_single_read_runs_a_fixed_number_of_queries(api, django_assert_max_num_queries):
    parent = None
    for depth in range(6):
        parent = make_category(f"Level {depth}", parent=parent)
    # Validation, the record with its count, and every category's (id, parent, slug) once.
    with django_assert_max_num_queries(3):
        body = api.get(f"{API}/categories/{parent.pk}").json()
    assert body["url"] == "http://testserver/events/category/level-0/level-1/level-2/level-3/level-4/level-5/"
