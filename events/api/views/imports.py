"""`events-calendar/v1/imports`: administrators' import sources, their history, "run now", and where an event came from."""

from django.utils.translation import gettext_lazy as _
from rest_framework.response import Response

from ...imports.run import RunUnderWay, run_source
from ...imports.sources import origin_of, save_source
from ...models import Event, ImportRun, ImportSource
from ...models.imports import IMPORT_STATUSES, ImportPolicy
from .. import errors
from ..parameters.fields import BooleanParam, ListParam, Params, PositiveIntegerParam, StringParam
from .base import WPViewSet
from .webhooks import Administrators

MAX_RUNS = 100
STATUSES = [value for value, _label in IMPORT_STATUSES]


def _moment(value):
    return value.isoformat().replace("+00:00", "Z") if value else None


class CreateParams(Params):
    url = StringParam(required=True, non_empty=True, max_length=2000, help_text=_("The source's http or https URL."))
    name = StringParam(max_length=200, help_text=_("A name for the source."))
    policy = StringParam(choices=ImportPolicy.values, help_text=_("What a new import does to events edited here."))
    status = StringParam(choices=STATUSES, help_text=_("The status of the events it creates."))
    categories = ListParam(help_text=_("Category names given to every event of the source."))
    interval_minutes = PositiveIntegerParam(help_text=_("Minutes between two refreshes (0: only when asked)."))
    active = BooleanParam(help_text=_("Whether the worker refreshes it."))


class UpdateParams(CreateParams):
    url = StringParam(non_empty=True, max_length=2000, help_text=_("The source's http or https URL."))


class RunsParams(Params):
    per_page = PositiveIntegerParam(default=20, help_text=_("How many of the latest runs (at most 100)."))


def no_source():
    return errors.ApiError("rest_import_invalid_id", _("There is no import source with this ID."), 404)


def source_record(source):
    return {
        "id": source.pk,
        "name": source.name,
        "url": source.url,
        "kind": source.kind,
        "policy": source.policy,
        "status": source.status,
        "categories": source.categories,
        "interval_minutes": source.interval_minutes,
        "active": source.active,
        "last_run": _moment(source.last_run),
        "next_run": _moment(source.next_run),
    }


def run_record(run):
    return {
        "started": _moment(run.started),
        "finished": _moment(run.finished),
        **{name: getattr(run, name) for name in ("created", "updated", "trashed", "unchanged", "skipped", "errors")},
        "not_modified": run.not_modified,
        "failure": run.failure,
        "messages": run.messages,
    }


class ImportViewSet(WPViewSet):
    params_classes = {"create": CreateParams, "update": UpdateParams, "runs": RunsParams}
    permission_classes_by_action = {
        action: [Administrators]
        for action in ("list", "create", "retrieve", "update", "destroy", "runs", "run", "origin")
    }

    def source(self):
        source = ImportSource.objects.filter(pk=int(self.kwargs["id"])).first()
        if source is None:
            raise no_source()
        return source

    def written_fields(self):
        names = ("name", "url", "policy", "status", "categories", "interval_minutes", "active")
        return {name: self.params[name] for name in names if name in self.params}

    def list(self, request, *args, **kwargs):
        return Response([source_record(source) for source in ImportSource.objects.order_by("pk")])

    def create(self, request, *args, **kwargs):
        return Response(source_record(save_source(self.written_fields(), owner=request.user)), status=201)

    def retrieve(self, request, *args, **kwargs):
        return Response(source_record(self.source()))

    def update(self, request, *args, **kwargs):
        return Response(source_record(save_source(self.written_fields(), source=self.source())))

    def destroy(self, request, *args, **kwargs):
        source = self.source()
        record = source_record(source)
        # The events it imported stay; only the source, its history and its identities go.
        source.delete()
        return Response({"deleted": True, "previous": record})

    def runs(self, request, *args, **kwargs):
        latest = ImportRun.objects.filter(source=self.source()).order_by("-started", "-id")
        return Response([run_record(run) for run in latest[: min(self.params["per_page"], MAX_RUNS)]])

    def run(self, request, *args, **kwargs):
        try:
            run = run_source(self.source())
        except RunUnderWay:
            raise errors.ApiError(
                "rest_import_running", _("A run of this source is under way: try again when it ends."), 409
            ) from None
        return Response(run_record(run))

    def origin(self, request, *args, **kwargs):
        event = Event.objects.filter(pk=int(self.kwargs["id"])).first()
        record = origin_of(event) if event is not None else None
        if record is None:
            raise errors.ApiError("rest_import_no_origin", _("This event was not imported."), 404)
        return Response(
            {
                "event": event.pk,
                "source": source_record(record.source),
                "remote_id": record.remote_key,
                "first_imported": _moment(record.first_imported),
                "last_imported": _moment(record.last_imported),
            }
        )
