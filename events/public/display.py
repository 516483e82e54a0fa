"""How records read on public pages: times in the event's zone, addresses, map links, safe text."""

import datetime as dt
from dataclasses import dataclass
from urllib.parse import urlencode

from ..dates import wall_clock, zone_for
from ..models import PostStatus
from ..presentation.events import cost_fields
from ..presentation.images import image_record
from ..presentation.links import post_url, term_url
from ..text import autop, is_email, texturize
from .markup import clean_html, safe_url

MAP_SEARCH_URL = "https://www.google.com/maps/search/"


def title_html(record):
    """A title as the API shows it (texturized), with only inline markup kept."""
    return clean_html(texturize(record.title or ""), inline=True)


def linkable(record):
    """Whether the record has a public page an anonymous reader can open."""
    return record is not None and record.status == PostStatus.PUBLISH and bool(record.slug)


def web_link(value):
    """A website as a link target, when it is one (stored websites are free text for venues)."""
    value = (value or "").strip()
    if not value:
        return None
    return safe_url(value if "://" in value or value.startswith(("mailto:", "tel:")) else f"http://{value}")


@dataclass(frozen=True)
class When:
    """An event's start and end as its own wall clock, with the instants for `<time datetime>`."""

    start: dt.datetime
    end: dt.datetime
    start_iso: str
    end_iso: str
    all_day: bool
    zone: str

    @property
    def multi_day(self):
        return self.start.date() != self.end.date()


def when(event):
    start, end = wall_clock(event.start_local), wall_clock(event.end_local)
    if event.all_day:
        start_iso, end_iso = start.date().isoformat(), end.date().isoformat()
    else:
        zone = zone_for(event.timezone_name)
        start_iso = event.start_utc.astimezone(zone).isoformat(timespec="seconds")
        end_iso = event.end_utc.astimezone(zone).isoformat(timespec="seconds")
    return When(start, end, start_iso, end_iso, event.all_day, event.timezone_abbr or event.timezone_name)


def image(attachment, request):
    """{url, width, height, alt} of a featured image, or None."""
    if attachment is None or not attachment.file:
        return None
    record = image_record(attachment, request)
    return {
        "url": record.get("url"),
        "width": record.get("width"),
        "height": record.get("height"),
        "alt": attachment.title,
    }


def address_lines(venue):
    region = venue.stateprovince or venue.state or venue.province
    locality = " ".join(part for part in (venue.city, region, venue.zip) if part)
    return [line for line in (venue.address, locality, venue.country) if line]


def map_url(venue):
    """A map search for the venue: its coordinates when known, else its address."""
    if venue.has_coordinates:
        query = f"{venue.geo_lat},{venue.geo_lng}"
    else:
        query = ", ".join(address_lines(venue))
    if not query:
        return None
    return f"{MAP_SEARCH_URL}?{urlencode({'api': 1, 'query': query})}"


def linked_card(record, request, locked):
    """What a page shows of a venue or organizer that is `locked` (password-protected): only its name."""
    url = post_url(request, record) if linkable(record) else None
    return {"title": title_html(record), "url": url, "locked": locked}


def venue_card(venue, request, show_map_link=None, locked=False):
    card = linked_card(venue, request, locked)
    if locked:
        return card
    flag = venue.show_map_link if show_map_link is None else show_map_link
    # A map flag never stored (None) reads as true, as the API reads it.
    wants_map = flag is None or bool(flag)
    card.update(
        address=address_lines(venue),
        map_url=map_url(venue) if wants_map else None,
        phone=venue.phone,
        website=web_link(venue.website),
        website_label=venue.website,
    )
    return card


def organizer_card(organizer, request, locked=False):
    card = linked_card(organizer, request, locked)
    if not locked:
        card.update(
            phone=organizer.phone,
            email=organizer.email,
            # The API stores any text as the email (docs/contract/venues-organizers.md §4.2); only an address is a link.
            email_is_address=is_email(organizer.email),
            website=web_link(organizer.website),
            website_label=organizer.website,
        )
    return card


def event_card(event, request):
    """One row of a list: title, time and venue; a protected event shows no more than the API lists."""
    protected = bool(event.password)
    card = {
        "id": event.pk,
        "title": title_html(event),
        "url": post_url(request, event),
        "when": when(event),
        "featured": event.featured and not protected,
        "protected": protected,
        "venue": None,
        "cost": "",
        "excerpt": "",
    }
    if not protected:
        if event.venue_id is not None and event.venue is not None:
            card["venue"] = {"title": title_html(event.venue), "city": event.venue.city}
        card["cost"] = cost_fields(event)[0]
        card["excerpt"] = clean_html(autop(event.excerpt or ""))
    return card


def term_links(terms, request, tree):
    """Links to the archives of `terms` (already sorted); `tree` finds category ancestors in one query."""
    return [
        {"name": clean_html(term.name, inline=True), "url": term_url(request, term, tree.ancestors(term))}
        for term in terms
    ]


def description_html(record):
    return clean_html(autop(record.description or ""))
