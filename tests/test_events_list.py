"""GET /events: the envelope, headers, page links, ordering and every non-date filter (docs/contract/events.md §2)."""

import datetime as dt
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.db import connection

from events.models import PostStatus

from .conftest import API
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_user, make_venue

pytestmark = pytest.mark.django_db

# Far enough ahead that the default date window of any test run covers it.
DAY = dt.datetime(2031, 6, 1, 10, 0)
WINDOW = {"start_date": "2031-01-01", "end_date": "2031-12-31"}


def at(days=0, hours=0, **fields):
    """An event starting `days` after DAY (ordering follows the start)."""
    start = DAY + dt.timedelta(days=days, hours=hours)
    return make_event(start=start, end=start + dt.timedelta(hours=1), **fields)


def get_list(client, **params):
    return client.get(f"{API}/events", {**WINDOW, **params})


def ids(response):
    assert response.status_code == 200, response.json()
    return [event["id"] for event in response.json()["events"]]


def refused(response, param):
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == [param]
    return body


def query_of(url):
    return parse_qsl(urlsplit(url).query, keep_blank_values=True)


# --- envelope and headers -----------------------------------------------------------------------


def test_empty_first_page_is_200_with_zero_totals(api):
    response = get_list(api)
    assert response.status_code == 200
    assert response.json() == {
        "events": [],
        "rest_url": "http://testserver/wp-json/tribe/events/v1/events/?page=1&per_page=10"
        "&start_date=2031-01-01%2000:00:00&end_date=2031-12-31%2023:59:59&status=publish",
        "total": 0,
        "total_pages": 0,
    }
    assert (response["X-TEC-Total"], response["X-TEC-TotalPages"]) == ("0", "0")
    assert "X-WP-Total" not in response


def test_pages_totals_and_links(api):
    events = [at(days=n) for n in range(5)]
    first = get_list(api, per_page=2)
    body = first.json()
    assert ids(first) == [event.pk for event in events[:2]]
    assert (body["total"], body["total_pages"]) == (5, 3)
    assert (first["X-TEC-Total"], first["X-TEC-TotalPages"]) == ("5", "3")
    assert list(body) == ["events", "rest_url", "next_rest_url", "total", "total_pages"]
    assert body["next_rest_url"] == (
        "http://testserver/wp-json/tribe/events/v1/events/?per_page=2"
        "&start_date=2031-01-01%2000:00:00&end_date=2031-12-31%2023:59:59&status=publish&page=2"
    )

    second = api.get(body["next_rest_url"])
    assert ids(second) == [event.pk for event in events[2:4]]
    assert "page" not in dict(query_of(second.json()["previous_rest_url"]))
    assert query_of(second.json()["next_rest_url"])[-1] == ("page", "3")
    assert query_of(second.json()["rest_url"])[0] == ("page", "2")

    third = api.get(second.json()["next_rest_url"])
    assert ids(third) == [events[4].pk]
    assert "next_rest_url" not in third.json()
    assert query_of(third.json()["previous_rest_url"])[-1] == ("page", "2")


def test_page_past_the_end_is_404(api):
    at()
    response = get_list(api, page=2)
    assert response.status_code == 404
    assert response.json()["code"] == "event-archive-page-not-found"
    assert response.json()["data"] == {"status": 404}


def test_huge_page_number_is_404_not_an_error(api):
    at()
    assert get_list(api, page=10**30).status_code == 404


def test_per_page_above_the_maximum_is_clamped(api, settings):
    for n in range(3):
        at(days=n)
    settings.EVENTS = {"MAX_PER_PAGE": 2}
    response = get_list(api, per_page=100)
    assert len(ids(response)) == 2
    assert dict(query_of(response.json()["rest_url"]))["per_page"] == "2"
    assert response.json()["total_pages"] == 2


def test_default_per_page_is_a_setting(api, settings):
    for n in range(4):
        at(days=n)
    settings.EVENTS = {"DEFAULT_PER_PAGE": 3}
    assert len(ids(get_list(api))) == 3


@pytest.mark.parametrize(
    "param,value",
    [("page", "0"), ("page", "-1"), ("page", "foo"), ("page", "1.5"), ("per_page", "0"), ("per_page", "x")],
    ids=["page-zero", "page-negative", "page-word", "page-fraction", "per-page-zero", "per-page-word"],
)
def test_bad_paging_values_are_400(api, param, value):
    refused(get_list(api, **{param: value}), param)


def test_several_bad_parameters_are_named_together(api):
    body = get_list(api, page="0", per_page="0").json()
    assert set(body["data"]["params"]) == {"page", "per_page"}


# --- ordering -----------------------------------------------------------------------------------


def test_ordered_by_start_then_id(api):
    late = at(days=2)
    tie_a = at(days=1)
    tie_b = at(days=1)
    early = at(days=0, hours=-1)
    assert ids(get_list(api)) == [early.pk, tie_a.pk, tie_b.pk, late.pk]


def test_ordering_compares_wall_clocks_unless_site_mode(api, settings):
    # 09:00 in Tokyo is 00:00 UTC; 08:00 in London (UTC in winter) is later in UTC.
    tokyo = make_event(start=dt.datetime(2031, 1, 10, 9), timezone_name="Asia/Tokyo")
    london = make_event(start=dt.datetime(2031, 1, 10, 8), timezone_name="Europe/London")
    assert ids(get_list(api)) == [london.pk, tokyo.pk]
    settings.EVENTS = {"TIMEZONE_MODE": "site"}
    assert ids(get_list(api)) == [tokyo.pk, london.pk]


# --- search -------------------------------------------------------------------------------------


@pytest.fixture
def searchable(db):
    return {
        "jazz": at(days=0, title="Jazz night", description="Live band and dancing"),
        "jazz_brunch": at(days=1, title="Jazz brunch", excerpt="Eggs and coffee"),
        "rock": at(days=2, title="Rock concert", description="Loud guitars, live band"),
        "quiz": at(days=3, title="Pub quiz", description="Night of questions"),
    }


@pytest.mark.parametrize(
    "search,expected",
    [
        ("jazz", ["jazz", "jazz_brunch"]),
        ("JAZZ", ["jazz", "jazz_brunch"]),
        ("jazz night", ["jazz"]),
        ("night", ["jazz", "quiz"]),
        ("coffee", ["jazz_brunch"]),
        ("guitars", ["rock"]),
        ('"live band"', ["jazz", "rock"]),
        ('"band live"', []),
        ("jazz -brunch", ["jazz"]),
        ("live -jazz", ["rock"]),
        ("the jazz", ["jazz", "jazz_brunch"]),
        ("jazz,night", ["jazz"]),
        ("nothing-matches", []),
        ("100%", []),
    ],
    ids=[
        "word",
        "case-insensitive",
        "all-words",
        "title-or-description",
        "excerpt",
        "description",
        "phrase",
        "phrase-order",
        "exclusion",
        "exclusion-of-title",
        "stopword-ignored",
        "comma-separated",
        "no-match",
        "like-wildcards-are-literal",
    ],
)
def test_search(api, searchable, search, expected):
    assert ids(get_list(api, search=search)) == [searchable[name].pk for name in expected]


def test_search_of_only_stopwords_matches_the_sentence(api):
    event = at(title="To be or not")
    at(days=1, title="Something else")
    assert ids(get_list(api, search="to be")) == [event.pk]


def test_empty_search_is_400(api):
    refused(get_list(api, search=""), "search")


def test_search_is_echoed_in_the_links(api, searchable):
    body = get_list(api, search="jazz night", per_page=1).json()
    assert dict(query_of(body["rest_url"]))["search"] == "jazz night"
    assert "search=jazz%20night" in body["rest_url"]


# --- categories and tags ------------------------------------------------------------------------


@pytest.fixture
def tagged(db):
    music = make_category("Music")
    food = make_category("Food")
    year = make_category("2031")
    outdoor = make_tag("Outdoor")
    free = make_tag("Free")
    return {
        "music": music,
        "food": food,
        "year": year,
        "outdoor": outdoor,
        "free": free,
        "concert": at(days=0, categories=[music], tags=[outdoor]),
        "picnic": at(days=1, categories=[food], tags=[outdoor, free]),
        "dinner": at(days=2, categories=[food, music]),
        "plain": at(days=3),
    }


@pytest.mark.parametrize(
    "param,value,expected",
    [
        ("categories", "music", ["concert", "dinner"]),
        ("categories", "MUSIC", ["concert", "dinner"]),
        ("categories", "music,food", ["concert", "picnic", "dinner"]),
        ("categories", "{food}", ["picnic", "dinner"]),
        ("categories", "music, {food}", ["concert", "picnic", "dinner"]),
        ("tags", "outdoor", ["concert", "picnic"]),
        ("tags", "{free}", ["picnic"]),
    ],
    ids=["slug", "slug-any-case", "any-of-slugs", "id", "slug-and-id", "tag-slug", "tag-id"],
)
def test_term_filters(api, tagged, param, value, expected):
    value = value.format(**{name: record.pk for name, record in tagged.items()})
    assert ids(get_list(api, **{param: value})) == [tagged[name].pk for name in expected]


def test_term_filters_as_bracket_lists(api, tagged):
    response = api.get(
        f"{API}/events?start_date=2031-01-01&end_date=2031-12-31&categories[]=music&categories[]={tagged['food'].pk}"
    )
    assert ids(response) == [tagged[name].pk for name in ("concert", "picnic", "dinner")]


def test_categories_and_tags_combine_with_and(api, tagged):
    assert ids(get_list(api, categories="food", tags="outdoor")) == [tagged["picnic"].pk]


def test_slug_is_tried_before_the_id(api, tagged):
    numeric = make_category("Numbers", slug=str(tagged["food"].pk))
    event = at(days=4, categories=[numeric])
    assert ids(get_list(api, categories=str(tagged["food"].pk))) == [event.pk]


@pytest.mark.parametrize(
    "param,value",
    [
        ("categories", "nope"),
        ("categories", "999999"),
        ("categories", "outdoor"),
        ("tags", "music"),
        ("tags", "music,outdoor"),
    ],
    ids=["unknown-slug", "unknown-id", "tag-as-category", "category-as-tag", "one-unknown-of-two"],
)
def test_unknown_terms_are_400(api, tagged, param, value):
    refused(get_list(api, **{param: value}), param)


def test_terms_are_echoed_as_given(api, tagged):
    body = get_list(api, categories=f"music,{tagged['food'].pk}", tags="outdoor", per_page=1).json()
    query = dict(query_of(body["next_rest_url"]))
    assert query["categories"] == f"music,{tagged['food'].pk}"
    assert query["tags"] == "outdoor"
    assert ids(api.get(body["next_rest_url"])) == [tagged["picnic"].pk]


# --- venue and organizer ------------------------------------------------------------------------


def test_venue_and_organizer_filters(api):
    hall, park = make_venue("Hall"), make_venue("Park")
    alice, bob = make_organizer("Alice"), make_organizer("Bob")
    in_hall = at(days=0, venue=hall, organizers=[alice])
    in_park = at(days=1, venue=park, organizers=[bob, alice])
    nowhere = at(days=2)
    assert ids(get_list(api, venue=hall.pk)) == [in_hall.pk]
    assert ids(get_list(api, venue=f"{hall.pk}, {park.pk}")) == [in_hall.pk, in_park.pk]
    assert ids(get_list(api, organizer=alice.pk)) == [in_hall.pk, in_park.pk]
    assert ids(get_list(api, organizer=bob.pk, venue=hall.pk)) == []
    response = api.get(
        f"{API}/events?start_date=2031-01-01&end_date=2031-12-31&organizer[0]={bob.pk}&organizer[1]={alice.pk}"
    )
    assert ids(response) == [in_hall.pk, in_park.pk]
    assert nowhere.pk in ids(get_list(api))


def test_draft_venue_still_filters(api):
    draft_hall = make_venue("Hidden hall", status=PostStatus.DRAFT)
    event = at(venue=draft_hall)
    assert ids(get_list(api, venue=draft_hall.pk)) == [event.pk]


@pytest.mark.parametrize("param", ["venue", "organizer"])
@pytest.mark.parametrize(
    "value", ["foo", "999999", "event", "0", "-3"], ids=["word", "unknown", "event-id", "zero", "negative"]
)
def test_unknown_linked_records_are_400(api, param, value):
    event = at()
    refused(get_list(api, **{param: event.pk if value == "event" else value}), param)


def test_venue_and_organizer_are_echoed_as_csv(api):
    hall, alice = make_venue("Hall"), make_organizer("Alice")
    body = get_list(api, venue=hall.pk, organizer=alice.pk).json()
    query = dict(query_of(body["rest_url"]))
    assert (query["venue"], query["organizer"]) == (str(hall.pk), str(alice.pk))


# --- featured, ticketed, post_parent, include ---------------------------------------------------


@pytest.mark.parametrize(
    "value,expected",
    [("true", ["star"]), ("1", ["star"]), ("false", ["plain"]), ("0", ["plain"]), (None, ["star", "plain"])],
    ids=["true", "one", "false", "zero", "absent"],
)
def test_featured(api, value, expected):
    events = {"star": at(days=0, featured=True), "plain": at(days=1)}
    params = {} if value is None else {"featured": value}
    response = get_list(api, **params)
    assert ids(response) == [events[name].pk for name in expected]
    if value is not None:
        assert dict(query_of(response.json()["rest_url"]))["featured"] == ("1" if value in ("true", "1") else "0")


@pytest.mark.parametrize("value", ["yes", "on", "2", ""], ids=["yes", "on", "two", "empty"])
def test_featured_must_be_a_boolean(api, value):
    body = refused(get_list(api, featured=value), "featured")
    assert body["data"]["params"]["featured"] == "featured is not of type boolean."
    assert body["data"]["details"]["featured"]["code"] == "rest_invalid_type"


def test_ticketed_true_is_refused_because_there_is_no_ticketing(api):
    body = refused(get_list(api, ticketed="true"), "ticketed")
    assert "ticket" in body["data"]["params"]["ticketed"].lower()
    assert body["data"]["params"]["ticketed"] != "Invalid parameter."


def test_ticketed_false_filters_nothing_and_is_echoed(api):
    event = at()
    response = get_list(api, ticketed="false")
    assert ids(response) == [event.pk]
    assert dict(query_of(response.json()["rest_url"]))["ticketed"] == "0"


def test_post_parent(api):
    parent = at(days=0)
    child = at(days=1, post_parent=parent)
    at(days=2)
    response = get_list(api, post_parent=parent.pk)
    assert ids(response) == [child.pk]
    assert dict(query_of(response.json()["rest_url"]))["post_parent"] == str(parent.pk)


@pytest.mark.parametrize("value", ["foo-bar", "999999", "venue", "0"], ids=["word", "unknown", "venue-id", "zero"])
def test_post_parent_must_be_an_event(api, value):
    hall = make_venue()
    refused(get_list(api, post_parent=hall.pk if value == "venue" else value), "post_parent")


def test_include_restricts_ignores_dates_and_orders_by_publication(api):
    past = make_event(start=dt.datetime(2001, 1, 1, 10))
    later_published = at(days=0)
    first_published = at(days=5)
    other = at(days=1)
    from events.models import Event

    Event.objects.filter(pk=first_published.pk).update(date=dt.datetime(2020, 1, 1, tzinfo=dt.UTC))
    Event.objects.filter(pk=later_published.pk).update(date=dt.datetime(2021, 1, 1, tzinfo=dt.UTC))
    Event.objects.filter(pk=past.pk).update(date=dt.datetime(2022, 1, 1, tzinfo=dt.UTC))
    response = api.get(f"{API}/events", {"include": f"{past.pk},{later_published.pk},{first_published.pk}", **WINDOW})
    assert ids(response) == [first_published.pk, later_published.pk, past.pk]
    query = dict(query_of(response.json()["rest_url"]))
    assert query["include"] == f"{past.pk},{later_published.pk},{first_published.pk}"
    assert "start_date" not in query and "end_date" not in query
    assert other.pk not in ids(response)


def test_include_still_applies_visibility_and_other_filters(api):
    draft = at(status=PostStatus.DRAFT)
    star = at(days=1, featured=True)
    plain = at(days=2)
    assert ids(get_list(api, include=f"{draft.pk},{star.pk},{plain.pk}", featured="true")) == [star.pk]
    assert ids(get_list(api, include=f"{draft.pk}")) == []


@pytest.mark.parametrize("value", ["0", "-1", "foo", "1,bar"], ids=["zero", "negative", "word", "one-bad-item"])
def test_include_items_must_be_positive_integers(api, value):
    refused(get_list(api, include=value), "include")


def test_include_of_ids_beyond_64_bits_lists_nothing(api):
    assert ids(get_list(api, include=str(2**70))) == []


def test_hidden_events_are_never_listed(as_role):
    editor = as_role("editor")
    hidden = at(hide_from_listings=True)
    shown = at(days=1)
    assert ids(get_list(editor)) == [shown.pk]
    assert ids(get_list(editor, include=f"{hidden.pk},{shown.pk}")) == [shown.pk]
    assert ids(get_list(editor, status="any")) == [shown.pk]


# --- status and visibility ----------------------------------------------------------------------


@pytest.fixture
def statuses(as_role):
    """A contributor's client, and one event per status by that contributor ("own") and by an author."""
    owner = as_role("contributor")
    others = make_user("author")
    events = {}
    for offset, status in enumerate(PostStatus.values):
        events[(status, "own")] = at(days=offset * 2, status=status, author=owner.user)
        events[(status, "others")] = at(days=offset * 2 + 1, status=status, author=others)
    return owner, events


def listed_keys(response, events):
    by_id = {event.pk: key for key, event in events.items()}
    return [by_id[event_id] for event_id in ids(response)]


DEFAULT_VISIBLE = ["publish", "future", "draft", "pending", "private"]


@pytest.mark.parametrize("role", [None, "subscriber"])
def test_callers_who_may_not_edit_see_published_only(api, as_role, statuses, role):
    client = as_role(role) if role else api
    _, events = statuses
    response = get_list(client)
    assert listed_keys(response, events) == [("publish", "own"), ("publish", "others")]
    assert dict(query_of(response.json()["rest_url"]))["status"] == "publish"
    assert ids(get_list(client, status="publish")) == ids(response)


@pytest.mark.parametrize("role", [None, "subscriber"])
@pytest.mark.parametrize(
    "value",
    ["draft", "any", "publish,draft", "Publish", "", "publish,publish"],
    ids=["draft", "any", "with-draft", "capitalised", "empty", "repeated"],
)
def test_callers_who_may_not_edit_may_only_ask_for_publish(api, as_role, role, value):
    client = as_role(role) if role else api
    refused(get_list(client, status=value), "status")


@pytest.mark.parametrize("role", ["editor", "administrator"])
def test_editors_see_every_non_trashed_status_by_default(as_role, statuses, role):
    _, events = statuses
    response = get_list(as_role(role))
    assert listed_keys(response, events) == [(status, who) for status in DEFAULT_VISIBLE for who in ("own", "others")]
    assert dict(query_of(response.json()["rest_url"]))["status"] == "any"
    assert ids(get_list(as_role(role), status="any")) == ids(response)


def test_contributors_see_published_rows_and_only_their_own_unpublished(statuses):
    client, events = statuses
    response = get_list(client)
    expected = [("publish", "own"), ("publish", "others")] + [(status, "own") for status in DEFAULT_VISIBLE[1:]]
    assert sorted(listed_keys(response, events), key=lambda key: events[key].start_local) == sorted(
        expected, key=lambda key: events[key].start_local
    )
    assert listed_keys(get_list(client, status="draft"), events) == [("draft", "own")]
    assert listed_keys(get_list(client, status="trash"), events) == [("trash", "own")]


def test_authors_default_list_leaves_out_others_unpublished(as_role):
    author = as_role("author")
    mine = at(status=PostStatus.PRIVATE, author=author.user)
    theirs = at(days=1, status=PostStatus.PRIVATE, author=make_user("editor"))
    assert mine.pk in ids(get_list(author))
    assert theirs.pk not in ids(get_list(author))


@pytest.mark.parametrize(
    "value,expected",
    [
        ("trash", [("trash", "own"), ("trash", "others")]),
        ("draft, pending", [("draft", "own"), ("draft", "others"), ("pending", "own"), ("pending", "others")]),
        ("any,trash", [(status, who) for status in PostStatus.values for who in ("own", "others")]),
        ("auto-draft", []),
    ],
    ids=["trash", "csv", "any-and-trash", "registered-but-unused"],
)
def test_editors_filter_by_status(as_role, statuses, value, expected):
    _, events = statuses
    response = get_list(as_role("editor"), status=value, per_page=50)
    assert sorted(listed_keys(response, events), key=lambda key: events[key].start_local) == sorted(
        expected, key=lambda key: events[key].start_local
    )
    assert dict(query_of(response.json()["rest_url"]))["status"] == ",".join(part.strip() for part in value.split(","))


def test_status_as_bracket_list(as_role, statuses):
    _, events = statuses
    response = as_role("editor").get(
        f"{API}/events?start_date=2031-01-01&end_date=2031-12-31&status[0]=future&status[1]=private"
    )
    assert {status for status, _ in listed_keys(response, events)} == {"future", "private"}


@pytest.mark.parametrize("value", ["foo", "foo, bar, publish", "1"], ids=["unknown", "unknown-among-known", "number"])
def test_editors_get_400_for_unknown_statuses(as_role, value):
    refused(get_list(as_role("editor"), status=value), "status")


def test_lists_never_refuse_with_401_or_403(api, as_role):
    at(status=PostStatus.PRIVATE)
    for client in (api, as_role("subscriber"), as_role("contributor")):
        response = get_list(client)
        assert response.status_code == 200
        assert response.json()["total"] == 0


# --- geolocation --------------------------------------------------------------------------------


@pytest.fixture
def mapped(db):
    # Frascati is ~19 km from central Rome, Naples ~190 km.
    rome = make_venue("Colosseum", geo_lat=41.8902, geo_lng=12.4922)
    frascati = make_venue("Villa Aldobrandini", geo_lat=41.8089, geo_lng=12.6805)
    naples = make_venue("Teatro San Carlo", geo_lat=40.8375, geo_lng=14.2497)
    unmapped = make_venue("Somewhere")
    zero = make_venue("Null island", geo_lat=0.0, geo_lng=0.0)
    return {
        "rome": at(days=0, venue=rome),
        "frascati": at(days=1, venue=frascati),
        "naples": at(days=2, venue=naples),
        "unmapped": at(days=3, venue=unmapped),
        "zero": at(days=4, venue=zero),
        "no_venue": at(days=5),
    }


@pytest.mark.parametrize(
    "value,expected",
    [("true", ["rome", "frascati", "naples"]), ("false", ["unmapped", "zero", "no_venue"])],
    ids=["with-coordinates", "without-coordinates"],
)
def test_geoloc(api, mapped, value, expected):
    response = get_list(api, geoloc=value)
    assert ids(response) == [mapped[name].pk for name in expected]
    assert dict(query_of(response.json()["rest_url"]))["geoloc"] == ("1" if value == "true" else "0")


def test_geoloc_point_keeps_venues_within_the_radius(api, mapped):
    response = get_list(api, geoloc_lat="41.9028", geoloc_lng="12.4964")
    assert ids(response) == [mapped["rome"].pk, mapped["frascati"].pk]
    query = dict(query_of(response.json()["rest_url"]))
    assert (float(query["geoloc_lat"]), float(query["geoloc_lng"])) == (41.9028, 12.4964)


def test_geoloc_radius_is_a_setting(api, mapped, settings):
    settings.EVENTS = {"GEOLOC_RADIUS_KM": 5}
    assert ids(get_list(api, geoloc_lat=41.9028, geoloc_lng=12.4964)) == [mapped["rome"].pk]
    settings.EVENTS = {"GEOLOC_RADIUS_KM": 250}
    assert ids(get_list(api, geoloc_lat=41.9028, geoloc_lng=12.4964)) == [
        mapped["rome"].pk,
        mapped["frascati"].pk,
        mapped["naples"].pk,
    ]


def test_geoloc_point_across_the_antimeridian(api):
    # Taveuni (Fiji) straddles 180°: a venue at -179.98 is ~4 km from a point at 179.98.
    east = at(venue=make_venue("East", geo_lat=-16.8, geo_lng=-179.98))
    west = at(days=1, venue=make_venue("West", geo_lat=-16.8, geo_lng=179.98))
    at(days=2, venue=make_venue("Far", geo_lat=-16.8, geo_lng=178.0))
    assert ids(get_list(api, geoloc_lat=-16.8, geoloc_lng=179.99)) == [east.pk, west.pk]


def test_geoloc_point_near_a_pole(api):
    station = at(venue=make_venue("Station", geo_lat=89.95, geo_lng=100.0))
    assert ids(get_list(api, geoloc_lat=89.95, geoloc_lng=-80.0)) == [station.pk]


@pytest.mark.parametrize(
    "params,named",
    [
        ({"geoloc_lat": "41.9"}, "geoloc_lng"),
        ({"geoloc_lng": "12.5"}, "geoloc_lat"),
        ({"geoloc_lat": "91", "geoloc_lng": "12"}, "geoloc_lat"),
        ({"geoloc_lat": "41", "geoloc_lng": "-180.5"}, "geoloc_lng"),
        ({"geoloc_lat": "north", "geoloc_lng": "12"}, "geoloc_lat"),
        ({"geoloc_lat": "nan", "geoloc_lng": "12"}, "geoloc_lat"),
        ({"geoloc": "maybe"}, "geoloc"),
    ],
    ids=["lat-alone", "lng-alone", "lat-out-of-range", "lng-out-of-range", "lat-word", "lat-nan", "geoloc-not-boolean"],
)
def test_bad_geolocation_is_400(api, params, named):
    refused(get_list(api, **params), named)


# --- combinations and links ---------------------------------------------------------------------


def test_filters_combine_and_the_next_link_keeps_them_all(api):
    hall = make_venue("Hall")
    music = make_category("Music")
    matching = [at(days=n, venue=hall, categories=[music], featured=True, title=f"Jazz {n}") for n in range(3)]
    at(days=4, venue=hall, categories=[music], title="Jazz off")
    at(days=5, categories=[music], featured=True, title="Jazz elsewhere")
    first = get_list(api, venue=hall.pk, categories="music", featured="1", search="jazz", per_page=2)
    assert ids(first) == [event.pk for event in matching[:2]]
    assert first.json()["total"] == 3
    keys = [key for key, _ in query_of(first.json()["next_rest_url"])]
    assert keys == [
        "per_page",
        "start_date",
        "end_date",
        "search",
        "status",
        "venue",
        "featured",
        "categories",
        "page",
    ]
    assert ids(api.get(first.json()["next_rest_url"])) == [matching[2].pk]


def test_trailing_slash_route_and_rest_url_form(api):
    event = at()
    response = api.get(f"{API}/events/", WINDOW)
    assert ids(response) == [event.pk]
    assert response.json()["rest_url"].startswith("http://testserver/wp-json/tribe/events/v1/events/?page=1&")


def test_language_parameter_is_kept_in_the_links(api):
    at(title="One")
    at(days=1, title="Two", title_zh_hant="二")
    first = get_list(api, per_page=1, wpml_language="zh-hant")
    assert dict(query_of(first.json()["next_rest_url"]))["wpml_language"] == "zh-hant"
    assert [event["title"] for event in api.get(first.json()["next_rest_url"]).json()["events"]] == ["二"]


# --- query count --------------------------------------------------------------------------------


@pytest.fixture
def busy_calendar(db):
    """60 events, each with an image, a venue with an image, two organizers, two categories and a tag."""
    poster = make_image("poster.png", size=(32, 32))
    venues = [make_venue(f"Hall {n}", image=poster, geo_lat=41.9, geo_lng=12.5) for n in range(3)]
    organizers = [make_organizer(f"Crew {n}", image=poster) for n in range(4)]
    parent = make_category("Arts")
    categories = [make_category(f"Genre {n}", parent=parent) for n in range(3)]
    tags = [make_tag(f"Mood {n}") for n in range(3)]
    for n in range(60):
        at(
            days=n % 20,
            hours=n,
            image=poster,
            venue=venues[n % 3],
            organizers=[organizers[n % 4], organizers[(n + 1) % 4]],
            categories=[categories[n % 3], parent],
            tags=[tags[n % 3]],
            password="pw" if n % 7 == 0 else "",
        )


# The page with its total, the stored event records, the stored records they embed. Authentication
# and the role lookup (user, then user and group permissions) count too.
LIST_QUERIES = {None: 3, "editor": 6}
# A page whose records are not stored yet builds them (the page, its events with their links) and
# stores them (each kind read, rendered and inserted in one batch): more, but as many for 1 as for 50.
COLD_LIST_QUERIES = 26


@pytest.mark.parametrize("per_page", [1, 50])
@pytest.mark.parametrize("role", [None, "editor"], ids=["anonymous", "editor"])
def test_list_query_count_does_not_grow_with_the_page(
    api, as_role, busy_calendar, django_assert_max_num_queries, role, per_page
):
    client = as_role(role) if role else api
    with django_assert_max_num_queries(COLD_LIST_QUERIES + LIST_QUERIES[role] - LIST_QUERIES[None]):
        cold = get_list(client, per_page=per_page)
    with django_assert_max_num_queries(LIST_QUERIES[role]):
        response = get_list(client, per_page=per_page)
    assert len(ids(response)) == per_page
    assert response.json()["total"] == 60
    assert response.content == cold.content


@pytest.mark.parametrize("per_page", [1, 50])
def test_filtered_list_query_count_does_not_grow_with_the_page(
    api, busy_calendar, django_assert_max_num_queries, per_page
):
    # One more query per validated reference filter (categories, tags, venue, organizer).
    params = {"categories": "arts", "search": "event", "geoloc_lat": 41.9, "geoloc_lng": 12.5, "featured": "false"}
    # On PostgreSQL a search's statements run between two that set and restore its planner settings.
    planner_settings = 2 if connection.vendor == "postgresql" else 0
    with django_assert_max_num_queries(COLD_LIST_QUERIES + 1 + planner_settings):
        get_list(api, per_page=per_page, **params)
    with django_assert_max_num_queries(4 + planner_settings):
        response = get_list(api, per_page=per_page, **params)
    assert len(ids(response)) == per_page


@pytest.mark.parametrize("param", ["categories", "tags", "venue", "organizer", "include"])
def test_empty_list_filters_filter_nothing(api, param):
    event = at()
    response = get_list(api, **{param: ""})
    assert ids(response) == [event.pk]
    assert param not in dict(query_of(response.json()["rest_url"]))
