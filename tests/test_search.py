"""Search on every list: WordPress's reading of the words, its caps, the three languages, and on
PostgreSQL the indexes that answer it, for a word found as for one found nowhere."""

import copy
import json

import pytest
from django.db import connection
from django.db.models.base import ModelState
from django.test.utils import CaptureQueriesContext

from events.models import PostIdentity
from events.queries.events import MAX_SEARCH_LENGTH
from events.queries.pages import SEARCH_PLANNER_SETTINGS, SESSION_PLANNER_SETTINGS

from .conftest import API
from .factories import make_event, make_organizer, make_venue

pytestmark = pytest.mark.django_db

PREFIX = {"en": "", "zh-hans": "/zh-hans", "zh-hant": "/zh-hant"}
TEN_WORDS = "one two three four five six seven eight nine ten"


def titles(client, path="/events", language="en", **query):
    response = client.get(f"{PREFIX[language]}{API}{path}", query)
    assert response.status_code == 200, response.content
    key = path.strip("/")
    name = "title" if key == "events" else key[:-1]
    return sorted(record[name] for record in response.json()[key])


# --- what the words mean (docs/api.md, "Search") ---------------------------------------------------


@pytest.fixture
def calendar(db):
    make_event("Jazz night", description="Live band")
    make_event("Rock concert", excerpt="Loud 100 guitars")
    make_event(TEN_WORDS)


@pytest.mark.parametrize(
    "search, expected",
    [
        ("ja\nzz", ["Jazz night"]),
        ("0 jazz", ["Jazz night"]),
        ("-jazz", ["Rock concert", TEN_WORDS]),
        ("-", []),
        ("- jazz", ["Jazz night"]),
        (" ".join(reversed(TEN_WORDS.split()[:9])), [TEN_WORDS]),
        (" ".join(reversed(TEN_WORDS.split())), []),
        (TEN_WORDS, [TEN_WORDS]),
        ('"night" "live"', ["Jazz night"]),
        ("100", ["Rock concert"]),
    ],
    ids=[
        "line-breaks-dropped",
        "zero-is-no-word",
        "exclusion",
        "lone-dash-sentence-excludes-all",
        "lone-dash-word-ignored",
        "nine-words-each-anywhere",
        "ten-words-are-one-phrase",
        "ten-words-phrase-found",
        "quoted-words",
        "digits",
    ],
)
def test_words_are_read_as_wordpress_reads_them(api, calendar, search, expected):
    assert titles(api, search=search) == expected


@pytest.mark.parametrize("path", ["/events", "/venues", "/organizers"])
def test_a_search_longer_than_the_cap_is_400(api, path):
    response = api.get(f"{API}{path}", {"search": "a" * (MAX_SEARCH_LENGTH + 1)})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == ["search"]
    assert api.get(f"{API}{path}", {"search": "a" * MAX_SEARCH_LENGTH}).status_code == 200


def test_the_public_feed_caps_the_search_too(client):
    assert client.get("/events/", {"ical": "1", "search": "a" * (MAX_SEARCH_LENGTH + 1)}).status_code == 400
    assert client.get("/events/", {"ical": "1", "search": "a" * MAX_SEARCH_LENGTH}).status_code == 200


# --- one or two letters or digits: too short for trigrams ------------------------------------------


@pytest.fixture
def short_words(db):
    make_event("Jazz night", description="Live band")
    make_event("Rock concert", excerpt="Loud 100 guitars", title_zh_hans="摇滚 5K 音乐会")
    make_event("Ça ira", excerpt="À la Bastille")


@pytest.mark.parametrize(
    "language, search, expected",
    [
        ("en", "ja", ["Jazz night"]),
        ("en", "JA", ["Jazz night"]),
        ("en", "qz", []),
        ("en", "z", ["Jazz night"]),
        ("en", "10", ["Rock concert"]),
        ("en", "zn", []),
        ("en", "ht ba", ["Jazz night"]),
        ("en", '"t b"', []),
        ("en", '"d 1"', ["Rock concert"]),
        ("en", "Ça", ["Ça ira"]),
        ("en", "-ja", ["Rock concert", "Ça ira"]),
        ("zh-hans", "5k", ["摇滚 5K 音乐会"]),
        ("zh-hans", "lo", ["摇滚 5K 音乐会"]),
        ("zh-hant", "5k", []),
        ("zh-hans", "滚5", []),
    ],
    ids=[
        "pair",
        "case-aside",
        "pair-found-nowhere",
        "one-letter",
        "digits",
        "pair-across-words-is-not-in-the-text",
        "two-short-words",
        "phrase-across-fields-is-not-in-the-text",
        "phrase-of-short-words",
        "accented",
        "exclusion",
        "in-a-translation",
        "in-the-english-fallback",
        "translation-of-another-language",
        "cjk-and-digit-not-adjacent",
    ],
)
def test_one_or_two_letters_find_what_they_find_in_the_text(api, short_words, language, search, expected):
    assert titles(api, language=language, search=search) == expected


# --- Chinese: one or two characters, each language with its fallback ------------------------------


@pytest.fixture
def chinese(db):
    make_event("Concert", title_zh_hans="音乐会", title_zh_hant="音樂會")
    make_event("Brass 乐队")
    make_event("乐队 practice", title_zh_hans="排练")


@pytest.mark.parametrize(
    "language, search, expected",
    [
        ("zh-hans", "音", ["音乐会"]),
        ("zh-hans", "乐会", ["音乐会"]),
        ("zh-hans", "会音", []),
        ("zh-hans", "乐", ["Brass 乐队", "音乐会"]),
        ("zh-hans", "乐队", ["Brass 乐队"]),
        ("zh-hant", "乐队", ["Brass 乐队", "乐队 practice"]),
        ("zh-hant", "樂", ["音樂會"]),
        ("en", "乐队", ["Brass 乐队", "乐队 practice"]),
        ("en", "音", []),
        ("zh-hans", "brass 乐", ["Brass 乐队"]),
    ],
    ids=[
        "one-character",
        "two-characters",
        "pair-not-in-text",
        "one-character-in-translation-and-fallback",
        "english-fallback-only-without-translation",
        "traditional-falls-back-to-english",
        "traditional",
        "english",
        "translation-not-searched-in-english",
        "mixed-scripts",
    ],
)
def test_chinese_searches_the_text_the_records_show(api, chinese, language, search, expected):
    assert titles(api, language=language, search=search) == expected


def test_linked_records_find_one_chinese_character(api):
    make_venue("Town Hall", title_zh_hans="市政厅")
    make_organizer("Music Society", title_zh_hans="音乐协会")
    assert titles(api, "/venues", "zh-hans", search="厅") == ["市政厅"]
    assert titles(api, "/organizers", "zh-hans", search="协") == ["音乐协会"]
    assert titles(api, "/venues", "zh-hans", search="Hall") == []


# --- PostgreSQL: an index answers, and a miss examines no row --------------------------------------


def searched_statements(client, url, query):
    """The answer and the SQL (parameters inlined) of the statements that searched, as the request ran them."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, query)
    assert response.status_code == 200, response.content
    searching = [entry["sql"] for entry in captured.captured_queries if "events_search_document" in entry["sql"]]
    assert searching
    return response, searching


def plan(sql):
    """EXPLAIN ANALYZE of `sql` as the planner would run it on a large calendar: here, a few
    hundred rows are cheaper to scan than any index is to open, so the table scan and the ordered
    index walk are ruled out, and the most selective index wins, as it does at scale
    (bench/README.md, "Search")."""
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")
        cursor.execute("SET enable_indexscan = off")
        try:
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}")
            (document,) = cursor.fetchone()
        finally:
            cursor.execute("RESET enable_seqscan")
            cursor.execute("RESET enable_indexscan")
    return document if isinstance(document, list) else json.loads(document)


def nodes(node):
    yield node
    for child in node.get("Plans", []):
        yield from nodes(child)


def examined_by_search_index(sql, table):
    """(the search indexes used on `table`, the rows read from it beyond what they found)."""
    found = list(nodes(plan(sql)[0]["Plan"]))
    indexes = {node["Index Name"] for node in found if node.get("Index Name", "").startswith(f"{table}_search_")}
    heap = [node for node in found if node["Node Type"] == "Bitmap Heap Scan" and node["Relation Name"] == table]
    removed = sum(node.get("Rows Removed by Filter", 0) + node.get("Rows Removed by Index Recheck", 0) for node in heap)
    return indexes, removed


def copies(record, count):
    """`count` more rows like `record`, written in one statement: a crowd the planner weighs."""
    rows = []
    for n, pk in enumerate(PostIdentity.allocate(record.KIND, count)):
        row = copy.copy(record)
        row._state = ModelState()
        row.id, row.slug = pk, f"{record.slug}-{n}"
        rows.append(row)
    type(record).objects.bulk_create(rows)


@pytest.fixture
def crowd(transactional_db):
    # Many records that match nothing searched below: a scan would read each of them.
    copies(make_event("Workshop", description="Bring a laptop", title_zh_hans="工作坊"), 300)
    copies(make_venue("Studio", title_zh_hans="工作室"), 300)
    copies(make_organizer("Club", title_zh_hans="俱乐部"), 300)
    make_event("Jazz night", title_zh_hans="爵士之夜", title_zh_hant="爵士之夜")
    make_venue("Town Hall", title_zh_hans="市政厅", title_zh_hant="市政廳")
    make_organizer("Music Society", title_zh_hans="音乐协会", title_zh_hant="音樂協會")
    # What autovacuum does on a live site: statistics, and the GIN indexes' own (outside a transaction).
    with connection.cursor() as cursor:
        for table in ("events_event", "events_venue", "events_organizer"):
            cursor.execute(f"VACUUM ANALYZE {table}")


SEARCHES = [
    ("events", "en", "jazz", "trgm", 1),
    ("events", "en", "qzxv", "trgm", 0),
    ("events", "en", '"jazz night"', "trgm", 1),
    ("events", "zh-hans", "爵", "cjk", 1),
    ("events", "zh-hans", "爵士", "cjk", 1),
    ("events", "zh-hans", "之", "cjk", 1),
    ("events", "zh-hant", "爵士之", "trgm", 1),
    ("events", "zh-hans", "鋼琴", "cjk", 0),
    ("events", "zh-hans", "jazz", "trgm", 0),
    ("venues", "zh-hant", "廳", "cjk", 1),
    ("venues", "en", "town hall", "trgm", 1),
    ("venues", "en", "qzxv", "trgm", 0),
    ("organizers", "zh-hans", "协会", "cjk", 1),
    ("organizers", "en", "society", "trgm", 1),
    # No trigram, no CJK character: the characters and pairs of every language's text, whatever the script.
    ("events", "en", "ja", "short", 1),
    ("events", "en", "qz", "short", 0),
    ("events", "en", "z", "short", 1),
    ("events", "en", '"z n"', "short", 1),
    ("events", "en", "r&b", "short", 0),
    ("events", "en", "да", "short", 0),
    ("events", "en", "&%", "short", 0),
    ("events", "zh-hans", "qz", "short", 0),
    ("venues", "en", "ll", "short", 1),
    ("organizers", "zh-hant", "qz", "short", 0),
]


@pytest.mark.postgres
@pytest.mark.parametrize(
    "collection, language, search, index, found",
    SEARCHES,
    ids=[f"{collection}-{language}-{search}" for collection, language, search, _, _ in SEARCHES],
)
def test_an_index_answers_and_a_miss_examines_no_row(api, crowd, collection, language, search, index, found):
    url = f"{PREFIX[language]}{API}/{collection}"
    response, statements = searched_statements(api, url, {"search": search})
    assert response["X-TEC-Total"] == str(found)
    table = f"events_{collection[:-1]}"
    for sql in statements:
        indexes, removed = examined_by_search_index(sql, table)
        # One short-term index per table serves every language; the others are per language.
        name = f"{table}_search_short" if index == "short" else f"{table}_search_{index}_{language.replace('-', '_')}"
        assert indexes == {name}
        # Only records holding the words are read: none of the crowd, whatever the search found.
        assert removed == 0


@pytest.mark.postgres
def test_a_search_is_planned_for_its_words_never_prepared(api):
    make_event("Jazz night")
    for word in ("jazz", "night", "blues", "folk", "jazz", "night", "rock", "jazz"):
        assert api.get(f"{API}/events", {"search": word}).status_code == 200
    for _ in range(3):
        assert api.get(f"{API}/events").status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    # Other statements still run prepared (tests/test_prepared_statements.py): only searches are not.
    assert prepared
    assert not [statement for statement in prepared if "events_search_document" in statement]


@pytest.mark.postgres
@pytest.mark.parametrize("search", ["qz", "jazz", "爵"])
def test_a_search_is_never_planned_as_a_walk_in_list_order(api, search):
    # The planner guesses a pair found nowhere in a few records of a large calendar, and would read
    # the whole list in start order to fill the page (bench/README.md, "Short terms").
    make_event("Jazz night", title_zh_hans="爵士之夜")
    with connection.cursor() as cursor:
        cursor.execute("SHOW work_mem")
        (before,) = cursor.fetchone()
    with CaptureQueriesContext(connection) as captured:
        response = api.get(f"/zh-hans{API}/events", {"search": search})
    assert response.status_code == 200
    statements = [entry["sql"] for entry in captured.captured_queries]
    searching = [n for n, sql in enumerate(statements) if "events_search_document" in sql]
    assert searching  # the page, with its total or beside it
    assert statements[searching[0] - 1] == SEARCH_PLANNER_SETTINGS
    assert statements[searching[-1] + 1] == SESSION_PLANNER_SETTINGS
    # The session is left as it was for the requests that follow.
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('enable_indexscan'), current_setting('work_mem')")
        assert cursor.fetchone() == ("on", before)
