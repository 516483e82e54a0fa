"""The organizers routes (venues-organizers.md)."""
from django.utils.translation import gettext_lazy as _

from ...models import Organizer, PostKind
from ...services.linked import save_organizer, trash_organizer
from .. import errors
from ..serializers import linked_params as params
from ..serializers.organizers import OrganizerRecordSerializer
from .linked import LinkedViewSet


class OrganizerViewSet(LinkedViewSet):
    kind = PostKind.ORGANIZER
    model = Organizer
    collection = "organizers"
    record_serializer = OrganizerRecordSerializer
    save_record = staticmethod(save_organizer)
    trash_record = staticmethod(trash_organizer)
    params_classes = {
        "list": params.OrganizerListParams,
        "create": params.OrganizerParams,
        "retrieve": params.OrganizerReadParams,
        "update": params.OrganizerUpdateParams,
        "destroy": params.OrganizerIdParams,
        "retrieve_by_slug": params.OrganizerSlugReadParams,
        "update_by_slug": params.OrganizerSlugUpdateParams,
        "destroy_by_slug": params.OrganizerSlugParams,
    }

    def not_accessible(self, record_id):
        return errors.ApiError(
            "organizer-not-accessible",
            _("You are not allowed to read the organizer with the ID %(id)s.") % {"id": record_id},
            403,
        )

    def in_trash(self, record_id):
        return errors.ApiError(
            "organizer-is-in-trash", _("The organizer with the ID %(id)s is already in the trash.") % {"id": record_id}, 410
        )

    def archive_page_not_found(self):
        return errors.ApiError(
            "organizer-archive-page-not-found", _("The requested page of organizers does not exist."), 404
        )
