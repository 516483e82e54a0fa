"""The organizers routes (docs/contract/venues-organizers.md)."""

from django.utils.translation import gettext_lazy as _

from ...models import Organizer, PostKind
from ...presentation.organizers import OrganizerRecordSerializer
from ...queries.filtersets import OrganizerFilterSet
from ...services.linked import save_organizer, trash_organizer
from ..parameters import linked as params
from .linked import LinkedViewSet


class OrganizerViewSet(LinkedViewSet):
    kind = PostKind.ORGANIZER
    model = Organizer
    collection = "organizers"
    filterset_class = OrganizerFilterSet
    record_serializer = OrganizerRecordSerializer
    save_record = staticmethod(save_organizer)
    trash_record = staticmethod(trash_organizer)
    params_classes = params.ROUTE_PARAMS[PostKind.ORGANIZER]
    refusals = {
        "not_accessible": (
            "organizer-not-accessible",
            _("You are not allowed to read the organizer with the ID %(id)s."),
            403,
        ),
        "in_trash": ("organizer-is-in-trash", _("The organizer with the ID %(id)s is already in the trash."), 410),
        "page_not_found": (
            "organizer-archive-page-not-found",
            _("The requested page of organizers does not exist."),
            404,
        ),
    }
