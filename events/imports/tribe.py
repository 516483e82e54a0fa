"""Reading a site that serves tribe/events/v1 (the plugin, or another instance of this service):
its events list paged as the plugin pages it (`next_rest_url`), each record keyed by its ID there."""

import html
import json
import re
import urllib.parse

from django.utils.translation import gettext as _

from ..conf import events_settings
from ..cost import parse_cost_input
from .fetch import SourceUnreadable, fetch
from .items import Reading, RemoteEvent

NAMESPACE_PATH = "tribe/events/v1"
PER_PAGE = 50
# Every event the site holds, not only the upcoming ones the list shows by default.
WINDOW = (("start_date", "1900-01-01 00:00:00"), ("end_date", "9999-12-31 23:59:59"))
_API_LINK = re.compile(r"""<link[^>]+rel=["']https://api\.w\.org/["'][^>]*href=["']([^"']+)["']""", re.IGNORECASE)
VENUE_FIELDS = ("address", "city", "country", "province", "state", "zip", "phone", "website")
ORGANIZER_FIELDS = ("email", "phone", "website")


def tribe_events_url(location, rest_root=None):
    """The first page of the events list of the site at `location` (its home page, REST root,
    namespace or events list), asking for every event, PER_PAGE a page."""
    parts = urllib.parse.urlsplit(location)
    path = parts.path
    if rest_root:
        base = rest_root.rstrip("/") + f"/{NAMESPACE_PATH}/events"
        parts, path = urllib.parse.urlsplit(base), urllib.parse.urlsplit(base).path
    elif f"/{NAMESPACE_PATH}" in path:
        path = path[: path.index(f"/{NAMESPACE_PATH}")] + f"/{NAMESPACE_PATH}/events"
    elif "/wp-json" in path:
        path = path[: path.index("/wp-json")] + f"/wp-json/{NAMESPACE_PATH}/events"
    else:
        path = path.rstrip("/") + f"/wp-json/{NAMESPACE_PATH}/events"
    query = urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query) if not rest_root else []
    given = {name for name, _value in query}
    query += [(name, value) for name, value in (*WINDOW, ("per_page", str(PER_PAGE))) if name not in given]
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, urllib.parse.urlencode(query), ""))


def _json(body):
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None


def read_tribe(fetched, budget):
    """Every event of the site, page after page; a page that cannot be read ends the reading,
    incomplete (nothing is then trashed as gone)."""
    page = _json(fetched.body)
    if not (isinstance(page, dict) and isinstance(page.get("events"), list)):
        text = fetched.body[:200_000].decode("utf-8", "replace")
        link = _API_LINK.search(text)
        if page is None and link is None and "<" not in text[:1000]:
            raise SourceUnreadable(_("The source is neither an iCalendar file, a CSV file nor an events site."))
        url = tribe_events_url(fetched.url, rest_root=html.unescape(link.group(1)) if link else None)
        page = _json(fetch(url, budget, accept="application/json").body)
        if not (isinstance(page, dict) and isinstance(page.get("events"), list)):
            raise SourceUnreadable(_("The source is neither an iCalendar file, a CSV file nor an events site."))
    else:
        url = fetched.url
    reading = Reading()
    visited = {url}
    current = url
    most_pages = events_settings.IMPORT_MAX_ITEMS // PER_PAGE + 2
    while True:
        for record in page["events"]:
            if not isinstance(record, dict) or "id" not in record:
                reading.problem(_("page"), _("a record without ID was skipped."))
                continue
            try:
                event = remote_event(record)
            except (ValueError, TypeError, KeyError, AttributeError) as error:
                reading.problem(str(record.get("id"))[:40], str(error) or error.__class__.__name__)
                continue
            if not reading.add(event):
                return reading
        following = page.get("next_rest_url") or _numbered_page(current, page)
        if not following or not isinstance(following, str):
            return reading
        if following in visited or len(visited) >= most_pages:
            reading.problem(_("source"), _("The pages of the events list do not end."))
            reading.complete = False
            return reading
        visited.add(following)
        current = following
        try:
            page = _json(fetch(following, budget, accept="application/json").body)
        except SourceUnreadable as failure:
            reading.problem(_("source"), str(failure))
            reading.complete = False
            return reading
        if not (isinstance(page, dict) and isinstance(page.get("events"), list)):
            reading.problem(_("source"), _("A page of the events list could not be read."))
            reading.complete = False
            return reading


def _numbered_page(url, page):
    """The next page by number, for a site that says how many pages there are but links none."""
    total = page.get("total_pages")
    if not isinstance(total, int):
        return None
    parts = urllib.parse.urlsplit(url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    number = int(query.get("page", "1")) if str(query.get("page", "1")).isdigit() else 1
    if number >= total:
        return None
    query["page"] = str(number + 1)
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def _text(value):
    return html.unescape(str(value or "")).strip()


def remote_event(record):
    """The services' fields of one v1 event record."""
    fields = {
        "title": _text(record.get("title")),
        "description": str(record.get("description") or ""),
        "excerpt": str(record.get("excerpt") or ""),
        "start_date": str(record["start_date"]),
        "end_date": str(record["end_date"]),
        "all_day": bool(record.get("all_day")),
        "timezone": str(record.get("timezone") or ""),
        "website": str(record.get("website") or ""),
        "cost": parse_cost_input(str(record.get("cost") or "")),
        "venue": _venue(record.get("venue")),
        "organizer": [_organizer(item) for item in (record.get("organizer") or []) if isinstance(item, dict)],
        "categories": _names(record.get("categories")),
        "tags": _names(record.get("tags")),
    }
    return RemoteEvent(key=str(record["id"]), fields=fields)


def _venue(value):
    if not isinstance(value, dict) or not value.get("venue"):
        return None
    venue = {"venue": _text(value["venue"])}
    venue.update({name: _text(value[name]) for name in VENUE_FIELDS if value.get(name)})
    return venue


def _organizer(value):
    organizer = {"organizer": _text(value.get("organizer"))}
    organizer.update({name: _text(value[name]) for name in ORGANIZER_FIELDS if value.get(name)})
    return organizer


def _names(values):
    return [_text(item.get("name")) for item in (values or []) if isinstance(item, dict) and item.get("name")]
