"""`count` is the number of published events carrying the term, whatever happens to the events."""

import datetime as dt

import pytest

from events.models import PostStatus, Tag

from .conftest import API
from .factories import make_category, make_event, make_tag

pytestmark = pytest.mark.django_db


def count(api, collection, term):
    return api.get(f"{API}/{collection}/{term.pk}").json()["count"]


def listed_counts(api, collection):
    return {
        term["name"]: term["count"] for term in api.get(f"{API}/{collection}", {"hide_empty": 0}).json()[collection]
    }


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


# --- the stored count after each kind of write -------------------------------------------------


def update(client, event_id, **fields):
    response = client.post(f"{API}/events/{event_id}", fields, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def embedded_counts(client, event_id):
    record = client.get(f"{API}/events/{event_id}").json()
    return {term["name"]: term["count"] for term in record["categories"] + record["tags"]}


def test_counts_follow_event_writes_through_the_api(api, editor):
    music, jazz, rock = make_category("Music"), make_tag("Jazz"), make_tag("Rock")
    response = editor.post(
        f"{API}/events",
        {
            "title": "Counted",
            "start_date": "2030-01-05 10:00",
            "end_date": "2030-01-05 12:00",
            "categories": [music.pk],
            "tags": [jazz.pk, "Blues"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    event_id = response.json()["id"]
    assert listed_counts(api, "tags") == {"Blues": 1, "Jazz": 1, "Rock": 0}
    assert listed_counts(api, "categories") == {"Music": 1}
    assert embedded_counts(api, event_id) == {"Music": 1, "Blues": 1, "Jazz": 1}

    # New tags replace the old ones; the categories, not sent, stay.
    body = update(editor, event_id, tags=[rock.pk])
    assert [(term["name"], term["count"]) for term in body["tags"]] == [("Rock", 1)]
    assert listed_counts(api, "tags") == {"Blues": 0, "Jazz": 0, "Rock": 1}
    assert listed_counts(api, "categories") == {"Music": 1}

    update(editor, event_id, status="draft")
    assert listed_counts(api, "tags") == {"Blues": 0, "Jazz": 0, "Rock": 0}
    assert embedded_counts(editor, event_id) == {"Music": 0, "Rock": 0}

    update(editor, event_id, status="publish")
    assert embedded_counts(api, event_id) == {"Music": 1, "Rock": 1}

    assert editor.delete(f"{API}/events/{event_id}").json()["status"] == "trash"
    assert listed_counts(api, "categories") == {"Music": 0}
    assert listed_counts(api, "tags") == {"Blues": 0, "Jazz": 0, "Rock": 0}

    # Leaving the trash.
    update(editor, event_id, status="publish")
    assert listed_counts(api, "categories") == {"Music": 1}
    assert embedded_counts(api, event_id) == {"Music": 1, "Rock": 1}

    # An empty list unlinks every term of that taxonomy.
    update(editor, event_id, categories=[])
    assert listed_counts(api, "categories") == {"Music": 0}
    assert listed_counts(api, "tags") == {"Blues": 0, "Jazz": 0, "Rock": 1}


def test_an_update_that_leaves_the_terms_alone_keeps_the_counts(api, editor):
    tag = make_tag("Steady")
    event = make_event(tags=[tag])
    make_event(tags=[tag])
    update(editor, event.pk, title="Renamed")
    assert count(api, "tags", tag) == 2


@pytest.mark.parametrize(
    "unlink, expected",
    [
        (lambda event, tag: event.terms.remove(tag), {"Linked": 1, "Other": 1}),
        (lambda event, tag: tag.events.remove(event), {"Linked": 1, "Other": 1}),
        (lambda event, tag: event.terms.clear(), {"Linked": 1, "Other": 0}),
        (lambda event, tag: tag.events.clear(), {"Linked": 0, "Other": 1}),
        (lambda event, tag: event.terms.set([]), {"Linked": 1, "Other": 0}),
        (lambda event, tag: tag.events.set([]), {"Linked": 0, "Other": 1}),
    ],
    ids=["event.remove", "term.remove", "event.clear", "term.clear", "event.set", "term.set"],
)
def test_unlinking_lowers_the_count_from_either_side(api, unlink, expected):
    tag, other = make_tag("Linked"), make_tag("Other")
    event = make_event(tags=[tag, other])
    make_event(tags=[tag])
    unlink(event, tag)
    assert listed_counts(api, "tags") == expected


@pytest.mark.parametrize(
    "link",
    [
        lambda event, tag: event.terms.add(tag),
        lambda event, tag: tag.events.add(event),
        lambda event, tag: tag.events.set([event]),
    ],
    ids=["event.add", "term.add", "term.set"],
)
def test_linking_raises_the_count_from_either_side(api, link):
    tag = make_tag("Joined")
    link(make_event(), tag)
    assert count(api, "tags", tag) == 1


def test_a_term_saved_from_an_old_copy_keeps_its_count(api):
    tag = make_tag("Renamed later")
    stale = Tag.objects.get(pk=tag.pk)
    make_event(tags=[tag])
    stale.name = "Renamed"
    stale.save()
    assert listed_counts(api, "tags") == {"Renamed": 1}


def test_deleting_a_term_leaves_the_other_counts(api, editor):
    doomed, kept = make_tag("Doomed"), make_tag("Kept")
    event = make_event(tags=[doomed, kept])
    assert editor.delete(f"{API}/tags/{doomed.pk}").status_code == 200
    assert listed_counts(api, "tags") == {"Kept": 1}
    assert embedded_counts(api, event.pk) == {"Kept": 1}
