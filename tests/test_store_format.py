"""The rendered-record store's format is pinned: FORMAT_VERSION changes whenever a stored row would.

A row of the current epoch is served as it was stored, so a renderer whose output changes without a
bump of FORMAT_VERSION (events/store/epoch.py) would serve the old shape until every record is
written again. This test renders a fixed set of records, of every kind the store holds, in every
language, through the store's registered renderers, and compares the rows with
tests/store_format/format-<FORMAT_VERSION>.json.

After a deliberate change of a renderer: bump FORMAT_VERSION, then write the new pinned file with

    EVENTS_REGENERATE_STORE_FORMAT=1 .venv/bin/python -m pytest tests/test_store_format.py

which replaces the file of the old version (git shows the rows that changed). It never rewrites the
file of a version that exists with other rows: that is the change this test is here to catch.
"""

import datetime as dt
import difflib
import json
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from events import store
from events.json_text import to_json
from events.models import Attachment, Event, Organizer, PostStatus, Term, Venue

from .factories import make_category, make_event, make_organizer, make_tag, make_venue

pytestmark = pytest.mark.django_db

PINNED_DIRECTORY = Path(__file__).parent / "store_format"
REGENERATE = os.environ.get("EVENTS_REGENERATE_STORE_FORMAT") == "1"
LANGUAGES = ["en", "zh-hans", "zh-hant"]
# Written into every record, so that nothing read off the clock reaches a row.
PUBLISHED = dt.datetime(2025, 3, 14, 9, 26, 53, tzinfo=dt.UTC)
MODIFIED = dt.datetime(2025, 6, 1, 12, 0, 0, tzinfo=dt.UTC)


def pinned_path():
    return PINNED_DIRECTORY / f"format-{store.FORMAT_VERSION}.json"


@pytest.fixture
def fixed_settings(settings):
    """The settings that shape a row, as the pinned file was rendered under."""
    settings.TIME_ZONE = "UTC"
    settings.MEDIA_URL = "media/"
    settings.EVENTS = {"NAMESPACE_VENDOR": "tribe", "DEFAULT_CURRENCY_SYMBOL": "$", "DEFAULT_CURRENCY_CODE": "USD"}
    assert [code for code, _name in settings.LANGUAGES] == LANGUAGES


@pytest.fixture
def canonical_records(fixed_settings):
    """Every kind of record the store holds, with fixed IDs, dates and translations."""
    author = get_user_model().objects.create_user(id=7001, username="pinned-author", password="secret-pass-123")
    poster = Attachment.objects.create(
        id=9001,
        file="events/2025/03/poster.png",
        title="Poster",
        width=640,
        height=480,
        filesize=2048,
        mime_type="image/png",
        sizes={
            "thumbnail": {
                "file": "events/2025/03/poster-150x150.png",
                "width": 150,
                "height": 150,
                "mime-type": "image/png",
                "filesize": 512,
            },
            "medium": {
                "file": "events/2025/03/poster-300x225.png",
                "width": 300,
                "height": 225,
                "mime-type": "image/png",
                "filesize": 1024,
            },
        },
    )
    hall = make_venue(
        "Hall",
        id=9002,
        slug="hall",
        author=author,
        image=poster,
        description="<p>A <em>grand</em> hall.</p>",
        address="1 Main St",
        city="Berlin",
        country="Germany",
        zip="10115",
        state="BE",
        phone="+49 30 1234",
        website="https://hall.example.org",
        geo_lat=52.52,
        geo_lng=13.405,
        show_map=True,
        show_map_link=False,
        title_zh_hans="大厅",
        title_zh_hant="大廳",
    )
    band = make_organizer(
        "Band",
        id=9003,
        slug="band",
        author=author,
        image=poster,
        email="band@example.org",
        phone="+49 30 9876",
        website="https://band.example.org",
        description="Jazz since 1999.",
        title_zh_hans="乐队",
    )
    choir = make_organizer("Choir", id=9004, slug="choir", password="secret", title_zh_hant="合唱團")
    music = make_category("Music", id=8001, slug="music", description="All music", name_zh_hans="音乐")
    jazz = make_category("Jazz", id=8002, slug="jazz", parent=music, name_zh_hant="爵士")
    free = make_tag("Free entry", id=8003, slug="free-entry", name_zh_hans="免费入场")
    concert = make_event(
        "Concert",
        id=9005,
        slug="concert",
        author=author,
        start=dt.datetime(2026, 7, 4, 20, 0),
        end=dt.datetime(2026, 7, 4, 22, 30),
        timezone_name="Europe/Berlin",
        venue=hall,
        organizers=[band, choir],
        categories=[jazz, music],
        tags=[free],
        image=poster,
        cost=["10", "20"],
        currency_symbol="€",
        currency_position="suffix",
        currency_code="EUR",
        website="https://concert.example.org",
        description='<p>Two sets &amp; an encore -- "live".</p>',
        excerpt="Two sets.",
        featured=True,
        title_zh_hans="音乐会",
        title_zh_hant="音樂會",
    )
    fair = make_event(
        "Fair",
        id=9006,
        slug="fair",
        status=PostStatus.DRAFT,
        start=dt.datetime(2026, 8, 1),
        end=dt.datetime(2026, 8, 2),
        all_day=True,
        timezone_name="UTC",
        organizers=[choir],
        cost=["0"],
        password="fair-pass",
    )
    for model in (Event, Venue, Organizer):
        model.objects.update(date=PUBLISHED, modified=MODIFIED)
    Attachment.objects.update(date=PUBLISHED)
    return {
        store.EVENT: [concert.pk, fair.pk],
        store.VENUE: [hall.pk],
        store.ORGANIZER: [band.pk, choir.pk],
        store.IMAGE: [poster.pk],
        store.TERM: [music.pk, jazz.pk, free.pk],
    }


def rendered(records):
    """{"<row kind> <record ID> <language>": {"sort_name", "links", "body"}} as the store writes them now."""
    rows = {}
    for kind, ids in records.items():
        for row in store.rendered_rows(kind, ids):
            rows[(row.kind, row.record_id, row.language)] = {
                "sort_name": row.sort_name,
                "links": row.links,
                "body": json.loads(row.body),
                "text": row.body,
            }
    return {" ".join(map(str, key)): row for key, row in sorted(rows.items())}


def pinned_form(rows):
    """The rows as the pinned file holds them: bodies as JSON objects, so that a diff reads by field."""
    return {key: {name: value for name, value in row.items() if name != "text"} for key, row in rows.items()}


def readable(rows):
    return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"


def test_every_row_kind_in_every_language_is_pinned(canonical_records):
    kinds = {(key.split()[0], key.split()[2]) for key in rendered(canonical_records)}
    assert kinds == {(kind, language) for kind in store.SOURCE_OF_ROW for language in LANGUAGES}


def test_the_rows_are_those_pinned_for_this_format_version(canonical_records):
    rows = rendered(canonical_records)
    path = pinned_path()
    pinned = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    if REGENERATE:
        write_pinned(path, pinned, rows)
        return
    assert pinned is not None, (
        f"No pinned rows for FORMAT_VERSION {store.FORMAT_VERSION}: write tests/store_format/{path.name} with "
        "EVENTS_REGENERATE_STORE_FORMAT=1 .venv/bin/python -m pytest tests/test_store_format.py"
    )
    changed = differing(pinned["rows"], rows)
    assert not changed, (
        f"The store's rows differ from those pinned for FORMAT_VERSION {store.FORMAT_VERSION}, so rows already "
        "stored would be served in their old shape. Bump FORMAT_VERSION in events/store/epoch.py, then write "
        "the new pinned file with EVENTS_REGENERATE_STORE_FORMAT=1 .venv/bin/python -m pytest "
        f"tests/test_store_format.py. Rows that differ: {', '.join(changed)}\n"
        + row_diff(pinned["rows"], rows, changed)
    )


def differing(pinned_rows, rows):
    """Keys of the rows added, removed or changed: a pinned body compares as the exact text the
    store keeps, so that reordered keys count as a change."""

    def pinned(row):
        return row["sort_name"], row["links"], to_json(row["body"])

    def fresh(row):
        return row["sort_name"], row["links"], row["text"]

    return sorted(
        set(pinned_rows) ^ set(rows)
        | {key for key in set(pinned_rows) & set(rows) if pinned(pinned_rows[key]) != fresh(rows[key])}
    )


def row_diff(pinned_rows, rows, keys):
    pinned = readable({key: pinned_rows[key] for key in keys if key in pinned_rows}).splitlines()
    now = readable(pinned_form({key: rows[key] for key in keys if key in rows})).splitlines()
    return "\n".join(difflib.unified_diff(pinned, now, "pinned", "rendered now", lineterm="", n=2))


def write_pinned(path, pinned, rows):
    """Write this version's pinned file, replacing those of older versions; never rewrite a version's rows."""
    for key, row in rows.items():
        assert to_json(row["body"]) == row["text"], f"{key}: its text does not survive a JSON round trip"
    if pinned is not None and differing(pinned["rows"], rows):
        pytest.fail(
            f"{path.name} holds other rows: bump FORMAT_VERSION in events/store/epoch.py before regenerating "
            "(or delete the file if this version was never committed)."
        )
    PINNED_DIRECTORY.mkdir(exist_ok=True)
    for older in PINNED_DIRECTORY.glob("format-*.json"):
        if older != path:
            older.unlink()
    path.write_text(readable({"format_version": store.FORMAT_VERSION, "rows": pinned_form(rows)}), encoding="utf-8")
