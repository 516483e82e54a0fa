"""Links that put the calendar into people's own: the views' subscribe menu and an event's add links."""

from urllib.parse import urlencode

from django.utils.translation import gettext as _

from . import display, ical
from .discovery import home_url

GOOGLE_CALENDAR = "https://www.google.com/calendar/render"
OUTLOOK_365 = "https://outlook.office.com/owa"
OUTLOOK_LIVE = "https://outlook.live.com/owa"
# Google cuts long links; the plugin keeps this many characters of the details.
GOOGLE_DETAILS_LENGTH = 996
# Parameters of a page that choose a page of it, not what the calendar holds.
PAGE_ONLY_PARAMS = {"page", "ical"}


def feed_url(request, path, query=()):
    """The absolute `?ical=1` address of `path`, with `query` pairs kept before it."""
    return request.build_absolute_uri(f"{path}?{urlencode([*query, ('ical', '1')])}")


def webcal(url):
    """The subscription form of a feed address: calendar clients open `webcal://` themselves."""
    return f"webcal://{url.partition('://')[2]}"


def subscribe_menu(request, subscription_path, calendar_name):
    """The "Subscribe to calendar" entries of a view, as the plugin offers them.

    Subscriptions follow the upcoming events of `subscription_path` (a list view with the view's
    filters), so they stay current; "Export .ics file" is this view itself, its month or day included.
    """
    subscription = webcal(feed_url(request, subscription_path))
    outlook = {"path": "/calendar/action/compose", "rru": "addsubscription", "url": subscription, "name": calendar_name}
    kept = [(name, value) for name, values in request.GET.lists() if name not in PAGE_ONLY_PARAMS for value in values]
    return [
        {"label": _("Google Calendar"), "url": f"{GOOGLE_CALENDAR}?{urlencode({'cid': subscription})}"},
        {"label": _("iCalendar"), "url": subscription},
        {"label": _("Outlook 365"), "url": f"{OUTLOOK_365}?{urlencode(outlook)}"},
        {"label": _("Outlook Live"), "url": f"{OUTLOOK_LIVE}?{urlencode(outlook)}"},
        {"label": _("Export .ics file"), "url": feed_url(request, request.path, kept), "download": True},
    ]


def google_calendar_link(event, request):
    """An "Add to Google Calendar" link, built as the plugin builds it: wall-clock dates with the zone."""
    start, end = ical.event_times(event)
    if event.all_day:
        dates, zone = f"{start:%Y%m%d}/{end:%Y%m%d}", None
    else:
        dates, zone = f"{start:%Y%m%dT%H%M%S}/{end:%Y%m%dT%H%M%S}", str(start.tzinfo)
    details = ical.plain_text(display.description_html(event))
    params = {
        "action": "TEMPLATE",
        "dates": dates,
        "text": ical.title_text(event),
        "details": details[:GOOGLE_DETAILS_LENGTH],
    }
    venue = event.venue if event.venue_id is not None else None
    if venue is not None:
        params["location"] = ical.location(venue, bool(venue.password))
    params["trp"] = "false"
    if zone:
        params["ctz"] = zone
    params["sprop"] = f"website:{home_url(request)}"
    return f"{GOOGLE_CALENDAR}?{urlencode(params)}"
