"""Event write actions (create, update, trash), mixed into EventViewSet; the work happens in events.services.events."""
from django.utils.translation import gettext_lazy as _
from rest_framework.response import Response

from ... import roles
from ...models import Event, PostStatus
from ...queries.params import id_for_slug
from ...services import events as event_service
from .. import errors
from ..links import namespace_url
from ..permissions import CanEditKind
from ..serializers.event_params import event_not_found, find_event
from ..serializers.event_write import (
    EventCreateParams,
    EventDeleteParams,
    EventSlugDeleteParams,
    EventSlugUpdateParams,
    EventUpdateParams,
    written_fields,
)
from ..serializers.events import EventRecordSerializer

WRITE_ACTIONS = ("create", "update", "update_by_slug", "destroy", "destroy_by_slug")


def event_in_trash(record_id):
    return errors.ApiError(
        "event-is-in-trash", _("The event with the ID %(id)s is already in the trash.") % {"id": record_id}, 410
    )


class EventWriteActions:
    """create, update, update_by_slug, destroy, destroy_by_slug and their parameter declarations.

    Route-level check: the "edit events" right (401 anonymous / 403 others); then the record-level
    rules of auth.md §3.2, the same by ID and by slug.
    """

    write_params_classes = {
        "create": EventCreateParams,
        "update": EventUpdateParams,
        "update_by_slug": EventSlugUpdateParams,
        "destroy": EventDeleteParams,
        "destroy_by_slug": EventSlugDeleteParams,
    }
    write_permission_classes = {action: [CanEditKind] for action in WRITE_ACTIONS}

    def create(self, request, *args, **kwargs):
        event = event_service.create_event(request.user, self.written_fields())
        response = Response(self.write_record(event), status=201)
        response["Location"] = namespace_url(request, f"/events/{event.pk}")
        return response

    def update(self, request, *args, **kwargs):
        return self.apply_update(find_event(self.get_queryset(), self.params["id"]))

    def update_by_slug(self, request, *args, **kwargs):
        # The body `slug` beats the path one (README §3), so it names the event and renames nothing.
        return self.apply_update(self.event_for_update_slug(self.params["slug"]), exclude=("slug",))

    def destroy(self, request, *args, **kwargs):
        return self.trash(find_event(self.get_queryset(), self.params["id"]))

    def destroy_by_slug(self, request, *args, **kwargs):
        return self.trash(find_event(self.get_queryset(), self.params["slug"]))

    # --- steps ----------------------------------------------------------------------------------

    def written_fields(self, exclude=()):
        return written_fields(self.params, self.sent, exclude)

    def event_for_update_slug(self, slug):
        """events.md §5: a slug naming no event is 404 rest-event-not-found (for ID 0), not the read routes' 400."""
        event_id = id_for_slug(Event, slug)
        if event_id is None:
            raise event_not_found(0)
        return find_event(self.get_queryset(), event_id)

    def check_may_edit(self, event):
        if not roles.can_edit(self.request.user, event):
            raise errors.forbidden(self.request.user)

    def apply_update(self, event, exclude=()):
        self.check_may_edit(event)
        event = event_service.update_event(event, self.request.user, self.written_fields(exclude), scope=self.recurrence_scope())
        return Response(self.write_record(event))

    def trash(self, event):
        """events.md §6: rights first (judged on the status before any trashing), then 410 for a second delete."""
        self.check_may_edit(event)
        if event.status == PostStatus.TRASH:
            raise event_in_trash(event.pk)
        event_service.trash_event(event, self.request.user, scope=self.recurrence_scope())
        return Response(self.write_record(event))

    def recurrence_scope(self):
        return self.params.get("recurrence_scope") if "recurrence_scope" in self.sent else None

    def write_record(self, event):
        """The record as saved, read back with everything the serializer needs (no json_ld on writes)."""
        fresh = self.get_queryset().get(pk=event.pk)
        return EventRecordSerializer(fresh, context={"request": self.request}).data
