"""`count` is the number of published events carrying the term, whatever happens to the events."""
import datetime as dt

import pytest

from events.models import PostStatus

from .conftest import API
from .factories import make_category, make_event, make_tag

pytestmark = pytest.mark.django_db


def count(api, collection, term):
    return api.get(f"{API}/{collection}/{term.pk}").json()["count"]


def listed_counts(api, collection):
    return {term["name"]: term["count"] for term in api.get(f"{API}/{collection}", {"hide_empty": 0}).json()[collection]}


def test_count_follows_the_event_lifecycle(api):
    jazz, rock = make_tag("Jazz"), make_tag("Rock")
    assert count(api, "tags", jazz) == 0

    first = make_event(tags=[jazz])
    second = make_event(tags=[jazz, rock])
    assert listed_counts(api, "tags") == {"Jazz": 2, "Rock": 1}

    # Re-tagged.
    first.terms.set([rock])
    assert listed_counts(api, "tags") == {"Jazz": 1, "Rock": 2}

    # Trashed.
    second.status = PostStatus.TRASH
    second.save()
    assert listed_counts(api, "tags") == {"Jazz": 0, "Rock": 1}

    # Restored.
    second.status = PostStatus.PUBLISH
    second.save()
    assert listed_counts(api, "tags") == {"Jazz": 1, "Rock": 2}

    # Deleted for good.
    second.delete()
    assert listed_counts(api, "tags") == {"Jazz": 0, "Rock": 1}


@pytest.mark.parametrize(
    "status, counted",
    [
        (PostStatus.PUBLISH, True),
        (PostStatus.DRAFT, False),
        (PostStatus.PENDING, False),
        (PostStatus.FUTURE, False),
        (PostStatus.PRIVATE, False),
        (PostStatus.TRASH, False),
    ],
    ids=lambda value: str(value),
)
def test_only_published_events_count(api, status, counted):
    category = make_category("Counted")
    make_event(categories=[category], status=status)
    assert count(api, "categories", category) == (1 if counted else 0)


def test_publishing_a_draft_raises_the_count(api):
    tag = make_tag("Later")
    draft = make_event(tags=[tag], status=PostStatus.DRAFT)
    assert count(api, "tags", tag) == 0
    draft.status = PostStatus.PUBLISH
    draft.save()
    assert count(api, "tags", tag) == 1


def test_count_is_per_term_not_per_family(api):
    parent = make_category("Music")
    child = make_category("Jazz", parent=parent)
    make_event(categories=[child])
    make_event(categories=[child, parent])
    assert listed_counts(api, "categories") == {"Jazz": 2, "Music": 1}


def test_past_events_count_too(api):
    tag = make_tag("History")
    make_event(tags=[tag], start=dt.datetime(2001, 1, 1, 10, 0))
    assert count(api, "tags", tag) == 1


def test_embedded_count_matches_the_standalone_one(api):
    tag = make_tag("Shared")
    event = make_event(tags=[tag])
    make_event(tags=[tag])
    make_event(tags=[tag], status=PostStatus.DRAFT)
    embedded = api.get(f"{API}/events/{event.pk}").json()["tags"][0]
    assert embedded["count"] == count(api, "tags", tag) == 2


def test_hide_empty_follows_the_count(api):
    tag = make_tag("Fleeting")
    event = make_event(tags=[tag])
    assert [term["name"] for term in api.get(f"{API}/tags").json()["tags"]] == ["Fleeting"]
    event.status = PostStatus.TRASH
    event.save()
    assert api.get(f"{API}/tags").json()["tags"] == []


def test_delete_answer_carries_the_count_before_deletion(as_role, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tag = make_tag("Popular")
    for _ in range(3):
        make_event(tags=[tag])
    assert as_role("editor").delete(f"{API}/tags/{tag.pk}").json()["count"] == 3
