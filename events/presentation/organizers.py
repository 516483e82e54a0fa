"""The organizer record of docs/contract/venues-organizers.md §1.2."""

from .json_ld import organizer_json_ld
from .venues import LinkedRecordSerializer, without_empty


class OrganizerRecordSerializer(LinkedRecordSerializer):
    """An Organizer: the global IDs are added before the empty values are dropped (nothing is appended)."""

    name_key = "organizer"

    def json_ld(self, record, request):
        return organizer_json_ld(record, request)

    def to_representation(self, organizer):
        request = self.context["request"]
        data = self.post_fields(organizer, request)
        data.update(phone=organizer.phone, website=organizer.website, email=organizer.email)
        self.with_json_ld(organizer, data)
        self.add_global_id(data, request, organizer)
        return self.blank_if_protected(organizer, without_empty(data))
