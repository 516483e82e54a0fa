"""Input bounded before it is parsed: HTML past its tag and depth caps, form bodies past their
field and bracket caps, JSON past its nesting cap are 400 and write nothing (docs/api.md)."""

import json
import re

import pytest

from events.html_shape import measure
from events.models import Event, Organizer, Venue
from events.text import _line_break, _unwrap_list_items

from .conftest import API, post_json
from .factories import make_event

pytestmark = pytest.mark.django_db

MAX_TAGS = 20000
MAX_DEPTH = 256
ROLES = ["contributor", "author", "administrator"]
ROUTES = {
    "event": ("/events", {"title": "Night", "start_date": "2031-02-01 20:00", "end_date": "2031-02-01 22:00"}),
    "venue": ("/venues", {"venue": "Hall"}),
    "organizer": ("/organizers", {"organizer": "Ada"}),
}
MODELS = {"event": Event, "venue": Venue, "organizer": Organizer}

AT_DEPTH = "<div>" * MAX_DEPTH + "deep"
PAST_DEPTH = "<div>" * (MAX_DEPTH + 1) + "deep"
AT_TAGS = "<br>" * MAX_TAGS
PAST_TAGS = "<br>" * (MAX_TAGS + 1)


def assert_invalid_param(response, name):
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert body["data"]["status"] == 400
    assert list(body["data"]["params"]) == [name]
    return body


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("html", [AT_DEPTH, AT_TAGS], ids=["depth-at-cap", "tags-at-cap"])
def test_html_at_the_caps_is_stored(as_role, role, kind, html):
    route, body = ROUTES[kind]
    response = post_json(as_role(role), route, {**body, "description": html})
    assert response.status_code == 201, response.content[:300]
    stored = MODELS[kind].objects.get().description_en
    if role == "administrator":
        assert stored == html
    else:
        assert stored.count("<div>") == html.count("<div>") and stored.count("<br>") == html.count("<br>")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    "kind, field",
    [("event", "description"), ("event", "excerpt"), *((kind, "description") for kind in ("venue", "organizer"))],
)
@pytest.mark.parametrize("html", [PAST_DEPTH, PAST_TAGS], ids=["depth-past-cap", "tags-past-cap"])
def test_html_past_the_caps_is_400_naming_the_field_and_stores_nothing(as_role, role, kind, html, field):
    route, body = ROUTES[kind]
    response = post_json(as_role(role), route, {**body, field: html})
    assert_invalid_param(response, field)
    assert MODELS[kind].objects.count() == 0


@pytest.mark.parametrize("role", ROLES)
def test_an_event_title_past_the_caps_is_400(as_role, role):
    route, body = ROUTES["event"]
    assert_invalid_param(post_json(as_role(role), route, {**body, "title": "<b>" * (MAX_DEPTH + 1)}), "title")
    assert Event.objects.count() == 0


@pytest.mark.parametrize("role", ["contributor", "administrator"])
def test_a_nested_venue_description_past_the_caps_refuses_the_whole_event(as_role, role):
    route, body = ROUTES["event"]
    response = post_json(as_role(role), route, {**body, "venue": {"venue": "Hall", "description": PAST_DEPTH}})
    assert_invalid_param(response, "description")
    assert (Event.objects.count(), Venue.objects.count()) == (0, 0)


def test_an_update_past_the_caps_leaves_the_stored_text(as_role):
    client = as_role("administrator")
    event = make_event(title="Night", description="<p>Kept</p>", author=client.user)
    response = post_json(client, f"/events/{event.pk}", {"description": PAST_DEPTH})
    assert_invalid_param(response, "description")
    event.refresh_from_db()
    assert event.description_en == "<p>Kept</p>"


def test_the_caps_are_settings(as_role, settings):
    settings.EVENTS = {"HTML_MAX_DEPTH": 3, "HTML_MAX_TAGS": 10}
    route, body = ROUTES["event"]
    client = as_role("administrator")
    assert_invalid_param(post_json(client, route, {**body, "description": "<div><div><div><div>x"}), "description")
    assert_invalid_param(post_json(client, route, {**body, "description": "<i>x</i>" * 6}), "description")
    assert (
        post_json(
            client, route, {**body, "description": "<div><div><div>x</div></div></div>" + "<i>x</i>" * 2}
        ).status_code
        == 201
    )


def test_formatting_the_parser_would_reopen_in_every_paragraph_counts_against_the_cap(as_role):
    """Forty bytes per unclosed `<b id=…>`, then short paragraphs: the parser re-opens every one of
    them in each paragraph, so a few kilobytes would be stored as megabytes."""
    reopened = "<p>" + "".join(f'<b id="{index}">' for index in range(200)) + "</p>" + "<p>x</p>" * 200
    route, body = ROUTES["event"]
    assert_invalid_param(post_json(as_role("author"), route, {**body, "description": reopened}), "description")
    assert Event.objects.count() == 0


@pytest.mark.parametrize(
    "html, tags, depth",
    [
        pytest.param("<p>One<p>Two<p>Three", 3, 1, id="unclosed-paragraphs"),
        pytest.param("<ul>" + "<li>item" * 500 + "</ul>", 502, 2, id="unclosed-list-items"),
        pytest.param("<table>" + "<tr><td>a<td>b" * 300 + "</table>", 902, 3, id="unclosed-cells-and-rows"),
        pytest.param("<p>a<br>b<img src=x><br/><hr></p>", 6, 1, id="void-elements"),
        pytest.param("<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->", 4, 1, id="comments"),
        pytest.param("a < b, 1<2, x<-y <3", 0, 0, id="less-than-in-text"),
        pytest.param("<script>if (a<b) { x('<div><div>') }</script>", 2, 1, id="script-text"),
        pytest.param('<a title="x > <div>">link</a>', 2, 1, id="markup-in-an-attribute"),
        pytest.param("<b><i>x</b>y</i>", 5, 2, id="misnested-formatting"),
    ],
)
def test_ordinary_html_is_measured_as_the_parser_builds_it(html, tags, depth):
    assert measure(html, MAX_TAGS, MAX_DEPTH) == (tags, depth)


# --- form and JSON bodies -------------------------------------------------------------------------


def post_form(client, body):
    return client.post(f"{API}/events", body, content_type="application/x-www-form-urlencoded")


def test_a_form_body_at_the_field_cap_is_read(editor, settings):
    fields = [f"x{index}=1" for index in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS - 1)]
    response = post_form(editor, "&".join(["title=Night", *fields]))
    assert response.status_code == 400
    assert response.json()["code"] == "rest_missing_callback_param"


@pytest.mark.parametrize("role", [None, "contributor", "administrator"])
def test_a_form_body_past_the_field_cap_is_400_naming_the_first_field_past_it(api, as_role, role, settings):
    client = api if role is None else as_role(role)
    fields = [f"x{index}=1" for index in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS)]
    assert_invalid_param(post_form(client, "&".join([*fields, "tags[]=a"])), "tags")
    assert Event.objects.count() == 0


def test_a_query_string_past_the_field_cap_is_400(api, settings):
    query = "&".join(f"x{index}=1" for index in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    assert_invalid_param(api.get(f"{API}/events?{query}"), "x1000")


@pytest.mark.parametrize("role", [None, "administrator"])
def test_form_keys_nested_past_the_bracket_cap_are_400_naming_their_parameter(api, as_role, role):
    client = api if role is None else as_role(role)
    assert_invalid_param(post_form(client, "description" + "[a]" * 32 + "=x&title=Night"), "description")
    assert Event.objects.count() == 0


def test_form_keys_nested_just_under_the_bracket_cap_are_read(editor):
    body = "title=Night&start_date=2031-02-01 20:00&end_date=2031-02-01 22:00&x" + "[a]" * 31 + "=1"
    assert post_form(editor, body).status_code == 201


@pytest.mark.parametrize("levels", [33, 100_000])
def test_json_nested_past_the_cap_is_400_and_writes_nothing(editor, levels):
    raw = json.dumps({"title": "Night"})[:-1] + ', "description": ' + "[" * levels + "]" * levels + "}"
    response = editor.post(f"{API}/events", raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_json"
    assert Event.objects.count() == 0


# --- reading stored HTML ------------------------------------------------------------------------

WPAUTOP_LINE_BREAK = re.compile(r"(?<!<br />)\s*\n", re.ASCII)
WPAUTOP_LIST_ITEM = re.compile(r"<p>(<li.+?)</p>", re.ASCII)


@pytest.mark.parametrize(
    "text",
    [
        "a\nb",
        "a  \n  b",
        "a \n \n b",
        "x<br />\ny",
        "x<br />  \n z",
        "x<br />\n\n",
        "\n",
        "a   b",
        "a\t\x0b\x0c\r\nb",
    ],
)
def test_line_breaks_read_in_one_pass_are_wpautops(text):
    assert _line_breaks(text) == WPAUTOP_LINE_BREAK.sub("<br />\n", text)


@pytest.mark.parametrize(
    "text",
    [
        "<p><li>x</p>",
        "<p><li</p></p>",
        "<p><li>a\nb</p><p><li>c</p>",
        "<p><li>a<p><li>b</p> <p><li>c",
        "<p><li>",
        "<p><li>a</p><p><li>b</p>",
        "<p><li><p><li>x</p>",
    ],
)
def test_list_items_unwrapped_in_one_pass_are_wpautops(text):
    assert _unwrap_list_items(text) == WPAUTOP_LIST_ITEM.sub(r"\1", text)


def _line_breaks(text):
    return re.compile(r"\s+", re.ASCII).sub(_line_break, text)


@pytest.mark.parametrize(
    "description",
    [" " * 200_000 + "x", "<div>" * 200 + "</x>" * 19_000],
    ids=["blank-run", "end-tags-of-nothing-open"],
)
def test_stored_html_that_wpautop_scanned_quadratically_is_served(as_role, api, description):
    route, body = ROUTES["event"]
    created = post_json(as_role("administrator"), route, {**body, "description": description, "status": "publish"})
    assert created.status_code == 201, created.content[:300]
    event_id = created.json()["id"]
    assert api.get(f"{API}/events/{event_id}").status_code == 200
    assert api.get(created.json()["url"]).status_code == 200
