"""Shared ID sequences: events, venues, organizers and images share one, categories and tags another."""

import pytest

from events.models import PostIdentity, PostKind

from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_venue

pytestmark = pytest.mark.django_db


def test_posts_share_one_id_sequence():
    event, venue, organizer, image = make_event(), make_venue(), make_organizer(), make_image()
    ids = [event.pk, venue.pk, organizer.pk, image.pk]
    assert len(set(ids)) == 4
    assert ids == sorted(ids)
    assert PostIdentity.kind_of(venue.pk) == PostKind.VENUE
    assert PostIdentity.kind_of(event.pk) == PostKind.EVENT
    assert PostIdentity.kind_of(image.pk) == PostKind.ATTACHMENT
    assert PostIdentity.kind_of(10**9) is None


def test_terms_share_one_id_sequence():
    category, tag = make_category(), make_tag()
    assert tag.pk == category.pk + 1


def test_bulk_allocation_reserves_distinct_ids():
    ids = PostIdentity.allocate(PostKind.EVENT, count=5)
    assert len(set(ids)) == 5
    assert all(PostIdentity.kind_of(record_id) == PostKind.EVENT for record_id in ids)
