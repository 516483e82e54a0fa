"""The venues and organizers routes: one viewset shape for both kinds (docs/contract/venues-organizers.md)."""

from django.utils import translation
from rest_framework.response import Response

from ... import roles, store
from ...conf import events_settings
from ...json_text import to_json
from ...models import PostStatus
from ...presentation.links import marker_values, namespace_url
from ...queries import linked as linked_queries
from ...queries import visibility
from ...queries.pages import ListStatement
from ...queries.params import effective_per_page
from ..context import api_context
from ..parameters.linked import linked_fields
from ..permissions import CanEditKind
from .base import WRITE_ACTIONS, WPViewSet


class LinkedViewSet(WPViewSet):
    """list, create, retrieve, update and trash, by ID and by slug, of one linked-record kind.

    Subclasses name the model, the collection (path segment and list key), the record serializer,
    the write/trash services and the kind's own refusals.
    """

    model = None
    record_serializer = None
    save_record = None
    trash_record = None
    permission_classes_by_action = {action: [CanEditKind] for action in WRITE_ACTIONS}

    # --- plumbing ---------------------------------------------------------------------------------

    def get_queryset(self):
        """Records with what the serializer reads; the list also scoped to what the caller may see."""
        queryset = self.model.objects.select_related("image")
        if self.action == "list":
            queryset = queryset.filter(self.listable())
        return queryset

    def listable(self):
        return linked_queries.listable(self.request.user, self.kind, self.params.get("status"))

    def validate_params(self, request):
        """The path names the record: a body `id` or `slug` never redirects a read or a write to another one."""
        raw = api_context(request).raw_params
        for name in ("id", "slug"):
            if name in self.kwargs:
                raw[name] = self.kwargs[name]
        return super().validate_params(request)

    def get_record(self):
        """The record named by the path, already validated to exist."""
        return self.model.objects.select_related("image").get(pk=self.path_record_id())

    def serialize(self, record, **context):
        return self.record_serializer(record, context={"request": self.request, **context}).data

    def unlock_context(self):
        """§1.4: the `password` and `context=edit` that show a protected record unblanked."""
        raw = api_context(self.request).raw_params
        password = raw.get("password") if isinstance(raw.get("password"), str) else None
        return {"password": password, "edit_context": raw.get("context") == "edit"}

    # --- list -----------------------------------------------------------------------------------

    def list(self, request, *args, **kwargs):
        per_page = effective_per_page(self.params["per_page"])
        filterset, listable = self.list_filterset(), self.listable()

        def page_query():
            listed = self.filter_queryset(self.model.objects.filter(listable))
            # The page is read as IDs: the records come from the rendering store (events/store).
            return listed.order_by(*linked_queries.LIST_ORDERING).values("pk", "password")

        # Everything the query is built from, and nothing else, is its key (None: built afresh
        # every time, as a list of records with upcoming events is: it reads the clock).
        filters_key = filterset.statement_key()
        key = None if filters_key is None else (self.collection, filters_key, repr(listable))
        statement = ListStatement(
            self.model, key, page_query, reads=filterset.reads(), searched=filterset.search_applied()
        )
        return self.answer_list(statement, per_page, self.echoed_filters(per_page))

    def page_records(self, page):
        """The JSON texts of a page's records: stored renderings where the record has no password
        (what a protected record shows depends on the request), built (and stored) otherwise."""
        rows = page.rows
        protected = {row["pk"] for row in rows if row["password"]}
        assembler = store.Assembler(marker_values(self.request), translation.get_language(), page.state)
        texts = assembler.record_texts(
            store.SOURCE_KINDS[self.model],
            [row["pk"] for row in rows],
            self.built_texts,
            stored=lambda pk: pk not in protected,
        )
        return list(texts.values())

    def built_texts(self, ids):
        context = self.unlock_context()
        return {
            record.pk: to_json(self.serialize(record, **context)) for record in self.get_queryset().filter(pk__in=ids)
        }

    def echoed_filters(self, per_page):
        """What the list links repeat (§2.3): the arguments as given, `search` and `only_with_upcoming` too."""
        params, user = self.params, self.request.user
        sent = self.sent
        return [
            ("per_page", per_page),
            ("search", params.get("search")),
            ("event", params.get("event")),
            ("has_events", params.get("has_events")),
            ("only_with_upcoming", params.get("only_with_upcoming") if "only_with_upcoming" in sent else None),
            ("status", visibility.echoed_status(user, self.kind, params.get("status"))),
            # The language chosen by parameter must survive into the page links (the path prefix does).
            (events_settings.language_param, params.get(events_settings.language_param)),
        ]

    # --- single reads ---------------------------------------------------------------------------

    def retrieve(self, request, *args, **kwargs):
        """§3: readable (an editor reads a trashed record too), then the record with `json_ld`."""
        record = self.get_record()
        if not roles.can_read(self.request.user, record):
            raise self.refusal("not_accessible", record.pk)
        return Response(self.serialize(record, json_ld=True, **self.unlock_context()))

    retrieve_by_slug = retrieve

    # --- writes ---------------------------------------------------------------------------------

    def write_response(self, record, status=200):
        # The caller may edit what they just wrote (or was handed a duplicate it may read): the same
        # unlocking rules as a read in edit context.
        context = {**self.unlock_context(), "edit_context": True}
        return Response(self.serialize(record, **context), status=status)

    def create(self, request, *args, **kwargs):
        fields = linked_fields(self.kind, self.params, self.sent)
        record = self.save_record(fields, request.user)
        response = self.write_response(record, status=201)
        # Every create names what it answers with, as event and term creates do (WordPress's 201s).
        response["Location"] = namespace_url(request, f"/{self.collection}/{record.pk}")
        return response

    def update(self, request, *args, **kwargs):
        record = self.get_record()
        self.check_may_edit(record)
        fields = linked_fields(self.kind, self.params, self.sent)
        record = self.save_record(fields, request.user, instance=record)
        return self.write_response(record)

    update_by_slug = update

    def destroy(self, request, *args, **kwargs):
        """§6: permission on this record, then 410 when already trashed; `force` changes nothing."""
        record = self.get_record()
        self.check_may_edit(record)
        if record.status == PostStatus.TRASH:
            raise self.refusal("in_trash", record.pk)
        return self.write_response(self.trash_record(record))

    destroy_by_slug = destroy
