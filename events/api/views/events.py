"""The events routes: the list, single reads and writes (the work of a write happens in events.services.events)."""

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from rest_framework.response import Response

from ... import roles, store
from ...conf import events_settings
from ...models import Event, PostKind, PostStatus
from ...presentation.events import EventRecordSerializer, events_for_records, is_protected
from ...presentation.links import marker_values, namespace_url
from ...presentation.records import event_texts
from ...queries import events as event_queries
from ...queries import visibility
from ...queries.filtersets import EventFilterSet
from ...queries.pages import ListStatement
from ...queries.params import MAX_RECORD_ID, effective_per_page, id_for_slug
from ...services import events as event_service
from ..parameters.event_writes import (
    EventCreateParams,
    EventDeleteParams,
    EventSlugDeleteParams,
    EventSlugUpdateParams,
    EventUpdateParams,
    written_fields,
)
from ..parameters.events import (
    EventReadParams,
    EventSlugReadParams,
    event_not_found,
    find_event,
    missing_event,
)
from ..permissions import CanEditKind
from ..renderers import JSONText
from .base import WRITE_ACTIONS, WPViewSet


class EventViewSet(WPViewSet):
    """Writes need the "edit events" right on the route (401 anonymous / 403 others), then the
    record-level rules of docs/contract/auth.md §3.2, the same by ID and by slug."""

    kind = PostKind.EVENT
    collection = "events"
    filterset_class = EventFilterSet
    per_page_noun = "events"
    params_classes = {
        "retrieve": EventReadParams,
        "retrieve_by_slug": EventSlugReadParams,
        "create": EventCreateParams,
        "update": EventUpdateParams,
        "update_by_slug": EventSlugUpdateParams,
        "destroy": EventDeleteParams,
        "destroy_by_slug": EventSlugDeleteParams,
    }
    permission_classes_by_action = {action: [CanEditKind] for action in WRITE_ACTIONS}
    refusals = {
        "trashed": ("event-no-longer-available", _("The event with the ID %(id)s has been trashed."), 403),
        "not_accessible": ("event-not-accessible", _("You are not allowed to read the event with the ID %(id)s."), 403),
        "password_protected": (
            "event-password-protected",
            _("The event with the ID %(id)s is password protected: send its password to read it."),
            403,
        ),
        "page_not_found": ("event-archive-page-not-found", _("The requested page of events does not exist."), 404),
    }

    def get_queryset(self):
        """Events with everything the record reads; the list also scoped to what the caller may see."""
        queryset = events_for_records()
        if self.action == "list":
            queryset = event_queries.listed(self.listable(), queryset)
        return queryset

    def listable(self):
        return event_queries.listable(self.request.user, self.params.get("status"))

    # --- list -----------------------------------------------------------------------------------

    def list(self, request, *args, **kwargs):
        params = self.params
        per_page = effective_per_page(params["per_page"])
        filterset = self.list_filterset()
        listable, ordering = self.listable(), event_queries.list_ordering(by_include=bool(params.get("include")))

        def page_query():
            listed = self.filter_queryset(event_queries.listed(listable))
            # The page is read as IDs: the records come from the rendering store (events/store).
            return listed.order_by(*ordering).values(*store.RecordFacts.COLUMNS)

        # Everything the query is built from, and nothing else, is its key.
        statement = ListStatement(
            Event,
            ("events", filterset.statement_key(), repr(listable), ordering),
            page_query,
            reads=filterset.reads(),
            searched=filterset.search_applied(),
        )
        return self.answer_list(statement, per_page, self.echoed_filters(filterset.window, per_page))

    def page_records(self, page):
        """The JSON texts of a page's records: stored renderings joined; those not stored yet are built
        (and stored). Texts, not dicts: parsing and writing them again would cost more than the join."""
        assembler = store.Assembler(marker_values(self.request), translation.get_language(), page.state)
        page_ids = [row["pk"] for row in page.rows]
        facts = {row["pk"]: store.RecordFacts.of_event(row) for row in page.rows}
        records = event_texts(self.request, assembler, page_ids, facts, self.get_queryset)
        return [records[pk] for pk in page_ids]

    def echoed_filters(self, window, per_page):
        """The applied filters in the order the plugin writes them into the list links (docs/contract/events.md §2.7).

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
            *((name, dates.get(name)) for name in ("starts_before", "starts_after", "ends_before", "ends_after")),
            ("strict_dates", "true" if window.strict and window.bounds else None),
            *((name, params.get(name)) for name in ("ticketed", "geoloc", "geoloc_lat", "geoloc_lng")),
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
        """The single read from the rendering store; built from the models when a rendering is missing."""
        record_id = self.path_record_id()
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
            event = find_event(self.get_queryset(), record_id)
            self.check_single_read(event)
            return Response(EventRecordSerializer(event, context={"request": request, "json_ld": True}).data)
        return Response(JSONText(record))

    retrieve_by_slug = retrieve

    def check_single_read(self, event):
        """docs/contract/events.md §3, steps 3-6: trash, then read rights, then the password."""
        request = self.request
        if event.status == PostStatus.TRASH:
            raise self.refusal("trashed", event.pk)
        if not roles.can_read(request.user, event):
            raise self.refusal("not_accessible", event.pk)
        if is_protected(event, request):
            raise self.refusal("password_protected", event.pk)

    # --- writes ---------------------------------------------------------------------------------

    def create(self, request, *args, **kwargs):
        event = event_service.create_event(request.user, written_fields(self.params, self.sent))
        response = Response(self.write_record(event), status=201)
        response["Location"] = namespace_url(request, f"/events/{event.pk}")
        return response

    def update(self, request, *args, **kwargs):
        return self.apply_update(find_event(self.get_queryset(), self.params["id"]))

    def update_by_slug(self, request, *args, **kwargs):
        """docs/contract/events.md §5: a slug naming no event is 404 rest-event-not-found (for ID 0), not the read routes' 400."""
        # The body `slug` beats the path one (docs/contract/README.md §3), so it names the event and renames nothing.
        event_id = id_for_slug(Event, self.params["slug"])
        if event_id is None:
            raise event_not_found(0)
        return self.apply_update(find_event(self.get_queryset(), event_id), exclude=("slug",))

    def destroy(self, request, *args, **kwargs):
        return self.trash(find_event(self.get_queryset(), self.path_record_id()))

    destroy_by_slug = destroy

    # --- steps ----------------------------------------------------------------------------------

    def apply_update(self, event, exclude=()):
        self.check_may_edit(event)
        fields = written_fields(self.params, self.sent, exclude)
        event = event_service.update_event(event, self.request.user, fields, scope=self.recurrence_scope())
        return Response(self.write_record(event))

    def trash(self, event):
        """docs/contract/events.md §6: rights first (judged on the status before any trashing), then
        410 for a second delete (the service's InTrash, judged in the write's turn)."""
        self.check_may_edit(event)
        event_service.trash_event(event, self.request.user, scope=self.recurrence_scope())
        return Response(self.write_record(event))

    def recurrence_scope(self):
        return self.params.get("recurrence_scope") if "recurrence_scope" in self.sent else None

    def write_record(self, event):
        """The record as saved, read back with everything the serializer needs (no json_ld on writes)."""
        fresh = self.get_queryset().get(pk=event.pk)
        return EventRecordSerializer(fresh, context={"request": self.request}).data
