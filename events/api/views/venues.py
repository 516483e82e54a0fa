"""The venues routes (docs/contract/venues-organizers.md)."""

from django.utils.translation import gettext_lazy as _

from ...models import PostKind, Venue
from ...presentation.venues import VenueRecordSerializer
from ...queries.filtersets import VenueFilterSet
from ...services.linked import save_venue, trash_venue
from ..parameters import linked as params
from .linked import LinkedViewSet


class VenueViewSet(LinkedViewSet):
    kind = PostKind.VENUE
    model = Venue
    collection = "venues"
    filterset_class = VenueFilterSet
    record_serializer = VenueRecordSerializer
    save_record = staticmethod(save_venue)
    trash_record = staticmethod(trash_venue)
    params_classes = params.ROUTE_PARAMS[PostKind.VENUE]
    refusals = {
        "not_accessible": ("venue-not-accessible", _("You are not allowed to read the venue with the ID %(id)s."), 403),
        "in_trash": ("venue-is-in-trash", _("The venue with the ID %(id)s is already in the trash."), 410),
        "page_not_found": ("venue-archive-page-not-found", _("The requested page of venues does not exist."), 404),
    }
