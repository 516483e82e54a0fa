"""The public calendar pages: lists, month grid, single event, venue, organizer and archives."""

import calendar
import datetime as dt
import hashlib
import json
import logging
import re
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import unquote

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse, translate_url
from django.utils import formats, timezone, translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.dates import WEEKDAYS, WEEKDAYS_ABBR
from django.utils.html import conditional_escape
from django.utils.http import content_disposition_header, http_date
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views import View

from .. import recurrence_words
from ..dates import zone_for
from ..deadline import within_budget
from ..exceptions import DATABASE_FAULTS, RETRY_AFTER
from ..models import Category, Event, Organizer, PostIdentity, PostKind, PostStatus, Tag, Taxonomy, Venue
from ..numbers import is_ascii_digits
from ..presentation.events import cost_fields
from ..presentation.json_ld import page_json_ld
from ..presentation.links import PUBLIC_PATHS, mounted_rest_root, post_url, set_rest_root, term_url
from ..presentation.terms import CategoryTree
from ..queries import series as series_queries
from ..queries.params import TermSelection
from ..text import autop, normalize_lookup_slug
from . import display, ical, queries, subscribe
from .discovery import discover
from .markup import clean_html

logger = logging.getLogger("events.public")
PASSWORD_COOKIE = "events_post_password"
PASSWORD_COOKIE_SALT = "events.public.post_password"
# WordPress keeps a post password cookie for ten days.
PASSWORD_COOKIE_AGE = 10 * 24 * 3600
DAY_LIMIT = 4
MONTH_PARAM = re.compile(r"^(\d{4})-(\d{2})$")
DAY_PATH = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
JSON_SCRIPT_ESCAPES = {
    ord("<"): "\\u003C",
    ord(">"): "\\u003E",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def json_ld_text(data):
    """JSON for a `<script type="application/ld+json">`: nothing in it can close the script element."""
    return mark_safe(json.dumps(data, ensure_ascii=False).translate(JSON_SCRIPT_ESCAPES))  # noqa: S308 - escaped above


def html_message(message, **values):
    """A translated message around record names that are HTML themselves (term names keep `&amp;`)."""
    return mark_safe(
        conditional_escape(message) % {name: clean_html(value, inline=True) for name, value in values.items()}
    )  # noqa: S308


# Pages past this would ask the database for an offset beyond its integer range.
MAX_PAGE = 10**9


def page_number(request):
    raw = request.GET.get("page")
    if raw is None:
        return 1
    if not is_ascii_digits(raw) or not 1 <= int(raw) <= MAX_PAGE:
        raise BadRequest("page must be a positive integer")
    return int(raw)


def language_links(request):
    """The current page in every language, for the switcher and the hreflang alternates."""
    current = translation.get_language()
    path = request.get_full_path()
    links = []
    for code, _name in settings.LANGUAGES:
        url = translate_url(path, code)
        if url == path and code != current:
            # A path no pattern knows (a 404) has no translation: offer that language's home.
            with translation.override(code):
                url = reverse("events_public:home")
        info = translation.get_language_info(code)
        links.append(
            {
                "code": code,
                "name": info["name_local"],
                "url": url,
                "absolute_url": request.build_absolute_uri(url),
                "current": code == current,
            }
        )
    return links


def conditional_response(request, etag, last_modified, build):
    """`build()`, or a 304 when the client holds this version already (`last_modified` may be None)."""
    timestamp = int(last_modified.timestamp()) if last_modified is not None else None
    response = get_conditional_response(request, etag=etag, last_modified=timestamp) or build()
    response["ETag"] = etag
    if timestamp is not None:
        response["Last-Modified"] = http_date(timestamp)
    patch_cache_control(response, no_cache=True)
    return response


def without_body_for_head(request, response):
    if request.method == "HEAD":
        response.content = b""
    return response


def freshness_floor(now=None):
    """The last midnight, in UTC or in the site zone, whichever came later.

    Lists and the month grid change when the date does (the default window starts "yesterday",
    the grid marks today), even if no record changed.
    """
    now = now or timezone.now()
    utc_midnight = dt.datetime.combine(now.astimezone(dt.UTC).date(), dt.time(), tzinfo=dt.UTC)
    zone = timezone.get_default_timezone()
    local_midnight = dt.datetime.combine(now.astimezone(zone).date(), dt.time()).replace(tzinfo=zone)
    return max(utc_midnight, local_midnight)


class PublicPage(View):
    """A page an anonymous reader may see, with API discovery and conditional GET.

    Subclasses implement `load(**kwargs)`, which finds what the page shows (raising Http404 for
    what an anonymous reader may not see), fills `self.records` (each shown record, for
    Last-Modified and the ETag), `self.tokens` (other shown values) and returns the template context.
    """

    http_method_names = ["get", "head"]
    template_name = ""
    # "/" for the home and other pages; pages about one record or filter say which (docs/contract/discovery.md §3).
    api_path = "/"
    # Whether the page changes with the date (lists from "yesterday" on, the grid's today).
    dated = False
    # Whether the page may be answered 304 (never when it depends on a password cookie).
    cacheable = True

    def setup(self, request, *args, **kwargs):
        super().setup(request, *args, **kwargs)
        # The links builders of the API read the REST root to find the site home in this language.
        set_rest_root(
            request,
            mounted_rest_root(request) or request.build_absolute_uri(reverse("events_public:home")) + "wp-json/",
        )
        self.records, self.tokens = [], []

    def dispatch(self, request, *args, **kwargs):
        # Answered here rather than raised to Django, whose DEBUG pages would show a visitor's
        # malformed URL as a stack trace: every 4xx of the calendar looks like the calendar. The
        # view runs within the time budget inside the `try`, so that its 503 is never itself
        # interrupted (events/deadline.py); a page writes nothing, so its commits do not end the budget.
        try:
            response = within_budget(partial(super().dispatch, request, *args, **kwargs))
        except Http404:
            response = page_not_found(request)
        except BadRequest:
            response = bad_request(request)
        except DATABASE_FAULTS as error:
            response = unavailable(request, error)
        return without_body_for_head(request, response)

    def get(self, request, *args, **kwargs):
        if wants_calendar_file(request):
            return self.calendar_file(**kwargs)
        context = self.load(**kwargs)
        if not isinstance(context, dict):
            return context
        return self.respond(context)

    def calendar_file(self, **kwargs):
        """The page's events as an iCalendar file (`?ical=1`); pages that list no events have none."""
        raise Http404("This page has no calendar file")

    def calendar_response(self, events, name, filename, last_modified=None):
        """`events` as a .ics download with an ETag over its bytes; 304 when the client has them.

        A file that never depends on cookies or credentials: only what anonymous readers see goes in.
        """
        request = self.request
        limit = None
        if len(events) > queries.FEED_LIMIT:
            events, limit = events[: queries.FEED_LIMIT], queries.FEED_LIMIT
        body = ical.calendar_file(events, request, calendar_name(name), limit)

        def download():
            response = HttpResponse(body, content_type=ical.MEDIA_TYPE)
            response["Content-Disposition"] = content_disposition_header(True, filename)
            return response

        etag = f'W/"{hashlib.sha256(body).hexdigest()[:32]}"'
        return conditional_response(request, etag, last_modified, download)

    def subscription(self, context):
        """(path, heading) of the list whose upcoming events a subscription from this page follows, or None."""
        return None

    def respond(self, context, status=200):
        request = self.request
        discovery = discover(request, self.api_path)

        def page():
            subscription = self.subscription(context) if status == 200 and not context.get("locked") else None
            if subscription is not None:
                path, heading = subscription
                context["subscribe"] = subscribe.subscribe_menu(request, path, calendar_name(heading))
            extra = {"discovery": discovery, "languages": language_links(request), "nav": self.nav()}
            return render(request, self.template_name, {**context, **extra}, status=status)

        if self.cacheable and status == 200:
            last_modified, etag = self.validators()
            response = conditional_response(request, etag, last_modified, page)
        else:
            response = page()
            patch_cache_control(response, private=True, no_cache=True)
        return discovery.apply(response)

    def validators(self):
        """(Last-Modified, ETag) of what the page shows.

        Last-Modified is the newest change among the shown records; the ETag also covers records
        that stopped being shown (trashed, rescheduled), which no remaining `modified` reveals.
        """
        moments = [record.modified for record in self.records if getattr(record, "modified", None)]
        if self.dated or not moments:
            moments.append(freshness_floor())
        last_modified = max(moments).replace(microsecond=0)
        shown = [(record.KIND, record.pk, record.modified.isoformat()) for record in self.records]
        digest = hashlib.sha256(repr((translation.get_language(), shown, self.tokens)).encode()).hexdigest()[:32]
        return last_modified, f'W/"{digest}"'

    def nav(self):
        return {
            "events": reverse("events_public:events"),
            "month": reverse("events_public:month"),
            "featured": reverse("events_public:featured"),
            "current": getattr(self, "nav_current", ""),
        }

    def load(self, **kwargs):
        raise NotImplementedError


# --- lists --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListScope:
    """What a list is of: its heading, the filter values the page applies (events.queries.filtersets.EventFilterSet), and its file name."""

    heading: str
    filters: dict = field(default_factory=dict)
    filename: str = "events.ics"
    description: str = ""


class EventList(PublicPage):
    """A paged list of upcoming events; subclasses say which by their `scope()`."""

    template_name = "events/public/list.html"
    dated = True
    heading = ""

    def scope(self, **kwargs):
        """The list's ListScope; raises Http404, or returns a redirect to the list's address."""
        return ListScope(heading=self.heading)

    def page_context(self, statement):
        request = self.request
        number = page_number(request)
        page = queries.page_of(statement, number)
        if number > 1 and not page.rows:
            raise Http404("No such page of events")
        self.records.extend(page.rows)
        self.records.extend({event.venue_id: event.venue for event in page.rows if event.venue is not None}.values())
        self.tokens.append(("page", number, page.total))
        return {
            "events": [display.event_card(event, request) for event in page.rows],
            "page": page,
            "previous_url": self.page_url(number - 1) if number > 1 else None,
            "next_url": self.page_url(number + 1) if page.has_next else None,
        }

    def page_url(self, number):
        return self.request.path if number == 1 else f"{self.request.path}?page={number}"

    def load(self, **kwargs):
        scope = self.scope(**kwargs)
        if isinstance(scope, HttpResponse):
            return scope
        return {
            "heading": scope.heading,
            "description": scope.description,
            **self.page_context(queries.upcoming(**scope.filters)),
        }

    def calendar_file(self, **kwargs):
        """Every event of the list (not a page of it), narrowed by the API list filters of the query;
        the query's dates replace the default window unless the list has its own (a day)."""
        scope = self.scope(**kwargs)
        if isinstance(scope, HttpResponse):
            return scope
        return self.scope_calendar_file(scope)

    def scope_calendar_file(self, scope):
        query = queries.feed_filters(self.request.META.get("QUERY_STRING", ""), dated="window" not in scope.filters)
        return self.calendar_response(queries.feed_events(scope.filters, query), scope.heading, scope.filename)

    def subscription(self, context):
        return self.request.path, context["heading"]


class UpcomingEvents(EventList):
    """`/` and `/events/`: what the API lists by default."""

    nav_current = "events"

    @property
    def heading(self):
        return _("Upcoming events")

    def load(self, **kwargs):
        if "p" in self.request.GET:
            return self.record_by_id(self.request.GET["p"])
        return super().load(**kwargs)

    def record_by_id(self, raw_id):
        """`/?post_type=…&p={id}`, the URL the API gives records without a public path yet (docs/contract/README.md §6)."""
        if not is_ascii_digits(raw_id) or len(raw_id) > 18:
            raise Http404("No such record")
        models = {PostKind.EVENT: Event, PostKind.VENUE: Venue, PostKind.ORGANIZER: Organizer}
        model = models.get(PostIdentity.kind_of(int(raw_id)))
        record = model.objects.filter(pk=int(raw_id)).first() if model else None
        if record is None or record.status != PostStatus.PUBLISH or not record.slug:
            raise Http404("No such record")
        return HttpResponseRedirect(post_url(self.request, record), status=301)


class FeaturedEvents(EventList):
    api_path = "/events/?featured=1"
    nav_current = "featured"

    def scope(self, **kwargs):
        return ListScope(heading=_("Featured events"), filters={"featured": True}, filename="featured-events.ics")


class TermArchive(EventList):
    # The API list parameter selecting a term's events, and the word naming its calendar file.
    FILTERS = {Taxonomy.CATEGORY: ("categories", "category"), Taxonomy.TAG: ("tags", "tag")}

    def term_scope(self, term, heading):
        parameter, word = self.FILTERS[term.taxonomy]
        self.api_path = f"/events/?{parameter}={term.slug}"
        self.tokens.append(("term", term.pk, term.slug, str(term.name)))
        return ListScope(
            heading=heading,
            filters={parameter: TermSelection(given=[term.slug], ids=[term.pk])},
            filename=f"events-{word}-{unquote(term.slug)}.ics",
            description=clean_html(autop(term.description or "")),
        )


class CategoryArchive(TermArchive):
    """`/events/category/{ancestors/}{slug}/`: events of one category, as `?categories={slug}` lists them."""

    def scope(self, path):
        segments = [normalize_lookup_slug(segment) for segment in path.split("/")]
        category = Category.objects.filter(slug=segments[-1]).first() if segments[-1] else None
        if category is None:
            raise Http404("No such category")
        ancestors = CategoryTree().ancestors(category)
        if [ancestor.slug for ancestor in ancestors] != segments[:-1]:
            # The parent changed or a shortened path was used: one address per category (the query,
            # `?ical=1` or a page, goes along).
            query = self.request.META.get("QUERY_STRING", "")
            target = term_url(self.request, category, ancestors)
            return HttpResponseRedirect(f"{target}?{query}" if query else target, status=301)
        return self.term_scope(category, html_message(_("Events in %(category)s"), category=category.name))


class TagArchive(TermArchive):
    """`/tag/{slug}/`: events with one tag, as `?tags={slug}` lists them."""

    def scope(self, slug):
        wanted = normalize_lookup_slug(slug)
        tag = Tag.objects.filter(slug=wanted).first() if wanted else None
        if tag is None:
            raise Http404("No such tag")
        return self.term_scope(tag, html_message(_("Events tagged %(tag)s"), tag=tag.name))


class DayList(EventList):
    """`/events/{YYYY-MM-DD}/`, the plugin's day view: the events of one calendar day, as a list."""

    dated = False

    def day(self, day):
        match = DAY_PATH.match(day)
        try:
            chosen = dt.date(*(int(part) for part in match.groups()))
        except ValueError as error:
            raise BadRequest("not a date") from error
        # Years 1 and 9999 would push the day's window outside what dates can hold.
        if not 2 <= chosen.year <= 9998:
            raise BadRequest("year out of range")
        return chosen

    def scope(self, day):
        chosen = self.day(day)
        return ListScope(
            heading=formats.date_format(chosen, "DATE_FORMAT"),
            filters={"window": queries.day_window(chosen, chosen)},
            filename=f"events-{chosen.isoformat()}.ics",
        )

    def subscription(self, context):
        return reverse("events_public:events"), _("Upcoming events")


# --- the month grid -----------------------------------------------------------------------------


def _month_shift(first_day, months):
    index = first_day.year * 12 + first_day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


class MonthGrid(PublicPage):
    """`/events/month/?month=YYYY-MM`: whole weeks around a month, each day with its events."""

    template_name = "events/public/month.html"
    dated = True
    nav_current = "month"

    def requested_month(self):
        """The first and last day of the month asked for (this month by default)."""
        raw = self.request.GET.get("month")
        if raw is None:
            first = timezone.localdate().replace(day=1)
        else:
            match = MONTH_PARAM.match(raw)
            # Years 1 and 9999 would push the grid's padding weeks outside what dates can hold.
            if not match or not 1 <= int(match.group(2)) <= 12 or not 2 <= int(match.group(1)) <= 9998:
                raise BadRequest("month must be YYYY-MM")
            first = dt.date(int(match.group(1)), int(match.group(2)), 1)
        return first, first.replace(day=calendar.monthrange(first.year, first.month)[1])

    def calendar_file(self, **kwargs):
        """The month's own days (not the grid's padding weeks), narrowed by the query's API list filters."""
        first, last = self.requested_month()
        query = queries.feed_filters(self.request.META.get("QUERY_STRING", ""), dated=False)
        events = queries.feed_events({"window": queries.day_window(first, last)}, query)
        heading = formats.date_format(first, "YEAR_MONTH_FORMAT")
        return self.calendar_response(events, heading, f"events-{first:%Y-%m}.ics")

    def subscription(self, context):
        return reverse("events_public:events"), _("Upcoming events")

    def load(self, **kwargs):
        first, last = self.requested_month()
        # Django counts weekdays from Sunday (0), Python from Monday (0).
        week_start = (int(formats.get_format("FIRST_DAY_OF_WEEK")) - 1) % 7
        grid_start = first - dt.timedelta(days=(first.weekday() - week_start) % 7)
        grid_end = last + dt.timedelta(days=(week_start + 6 - last.weekday()) % 7)
        events = queries.month_events(grid_start, grid_end)
        truncated = len(events) > queries.MONTH_LIMIT
        events = events[: queries.MONTH_LIMIT]
        self.records.extend(events)
        days = {}
        for event in events:
            begins, ends = queries.calendar_days(event)
            day = max(begins, grid_start)
            while day <= min(ends, grid_end):
                days.setdefault(day, []).append((event, day != begins))
                day += dt.timedelta(days=1)
        today = timezone.localdate()
        cells = []
        for day in (grid_start + dt.timedelta(days=n) for n in range((grid_end - grid_start).days + 1)):
            listed = days.get(day, [])
            cells.append(
                {
                    "date": day,
                    "url": reverse("events_public:day", kwargs={"day": day.isoformat()}),
                    "in_month": day.month == first.month,
                    "today": day == today,
                    "events": [self.grid_card(event, continued) for event, continued in listed[:DAY_LIMIT]],
                    "more": max(0, len(listed) - DAY_LIMIT),
                }
            )
        weekdays = [(week_start + n) % 7 for n in range(7)]
        return {
            "heading": formats.date_format(first, "YEAR_MONTH_FORMAT"),
            "weekdays": [{"name": WEEKDAYS[n], "abbr": WEEKDAYS_ABBR[n]} for n in weekdays],
            "weeks": [cells[start : start + 7] for start in range(0, len(cells), 7)],
            "truncated": truncated,
            "previous_url": self.month_url(_month_shift(first, -1)),
            "next_url": self.month_url(_month_shift(first, 1)),
        }

    def grid_card(self, event, continued):
        """An event in a day cell; on the days after its first, its start time would mislead."""
        return {
            "title": display.title_html(event),
            "url": post_url(self.request, event),
            "when": display.when(event),
            "continued": continued,
        }

    def month_url(self, first_day):
        if not 2 <= first_day.year <= 9998:
            return None
        return f"{self.request.path}?month={first_day.year:04d}-{first_day.month:02d}"


# --- single records -----------------------------------------------------------------------------


def _password_digest(password):
    return salted_hmac(PASSWORD_COOKIE_SALT, password).hexdigest()


class RecordPage:
    """A page about one published record (drafts, private and trashed records are 404s).

    Password-protected records show a form; the right password unlocks them for ten days. As in
    WordPress, the cookie holds (a keyed hash of) the last password entered, so it unlocks every
    record sharing that password. It is signed and never holds the password itself.
    """

    http_method_names = ["get", "head", "post"]

    def find(self, slug, for_file=False):
        """The record `slug` names; a password-protected one has no calendar file, whatever password
        cookie comes along."""
        record = self.published(slug)
        if record is None or (for_file and record.password):
            raise Http404("No such page")
        self.api_path = self.api_path_for(record)
        return record

    def api_path_for(self, record):
        return "/"

    def gate(self, record):
        """The context of the locked page, or None when the record is readable."""
        if not record.password:
            return None
        # The page depends on the reader's password cookie.
        self.cacheable = False
        digest = self.request.get_signed_cookie(PASSWORD_COOKIE, default=None, salt=PASSWORD_COOKIE_SALT)
        if digest is not None and constant_time_compare(digest, _password_digest(record.password)):
            return None
        return {"heading": display.title_html(record), "locked": True}

    def load(self, slug):
        record = self.find(slug)
        locked = self.gate(record)
        if locked is not None:
            return locked
        context = {
            "heading": display.title_html(record),
            "image": display.image(record.image, self.request),
            "description": display.description_html(record),
            **self.record_context(record),
        }
        # The API leaves json_ld out of password-protected records, even for readers who unlocked them.
        if not record.password:
            context["json_ld"] = json_ld_text(page_json_ld(record, self.request))
        return context

    def post(self, request, *args, **kwargs):
        record = self.find(**kwargs)
        given = request.POST.get("post_password", "")
        if record.password and not constant_time_compare(given, record.password):
            context = {"heading": display.title_html(record), "locked": True, "wrong_password": True}
            return self.respond(context, status=403)
        response = HttpResponseRedirect(request.path, status=303)
        if record.password:
            response.set_signed_cookie(
                PASSWORD_COOKIE,
                _password_digest(record.password),
                salt=PASSWORD_COOKIE_SALT,
                max_age=PASSWORD_COOKIE_AGE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response

    def respond(self, context, status=200):
        response = super().respond(context, status)
        if not self.cacheable:
            patch_vary_headers(response, ("Cookie",))
        return response


# How many of a series' next occurrences an occurrence's page links.
NEXT_OCCURRENCES = 5


class EventPage(RecordPage, PublicPage):
    """`/event/{slug}/`: one published event."""

    template_name = "events/public/event.html"
    published = staticmethod(queries.published_event)

    def api_path_for(self, event):
        return f"/events/{event.pk}"

    def calendar_file(self, slug):
        event = self.find(slug, for_file=True)
        return self.calendar_response(
            [event], ical.title_text(event), f"{unquote(event.slug)}.ics", ical.last_changed(event)
        )

    def record_context(self, event):
        request = self.request
        organizers = [link.organizer for link in event.shown_organizer_links()]
        venue = event.venue if event.venue_id is not None else None
        self.records.extend([event, *([venue] if venue is not None else []), *organizers])
        terms = event.shown_terms()
        self.tokens.extend((term.pk, term.slug, str(term.name)) for term in terms)
        tree = CategoryTree()
        return {
            "event": event,
            "when": display.when(event),
            "cost": cost_fields(event)[0],
            "website": display.web_link(event.website),
            "website_label": event.website,
            "venue": display.venue_card(venue, request, event.show_map_link, bool(venue.password)) if venue else None,
            "organizers": [
                display.organizer_card(organizer, request, bool(organizer.password)) for organizer in organizers
            ],
            "categories": display.term_links([t for t in terms if t.taxonomy == Taxonomy.CATEGORY], request, tree),
            "tags": display.term_links([t for t in terms if t.taxonomy == Taxonomy.TAG], request, tree),
            "google_calendar_url": subscribe.google_calendar_link(event, request),
            "ical_url": f"{post_url(request, event)}ical/",
            **self.series_context(event),
        }

    def series_context(self, event):
        """An occurrence's page says its series' rules in words and links the next occurrences."""
        if event.series_id is None or event.series is None:
            return {}
        upcoming = series_queries.next_occurrences(event.series_id, timezone.now(), NEXT_OCCURRENCES)
        self.records.extend(upcoming)
        return {
            "series_rules": recurrence_words.series_in_words(event.series, zone_for(event.timezone_name)),
            "series_next": [
                {
                    "url": post_url(self.request, occurrence),
                    "when": display.when(occurrence),
                    "current": occurrence.pk == event.pk,
                }
                for occurrence in upcoming
            ],
        }


class EventCalendarFile(EventPage):
    """`/event/{slug}/ical/`: the event's iCalendar file, as its page answers `?ical=1`."""

    http_method_names = ["get", "head"]

    def get(self, request, *args, **kwargs):
        return self.calendar_file(**kwargs)


class LinkedRecordPage(RecordPage, EventList):
    """A venue or organizer page: the record, then its upcoming events."""

    model = None

    def published(self, slug):
        return queries.published_record(self.model, slug)

    def events_filter(self, record):
        """The filter values selecting the record's events: `{"venue": [id]}` or `{"organizer": [id]}`."""
        return {self.model._meta.model_name: [record.pk]}

    def calendar_file(self, slug):
        record = self.find(slug, for_file=True)
        scope = ListScope(
            heading=display.title_html(record),
            filters=self.events_filter(record),
            filename=f"{PUBLIC_PATHS[record.KIND]}-{unquote(record.slug)}.ics",
        )
        return self.scope_calendar_file(scope)

    def record_context(self, record):
        self.records.append(record)
        return {
            "record": record,
            self.model._meta.model_name: self.card(record, self.request),
            **self.page_context(queries.upcoming(**self.events_filter(record))),
        }


class VenuePage(LinkedRecordPage):
    template_name = "events/public/venue.html"
    model = Venue
    card = staticmethod(display.venue_card)

    def api_path_for(self, venue):
        return f"/events/?venue={venue.pk}"


class OrganizerPage(LinkedRecordPage):
    template_name = "events/public/organizer.html"
    model = Organizer
    card = staticmethod(display.organizer_card)


# --- calendar files -----------------------------------------------------------------------------


def wants_calendar_file(request):
    """`?ical=1`, read as the plugin reads it: any value but an empty one or 0."""
    return request.GET.get("ical", "") not in ("", "0")


def calendar_name(heading):
    """What a calendar client calls a subscription: the view's heading and the site, as the page title reads."""
    return f"{ical.plain_text(str(heading))} · {_('Events calendar')}"


# --- errors -------------------------------------------------------------------------------------


class ErrorPage(PublicPage):
    template_name = "events/public/404.html"
    cacheable = False


class UnavailablePage(ErrorPage):
    template_name = "events/public/503.html"


def page_not_found(request, exception=None):
    """A site's `handler404`: the calendar's look, and discovery like every other page."""
    return _error_page(request, 404, _("Page not found"))


def bad_request(request, exception=None):
    """A malformed page number, month or record ID: 400 with the calendar's look (also a `handler400`)."""
    return _error_page(request, 400, _("This address is not valid"))


def unavailable(request, error):
    """The database failed, or the page ran past its time budget (events/deadline.py): 503, come back
    later, as the API answers the same faults. A calendar file asked for gets this page too."""
    logger.warning("Database unavailable while serving %s %s: %s", request.method, request.get_full_path(), error)
    response = _error_page(request, 503, _("The calendar is not available right now"), UnavailablePage)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def _error_page(request, status, heading, page=ErrorPage):
    view = page()
    view.setup(request)
    return without_body_for_head(request, view.respond({"heading": heading}, status=status))
