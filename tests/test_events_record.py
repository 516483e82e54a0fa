"""The event record of docs/contract/events.md §1: the whole shape pinned by golden tests, then each field's rules."""

import datetime as dt

import pytest
from django.utils import timezone

from events.models import Event, Organizer, PostStatus, Venue

from .conftest import API
from .factories import make_category, make_event, make_image, make_organizer, make_tag, make_user, make_venue

pytestmark = pytest.mark.django_db


PUBLISHED = dt.datetime(2017, 1, 5, 14, 23, 36, tzinfo=dt.UTC)
MODIFIED = dt.datetime(2017, 1, 6, 9, 0, 0, tzinfo=dt.UTC)


def details(text):
    day, time = text.split(" ")
    year, month, dom = day.split("-")
    hour, minutes, seconds = time.split(":")
    return {"year": year, "month": month, "day": dom, "hour": hour, "minutes": minutes, "seconds": seconds}


def pin_dates(event, published=PUBLISHED, modified=MODIFIED):
    """Fixed publication and modification times (`modified` is otherwise stamped on save)."""
    Event.objects.filter(pk=event.pk).update(date=published, modified=modified)


def read(client, event, **params):
    response = client.get(f"{API}/events/{event.pk}", params)
    assert response.status_code == 200, response.json()
    return response.json()


def listed(client, **params):
    response = client.get(f"{API}/events", {"start_date": "2000-01-01", **params})
    assert response.status_code == 200, response.json()
    return response.json()["events"]


def test_golden_record_of_an_event_without_links(api, settings):
    settings.TIME_ZONE = "America/New_York"
    author = make_user("author")
    event = make_event(
        "Event 01",
        start=dt.datetime(2017, 1, 5, 14, 23, 36),
        end=dt.datetime(2017, 1, 5, 16, 23, 36),
        timezone_name="America/New_York",
        slug="event-01",
        author=author,
        description="Event 01 description",
        excerpt="Event 01 excerpt",
        cost=["23"],
        currency_symbol="$",
        currency_position="prefix",
        website="http://tri.be/?a=1&b=2",
    )
    pin_dates(event)
    site = "http://testserver"
    gid = f"testserver?id={event.pk}"
    expected = {
        "id": event.pk,
        "global_id": gid,
        "global_id_lineage": [gid],
        "author": str(author.pk),
        "status": "publish",
        "date": "2017-01-05 09:23:36",
        "date_utc": "2017-01-05 14:23:36",
        "modified": "2017-01-06 04:00:00",
        "modified_utc": "2017-01-06 09:00:00",
        "url": f"{site}/event/event-01/",
        "rest_url": f"{site}/wp-json/tribe/events/v1/events/{event.pk}",
        "title": "Event 01",
        "description": "<p>Event 01 description</p>",
        "excerpt": "<p>Event 01 excerpt</p>",
        "slug": "event-01",
        "image": False,
        "all_day": False,
        "start_date": "2017-01-05 14:23:36",
        "start_date_details": details("2017-01-05 14:23:36"),
        "end_date": "2017-01-05 16:23:36",
        "end_date_details": details("2017-01-05 16:23:36"),
        "utc_start_date": "2017-01-05 19:23:36",
        "utc_start_date_details": details("2017-01-05 19:23:36"),
        "utc_end_date": "2017-01-05 21:23:36",
        "utc_end_date_details": details("2017-01-05 21:23:36"),
        "timezone": "America/New_York",
        "timezone_abbr": "EST",
        "cost": "$23",
        "cost_details": {"currency_symbol": "$", "currency_code": "", "currency_position": "prefix", "values": ["23"]},
        "website": "http://tri.be/?a=1&amp;b=2",
        "show_map": True,
        "show_map_link": True,
        "hide_from_listings": False,
        "sticky": False,
        "featured": False,
        "categories": [],
        "tags": [],
        "venue": [],
        "organizer": [],
        "custom_fields": [],
        "json_ld": {
            "@context": "http://schema.org",
            "@type": "Event",
            "name": "Event 01",
            "description": "<p>Event 01 excerpt</p>",
            "url": f"{site}/event/event-01/",
            "startDate": "2017-01-05T14:23:36-05:00",
            "endDate": "2017-01-05T16:23:36-05:00",
            "offers": {
                "@type": "Offer",
                "price": "23",
                "priceCurrency": "USD",
                "url": f"{site}/event/event-01/",
                "category": "primary",
                "availability": "inStock",
                "validFrom": "2017-01-05T00:00:00+00:00",
            },
            "performer": "Organization",
            "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
            "eventStatus": "https://schema.org/EventScheduled",
        },
    }
    body = read(api, event)
    assert body == expected
    assert list(body) == list(expected)
    assert list(body["cost_details"]) == ["currency_symbol", "currency_code", "currency_position", "values"]
    without_json_ld = {key: value for key, value in expected.items() if key != "json_ld"}
    assert listed(api) == [without_json_ld]


def test_golden_record_with_image_venue_organizers_and_terms(api, settings):
    settings.TIME_ZONE = "UTC"
    image = make_image("poster.png", size=(640, 480))
    venue = make_venue(
        "Town Hall",
        slug="town-hall",
        description="The big hall",
        address="1 Main St",
        city="Springfield",
        country="United States",
        state="IL",
        zip="62701",
        phone="555-0100",
        website="https://hall.example",
        stateprovince="IL",
        geo_lat=39.8,
        geo_lng=-89.65,
    )
    bea = make_organizer("Bea", slug="bea", email="bea@example.org")
    al = make_organizer("Al & Co", slug="al-co", phone="555-0199", website="https://al.example")
    music = make_category("Music", slug="music", description="Loud")
    arts = make_category("Arts", slug="arts")
    jazz = make_category("Jazz", slug="jazz", parent=music)
    outdoor = make_tag("Outdoor", slug="outdoor")
    event = make_event(
        "Open air",
        start=dt.datetime(2030, 6, 1, 18, 0),
        end=dt.datetime(2030, 6, 1, 22, 0),
        slug="open-air",
        image=image,
        venue=venue,
        organizers=[bea, al],
        categories=[music, jazz, arts],
        tags=[outdoor],
        cost=["0"],
        featured=True,
        sticky=True,
        show_map=False,
    )
    pin_dates(event)
    for model, record in ((Venue, venue), (Organizer, bea), (Organizer, al)):
        model.objects.filter(pk=record.pk).update(date=PUBLISHED, modified=MODIFIED)
    site, ns = "http://testserver", "http://testserver/wp-json/tribe/events/v1"

    def gid(record_id):
        return f"testserver?id={record_id}"

    def dates_of(text_date="2017-01-05 14:23:36", text_modified="2017-01-06 09:00:00"):
        return {"date": text_date, "date_utc": text_date, "modified": text_modified, "modified_utc": text_modified}

    def term(record, taxonomy, collection, count=1, parent=0, description=""):
        urls = {"self": f"{ns}/{collection}/{record.pk}", "collection": f"{ns}/{collection}"}
        if parent:
            urls["up"] = f"{ns}/{collection}/{parent}"
        return {
            "name": record.name,
            "slug": record.slug,
            "term_group": 0,
            "term_taxonomy_id": record.pk,
            "taxonomy": taxonomy,
            "description": description,
            "parent": parent,
            "count": count,
            "filter": "raw",
            "id": record.pk,
            "urls": urls,
        }

    expected = {
        "id": event.pk,
        "global_id": gid(event.pk),
        "global_id_lineage": [gid(event.pk)],
        "author": "0",
        "status": "publish",
        **dates_of(),
        "url": f"{site}/event/open-air/",
        "rest_url": f"{ns}/events/{event.pk}",
        "title": "Open air",
        "description": "",
        "excerpt": "",
        "slug": "open-air",
        "image": {
            "url": f"{site}/media/{image.file.name}",
            "id": image.pk,
            "extension": "png",
            "width": 640,
            "height": 480,
            "filesize": image.filesize,
        },
        "all_day": False,
        "start_date": "2030-06-01 18:00:00",
        "start_date_details": details("2030-06-01 18:00:00"),
        "end_date": "2030-06-01 22:00:00",
        "end_date_details": details("2030-06-01 22:00:00"),
        "utc_start_date": "2030-06-01 18:00:00",
        "utc_start_date_details": details("2030-06-01 18:00:00"),
        "utc_end_date": "2030-06-01 22:00:00",
        "utc_end_date_details": details("2030-06-01 22:00:00"),
        "timezone": "UTC",
        "timezone_abbr": "UTC",
        "cost": "Free",
        "cost_details": {"currency_symbol": "", "currency_code": "", "currency_position": "", "values": ["0"]},
        "website": f"{site}/event/open-air/",
        "show_map": False,
        "show_map_link": True,
        "hide_from_listings": False,
        "sticky": True,
        "featured": True,
        "categories": [
            term(arts, "tribe_events_cat", "categories"),
            term(jazz, "tribe_events_cat", "categories", parent=music.pk),
            term(music, "tribe_events_cat", "categories", description="Loud"),
        ],
        "tags": [term(outdoor, "post_tag", "tags")],
        "venue": {
            "id": venue.pk,
            "status": "publish",
            **dates_of(),
            "url": f"{site}/venue/town-hall/",
            "venue": "Town Hall",
            "description": "<p>The big hall</p>",
            "slug": "town-hall",
            "address": "1 Main St",
            "city": "Springfield",
            "country": "United States",
            "state": "IL",
            "zip": "62701",
            "phone": "555-0100",
            "website": "https://hall.example",
            "stateprovince": "IL",
            "geo_lat": 39.8,
            "geo_lng": -89.65,
            "show_map": True,
            "show_map_link": True,
            "global_id": gid(venue.pk),
            "global_id_lineage": [gid(venue.pk)],
        },
        "organizer": [
            {
                "id": bea.pk,
                "status": "publish",
                **dates_of(),
                "url": f"{site}/organizer/bea/",
                "organizer": "Bea",
                "slug": "bea",
                "email": "bea@example.org",
                "global_id": gid(bea.pk),
                "global_id_lineage": [gid(bea.pk)],
            },
            {
                "id": al.pk,
                "status": "publish",
                **dates_of(),
                "url": f"{site}/organizer/al-co/",
                "organizer": "Al &#038; Co",
                "slug": "al-co",
                "phone": "555-0199",
                "website": "https://al.example",
                "global_id": gid(al.pk),
                "global_id_lineage": [gid(al.pk)],
            },
        ],
        "custom_fields": [],
    }
    (record,) = api.get(f"{API}/events", {"start_date": "2030-06-01", "end_date": "2030-06-01"}).json()["events"]
    assert record == expected
    assert list(record) == list(expected)
    assert list(record["venue"]) == list(expected["venue"])
    assert [list(organizer) for organizer in record["organizer"]] == [list(item) for item in expected["organizer"]]

    single = read(api, event)
    venue_json_ld = single["venue"].pop("json_ld")
    organizer_json_lds = [organizer.pop("json_ld") for organizer in single["organizer"]]
    assert venue_json_ld["@type"] == "Place"
    assert [item["@type"] for item in organizer_json_lds] == ["Person", "Person"]
    event_json_ld = single.pop("json_ld")
    assert single == expected
    assert event_json_ld == {
        "@context": "http://schema.org",
        "@type": "Event",
        "name": "Open air",
        "description": "",
        "image": f"{site}/media/{image.file.name}",
        "url": f"{site}/event/open-air/",
        "startDate": "2030-06-01T18:00:00+00:00",
        "endDate": "2030-06-01T22:00:00+00:00",
        "location": {
            "@type": "Place",
            "name": "Town Hall",
            "description": "<p>The big hall</p>",
            "url": f"{site}/venue/town-hall/",
            "address": {
                "@type": "PostalAddress",
                "streetAddress": "1 Main St",
                "addressLocality": "Springfield",
                "addressRegion": "IL",
                "postalCode": "62701",
                "addressCountry": "United States",
            },
            "geo": {"@type": "GeoCoordinates", "latitude": 39.8, "longitude": -89.65},
            "telephone": "555-0100",
            "sameAs": "https://hall.example",
        },
        "organizer": {
            "@type": "Person",
            "name": "Bea",
            "description": "",
            "url": "",
            "telephone": "",
            "email": "bea@example.org",
            "sameAs": "",
        },
        "offers": {
            "@type": "Offer",
            "price": "0",
            "priceCurrency": "USD",
            "url": f"{site}/event/open-air/",
            "category": "primary",
            "availability": "inStock",
            "validFrom": "2017-01-05T00:00:00+00:00",
        },
        "performer": "Organization",
        "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
        "eventStatus": "https://schema.org/EventScheduled",
    }


# --- field rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "stored,expected",
    [
        (None, "page"),
        ("", ""),
        ("https://example.org/tickets?x=1&y=2", "https://example.org/tickets?x=1&amp;y=2"),
        ("  https://example.org  ", "https://example.org"),
    ],
    ids=["never-stored-is-the-event-page", "stored-empty", "ampersand-escaped", "trimmed"],
)
def test_website(api, stored, expected):
    event = make_event(slug="site-test", website=stored)
    body = read(api, event)
    assert body["website"] == (body["url"] if expected == "page" else expected)


@pytest.mark.parametrize(
    "stored,expected", [(None, True), (True, True), (False, False)], ids=["never-stored", "true", "false"]
)
def test_map_flags_read_true_when_never_stored(api, stored, expected):
    event = make_event(show_map=stored, show_map_link=stored)
    body = read(api, event)
    assert body["show_map"] is expected
    assert body["show_map_link"] is expected


@pytest.mark.parametrize(
    "cost,symbol,position,expected_cost,expected_values",
    [
        ([], "", "", "", []),
        (["23"], "", "", "$23", ["23"]),
        (["20$"], "$", "postfix", "20$", ["20"]),
        (["0$", "20$", "30$"], "$", "postfix", "Free \u2013 30$", ["0", "20", "30"]),
        (["\u20ac6.50 - \u20ac8.50"], "\u20ac", "prefix", "\u20ac6.50 \u2013 \u20ac8.50", ["6.50", "8.50"]),
        (["Donation"], "", "", "Donation", ["donation"]),
    ],
    ids=["none", "default-symbol", "postfix", "free-range", "euro-range", "words"],
)
def test_cost_and_cost_details(api, cost, symbol, position, expected_cost, expected_values):
    event = make_event(cost=cost, currency_symbol=symbol, currency_position=position)
    body = read(api, event)
    assert body["cost"] == expected_cost
    assert body["cost_details"] == {
        "currency_symbol": symbol,
        "currency_code": "",
        "currency_position": position,
        "values": expected_values,
    }


def test_default_currency_symbol_is_a_setting(api, settings):
    settings.EVENTS = {"DEFAULT_CURRENCY_SYMBOL": "\u00a5"}
    event = make_event(cost=["80"])
    assert read(api, event)["cost"] == "\u00a580"


def test_title_is_texturized_and_text_is_paragraphed(api):
    event = make_event('Rock & "Roll" -- it\'s on...', description="Line one\nLine two\n\nSecond paragraph", excerpt="")
    body = read(api, event)
    assert body["title"] == "Rock &#038; &#8220;Roll&#8221; &#8212; it&#8217;s on&#8230;"
    assert body["description"] == "<p>Line one<br />\nLine two</p>\n<p>Second paragraph</p>"
    assert body["excerpt"] == ""


def test_author_is_a_string_and_zero_without_author(api):
    user = make_user("author")
    assert read(api, make_event(author=user))["author"] == str(user.pk)
    assert read(api, make_event(author=None))["author"] == "0"


@pytest.mark.parametrize("status", [PostStatus.DRAFT, PostStatus.PENDING, PostStatus.FUTURE])
def test_unpublished_events_link_by_query_string(as_role, status):
    client = as_role("editor")
    event = make_event(status=status, slug="" if status != PostStatus.FUTURE else "later")
    body = read(client, event)
    assert body["url"] == f"http://testserver/?post_type=tribe_events&p={event.pk}"
    assert body["status"] == status


def test_all_day_event_runs_from_midnight_to_last_second(api):
    event = make_event(start=dt.datetime(2030, 5, 1, 15), end=dt.datetime(2030, 5, 2, 9), all_day=True)
    body = read(api, event)
    assert body["all_day"] is True
    assert (body["start_date"], body["end_date"]) == ("2030-05-01 00:00:00", "2030-05-02 23:59:59")


@pytest.mark.parametrize(
    "zone,start,expected_utc,abbr",
    [
        ("America/New_York", dt.datetime(2030, 7, 1, 20), "2030-07-02 00:00:00", "EDT"),
        ("Asia/Shanghai", dt.datetime(2030, 1, 1, 8), "2030-01-01 00:00:00", "CST"),
        ("UTC+5", dt.datetime(2030, 1, 1, 5), "2030-01-01 00:00:00", "UTC+5"),
        ("UTC-3.5", dt.datetime(2030, 1, 1, 0), "2030-01-01 03:30:00", "UTC-3.5"),
    ],
    ids=["new-york-summer", "shanghai", "offset", "half-hour-offset"],
)
def test_event_zone_fields(api, zone, start, expected_utc, abbr):
    event = make_event(start=start, end=start + dt.timedelta(hours=1), timezone_name=zone)
    body = read(api, event)
    assert body["start_date"] == start.strftime("%Y-%m-%d %H:%M:%S")
    assert body["utc_start_date"] == expected_utc
    assert body["utc_start_date_details"] == details(expected_utc)
    assert (body["timezone"], body["timezone_abbr"]) == (zone, abbr)


def test_event_never_given_a_zone_reads_empty_zone_fields(api):
    event = make_event(timezone_name="")
    body = read(api, event)
    assert (body["timezone"], body["timezone_abbr"]) == ("", "")


def test_publication_dates_follow_the_site_zone(api, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    event = make_event()
    pin_dates(event, published=dt.datetime(2020, 12, 31, 20, 0, tzinfo=dt.UTC))
    body = read(api, event)
    assert (body["date"], body["date_utc"]) == ("2021-01-01 04:00:00", "2020-12-31 20:00:00")


def test_global_id_uses_the_host_without_port(api):
    event = make_event()
    body = api.get(f"{API}/events/{event.pk}", SERVER_PORT="8000", HTTP_HOST="localhost:8000").json()
    assert body["global_id"] == f"localhost?id={event.pk}"
    assert body["rest_url"] == f"http://localhost:8000/wp-json/tribe/events/v1/events/{event.pk}"


def test_translated_text_falls_back_to_english(api):
    event = make_event("Lantern festival", description="Lanterns", title_zh_hans="灯会")
    zh = api.get(f"/zh-hans{API}/events/{event.pk}").json()
    assert (zh["title"], zh["description"]) == ("灯会", "<p>Lanterns</p>")
    assert zh["url"].startswith("http://testserver/zh-hans/")
    by_param = api.get(f"{API}/events/{event.pk}", {"wpml_language": "zh-hans"}).json()
    assert by_param["title"] == "灯会"
    assert api.get(f"/zh-hant{API}/events/{event.pk}").json()["title"] == "Lantern festival"


# --- json_ld ------------------------------------------------------------------------------------


def test_json_ld_description_falls_back_to_the_first_words_of_the_content(api):
    words = " ".join(f"w{n}" for n in range(60))
    event = make_event(description=words, excerpt="")
    json_ld = read(api, event)["json_ld"]
    assert json_ld["description"] == "<p>" + " ".join(f"w{n}" for n in range(55)) + "&hellip;</p>"


def test_json_ld_name_is_escaped_for_scripts(api):
    event = make_event('A <b>bold</b> "move" \\ here')
    assert read(api, event)["json_ld"]["name"] == "A &lt;b&gt;bold&lt;/b&gt; &#8220;move&#8221; \\\\ here"


@pytest.mark.parametrize(
    "cost,code,price,currency",
    [(["0"], "", "0", "USD"), (["10 - 20"], "EUR", "10", "EUR"), ([], "", None, None)],
    ids=["free", "range-with-code", "no-cost"],
)
def test_json_ld_offers(api, cost, code, price, currency):
    event = make_event(cost=cost, currency_code=code)
    json_ld = read(api, event)["json_ld"]
    if price is None:
        assert "offers" not in json_ld
    else:
        assert (json_ld["offers"]["price"], json_ld["offers"]["priceCurrency"]) == (price, currency)


def test_json_ld_is_absent_from_lists(api):
    make_event()
    assert all("json_ld" not in record for record in listed(api))


# --- password blanking in lists (docs/contract/events.md §1.6) ------------------------------------------------


def test_protected_events_are_listed_blanked(api):
    event = make_event(
        "Members night",
        password="pw",
        description="Secret",
        excerpt="Hush",
        cost=["5"],
        website="https://example.org",
        featured=True,
    )
    (record,) = listed(api)
    assert record["id"] == event.pk
    assert record["title"] == "Members night"
    assert (record["description"], record["excerpt"], record["cost"], record["website"]) == ("", "", "", "")
    assert record["image"] is False
    for flag in ("all_day", "show_map", "show_map_link", "hide_from_listings", "sticky", "featured"):
        assert record[flag] is None
    for key in ("categories", "tags", "venue", "organizer", "custom_fields"):
        assert record[key] == []
    assert record["cost_details"] == {"currency_symbol": "", "currency_position": "", "currency_code": "", "values": []}
    assert list(record["cost_details"]) == ["currency_symbol", "currency_position", "currency_code", "values"]
    assert record["start_date"] == event.start_local.strftime("%Y-%m-%d %H:%M:%S")


def test_list_unblanks_with_the_password_or_edit_context(api, as_role):
    make_event(password="pw", description="Secret")
    assert listed(api, password="pw")[0]["description"] == "<p>Secret</p>"
    assert listed(api, password="nope")[0]["description"] == ""
    assert listed(api, context="edit")[0]["description"] == ""
    assert listed(as_role("editor"), context="edit")[0]["description"] == "<p>Secret</p>"


def test_modified_is_the_last_save(api):
    event = make_event()
    before = timezone.now().astimezone(dt.UTC).replace(microsecond=0, tzinfo=None)
    event.title = "Renamed"
    event.save()
    modified = dt.datetime.strptime(read(api, event)["modified_utc"], "%Y-%m-%d %H:%M:%S")
    assert modified >= before


# --- embedded venue and organizers ----------------------------------------------------------------


def test_embedded_linked_records_show_whatever_their_status(api):
    venue = make_venue("Back room", status=PostStatus.DRAFT)
    organizer = make_organizer("Quiet crew", status=PostStatus.PENDING)
    event = make_event(venue=venue, organizers=[organizer])
    body = read(api, event)
    assert (body["venue"]["id"], body["venue"]["status"]) == (venue.pk, "draft")
    assert [item["status"] for item in body["organizer"]] == ["pending"]


def test_deleted_venue_reads_as_an_empty_list(api):
    venue = make_venue("Demolished")
    event = make_event(venue=venue)
    venue.delete()
    assert read(api, event)["venue"] == []


def test_protected_venue_is_blanked_inside_the_event(api):
    venue = make_venue("Secret garden", password="pw", address="Hidden lane")
    event = make_event(venue=venue)
    embedded = read(api, event, password="pw")["venue"]
    assert (embedded["venue"], embedded["address"]) == ([], "")


def test_categories_sort_by_their_name_in_the_active_language(api):
    first_in_english = make_category("Apples", name_zh_hans="香果")
    second_in_english = make_category("Bananas", name_zh_hans="苹蕉")
    event = make_event(categories=[first_in_english, second_in_english])
    assert [item["slug"] for item in read(api, event)["categories"]] == ["apples", "bananas"]
    zh = api.get(f"/zh-hans{API}/events/{event.pk}").json()
    assert [item["name"] for item in zh["categories"]] == ["苹蕉", "香果"]
