"""Input a hostile client sends: every case answers a 4xx in the contract's error shape, never a 500."""

import html
import json
import time

import pytest
from django.test import Client

from events.models import Event, Organizer, Term

from .conftest import API, post_json
from .factories import make_category, make_event

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "%C2%B2"


def assert_error_shape(response, status, code=None):
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) == {"code", "message", "data"}
    assert body["data"]["status"] == status
    if code is not None:
        assert body["code"] == code
    return body


# --- integers that are not ASCII digits ---------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        f"/events?page={SUPERSCRIPT_TWO}",
        f"/events?per_page={SUPERSCRIPT_TWO}",
        f"/events?venue={SUPERSCRIPT_TWO}",
        f"/events?organizer={SUPERSCRIPT_TWO}",
        f"/events?include={SUPERSCRIPT_TWO}",
        f"/venues?event={SUPERSCRIPT_TWO}",
        f"/tags?include={SUPERSCRIPT_TWO}",
        f"/categories?post={SUPERSCRIPT_TWO}",
        f"/categories?page={SUPERSCRIPT_TWO}",
        "/events?page=%D9%A3",  # ARABIC-INDIC DIGIT THREE, which int() would read as 3
        "/events?per_page=" + "9" * 5000,
    ],
)
def test_unicode_digits_in_integer_parameters_are_400(api, path):
    make_event("Concert")
    assert_error_shape(api.get(f"{API}{path}"), 400, "rest_invalid_param")


@pytest.mark.parametrize("name", ["categories", "tags"])
def test_unicode_digits_in_term_filters_are_read_as_slugs(api, name):
    """`categories=²` names no term by ID; as a slug it matches nothing, as in WordPress."""
    make_event("Concert", categories=[make_category("Music")])
    response = api.get(f"{API}/events", {name: "²"})
    assert response.status_code < 500
    if response.status_code >= 400:
        assert_error_shape(response, response.status_code)


@pytest.mark.parametrize(
    "path",
    [f"/events/?page={SUPERSCRIPT_TWO}", "/?p=%C2%B9", "/events/?page=" + "9" * 40, "/events/month/2026-%C2%B2/"],
)
def test_public_pages_answer_a_plain_4xx_even_in_debug(settings, path):
    settings.DEBUG = True
    response = Client().get(path)
    assert 400 <= response.status_code < 500
    page = response.content.decode()
    assert "Traceback" not in page and "technical" not in page.lower()
    assert 'href="/events/"' in page or "/events/" in page


# --- NUL ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["tags=a%00b", "categories=a%00b", "search=a%00b", "tags[]=x&tags[]=y%00"])
def test_nul_anywhere_in_a_declared_parameter_is_400(api, query):
    body = assert_error_shape(api.get(f"{API}/events?{query}"), 400, "rest_invalid_param")
    assert body["data"]["params"]


def test_undeclared_parameters_are_ignored_even_with_nul(api):
    """As WordPress ignores parameters a route does not declare; they never reach a query."""
    assert api.get(f"{API}/events?a%00b=1&x=%00").status_code == 200


def test_nul_nested_in_a_write_body_is_400_and_writes_nothing(editor):
    response = post_json(
        editor,
        "/events",
        {
            "title": "Gig",
            "start_date": "2031-01-01 10:00",
            "end_date": "2031-01-01 11:00",
            "venue": {"venue": "Hall\x00"},
        },
    )
    body = assert_error_shape(response, 400, "rest_invalid_param")
    assert "venue" in body["data"]["params"]
    assert (Event.objects.count(), Organizer.objects.count()) == (0, 0)


# --- bodies ---------------------------------------------------------------------------------------


def test_a_body_over_the_upload_limit_is_413(editor, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    payload = json.dumps({"title": "x" * 150_000})
    response = editor.post(f"{API}/events", payload, content_type="application/json")
    assert_error_shape(response, 413, "rest_request_too_large")
    assert Event.objects.count() == 0


def test_a_three_megabyte_body_is_413_with_the_default_limit(editor):
    payload = json.dumps({"title": "x" * 3_000_000})
    assert_error_shape(
        editor.post(f"{API}/events", payload, content_type="application/json"), 413, "rest_request_too_large"
    )


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param("[" * 5000 + "]" * 5000, id="5000-levels"),
        pytest.param(
            json.dumps({"title": {"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}),
            id="33-levels",
        ),
        pytest.param('{"title":"\\ud800x"}', id="lone-surrogate"),
        pytest.param('{"title":"ok", "\\udfff":"key"}', id="surrogate-key"),
        pytest.param('{"title":', id="truncated"),
    ],
)
def test_json_bodies_that_cannot_be_stored_are_400_invalid_json(editor, raw):
    response = editor.post(f"{API}/events", raw, content_type="application/json")
    assert_error_shape(response, 400, "rest_invalid_json")
    assert Event.objects.count() == 0


def test_multipart_without_a_boundary_is_400(editor):
    response = editor.post(f"{API}/events", b"--x\r\n", content_type="multipart/form-data")
    assert_error_shape(response, 400, "rest_invalid_body")


def test_deep_bracket_keys_are_400_naming_their_parameter(api):
    """PHP drops them silently; here they are refused before any key is built (docs/api.md)."""
    response = api.get(f"{API}/events?" + "a" + "[x]" * 5000 + "=1")
    body = assert_error_shape(response, 400, "rest_invalid_param")
    assert list(body["data"]["params"]) == ["a"]


def test_a_long_anonymous_form_body_of_appends_is_refused_before_it_is_parsed(api):
    """`a[]=1&` 200,000 times: past Django's DATA_UPLOAD_MAX_NUMBER_FIELDS, refused from a count of
    its separators, before its 401 and before a single field is built."""
    body = "a[]=1&" * 200_000
    started = time.perf_counter()
    response = api.post(f"{API}/events", body, content_type="application/x-www-form-urlencoded")
    elapsed = time.perf_counter() - started
    body = assert_error_shape(response, 400, "rest_invalid_param")
    assert list(body["data"]["params"]) == ["a"]
    assert elapsed < 10
    assert Event.objects.count() == 0


# --- caps on what one request names ---------------------------------------------------------------


def event_body(**fields):
    return {"title": "Festival", "start_date": "2031-06-01 10:00", "end_date": "2031-06-01 18:00", **fields}


def test_a_write_naming_more_than_100_new_tags_is_400_and_creates_none(editor):
    response = post_json(editor, "/events", event_body(tags=[f"tag-{n}" for n in range(101)]))
    body = assert_error_shape(response, 400, "rest_invalid_param")
    assert "tags" in body["data"]["params"]
    assert (Term.objects.count(), Event.objects.count()) == (0, 0)


def test_100_new_tags_are_still_accepted(editor):
    response = post_json(editor, "/events", event_body(tags=[f"tag-{n}" for n in range(100)]))
    assert response.status_code == 201
    assert len(response.json()["tags"]) == 100


def test_a_write_naming_more_than_100_organizers_is_400_and_creates_none(editor):
    response = post_json(editor, "/events", event_body(organizer=[{"organizer": f"Org {n}"} for n in range(101)]))
    body = assert_error_shape(response, 400, "rest_invalid_param")
    assert "organizer" in body["data"]["params"]
    assert Organizer.objects.count() == 0


@pytest.mark.parametrize(
    "route, name", [("/events", "include"), ("/tags", "include"), ("/categories", "exclude"), ("/events", "categories")]
)
def test_lists_naming_more_than_500_ids_are_400(api, route, name):
    response = api.get(f"{API}{route}", {name: ",".join(str(n) for n in range(1, 502))})
    body = assert_error_shape(response, 400, "rest_invalid_param")
    assert name in body["data"]["params"]


# --- refusals say why ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "venue, reason",
    [
        ({"venue": "Hall", "phone": 12345}, "venue[phone]: phone is not of type string."),
        ({"venue": "Hall", "show_map": "yes", "country": ["x"]}, "venue[country]: country is not of type string."),
        ({"city": "Lyon"}, "Missing parameter(s): venue[venue]"),
    ],
)
def test_a_refused_nested_venue_says_which_field_and_why(editor, venue, reason):
    response = post_json(editor, "/events", event_body(venue=venue))
    body = assert_error_shape(response, 400, "rest_invalid_param")
    assert body["data"]["params"] == {"venue": reason}
    assert body["data"]["details"]["venue"]["message"] == reason
    assert Event.objects.count() == 0


def test_a_contributor_cannot_name_an_image_by_url_even_one_stored_here(as_role):
    from .factories import make_image

    image = make_image()
    contributor = as_role("contributor")
    for url in (image.file.url, f"http://testserver{image.file.url}", "https://images.example/poster.png"):
        response = post_json(contributor, "/events", event_body(image=url))
        body = assert_error_shape(response, 400, "rest_invalid_param")
        assert "image" in body["data"]["params"]
    # By ID the stored image may still be used: IDs need no upload right.
    assert post_json(contributor, "/events", event_body(image=str(image.pk))).status_code == 201


def test_a_form_body_whose_names_are_all_numbers_is_not_a_500(editor):
    event = make_event("Gig")
    response = editor.post(f"{API}/events/{event.pk}", "0=null&1=x", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200


# --- values that name nothing a client could mean -------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [{"a": {"name": "Jazz"}}, [["Jazz"]], ["Rock", {"id": 3}]],
    ids=["object-of-objects", "list-in-a-list", "object-in-a-list"],
)
@pytest.mark.parametrize("name", ["categories", "tags"])
def test_terms_given_as_objects_are_400_and_write_nothing(editor, name, value):
    body = assert_error_shape(post_json(editor, "/events", event_body(**{name: value})), 400, "rest_invalid_param")
    assert name in body["data"]["params"]
    assert Event.objects.count() == Term.objects.count() == 0


def test_terms_in_a_nested_form_key_are_400(editor):
    form = "title=Festival&start_date=2031-06-01+10:00&end_date=2031-06-01+18:00&categories[a][name]=Jazz"
    response = editor.post(f"{API}/events", form, content_type="application/x-www-form-urlencoded")
    assert "categories" in assert_error_shape(response, 400, "rest_invalid_param")["data"]["params"]
    assert Event.objects.count() == Term.objects.count() == 0


def test_an_object_of_term_names_reads_as_their_list(editor):
    """PHP reads a JSON object as an array: its values are the names, as the plugin takes them."""
    response = post_json(editor, "/events", event_body(categories={"a": "Jazz", "b": "Blues"}))
    assert response.status_code == 201
    assert sorted(term["name"] for term in response.json()["categories"]) == ["Blues", "Jazz"]


@pytest.mark.parametrize("zone", ["posixrules", "posix/Europe/Paris", "right/UTC", "localtime", "Europe"])
def test_time_zone_files_that_are_no_iana_zone_are_400(editor, zone):
    body = assert_error_shape(post_json(editor, "/events", event_body(timezone=zone)), 400, "rest_invalid_param")
    assert "timezone" in body["data"]["params"]
    assert Event.objects.count() == 0
    event = make_event("Gig")
    assert_error_shape(post_json(editor, f"/events/{event.pk}", {"timezone": zone}), 400, "rest_invalid_param")
    assert Event.objects.get(pk=event.pk).timezone_name == event.timezone_name


@pytest.mark.parametrize("zone", ["America/New_York", "US/Eastern", "Etc/GMT+5", "EST", "UTC", "UTC+5:30", ""])
def test_iana_names_their_links_and_offsets_are_time_zones(editor, zone):
    assert post_json(editor, "/events", event_body(timezone=zone)).status_code == 201


@pytest.mark.parametrize("email", ['">@x.com', "not an email", "ann@example", "a@b.c"])
def test_organizer_emails_that_are_no_address_are_shown_but_never_mailed_to(editor, email):
    """The contract stores any text as the email (docs/contract/venues-organizers.md §4.2); pages and calendar
    files write a mailto: link only for what WordPress's is_email() takes."""
    organizer = post_json(editor, "/organizers", {"organizer": "Ann", "email": email, "status": "publish"}).json()
    event = post_json(editor, "/events", event_body(organizer=[organizer["id"]], status="publish")).json()
    page = Client().get(f"/organizer/{organizer['slug']}/")
    assert page.status_code == 200
    assert "mailto:" not in page.content.decode()
    assert html.escape(email) in page.content.decode()
    calendar = Client().get(f"/event/{event['slug']}/ical/")
    assert calendar.status_code == 200
    assert b"mailto:" not in calendar.content
    assert f"ORGANIZER;CN=Ann:http://testserver/organizer/{organizer['slug']}/".encode() in calendar.content


def test_organizer_email_addresses_are_mailto_links(editor):
    organizer = post_json(
        editor, "/organizers", {"organizer": "Ann", "email": "o'brien+news@mail.example.co.uk", "status": "publish"}
    ).json()
    page = Client().get(f"/organizer/{organizer['slug']}/").content.decode()
    assert 'href="mailto:o%27brien%2Bnews@mail.example.co.uk"' in page


# --- the longest slugs ----------------------------------------------------------------------------


RECORD_NAMES = {"events": "title", "venues": "venue", "organizers": "organizer"}


@pytest.mark.parametrize("force", [False, True], ids=["delete", "force"])
@pytest.mark.parametrize(
    "title, trashed",
    [("x" * 330, "x" * 191 + "__trashed"), ("中" * 40, "%e4%b8%ad" * 21 + "__trashed")],
    ids=["ascii", "encoded"],
)
@pytest.mark.parametrize("kind", RECORD_NAMES)
def test_records_with_the_longest_slugs_are_trashed_and_restored(editor, kind, title, trashed, force):
    """The trash suffix fits the slug column by shortening the slug first, as WordPress does (never
    splitting an encoded character); a restore gives the whole slug back."""
    fields = {RECORD_NAMES[kind]: title, "status": "publish"}
    if kind == "events":
        fields.update(start_date="2031-06-01 10:00", end_date="2031-06-01 12:00")
    created = post_json(editor, f"/{kind}", fields)
    assert created.status_code == 201
    record_id, slug = created.json()["id"], created.json()["slug"]
    assert len(slug) <= 200
    response = editor.delete(f"{API}/{kind}/{record_id}", {"force": "true"} if force else None)
    assert response.status_code == 200, response.content[:300]
    assert (response.json()["status"], response.json()["slug"]) == ("trash", trashed)
    restored = post_json(editor, f"/{kind}/{record_id}", {"status": "publish"})
    assert restored.status_code == 200
    assert restored.json()["slug"] == slug


# --- slugs that hold encoded characters ------------------------------------------------------------


# Venues and organizers take no slug, and their names keep no octets (sanitize_text_field).
SLUGGED_KINDS = {"events": "title", "categories": "name", "tags": "name"}


@pytest.mark.parametrize(
    "requested, stored",
    [
        ("a%2Fb", "a-b"),
        ("a%20b", "a-b"),
        ("a%2Bb", "ab"),
        ("a%41b", "aab"),
        ("a%2541b", "a41b"),
        ("%E4%B8%AD%E6%96%87", "%e4%b8%ad%e6%96%87"),
    ],
    ids=["slash", "space", "plus", "letter", "percent", "chinese"],
)
@pytest.mark.parametrize("kind", SLUGGED_KINDS)
def test_a_slug_with_encoded_characters_reaches_its_record(editor, api, kind, requested, stored):
    """The server decodes a path before routing it, so a slug keeps only what survives that: encoded
    ASCII characters are read as the characters they spell, other octets are kept (WordPress's form)."""
    fields = {SLUGGED_KINDS[kind]: "Named", "slug": requested, "status": "publish"}
    if kind == "events":
        fields.update(start_date="2031-06-01 10:00", end_date="2031-06-01 12:00")
    created = post_json(editor, f"/{kind}", fields)
    assert created.status_code == 201
    record = created.json()
    assert record["slug"] == stored
    page = record["url"] if "url" in record else record["link"]
    assert Client().get(page.removeprefix("http://testserver")).status_code == 200
    if kind == "events":
        by_slug = editor.get(f"{API}/events/by-slug/{record['slug']}")
        assert (by_slug.status_code, by_slug.json()["id"]) == (200, record["id"])


# --- what still breaks is logged and answered in JSON --------------------------------------------


@pytest.mark.parametrize("debug", [False, True])
def test_an_unexpected_error_is_logged_with_method_and_path_and_answered_in_json(
    api, settings, monkeypatch, caplog, debug
):
    from events.api.views.discovery import NamespaceIndexViewSet

    settings.DEBUG = debug

    def broken(self, request, *args, **kwargs):
        raise RuntimeError("a defect")

    monkeypatch.setattr(NamespaceIndexViewSet, "index", broken)
    response = api.get(f"{API}?probe=1")
    assert_error_shape(response, 500, "rest_internal_error")
    assert f"GET /wp-json/{API.split('/wp-json/')[1]}?probe=1" in caplog.text
    assert "a defect" in caplog.text
