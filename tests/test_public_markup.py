"""Stored rich text on the public pages and calendar files: whatever a description holds (an older
version stored HTML past today's caps), the page answers, its text is escaped and no script survives;
past the caps it is shown as plain text (docs/decisions.md, "Public pages")."""

import pytest

from .test_ical import Feed
from .test_public_pages import page, soon

pytestmark = pytest.mark.django_db

# Text, markup and scripts the cleaner reads before the hostile part.
LEAD = "Tom &amp; Jerry, 1 &lt; 2 <mark>marked</mark><script>alert(1)</script><img src=x onerror=alert(2)> "
HOSTILE = {
    # A tag and a comment that never end: Python's HTMLParser read them again at every "<".
    "unterminated-tags": "<a" * 20_000,
    "unterminated-comments": "<!--" * 20_000,
    # Past the depth cap: an HTML5 tree builder's cost grows with tags x depth.
    "nested-divs": "<div>" * 20_000,
    "unclosed-formatting": "<b id=x>" * 10_000,
    # Within the depth cap, but closed by the next item: an HTML5 tree builder re-opens all 200 in
    # each of the 200 items that follow (3 KB stored, 280 KB shown).
    "formatting-reopened-per-item": (
        "<ul><li>" + "".join(f'<b id="{index}">' for index in range(200)) + "<li>x" * 200 + "</ul>"
    ),
}
SHOWN_ESCAPED = "Tom &amp; Jerry, 1 &lt; 2"
PAGE_WITHOUT_TEXT = 30_000


def stored_hostile(kind):
    """An event whose description and excerpt were stored as they are, past any cap of today's writes."""
    text = LEAD + HOSTILE[kind]
    return soon(title="Hostile", description=text, excerpt=text)


def assert_no_script(response):
    parsed = page(response)
    scripts = [attributes for tag, attributes in parsed.elements if tag == "script"]
    assert all(attributes.get("type") == "application/ld+json" for attributes in scripts), scripts
    handlers = [name for _, attributes in parsed.elements for name in attributes if name.startswith("on")]
    assert handlers == []
    assert "alert(" not in parsed.text
    return parsed


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("path", ["/event/{slug}/", "/events/"], ids=["event-page", "list"])
def test_a_hostile_stored_description_is_shown_escaped_without_scripts(client, kind, path):
    event = stored_hostile(kind)
    response = client.get(path.format(slug=event.slug))
    parsed = assert_no_script(response)
    content = response.content.decode()
    assert SHOWN_ESCAPED in content
    assert "Tom & Jerry, 1 < 2" in parsed.text
    # The description and the excerpt shown once each, not once per list item (the JSON-LD block
    # carries the stored excerpt for machines, as the API does).
    shown = len(content) - sum(len(block) for block in parsed.json_ld_blocks)
    assert shown < 2 * len(event.description) + PAGE_WITHOUT_TEXT


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("path", ["/event/{slug}/ical/", "/events/?ical=1"], ids=["event-file", "list-file"])
def test_a_hostile_stored_description_is_plain_text_in_calendar_files(client, kind, path):
    event = stored_hostile(kind)
    (entry,) = Feed(client.get(path.format(slug=event.slug))).entries
    description = str(entry["DESCRIPTION"])
    assert description.startswith("Tom & Jerry, 1 < 2 marked")
    assert "alert(" not in description and "<" not in description.removeprefix("Tom & Jerry, 1 <")
    assert len(description) < len(event.description)


def test_text_within_the_caps_keeps_its_markup_and_text_past_them_is_shown_plain(client, settings):
    settings.EVENTS = {"HTML_MAX_DEPTH": 4, "HTML_MAX_TAGS": 100}
    within = soon(title="<mark>Marked title</mark>", description="<div><div><mark>kept</mark> &amp; more</div></div>")
    past = soon(
        title="<mark>" * 5 + "Deep title",
        description="<div>" * 5 + "<mark>flat</mark> &amp; more<script>alert(1)</script>",
    )

    shown = page(client.get(f"/event/{within.slug}/"))
    assert len(shown.find_all("mark")) == 2
    assert "Marked title" in shown.text and "kept & more" in shown.text

    response = client.get(f"/event/{past.slug}/")
    flattened = assert_no_script(response)
    assert flattened.find_all("mark") == []
    assert "Deep title" in flattened.text and "flat & more" in flattened.text
    assert "flat &amp; more" in response.content.decode()
