"""The events routes: the list and single reads here, the writes mixed in from event_writes."""
import json

from django.db.models import Prefetch
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from rest_framework.response import Response

from ... import roles, store
from ...conf import events_settings
from ...json_text import to_json
from ...models import Event, EventOrganizer, PostKind, PostStatus
from ...queries import events as event_queries
from ...queries.pages import ListStatement, fetch_page
from ...queries.params import MAX_RECORD_ID, effective_per_page
from ...queries.window import date_window
from ...queries import visibility
from .. import errors
from ..links import marker_values, namespace_url
from ..pagination import list_response, page_links, remembered_list
from ..renderers import JSONText
from ..serializers.event_params import (
    EventListParams,
    EventReadParams,
    EventSlugReadParams,
    find_event,
    missing_event,
)
from ..serializers.events import EventRecordSerializer, blank_protected, is_protected
from .base import WPViewSet
from .event_writes import EventWriteActions


def event_trashed(record_id):
    return errors.ApiError(
        "event-no-longer-available", _("The event with the ID %(id)s has been trashed.") % {"id": record_id}, 403
    )


def event_not_accessible(record_id):
    return errors.ApiError(
        "event-not-accessible", _("You are not allowed to read the event with the ID %(id)s.") % {"id": record_id}, 403
    )


def event_password_protected(record_id):
    return errors.ApiError(
        "event-password-protected",
        _("The event with the ID %(id)s is password protected: send its password to read it.") % {"id": record_id},
        403,
    )


def archive_page_not_found():
    return errors.ApiError("event-archive-page-not-found", _("The requested page of events does not exist."), 404)


class EventViewSet(EventWriteActions, WPViewSet):
    kind = PostKind.EVENT
    params_classes = {
        "list": EventListParams,
        "retrieve": EventReadParams,
        "retrieve_by_slug": EventSlugReadParams,
        **EventWriteActions.write_params_classes,
    }
    permission_classes_by_action = {**EventWriteActions.write_permission_classes}

    def get_queryset(self):
        """Events with everything the record reads; the list also scoped to what the caller may see."""
        queryset = Event.objects.select_related("image", "venue", "venue__image", "series").prefetch_related(
            "terms",
            Prefetch(
                "organizer_links",
                queryset=EventOrganizer.objects.select_related("organizer", "organizer__image").order_by("position", "id"),
            ),
        )
        if self.action == "list":
            queryset = event_queries.listed(self.listable(), queryset)
        return queryset

    def listable(self):
        return event_queries.listable(self.request.user, self.params.get("status"))

    # --- list -----------------------------------------------------------------------------------

    def list(self, request, *args, **kwargs):
        params = self.params
        page_number, per_page = params["page"], effective_per_page(params["per_page"])
        window = date_window(params, self.sent)
        listable, ordering = self.listable(), event_queries.list_ordering(by_include=bool(params.get("include")))
        filters = event_queries.filter_values(params, window)

        def page_query():
            listed = event_queries.filter_events(event_queries.listed(listable), filters)
            # The page is read as IDs: the records come from the rendering store (events/store).
            return listed.order_by(*ordering).values(*store.RecordFacts.COLUMNS)

        # Everything the query is built from, and nothing else, is its key.
        statement = ListStatement(
            Event, ("events", repr(filters), repr(listable), ordering), page_query, reads=event_queries.reads(filters)
        )
        page = fetch_page(statement, page_number, per_page)
        if page_number > 1 and not page.rows:
            raise archive_page_not_found()
        echoed = self.echoed_filters(window, per_page)

        def answer():
            links = page_links(namespace_url(request, "/events/"), echoed, page)
            return list_response("events", self.page_records(page), page, links)

        return remembered_list(request, statement, page, echoed, answer)

    def page_records(self, page):
        """The JSON texts of a page's records: stored renderings joined; those not stored yet are built
        (and stored). Texts, not dicts: parsing and writing them again would cost more than the join."""
        request, rows = self.request, page.rows
        assembler = store.Assembler(marker_values(request), translation.get_language(), page.state)
        page_ids = [row["pk"] for row in rows]
        assembler.fetch_events(page_ids)
        records = {}
        for row in rows:
            try:
                text = assembler.event_text(row["pk"])
            except store.Unresolved:
                continue
            # events.md §1.6: what a password-protected event shows depends on the request.
            if is_protected(store.RecordFacts.of_event(row), request):
                text = to_json(blank_protected(json.loads(text)))
            records[row["pk"]] = text
        built = [pk for pk in page_ids if pk not in records]
        if built:
            context = {"request": request, "blank_protected": True}
            for event in self.get_queryset().filter(pk__in=built):
                records[event.pk] = to_json(EventRecordSerializer(event, context=context).data)
            assembler.keep_missing()
        return [records[pk] for pk in page_ids]

    def echoed_filters(self, window, per_page):
        """The applied filters in the order the plugin writes them into the list links (events.md §2.7).

        `rest_url` and the page links keep every filter (the Recommended rule): categories and tags
        as given, strict_dates when on (or the next page would be widened to whole days), and the
        coordinates whenever given.
        """
        params, dates = self.params, window.echoed()
        user = self.request.user
        pairs = [
            ("per_page", per_page),
            ("start_date", dates.get("start_date")),
            ("end_date", dates.get("end_date")),
            ("search", params.get("search")),
            ("status", visibility.echoed_status(user, self.kind, params.get("status"))),
            ("post_parent", params.get("post_parent")),
            ("include", params.get("include") or None),
            ("starts_before", dates.get("starts_before")),
            ("starts_after", dates.get("starts_after")),
            ("ends_before", dates.get("ends_before")),
            ("ends_after", dates.get("ends_after")),
            ("strict_dates", "true" if window.strict and window.bounds else None),
            ("ticketed", params.get("ticketed")),
            ("geoloc", params.get("geoloc")),
            ("geoloc_lat", params.get("geoloc_lat")),
            ("geoloc_lng", params.get("geoloc_lng")),
            ("venue", params.get("venue") or None),
            ("organizer", params.get("organizer") or None),
            ("featured", params.get("featured")),
        ]
        for name in ("categories", "tags"):
            if name in params and params[name].given:
                pairs.append((name, params[name].given))
        # The language chosen by parameter must survive into the page links (the path prefix does).
        pairs.append((events_settings.language_param, params.get(events_settings.language_param)))
        return pairs

    # --- single reads ---------------------------------------------------------------------------

    def retrieve(self, request, *args, **kwargs):
        return self.stored_single_read(self.params["id"])

    def retrieve_by_slug(self, request, *args, **kwargs):
        return self.stored_single_read(self.params["slug"])

    def stored_single_read(self, record_id):
        """The single read from the rendering store; built from the models when a rendering is missing."""
        request = self.request
        assembler = store.Assembler(marker_values(request), translation.get_language())
        anonymous = not request.user.is_authenticated
        event = assembler.event_facts(record_id, anonymous) if 0 < record_id <= MAX_RECORD_ID else None
        if event is None:
            raise missing_event(record_id)
        self.check_single_read(event)
        try:
            record = assembler.single_event(record_id, request.user, protected=bool(event.password))
        except store.Unresolved:
            assembler.keep_missing()
            return self.single_read(find_event(self.get_queryset(), record_id))
        return Response(JSONText(record))

    def single_read(self, event):
        request = self.request
        self.check_single_read(event)
        return Response(EventRecordSerializer(event, context={"request": request, "json_ld": True}).data)

    def check_single_read(self, event):
        """events.md §3, steps 3-6: trash, then read rights, then the password."""
        request = self.request
        if event.status == PostStatus.TRASH:
            raise event_trashed(event.pk)
        if not roles.can_read(request.user, event):
            raise event_not_accessible(event.pk)
        if is_protected(event, request):
            raise event_password_protected(event.pk)
