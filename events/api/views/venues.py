"""The venues routes (venues-organizers.md)."""
from django.utils.translation import gettext_lazy as _

from ...models import PostKind, Venue
from ...services.linked import save_venue, trash_venue
from .. import errors
from ..serializers import linked_params as params
from ..serializers.venues import VenueRecordSerializer
from .linked import LinkedViewSet


class VenueViewSet(LinkedViewSet):
    kind = PostKind.VENUE
    model = Venue
    collection = "venues"
    record_serializer = VenueRecordSerializer
    save_record = staticmethod(save_venue)
    trash_record = staticmethod(trash_venue)
    params_classes = {
        "list": params.VenueListParams,
        "create": params.VenueParams,
        "retrieve": params.VenueReadParams,
        "update": params.VenueUpdateParams,
        "destroy": params.VenueIdParams,
        "retrieve_by_slug": params.VenueSlugReadParams,
        "update_by_slug": params.VenueSlugUpdateParams,
        "destroy_by_slug": params.VenueSlugParams,
    }

    def not_accessible(self, record_id):
        return errors.ApiError(
            "venue-not-accessible", _("You are not allowed to read the venue with the ID %(id)s.") % {"id": record_id}, 403
        )

    def in_trash(self, record_id):
        return errors.ApiError(
            "venue-is-in-trash", _("The venue with the ID %(id)s is already in the trash.") % {"id": record_id}, 410
        )

    def archive_page_not_found(self):
        return errors.ApiError("venue-archive-page-not-found", _("The requested page of venues does not exist."), 404)
