"""Domain refusals (events.exceptions) as the API answers them: one mapping, the contract's codes, statuses and data."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from events import exceptions
from events.api.errors import from_domain
from events.models import Taxonomy

from .factories import make_user

pytestmark = pytest.mark.django_db


def answer(code, message, status, **data):
    return status, {"code": code, "message": message, "data": {"status": status, **data}}


CASES = {
    "invalid-value": (
        exceptions.InvalidValue("start_date"),
        answer(
            "rest_invalid_param",
            "Invalid parameter(s): start_date",
            400,
            params={"start_date": "Invalid parameter."},
            details=[],
        ),
    ),
    "invalid-value-with-reason": (
        exceptions.InvalidValue("image", "The image URL is not valid."),
        answer(
            "rest_invalid_param",
            "Invalid parameter(s): image",
            400,
            params={"image": "The image URL is not valid."},
            details=[],
        ),
    ),
    "term-exists-category": (
        exceptions.TermExists(Taxonomy.CATEGORY, 12),
        answer("term_exists", "A term with the name provided already exists with this parent.", 400, term_id=12),
    ),
    "term-exists-tag": (
        exceptions.TermExists(Taxonomy.TAG, 13),
        answer("term_exists", "A term with the name provided already exists in this taxonomy.", 400, term_id=13),
    ),
    "slug-taken": (
        exceptions.SlugTaken("jazz"),
        answer("duplicate_term_slug", "The slug “jazz” is already in use by another term.", 400),
    ),
    "not-hierarchical": (
        exceptions.NotHierarchical(),
        answer("rest_taxonomy_not_hierarchical", "Can not set resource parent, taxonomy is not hierarchical.", 400),
    ),
    "could-not-delete-event": (
        exceptions.CouldNotWrite("event", exceptions.DELETE),
        answer("could-not-delete-event", "The event could not be moved to the trash.", 500),
    ),
    "could-not-create-venue": (
        exceptions.CouldNotWrite("venue", exceptions.CREATE),
        answer("could-not-create-venue", "No venue could be created from the data given.", 400),
    ),
    "could-not-update-organizer": (
        exceptions.CouldNotWrite("organizer", exceptions.UPDATE),
        answer("could-not-update-organizer", "The organizer could not be updated.", 400),
    ),
    "could-not-delete-venue": (
        exceptions.CouldNotWrite("venue", exceptions.DELETE),
        answer("could-not-delete-venue", "The venue could not be moved to the trash.", 500),
    ),
    "term-cannot-be-deleted": (
        exceptions.CouldNotWrite("term", exceptions.DELETE),
        answer("rest_cannot_delete", "The term cannot be deleted.", 500),
    ),
    "duplicate-application-name": (
        exceptions.DuplicateApplicationName("CLI"),
        answer("application_password_duplicate_name", "Each application name should be unique.", 409),
    ),
}


@pytest.mark.parametrize("error, expected", list(CASES.values()), ids=list(CASES))
def test_each_domain_refusal_has_the_contracts_code_status_and_data(error, expected):
    with translation.override("en"):
        refusal = from_domain(error, make_user("editor"))
        assert (refusal.status, refusal.as_body()) == expected


@pytest.mark.parametrize("user, status", [(AnonymousUser(), 401), ("editor", 403)], ids=["anonymous", "signed-in"])
def test_not_permitted_is_401_or_403_by_caller(user, status):
    user = make_user(user) if isinstance(user, str) else user
    with translation.override("en"):
        body = from_domain(exceptions.NotPermitted(), user).as_body()
    assert body == {
        "code": "rest_forbidden",
        "message": "Sorry, you are not allowed to do that.",
        "data": {"status": status},
    }


def test_the_message_is_read_in_the_language_it_is_shown_in():
    error = exceptions.CouldNotWrite("event", exceptions.DELETE)
    with translation.override("zh-hant"):
        assert str(error) != "The event could not be moved to the trash."
        assert from_domain(error, None).as_body()["message"] == str(error)
