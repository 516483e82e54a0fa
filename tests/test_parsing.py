"""Request parsing: PHP bracket syntax, CSV lists and the truthiness rules (docs/contract/README.md §3)."""

import pytest

from events.queries.syntax import is_truthy, parse_query_string, php_filter_bool, split_list


@pytest.mark.parametrize(
    "query, expected",
    [
        ("status[0]=publish&status[1]=draft", {"status": ["publish", "draft"]}),
        ("key[]=a&key[]=b", {"key": ["a", "b"]}),
        ("venue[venue]=Hall&venue[city]=Rome", {"venue": {"venue": "Hall", "city": "Rome"}}),
        (
            "organizer[0][organizer]=A&organizer[1][id]=12",
            {"organizer": [{"organizer": "A"}, {"id": "12"}]},
        ),
        ("title=Hello+World&per_page=5", {"title": "Hello World", "per_page": "5"}),
        ("a[2]=x&a[0]=y", {"a": ["y", "x"]}),
        ("empty=", {"empty": ""}),
        ("a[1]=x&a[]=y", {"a": ["x", "y"]}),
    ],
    ids=[
        "indexed-list",
        "append-list",
        "object",
        "list-of-objects",
        "scalars",
        "ordered-by-key",
        "empty-value",
        "append-after-largest-key",
    ],
)
def test_bracket_syntax_decodes_like_json(query, expected):
    assert parse_query_string(query) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("12, 14", [12, 14]),
        ("12,,14,", [12, 14]),
        ([12, "14"], [12, 14]),
        (["a,b", "c"], ["a", "b", "c"]),
        ("%31%32,foo", [12, "foo"]),
        ("", []),
        (None, []),
        (7, [7]),
    ],
    ids=["csv", "empty-items", "list", "csv-inside-list", "url-encoded", "empty", "none", "number"],
)
def test_list_parameters(value, expected):
    assert split_list(value) == expected


@pytest.mark.parametrize("value", [True, 1, 2, "1", "true", "YES", "y", "on", "enable", "enabled"])
def test_truthy_values(value):
    assert is_truthy(value) is True


@pytest.mark.parametrize("value", [False, 0, "0", "false", "no", "", "off", None, "2"])
def test_falsy_values(value):
    assert is_truthy(value) is False


@pytest.mark.parametrize(
    "value, expected", [("1", True), ("on", True), ("yes", True), ("true", True), ("y", False), ("0", False)]
)
def test_strict_dates_uses_php_boolean_filter(value, expected):
    assert php_filter_bool(value) is expected


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["put", "patch"])
def test_multipart_bodies_are_read_for_every_body_method(as_role, method):
    """Django parses multipart only for POST; PUT/PATCH multipart parameters must not vanish."""
    from .conftest import API
    from .factories import make_category

    client = as_role("editor")
    category = make_category("Concerts")
    response = getattr(client, method)(
        f"{API}/categories/{category.pk}", {"description": "Live music"}, format="multipart"
    )
    assert response.status_code == 200
    assert response.json()["description"] == "Live music"
