"""A NUL character in a list's text parameter is a 400 on both databases, never a database error."""

import pytest

from .conftest import API

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("collection", ["events", "venues", "organizers", "categories", "tags"])
def test_a_nul_in_search_is_an_invalid_parameter(api, collection):
    response = api.get(f"{API}/{collection}", {"search": "a\x00b"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert "search" in body["data"]["params"]
