"""What public pages list: published events only, in the API's default date window and order."""

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import BadRequest
from django.utils import timezone
from modeltranslation.utils import build_localized_fieldname

from ..conf import events_settings
from ..dates import wall_clock
from ..exceptions import InvalidValue
from ..list_versions import Reads
from ..models import Event, EventOrganizer, PostStatus, Term, Venue, links_prefetched
from ..presentation.events import events_for_records
from ..queries.events import list_ordering, listable, listed
from ..queries.filtersets import EventFilterSet
from ..queries.pages import ListStatement, fetch_page
from ..queries.params import default_per_page, language_code
from ..queries.syntax import parse_query_string
from ..queries.window import day_window, default_window, multiday_cutoff
from ..text import normalize_lookup_slug

ANONYMOUS = AnonymousUser()
# A month grid shows at most this many events; a busier month links to the list instead.
MONTH_LIMIT = 500
# A calendar feed holds at most this many events (the earliest), far more than a real calendar
# has over two years; the file says so when it was cut.
FEED_LIMIT = 5000


def listed_events():
    """Events an anonymous reader sees in lists: published, never hidden from listings (docs/contract/events.md §2.2)."""
    return listed(listable(ANONYMOUS))


# The cards read every column of an event and of its venue.
CARD_READS = Reads.of(Event, Venue, display=True)


def event_filterset():
    """The events list's FilterSet: the app's, or the site's own (EVENTS["FILTERSETS"]), as the API's."""
    return events_settings.filterset("events", EventFilterSet)


def filtered(queryset, values):
    """The events of `queryset` that EventFilterSet keeps for `values` (typed parameter values, and a
    date `window` if any: a page applies none of the list's default one), and what its statement
    reads beside `queryset`'s own."""
    filterset = event_filterset()(data={"window": None, **values}, queryset=queryset)
    return filterset.qs, filterset.reads()


def upcoming(**filters):
    """The upcoming list (a ListStatement), filtered as the API filters it: `categories`/`tags`
    (TermSelection), `venue`/`organizer` (ID lists) or `featured`; venues come with the rows since
    every card names its venue."""
    queryset, reads = filtered(listed_events().select_related("venue"), {"window": default_window(), **filters})
    return ListStatement.of(queryset.order_by(*list_ordering()), reads=reads | CARD_READS, plain_columns=False)


def page_of(statement, page):
    """One page of `DEFAULT_PER_PAGE` rows with the total, in one query."""
    return fetch_page(statement, page, default_per_page())


def month_events(first_day, last_day):
    """Listed events overlapping the days of a month grid, at most MONTH_LIMIT + 1 of them."""
    queryset = listed_events().only(
        "id",
        "title",
        *_translations("title"),
        "slug",
        "status",
        "password",
        "modified",
        "start_local",
        "end_local",
        "start_utc",
        "end_utc",
        "all_day",
        "featured",
        "timezone_name",
        "timezone_abbr",
    )
    queryset, _reads = filtered(queryset, {"window": day_window(first_day, last_day)})
    return list(queryset.order_by(*list_ordering())[: MONTH_LIMIT + 1])


def _translations(field):
    return [build_localized_fieldname(field, code) for code, _ in settings.LANGUAGES]


def calendar_days(event):
    """(first day, last day) an event occupies in a calendar, by the time-zone mode of the lists."""
    cutoff = dt.timedelta(hours=multiday_cutoff().hour, minutes=multiday_cutoff().minute)
    if events_settings.TIMEZONE_MODE == "site":
        zone = timezone.get_default_timezone()
        start = event.start_utc.astimezone(zone).replace(tzinfo=None)
        end = event.end_utc.astimezone(zone).replace(tzinfo=None)
    else:
        start, end = wall_clock(event.start_local), wall_clock(event.end_local)
    return (start - cutoff).date(), max(start - cutoff, end - cutoff).date()


# --- calendar feeds -----------------------------------------------------------------------------


def feed_filters(query_string, dated=True):
    """EventFilterSet values of the API list filters in a feed's query string; the date window
    only if `dated` (month and day feeds have the window of their view). A feed takes every event
    they select, never a page of them, and only what an anonymous reader sees (no `status`). A
    value the API would refuse (a filter's, or the language parameter's) is a bad request."""
    language = events_settings.language_param
    try:
        raw = parse_query_string(query_string)
        values = event_filterset().parse(raw)
        if language in raw:
            language_code(language, raw[language])
    except InvalidValue as invalid:
        raise BadRequest(f"invalid {invalid.field}") from invalid
    window = event_filterset()(data=values).window if dated else None
    return {**values, "window": window}


def feed_events(*selections):
    """Listed events without a password that every selection (EventFilterSet values) keeps, in list
    order, with what their entries read: at most FEED_LIMIT + 1, so the caller can tell the feed was cut."""
    queryset = listed_events().filter(password="")
    for selection in selections:
        queryset, _reads = filtered(queryset, selection)
    queryset = links_prefetched(
        queryset.select_related("image", "venue"),
        EventOrganizer.objects.select_related("organizer"),
        terms=Term.objects.order_by("name", "id"),
    )
    return list(queryset.order_by(*list_ordering())[: FEED_LIMIT + 1])


# --- single records -----------------------------------------------------------------------------


def _by_slug(queryset, slug):
    """The published record whose slug the URL segment names (normalised like the API's by-slug routes)."""
    wanted = normalize_lookup_slug(slug)
    if not wanted:
        return None
    return queryset.filter(slug=wanted, status=PostStatus.PUBLISH).order_by("id").first()


def published_event(slug):
    """The published event of a page, read as its API record is (what the record and its JSON-LD
    read), its terms in name order."""
    return _by_slug(events_for_records(terms=Term.objects.order_by("name", "id")), slug)


def published_record(model, slug):
    return _by_slug(model.objects.select_related("image"), slug)
