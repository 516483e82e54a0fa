"""`GET /categories` and `GET /tags`: envelope, paging, every filter and ordering (docs/contract/terms.md §2)."""

import pytest
from django.utils import translation

from .conftest import API
from .factories import make_category, make_event, make_tag, make_venue

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_between_tests():
    # A language-prefixed request leaves its language active in the thread; factories write in it.
    translation.activate("en")
    yield
    translation.activate("en")


ROOT = "http://testserver/wp-json/tribe/events/v1"


def names(response, key="categories"):
    assert response.status_code == 200, response.content
    return [term["name"] for term in response.json()[key]]


def assert_invalid(response, param):
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == [param]


@pytest.fixture
def used_categories():
    """Five categories each carried by a published event, created out of name order."""
    terms = [make_category(name) for name in ("Delta", "alpha", "Echo", "charlie", "Bravo")]
    for term in terms:
        make_event(categories=[term])
    return {term.name: term for term in terms}


# --- envelope and paging ----------------------------------------------------------------------------


def test_envelope_key_order_totals_and_headers(api, used_categories):
    response = api.get(f"{API}/categories", {"per_page": 2, "page": 2})
    body = response.json()
    assert list(body) == ["rest_url", "total", "total_pages", "categories", "next_rest_url", "previous_rest_url"]
    assert (body["total"], body["total_pages"]) == (5, 3)
    assert (response["X-TEC-Total"], response["X-TEC-TotalPages"]) == ("5", "3")
    assert [term["name"] for term in body["categories"]] == ["charlie", "Delta"]


def test_tags_use_the_tags_key(api):
    make_event(tags=[make_tag("Outdoor")])
    body = api.get(f"{API}/tags").json()
    assert list(body) == ["rest_url", "total", "total_pages", "tags"]
    assert body["rest_url"] == f"{ROOT}/tags/"


@pytest.mark.parametrize(
    "page, expected_next, expected_previous",
    [
        (1, f"{ROOT}/categories/?per_page=2&page=2", None),
        (2, f"{ROOT}/categories/?per_page=2&page=3", f"{ROOT}/categories/?per_page=2"),
        (3, None, f"{ROOT}/categories/?per_page=2&page=2"),
    ],
    ids=["first", "middle", "last"],
)
def test_page_links(api, used_categories, page, expected_next, expected_previous):
    body = api.get(f"{API}/categories", {"per_page": 2, "page": page}).json()
    assert body["rest_url"] == f"{ROOT}/categories/?per_page=2"
    assert body.get("next_rest_url") == expected_next
    assert body.get("previous_rest_url") == expected_previous


def test_bare_request_links_have_no_query(api, used_categories):
    body = api.get(f"{API}/categories").json()
    assert body["rest_url"] == f"{ROOT}/categories/"
    assert "next_rest_url" not in body and "previous_rest_url" not in body


def test_links_keep_the_other_arguments_percent_encoded(api, used_categories):
    body = api.get(
        f"{API}/categories", {"per_page": 1, "search": "ha", "orderby": "slug", "order": "de sc", "hide_empty": "1"}
    ).json()
    assert (
        body["next_rest_url"]
        == f"{ROOT}/categories/?per_page=1&search=ha&order=de%20sc&orderby=slug&hide_empty=1&page=2"
    )


def test_following_next_links_walks_every_term_once(api, used_categories):
    url, seen = f"{API}/categories?per_page=2&orderby=id", []
    while url:
        body = api.get(url).json()
        seen.extend(term["name"] for term in body["categories"])
        url = body.get("next_rest_url")
    assert seen == ["Delta", "alpha", "Echo", "charlie", "Bravo"]


def test_page_beyond_the_last_is_an_empty_200(api, used_categories):
    response = api.get(f"{API}/categories", {"page": 9})
    assert response.status_code == 200
    body = response.json()
    assert body["categories"] == []
    assert (body["total"], body["total_pages"]) == (5, 1)
    assert body["previous_rest_url"] == f"{ROOT}/categories/?page=8"
    assert "next_rest_url" not in body


def test_no_terms_at_all(api):
    response = api.get(f"{API}/tags")
    assert response.json() == {"rest_url": f"{ROOT}/tags/", "total": 0, "total_pages": 0, "tags": []}
    assert response["X-TEC-TotalPages"] == "0"


def test_per_page_above_the_maximum_is_clamped(api):
    for number in range(55):
        make_tag(f"Tag {number:02d}")
    body = api.get(f"{API}/tags", {"per_page": 100, "hide_empty": 0}).json()
    assert len(body["tags"]) == 50
    assert body["total_pages"] == 2
    assert body["next_rest_url"] == f"{ROOT}/tags/?per_page=50&hide_empty=0&page=2"


def test_default_page_size_is_ten(api):
    for number in range(12):
        make_tag(f"Tag {number:02d}")
    assert len(api.get(f"{API}/tags", {"hide_empty": "false"}).json()["tags"]) == 10


@pytest.mark.parametrize(
    "param, value",
    [
        ("page", "0"),
        ("page", "-1"),
        ("page", "foo"),
        ("per_page", "0"),
        ("per_page", "foo"),
        ("search", ""),
        ("order", ""),
        ("orderby", ""),
        ("hide_empty", "yes"),
        ("hide_empty", ""),
        ("slug", ""),
        ("wpml_language", "fr"),
    ],
    ids=lambda value: value if value else "empty",
)
@pytest.mark.parametrize("collection", ["categories", "tags"])
def test_invalid_values_are_refused(api, collection, param, value):
    assert_invalid(api.get(f"{API}/{collection}", {param: value}), param)


# --- hide_empty -------------------------------------------------------------------------------------


def test_unused_and_draft_only_terms_are_hidden_by_default(api):
    make_event(categories=[make_category("Published")])
    make_category("Unused")
    make_event(categories=[make_category("Draft only")], status="draft")
    assert names(api.get(f"{API}/categories")) == ["Published"]


@pytest.mark.parametrize("value", ["0", "false", "FALSE"], ids=["zero", "false", "upper-false"])
def test_hide_empty_off_lists_every_term(api, value):
    make_event(categories=[make_category("Published")])
    make_category("Unused")
    assert names(api.get(f"{API}/categories", {"hide_empty": value})) == ["Published", "Unused"]


def test_hide_empty_on_explicitly(api):
    make_event(tags=[make_tag("Used")])
    make_tag("Unused")
    assert names(api.get(f"{API}/tags", {"hide_empty": "true"}), "tags") == ["Used"]


# --- search -----------------------------------------------------------------------------------------


def test_search_matches_name_or_slug_case_insensitively(api):
    make_category("Foo", slug="foo")
    make_category("Other", slug="foo-bar")
    make_category("Unrelated", slug="unrelated")
    assert names(api.get(f"{API}/categories", {"search": "FOO", "hide_empty": 0})) == ["Foo", "Other"]


def test_search_combines_with_hide_empty(api):
    make_event(tags=[make_tag("Jazz club")])
    make_tag("Jazz bar")
    assert names(api.get(f"{API}/tags", {"search": "jazz"}), "tags") == ["Jazz club"]


def test_search_in_chinese_falls_back_to_english(api):
    make_category("Classical", name_zh_hant="古典")
    make_category("Brass")
    found = api.get(f"/zh-hant{API}/categories", {"search": "brass", "hide_empty": 0}).json()["categories"]
    assert [term["name"] for term in found] == ["Brass"]
    found = api.get(f"/zh-hant{API}/categories", {"search": "古典", "hide_empty": 0}).json()["categories"]
    assert [term["name"] for term in found] == ["古典"]


# --- include and exclude ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "encode",
    [
        lambda ids: {"include": ",".join(map(str, ids))},
        lambda ids: {"include[]": ids},
    ],
    ids=["csv", "brackets"],
)
def test_include_by_id(api, used_categories, encode):
    wanted = [used_categories["Echo"].pk, used_categories["alpha"].pk]
    assert names(api.get(f"{API}/categories", encode(wanted))) == ["alpha", "Echo"]


def test_include_accepts_slugs(api, used_categories):
    assert names(api.get(f"{API}/categories", {"include": f"echo,{used_categories['alpha'].pk}"})) == ["alpha", "Echo"]


def test_exclude(api, used_categories):
    excluded = f"{used_categories['alpha'].pk},bravo"
    assert names(api.get(f"{API}/categories", {"exclude": excluded})) == ["charlie", "Delta", "Echo"]


def test_include_and_exclude_combine(api, used_categories):
    include = ",".join(str(used_categories[name].pk) for name in ("alpha", "Bravo", "Echo"))
    assert names(api.get(f"{API}/categories", {"include": include, "exclude": used_categories["Bravo"].pk})) == [
        "alpha",
        "Echo",
    ]


@pytest.mark.parametrize("param", ["include", "exclude"])
@pytest.mark.parametrize(
    "value",
    ["2389", "no-such-slug", "{tag}", "{category},2389"],
    ids=["unknown-id", "unknown-slug", "other-taxonomy", "one-unknown"],
)
def test_include_exclude_need_terms_of_this_taxonomy(api, param, value):
    category, tag = make_category("Kept"), make_tag("Tagged")
    assert_invalid(api.get(f"{API}/categories", {param: value.format(category=category.pk, tag=tag.pk)}), param)


def test_include_ignores_hide_empty_only_when_asked(api):
    unused = make_tag("Unused")
    assert names(api.get(f"{API}/tags", {"include": unused.pk}), "tags") == []
    assert names(api.get(f"{API}/tags", {"include": unused.pk, "hide_empty": 0}), "tags") == ["Unused"]


# --- order and orderby ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query, expected",
    [
        ({}, ["alpha", "Bravo", "charlie", "Delta", "Echo"]),
        ({"order": "desc"}, ["Echo", "Delta", "charlie", "Bravo", "alpha"]),
        ({"order": "DESC"}, ["Echo", "Delta", "charlie", "Bravo", "alpha"]),
        ({"order": "ASC"}, ["alpha", "Bravo", "charlie", "Delta", "Echo"]),
        ({"order": "sideways"}, ["Echo", "Delta", "charlie", "Bravo", "alpha"]),
        ({"orderby": "id"}, ["Delta", "alpha", "Echo", "charlie", "Bravo"]),
        ({"orderby": "term_id", "order": "desc"}, ["Bravo", "charlie", "Echo", "alpha", "Delta"]),
        ({"orderby": "slug", "order": "desc"}, ["Echo", "Delta", "charlie", "Bravo", "alpha"]),
        ({"orderby": "no-such-field"}, ["alpha", "Bravo", "charlie", "Delta", "Echo"]),
        ({"orderby": "none", "order": "desc"}, ["Delta", "alpha", "Echo", "charlie", "Bravo"]),
        ({"orderby": "term_group"}, ["Delta", "alpha", "Echo", "charlie", "Bravo"]),
        ({"orderby": "parent"}, ["Delta", "alpha", "Echo", "charlie", "Bravo"]),
    ],
    ids=[
        "default-name-case-insensitive",
        "desc",
        "desc-any-case",
        "asc-any-case",
        "other-word-is-descending",
        "id",
        "term-id-desc",
        "slug-desc",
        "unknown-is-name",
        "none",
        "term-group-ties-by-id",
        "parent-ties-by-id",
    ],
)
def test_ordering(api, used_categories, query, expected):
    assert names(api.get(f"{API}/categories", query)) == expected


def test_orderby_count(api):
    busy, quiet, middle = make_tag("Busy"), make_tag("Quiet"), make_tag("Middle")
    for tag, events in ((busy, 3), (quiet, 1), (middle, 2)):
        for _ in range(events):
            make_event(tags=[tag])
    assert names(api.get(f"{API}/tags", {"orderby": "count"}), "tags") == ["Quiet", "Middle", "Busy"]
    assert names(api.get(f"{API}/tags", {"orderby": "count", "order": "desc"}), "tags") == ["Busy", "Middle", "Quiet"]


def test_orderby_description(api):
    make_tag("One", description="b")
    make_tag("Two", description="A")
    make_tag("Three", description="c")
    assert names(api.get(f"{API}/tags", {"orderby": "description", "hide_empty": 0}), "tags") == ["Two", "One", "Three"]


def test_orderby_parent(api):
    top = make_category("Top")
    make_category("Child", parent=top)
    make_category("Another top")
    ordered = names(api.get(f"{API}/categories", {"orderby": "parent", "order": "desc", "hide_empty": 0}))
    assert ordered == ["Child", "Top", "Another top"]


def test_orderby_include_keeps_the_given_order(api, used_categories):
    include = ",".join(str(used_categories[name].pk) for name in ("Echo", "alpha", "charlie"))
    assert names(api.get(f"{API}/categories", {"include": include, "orderby": "include"})) == [
        "Echo",
        "alpha",
        "charlie",
    ]


def test_orderby_include_without_include_sorts_by_name(api, used_categories):
    assert names(api.get(f"{API}/categories", {"orderby": "include"})) == ["alpha", "Bravo", "charlie", "Delta", "Echo"]


# --- parent -----------------------------------------------------------------------------------------


def test_parent_lists_direct_children_only(api):
    top = make_category("Top")
    child = make_category("Child", parent=top)
    make_category("Grandchild", parent=child)
    make_category("Sibling", parent=top)
    assert names(api.get(f"{API}/categories", {"parent": top.pk, "hide_empty": 0})) == ["Child", "Sibling"]


@pytest.mark.parametrize("value", ["0", "", "2389", "foo", "{tag}"], ids=["zero", "empty", "unknown", "word", "tag-id"])
def test_parent_must_be_an_existing_category(api, value):
    tag = make_tag("Tagged")
    assert_invalid(api.get(f"{API}/categories", {"parent": value.format(tag=tag.pk)}), "parent")


def test_parent_is_not_a_tag_filter(api):
    make_event(tags=[make_tag("Outdoor")])
    assert names(api.get(f"{API}/tags", {"parent": "2389"}), "tags") == ["Outdoor"]


# --- post / event -----------------------------------------------------------------------------------


def test_post_lists_the_terms_of_that_event(api):
    jazz, rock, folk = make_tag("Jazz"), make_tag("Rock"), make_tag("Folk")
    event = make_event(tags=[jazz, rock])
    make_event(tags=[folk])
    assert names(api.get(f"{API}/tags", {"post": event.pk}), "tags") == ["Jazz", "Rock"]
    assert names(api.get(f"{API}/tags", {"event": event.pk}), "tags") == ["Jazz", "Rock"]


def test_event_wins_over_post(api):
    jazz, folk = make_tag("Jazz"), make_tag("Folk")
    first, second = make_event(tags=[jazz]), make_event(tags=[folk])
    assert names(api.get(f"{API}/tags", {"post": first.pk, "event": second.pk}), "tags") == ["Folk"]


def test_post_still_honours_hide_empty(api):
    used, draft_only = make_category("Used"), make_category("Draft only")
    make_event(categories=[used])
    draft = make_event(categories=[used, draft_only], status="draft")
    assert names(api.get(f"{API}/categories", {"post": draft.pk})) == ["Used"]
    assert names(api.get(f"{API}/categories", {"post": draft.pk, "hide_empty": 0})) == ["Draft only", "Used"]


@pytest.mark.parametrize("param", ["post", "event"])
@pytest.mark.parametrize("value", ["", "23", "foo", "{venue}"], ids=["empty", "unknown", "word", "venue-id"])
def test_post_must_be_an_existing_event(api, param, value):
    venue = make_venue("Hall")
    assert_invalid(api.get(f"{API}/categories", {param: value.format(venue=venue.pk)}), param)


# --- slug and offset --------------------------------------------------------------------------------


def test_slug_finds_exactly_that_term(api, used_categories):
    assert names(api.get(f"{API}/categories", {"slug": "echo"})) == ["Echo"]
    assert names(api.get(f"{API}/categories", {"slug": "ech"})) == []
    assert names(api.get(f"{API}/categories", {"slug": "echo,alpha"})) == []


def test_offset_on_tags_skips_terms(api):
    for name in ("A", "B", "C", "D"):
        make_event(tags=[make_tag(name)])
    body = api.get(f"{API}/tags", {"offset": 1, "per_page": 2}).json()
    assert [term["name"] for term in body["tags"]] == ["B", "C"]
    assert body["total"] == 4


@pytest.mark.parametrize("value", ["foo", "-1", "0"], ids=["word", "negative", "zero"])
def test_offset_that_is_not_a_count_is_ignored(api, value):
    for name in ("A", "B"):
        make_event(tags=[make_tag(name)])
    assert names(api.get(f"{API}/tags", {"offset": value}), "tags") == ["A", "B"]


# --- combination and cost ---------------------------------------------------------------------------


def test_filters_combine_with_and(api):
    top = make_category("Top")
    make_category("Jazz child", parent=top)
    make_category("Rock child", parent=top)
    make_category("Jazz elsewhere")
    assert names(api.get(f"{API}/categories", {"parent": top.pk, "search": "jazz", "hide_empty": 0})) == ["Jazz child"]


# A page of stored records: the page with its total, then the records from the rendering store.
STORED_LIST_QUERIES = 2
# A first read also builds the records it did not find (categories: with the (id, parent, slug) of
# every category for the ancestor URLs) and stores them: more queries, as many for one row as for fifty.
FIRST_READ_QUERIES = 8


@pytest.mark.parametrize("per_page", [1, 50], ids=["one-row", "fifty-rows"])
@pytest.mark.parametrize("collection", ["categories", "tags"])
def test_list_runs_a_constant_number_of_queries(api, django_assert_max_num_queries, collection, per_page):
    root = make_category("Root")
    for number in range(50):
        category = make_category(f"Category {number:02d}", parent=root if number % 2 else None)
        grandchild = make_category(f"Deep {number:02d}", parent=category)
        make_event(categories=[category, grandchild], tags=[make_tag(f"Tag {number:02d}")])
    query = {"per_page": per_page, "search": "g"}
    with django_assert_max_num_queries(FIRST_READ_QUERIES):
        first = api.get(f"{API}/{collection}", query)
    with django_assert_max_num_queries(STORED_LIST_QUERIES):
        response = api.get(f"{API}/{collection}", query)
    assert len(response.json()[collection]) == per_page
    assert response.content == first.content


@pytest.mark.parametrize("per_page", [1, 50], ids=["one-row", "fifty-rows"])
def test_validated_filters_cost_no_query_per_row(api, django_assert_max_num_queries, per_page):
    event = make_event(tags=[make_tag(f"Tag {number:02d}") for number in range(50)])
    include = ",".join(str(pk) for pk in event.terms.values_list("pk", flat=True))
    query = {"per_page": per_page, "post": event.pk, "include": include, "orderby": "count"}
    api.get(f"{API}/tags", query)  # stores the records
    # Validating `post` and `include` costs one query each, whatever the page size.
    with django_assert_max_num_queries(STORED_LIST_QUERIES + 2):
        response = api.get(f"{API}/tags", query)
    assert len(response.json()["tags"]) == per_page
