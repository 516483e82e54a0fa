"""schema.org JSON-LD of events, venues and organizers (docs/contract/events.md §1.5): the `json_ld` of
the API's records, the store's JSON-LD rows and the public pages' embedded documents."""

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

from ..conf import events_settings
from ..cost import cost_values
from ..dates import zone_for
from ..models import PostKind
from ..text import autop, escape_html, excerpt_words, texturize
from ..translation import shown_text
from .images import image_record
from .links import post_url

EXCERPT_WORDS = 55
SCHEMA_CONTEXT = "http://schema.org"
_ENCODED_APOSTROPHE = re.compile(r"&#(x)?0*(?(1)27|39);?", re.IGNORECASE)


def escape_js(text):
    """WordPress `esc_js`: HTML special characters escaped, quotes slashed, one line."""
    safe = _ENCODED_APOSTROPHE.sub("'", escape_html(text)).replace("\r", "")
    safe = safe.replace("\\", "\\\\").replace("'", "\\'").replace('"', '\\"').replace("\0", "\\0")
    return safe.replace("\n", "\\n")


def short_description(record):
    """The excerpt, else the first words of the content, as one HTML paragraph."""
    text = (shown_text(record, "excerpt") or "").strip() or excerpt_words(
        shown_text(record, "description") or "", EXCERPT_WORDS
    )
    return autop(text)


def _with_image(data, attachment, request):
    url = image_record(attachment, request).get("url") if attachment is not None else None
    if url:
        data["image"] = url


def venue_json_ld(venue, request):
    """A venue as a schema.org Place (no `@context`: it is embedded or added by the caller)."""
    data = {
        "@type": "Place",
        "name": escape_js(texturize(shown_text(venue, "title") or "")),
        "description": short_description(venue),
    }
    _with_image(data, venue.image, request)
    data["url"] = post_url(request, venue)
    parts = {
        "streetAddress": venue.address,
        "addressLocality": venue.city,
        "addressRegion": venue.state or venue.province,
        "postalCode": venue.zip,
        "addressCountry": venue.country,
    }
    address = {key: value for key, value in parts.items() if value}
    if address:
        data["address"] = {"@type": "PostalAddress", **address}
    if venue.has_coordinates:
        data["geo"] = {"@type": "GeoCoordinates", "latitude": venue.geo_lat, "longitude": venue.geo_lng}
    data["telephone"] = venue.phone
    data["sameAs"] = venue.website
    return data


def organizer_json_ld(organizer, request):
    """An organizer as a schema.org Person (no `@context`)."""
    name = escape_js(texturize(shown_text(organizer, "title") or ""))
    data = {"@type": "Person", "name": name, "description": short_description(organizer)}
    _with_image(data, organizer.image, request)
    data.update(url=organizer.website, telephone=organizer.phone, email=organizer.email, sameAs=organizer.website)
    return data


def _price(event):
    values = [str(value) for value in (event.cost or []) if str(value)]
    numbers = []
    for value in cost_values(values):
        try:
            numbers.append((Decimal(value), value))
        except InvalidOperation:
            continue
    if numbers:
        amount, notation = min(numbers)
        return "0" if amount == 0 else notation
    return ", ".join(values)


def _iso(instant, zone):
    return instant.astimezone(zone).isoformat(timespec="seconds")


def event_json_ld(event, request, linked=True):
    """The `json_ld` of a single event read; expects the venue and organizer links prefetched.

    Without `linked`, the event's own part (no `location`, no `organizer`): what the store keeps.
    """
    zone = zone_for(event.timezone_name)
    url = post_url(request, event)
    data = {
        "@context": SCHEMA_CONTEXT,
        "@type": "Event",
        "name": escape_js(texturize(shown_text(event, "title") or "")),
        "description": short_description(event),
    }
    _with_image(data, event.image, request)
    data.update(url=url, startDate=_iso(event.start_utc, zone), endDate=_iso(event.end_utc, zone))
    if linked and event.venue_id is not None and event.venue is not None:
        data["location"] = venue_json_ld(event.venue, request)
    links = event.shown_organizer_links() if linked else []
    if links:
        data["organizer"] = organizer_json_ld(links[0].organizer, request)
    price = _price(event)
    if price:
        published = event.date.astimezone(dt.UTC).date()
        data["offers"] = {
            "@type": "Offer",
            "price": price,
            "priceCurrency": event.currency_code or events_settings.DEFAULT_CURRENCY_CODE,
            "url": url,
            "category": "primary",
            "availability": "inStock",
            "validFrom": f"{published.isoformat()}T00:00:00+00:00",
        }
    data["performer"] = "Organization"
    data["eventAttendanceMode"] = "https://schema.org/OfflineEventAttendanceMode"
    data["eventStatus"] = "https://schema.org/EventScheduled"
    return data


def page_json_ld(record, request):
    """The JSON-LD document a public page about `record` embeds: for an event, the `json_ld` of its
    API record (expects the venue and organizer links prefetched); for a venue or an organizer, its
    record's `json_ld` with the `@context` a document of its own needs."""
    if record.KIND == PostKind.EVENT:
        return event_json_ld(record, request)
    linked_json_ld = venue_json_ld if record.KIND == PostKind.VENUE else organizer_json_ld
    return {"@context": SCHEMA_CONTEXT, **linked_json_ld(record, request)}
