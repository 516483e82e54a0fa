"""API discovery on the public pages (docs/contract/discovery.md §3): headers and <head> tags per page kind, HEAD included."""

from urllib.parse import urlsplit

import pytest

from .conftest import API
from .factories import make_category, make_event, make_organizer, make_tag, make_venue
from .test_public_pages import page

pytestmark = pytest.mark.django_db

NAMESPACE = "tribe/events/v1"


@pytest.fixture
def calendar():
    venue = make_venue("Blue Hall")
    organizer = make_organizer("Ann Arts")
    jazz = make_category("Jazz", parent=make_category("Music"))
    tag = make_tag("Late night")
    event = make_event("Jazz night", venue=venue, organizers=[organizer], categories=[jazz], tags=[tag], featured=True)
    return {"event": event, "venue": venue, "organizer": organizer, "category": jazz, "tag": tag}


# (page path, API URL after `{root}`), per page kind; built from the calendar fixture.
PAGE_KINDS = {
    "home": lambda c: ("/", f"{NAMESPACE}/"),
    "list": lambda c: ("/events/", f"{NAMESPACE}/"),
    "month": lambda c: ("/events/month/", f"{NAMESPACE}/"),
    "event": lambda c: (f"/event/{c['event'].slug}/", f"{NAMESPACE}/events/{c['event'].pk}"),
    "category": lambda c: ("/events/category/music/jazz/", f"{NAMESPACE}/events/?categories=jazz"),
    "tag": lambda c: ("/tag/late-night/", f"{NAMESPACE}/events/?tags=late-night"),
    "venue": lambda c: (f"/venue/{c['venue'].slug}/", f"{NAMESPACE}/events/?venue={c['venue'].pk}"),
    "featured": lambda c: ("/events/featured/", f"{NAMESPACE}/events/?featured=1"),
    "organizer": lambda c: (f"/organizer/{c['organizer'].slug}/", f"{NAMESPACE}/"),
}
LANGUAGES = {"en": "", "zh-hans": "/zh-hans", "zh-hant": "/zh-hant"}


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("kind", list(PAGE_KINDS))
def test_each_page_kind_sends_the_discovery_headers_and_tags(client, calendar, kind, language):
    prefix = LANGUAGES[language]
    path, api_path = PAGE_KINDS[kind](calendar)
    root = f"http://testserver{prefix}/wp-json/"

    response = client.get(f"{prefix}{path}")
    parsed = page(response)

    assert response["X-TEC-API-VERSION"] == "v1"
    assert response["X-TEC-API-ROOT"] == f"{root}{api_path}"
    assert response["X-TEC-API-ORIGIN"] == f"http://testserver{prefix}"
    assert response["Link"] == f'<{root}>; rel="https://api.w.org/"'
    assert parsed.meta("tec-api-version") == ["v1"]
    assert parsed.meta("tec-api-origin") == [f"http://testserver{prefix}"]
    assert f"{root}{api_path}" in [
        attrs["href"] for attrs in parsed.find_all("link", rel="alternate") if "hreflang" not in attrs
    ]
    assert parsed.links("https://api.w.org/") == [root]


@pytest.mark.parametrize("kind", list(PAGE_KINDS))
def test_head_sends_the_same_headers_without_a_body(client, calendar, kind):
    path, _ = PAGE_KINDS[kind](calendar)
    get, head = client.get(path), client.head(path)
    assert head.status_code == 200 and head.content == b""
    for name in ("X-TEC-API-VERSION", "X-TEC-API-ROOT", "X-TEC-API-ORIGIN", "Link", "Last-Modified", "ETag"):
        assert head[name] == get[name], name


@pytest.mark.parametrize("kind", list(PAGE_KINDS))
def test_disabled_api_is_announced_as_disabled_and_nothing_else(client, calendar, settings, kind):
    settings.EVENTS = {"REST_API_ENABLED": False}
    path, _ = PAGE_KINDS[kind](calendar)

    for response in (client.get(path), client.head(path)):
        assert response.status_code == 200
        assert response["X-TEC-API-VERSION"] == "disabled"
        for name in ("X-TEC-API-ROOT", "X-TEC-API-ORIGIN", "Link"):
            assert name not in response, name
    parsed = page(client.get(path))
    assert parsed.meta("tec-api-version") == parsed.meta("tec-api-origin") == []
    assert parsed.links("https://api.w.org/") == []
    assert [attrs for attrs in parsed.find_all("link", rel="alternate") if "hreflang" not in attrs] == []


def test_not_found_pages_and_304s_carry_the_discovery_too(client, calendar):
    missing = client.get("/event/nothing-here/")
    assert missing.status_code == 404
    assert missing["X-TEC-API-ROOT"] == f"http://testserver/wp-json/{NAMESPACE}/"

    path, api_path = PAGE_KINDS["event"](calendar)
    not_modified = client.get(path, HTTP_IF_MODIFIED_SINCE=client.get(path)["Last-Modified"])
    assert not_modified.status_code == 304
    assert not_modified["X-TEC-API-ROOT"] == f"http://testserver/wp-json/{api_path}"


@pytest.mark.parametrize("kind", ["event", "category", "tag", "venue", "featured"])
def test_the_advertised_api_url_serves_what_the_page_shows(client, api, calendar, kind):
    path, _ = PAGE_KINDS[kind](calendar)
    advertised = client.get(path)["X-TEC-API-ROOT"]
    response = api.get(advertised)
    assert response.status_code == 200, response.json()
    body = response.json()
    records = body["events"] if "events" in body else [body]
    assert [record["id"] for record in records] == [calendar["event"].pk]
    assert urlsplit(records[0]["url"]).path in {urlsplit(href).path for href in page(client.get(path)).hrefs()} | {path}


def test_the_advertised_root_is_the_api_namespace(client, api):
    advertised = client.get("/zh-hant/")["X-TEC-API-ROOT"]
    body = api.get(advertised).json()
    assert body["namespace"] == NAMESPACE
    assert advertised == f"http://testserver/zh-hant{API}/"


def test_archives_of_non_latin_terms_advertise_working_api_urls(client, api):
    tag = make_tag("深夜")
    event = make_event(tags=[tag])
    response = client.get(f"/tag/{tag.slug}/")
    assert response["X-TEC-API-ROOT"] == f"http://testserver/wp-json/{NAMESPACE}/events/?tags={tag.slug}"
    assert [record["id"] for record in api.get(response["X-TEC-API-ROOT"]).json()["events"]] == [event.pk]
