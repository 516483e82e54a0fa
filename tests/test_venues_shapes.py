"""Golden shapes of a venue (docs/contract/venues-organizers.md §1.1, §1.3, §1.4): whole records, key order included."""

import datetime as dt

import pytest

from events.models import Venue

from .conftest import API
from .factories import make_event, make_image, make_user, make_venue

pytestmark = pytest.mark.django_db

SITE = "http://testserver"
PUBLISHED = dt.datetime(2017, 1, 5, 14, 23, 36, tzinfo=dt.UTC)


def pinned(venue):
    """Fix the modification time too (auto_now would stamp the test's clock)."""
    Venue.objects.filter(pk=venue.pk).update(modified=PUBLISHED)
    venue.refresh_from_db()
    return venue


@pytest.fixture
def full_venue():
    author = make_user("editor")
    return pinned(
        make_venue(
            "Venue 01",
            slug="venue-01",
            author=author,
            date=PUBLISHED,
            description="Venue 01 description",
            excerpt="Venue 01 excerpt",
            address="address",
            city="city",
            country="country",
            province="province",
            state="state",
            zip="zip",
            phone="phone",
            website="url",
            stateprovince="state_province",
        )
    )


def expected_full(venue):
    return {
        "id": venue.pk,
        "author": str(venue.author_id),
        "status": "publish",
        "date": "2017-01-05 14:23:36",
        "date_utc": "2017-01-05 14:23:36",
        "modified": "2017-01-05 14:23:36",
        "modified_utc": "2017-01-05 14:23:36",
        "url": f"{SITE}/venue/venue-01/",
        "venue": "Venue 01",
        "description": "<p>Venue 01 description</p>",
        "excerpt": "<p>Venue 01 excerpt</p>",
        "slug": "venue-01",
        "address": "address",
        "city": "city",
        "country": "country",
        "province": "province",
        "state": "state",
        "zip": "zip",
        "phone": "phone",
        "website": "url",
        "stateprovince": "state_province",
        "show_map": True,
        "show_map_link": True,
        "global_id": f"testserver?id={venue.pk}",
        "global_id_lineage": [f"testserver?id={venue.pk}"],
    }


def test_listed_venue_is_the_contract_example(api, full_venue):
    body = api.get(f"{API}/venues").json()["venues"][0]
    expected = expected_full(full_venue)
    assert body == expected
    assert list(body) == list(expected)


def test_single_read_adds_json_ld_before_the_appended_keys(api, full_venue):
    body = api.get(f"{API}/venues/{full_venue.pk}").json()
    expected = expected_full(full_venue)
    keys = list(expected)
    keys.insert(keys.index("show_map"), "json_ld")
    assert list(body) == keys
    assert body["json_ld"] == {
        "@type": "Place",
        "name": "Venue 01",
        "description": "<p>Venue 01 excerpt</p>",
        "url": f"{SITE}/venue/venue-01/",
        "address": {
            "@type": "PostalAddress",
            "streetAddress": "address",
            "addressLocality": "city",
            "addressRegion": "state",
            "postalCode": "zip",
            "addressCountry": "country",
        },
        "telephone": "phone",
        "sameAs": "url",
    }
    assert {key: value for key, value in body.items() if key != "json_ld"} == expected


def test_empty_values_are_dropped_but_flags_and_global_ids_stay(api):
    venue = pinned(make_venue("Bare", slug="bare", date=PUBLISHED, show_map=False, show_map_link=False))
    body = api.get(f"{API}/venues").json()["venues"][0]
    expected = {
        "id": venue.pk,
        "status": "publish",
        "date": "2017-01-05 14:23:36",
        "date_utc": "2017-01-05 14:23:36",
        "modified": "2017-01-05 14:23:36",
        "modified_utc": "2017-01-05 14:23:36",
        "url": f"{SITE}/venue/bare/",
        "venue": "Bare",
        "slug": "bare",
        "show_map": False,
        "show_map_link": False,
        "global_id": f"testserver?id={venue.pk}",
        "global_id_lineage": [f"testserver?id={venue.pk}"],
    }
    assert body == expected
    assert list(body) == list(expected)


@pytest.mark.parametrize(
    "lat, lng, shown",
    [(45.5, -73.25, True), (45.5, 0.0, False), (None, 12.0, False), (0.0, 0.0, False)],
    ids=["both-set", "zero-longitude", "no-latitude", "both-zero"],
)
def test_coordinates_appear_as_floats_only_when_both_are_non_zero(api, lat, lng, shown):
    venue = make_venue(geo_lat=lat, geo_lng=lng)
    body = api.get(f"{API}/venues/{venue.pk}").json()
    if shown:
        assert (body["geo_lat"], body["geo_lng"]) == (lat, lng)
        assert list(body)[list(body).index("geo_lat") + 1] == "geo_lng"
        assert body["json_ld"]["geo"] == {"@type": "GeoCoordinates", "latitude": lat, "longitude": lng}
    else:
        assert "geo_lat" not in body and "geo_lng" not in body
        assert "geo" not in body["json_ld"]


def test_image_follows_the_slug(api):
    image = make_image()
    venue = make_venue("Pictured", image=image)
    body = api.get(f"{API}/venues/{venue.pk}").json()
    assert list(body)[list(body).index("slug") + 1] == "image"
    assert body["image"]["id"] == image.pk
    assert body["image"]["url"].startswith(f"{SITE}/")
    assert body["json_ld"]["image"] == body["image"]["url"]


def test_title_is_texturized_and_website_not_escaped(api):
    venue = make_venue("Rock & Roll 'Hall'", website="https://example.org/?a=1&b=2")
    body = api.get(f"{API}/venues/{venue.pk}").json()
    assert body["venue"] == "Rock &#038; Roll &#8216;Hall&#8217;"
    assert body["website"] == "https://example.org/?a=1&b=2"


def test_draft_url_uses_the_post_type_query(as_role):
    client = as_role("editor")
    venue = make_venue("Hidden", status="draft")
    body = client.get(f"{API}/venues/{venue.pk}").json()
    assert body["url"] == f"{SITE}/?post_type=tribe_venue&p={venue.pk}"


# --- password protection (§1.4) -------------------------------------------------------------------


@pytest.fixture
def protected_venue():
    return pinned(
        make_venue(
            "Secret hall",
            slug="secret-hall",
            date=PUBLISHED,
            password="sesame",
            description="Inside",
            address="1 Hidden road",
            city="Rome",
            state="Lazio",
            province="RM",
            stateprovince="RM",
            phone="555",
            website="https://secret.example",
            geo_lat=41.9,
            geo_lng=12.5,
            image=make_image(),
        )
    )


def blanked(venue):
    return {
        "id": venue.pk,
        "status": "publish",
        "date": "2017-01-05 14:23:36",
        "date_utc": "2017-01-05 14:23:36",
        "modified": "2017-01-05 14:23:36",
        "modified_utc": "2017-01-05 14:23:36",
        "url": f"{SITE}/venue/secret-hall/",
        "venue": [],
        "description": "",
        "slug": "secret-hall",
        "image": False,
        "address": "",
        "city": "",
        "province": "",
        "state": "Lazio",
        "phone": "",
        "website": "",
        "stateprovince": "",
        "geo_lat": 0,
        "geo_lng": 0,
        "show_map": None,
        "show_map_link": None,
        "global_id": f"testserver?id={venue.pk}",
        "global_id_lineage": [f"testserver?id={venue.pk}"],
    }


def test_protected_venue_is_returned_blanked_without_json_ld(api, protected_venue):
    response = api.get(f"{API}/venues/{protected_venue.pk}")
    assert response.status_code == 200
    expected = blanked(protected_venue)
    assert response.json() == expected
    assert list(response.json()) == list(expected)


def test_protected_venue_is_blanked_in_lists(api, protected_venue):
    assert api.get(f"{API}/venues").json()["venues"] == [blanked(protected_venue)]


@pytest.mark.parametrize("route", ["single", "by-slug", "list"])
def test_the_right_password_unblanks(api, protected_venue, route):
    path = {
        "single": f"{API}/venues/{protected_venue.pk}",
        "by-slug": f"{API}/venues/by-slug/secret-hall",
        "list": f"{API}/venues",
    }[route]
    response = api.get(path, {"password": "sesame"})
    body = response.json() if route != "list" else response.json()["venues"][0]
    assert body["venue"] == "Secret hall"
    assert body["address"] == "1 Hidden road"
    assert body["geo_lat"] == 41.9


def test_a_wrong_password_keeps_it_blanked(api, protected_venue):
    assert api.get(f"{API}/venues/{protected_venue.pk}", {"password": "guess"}).json()["venue"] == []


@pytest.mark.parametrize(
    "role, unblanked",
    [("editor", True), ("author", False), (None, False)],
    ids=["editor", "author-not-owner", "anonymous"],
)
def test_edit_context_unblanks_only_for_who_may_edit_it(api, as_role, protected_venue, role, unblanked):
    client = as_role(role) if role else api
    body = client.get(f"{API}/venues/{protected_venue.pk}", {"context": "edit"}).json()
    assert (body["venue"] == "Secret hall") is unblanked
    assert ("json_ld" in body) is unblanked


def test_protected_venue_embedded_in_an_event_is_always_blanked(as_role, protected_venue):
    event = make_event(venue=protected_venue)
    client = as_role("administrator")
    body = client.get(f"{API}/events/{event.pk}", {"context": "edit", "password": "sesame"}).json()
    assert body["venue"]["venue"] == []
    assert body["venue"]["address"] == ""
    assert "json_ld" not in body["venue"]


def test_venue_embedded_in_a_single_event_read_carries_json_ld(api, full_venue):
    event = make_event(venue=full_venue)
    single = api.get(f"{API}/events/{event.pk}").json()["venue"]
    listed = api.get(f"{API}/events").json()["events"][0]["venue"]
    assert single["json_ld"]["@type"] == "Place"
    assert "json_ld" not in listed
    assert listed == expected_full(full_venue)
