"""Domain refusals (events.exceptions) as the API answers them: one mapping, the contract's codes, statuses and data."""
import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from events import exceptions
from events.api.errors import from_domain
from events.models import Taxonomy

from .factories import make_user

pytestmark = pytest.mark.django_db

CASES = [
    pytest.param(exceptions.InvalidValue("start_date"), 400,
                 {"code": "rest_invalid_param", "message": "Invalid parameter(s): start_date",
                  "data": {"status": 400, "params": {"start_date": "Invalid parameter."}, "details": []}},
                 id="invalid-value"),
    pytest.param(exceptions.InvalidValue("image", "The image URL is not valid."), 400,
                 {"code": "rest_invalid_param", "message": "Invalid parameter(s): image",
                  "data": {"status": 400, "params": {"image": "The image URL is not valid."}, "details": []}},
                 id="invalid-value-with-reason"),
    pytest.param(exceptions.TermExists(Taxonomy.CATEGORY, 12), 400,
                 {"code": "term_exists", "message": "A term with the name provided already exists with this parent.",
                  "data": {"status": 400, "term_id": 12}}, id="term-exists-category"),
    pytest.param(exceptions.TermExists(Taxonomy.TAG, 13), 400,
                 {"code": "term_exists", "message": "A term with the name provided already exists in this taxonomy.",
                  "data": {"status": 400, "term_id": 13}}, id="term-exists-tag"),
    pytest.param(exceptions.SlugTaken("jazz"), 400,
                 {"code": "duplicate_term_slug", "message": "The slug “jazz” is already in use by another term.",
                  "data": {"status": 400}}, id="slug-taken"),
    pytest.param(exceptions.NotHierarchical(), 400,
                 {"code": "rest_taxonomy_not_hierarchical", "message": "Can not set resource parent, taxonomy is not hierarchical.",
                  "data": {"status": 400}}, id="not-hierarchical"),
    pytest.param(exceptions.CouldNotWrite("event", exceptions.DELETE), 500,
                 {"code": "could-not-delete-event", "message": "The event could not be moved to the trash.",
                  "data": {"status": 500}}, id="could-not-delete-event"),
    pytest.param(exceptions.CouldNotWrite("venue", exceptions.CREATE), 400,
                 {"code": "could-not-create-venue", "message": "No venue could be created from the data given.",
                  "data": {"status": 400}}, id="could-not-create-venue"),
    pytest.param(exceptions.CouldNotWrite("organizer", exceptions.UPDATE), 400,
                 {"code": "could-not-update-organizer", "message": "The organizer could not be updated.",
                  "data": {"status": 400}}, id="could-not-update-organizer"),
    pytest.param(exceptions.CouldNotWrite("venue", exceptions.DELETE), 500,
                 {"code": "could-not-delete-venue", "message": "The venue could not be moved to the trash.",
                  "data": {"status": 500}}, id="could-not-delete-venue"),
    pytest.param(exceptions.CouldNotWrite("term", exceptions.DELETE), 500,
                 {"code": "rest_cannot_delete", "message": "The term cannot be deleted.", "data": {"status": 500}},
                 id="term-cannot-be-deleted"),
    pytest.param(exceptions.DuplicateApplicationName("CLI"), 409,
                 {"code": "application_password_duplicate_name", "message": "Each application name should be unique.",
                  "data": {"status": 409}}, id="duplicate-application-name"),
]


@pytest.mark.parametrize("error, status, body", CASES)
def test_each_domain_refusal_has_the_contracts_code_status_and_data(error, status, body):
    with translation.override("en"):
        refusal = from_domain(error, make_user("editor"))
        assert (refusal.status, refusal.as_body()) == (status, body)


@pytest.mark.parametrize("user, status", [(AnonymousUser(), 401), ("editor", 403)], ids=["anonymous", "signed-in"])
def test_not_permitted_is_401_or_403_by_caller(user, status):
    user = make_user(user) if isinstance(user, str) else user
    with translation.override("en"):
        body = from_domain(exceptions.NotPermitted(), user).as_body()
    assert body == {"code": "rest_forbidden", "message": "Sorry, you are not allowed to do that.", "data": {"status": status}}


def test_the_message_is_read_in_the_language_it_is_shown_in():
    error = exceptions.CouldNotWrite("event", exceptions.DELETE)
    with translation.override("zh-hant"):
        assert str(error) != "The event could not be moved to the trash."
        assert from_domain(error, None).as_body()["message"] == str(error)
