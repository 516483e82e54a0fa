"""Golden shapes of an organizer (docs/contract/venues-organizers.md §1.2-§1.4): whole records, key order included."""

import datetime as dt

import pytest

from events.models import Organizer

from .conftest import API
from .factories import make_event, make_image, make_organizer, make_user

pytestmark = pytest.mark.django_db

SITE = "http://testserver"
PUBLISHED = dt.datetime(2017, 1, 5, 14, 23, 36, tzinfo=dt.UTC)


def pinned(organizer):
    Organizer.objects.filter(pk=organizer.pk).update(modified=PUBLISHED)
    organizer.refresh_from_db()
    return organizer


@pytest.fixture
def full_organizer():
    return pinned(
        make_organizer(
            "Organizer 01",
            slug="organizer-01",
            author=make_user("editor"),
            date=PUBLISHED,
            description="Organizer 01 description",
            excerpt="Organizer 01 excerpt",
            phone="phone",
            website="https://organizer.example/?a=1&b=2",
            email="email@example.org",
        )
    )


def expected_full(organizer):
    return {
        "id": organizer.pk,
        "author": str(organizer.author_id),
        "status": "publish",
        "date": "2017-01-05 14:23:36",
        "date_utc": "2017-01-05 14:23:36",
        "modified": "2017-01-05 14:23:36",
        "modified_utc": "2017-01-05 14:23:36",
        "url": f"{SITE}/organizer/organizer-01/",
        "organizer": "Organizer 01",
        "description": "<p>Organizer 01 description</p>",
        "excerpt": "<p>Organizer 01 excerpt</p>",
        "slug": "organizer-01",
        "phone": "phone",
        "website": "https://organizer.example/?a=1&b=2",
        "email": "email@example.org",
        "global_id": f"testserver?id={organizer.pk}",
        "global_id_lineage": [f"testserver?id={organizer.pk}"],
    }


def test_listed_organizer(api, full_organizer):
    body = api.get(f"{API}/organizers").json()["organizers"][0]
    expected = expected_full(full_organizer)
    assert body == expected
    assert list(body) == list(expected)


def test_single_read_puts_json_ld_before_the_global_ids(api, full_organizer):
    body = api.get(f"{API}/organizers/{full_organizer.pk}").json()
    keys = list(expected_full(full_organizer))
    keys.insert(keys.index("global_id"), "json_ld")
    assert list(body) == keys
    assert body["json_ld"] == {
        "@type": "Person",
        "name": "Organizer 01",
        "description": "<p>Organizer 01 excerpt</p>",
        "url": "https://organizer.example/?a=1&b=2",
        "telephone": "phone",
        "email": "email@example.org",
        "sameAs": "https://organizer.example/?a=1&b=2",
    }


def test_empty_values_are_dropped(api):
    organizer = pinned(make_organizer("Bare", slug="bare", date=PUBLISHED))
    body = api.get(f"{API}/organizers/{organizer.pk}").json()
    body.pop("json_ld")
    assert body == {
        "id": organizer.pk,
        "status": "publish",
        "date": "2017-01-05 14:23:36",
        "date_utc": "2017-01-05 14:23:36",
        "modified": "2017-01-05 14:23:36",
        "modified_utc": "2017-01-05 14:23:36",
        "url": f"{SITE}/organizer/bare/",
        "organizer": "Bare",
        "slug": "bare",
        "global_id": f"testserver?id={organizer.pk}",
        "global_id_lineage": [f"testserver?id={organizer.pk}"],
    }


def test_json_ld_description_falls_back_to_the_first_words_of_the_content(api):
    organizer = make_organizer(description=" ".join(f"w{n}" for n in range(60)))
    body = api.get(f"{API}/organizers/{organizer.pk}").json()
    assert body["json_ld"]["description"] == "<p>" + " ".join(f"w{n}" for n in range(55)) + "&hellip;</p>"


def test_protected_organizer_is_blanked(api):
    organizer = pinned(
        make_organizer(
            "Secret",
            slug="secret",
            date=PUBLISHED,
            password="pw",
            phone="1",
            email="e@x",
            website="https://x.example",
            image=make_image(),
        )
    )
    body = api.get(f"{API}/organizers/{organizer.pk}").json()
    assert body == {
        "id": organizer.pk,
        "status": "publish",
        "date": "2017-01-05 14:23:36",
        "date_utc": "2017-01-05 14:23:36",
        "modified": "2017-01-05 14:23:36",
        "modified_utc": "2017-01-05 14:23:36",
        "url": f"{SITE}/organizer/secret/",
        "organizer": [],
        "slug": "secret",
        "image": False,
        "phone": "",
        "website": "",
        "email": "",
        "global_id": f"testserver?id={organizer.pk}",
        "global_id_lineage": [f"testserver?id={organizer.pk}"],
    }
    assert api.get(f"{API}/organizers/{organizer.pk}", {"password": "pw"}).json()["organizer"] == "Secret"


def test_organizers_embedded_in_events_keep_link_order(api, full_organizer):
    second = make_organizer("Second")
    event = make_event(organizers=[second, full_organizer])
    single = api.get(f"{API}/events/{event.pk}").json()["organizer"]
    assert [item["id"] for item in single] == [second.pk, full_organizer.pk]
    assert all(item["json_ld"]["@type"] == "Person" for item in single)
    listed = api.get(f"{API}/events").json()["events"][0]["organizer"]
    assert listed[1] == expected_full(full_organizer)
