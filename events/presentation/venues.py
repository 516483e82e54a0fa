"""The venue record (docs/contract/venues-organizers.md §1.1) and the base it shares with organizers.

Built by hand rather than from model fields: list pages and event pages render many of them.
"""

import copy
import datetime as dt

from django.utils import timezone
from rest_framework import serializers

from .. import roles
from ..dates import format_wp
from ..text import autop, texturize
from ..translation import shown_text
from .images import image_record
from .json_ld import venue_json_ld
from .links import global_id, post_url

# §1.4: what a protected record shows, among the keys left after the empty values are dropped.
BLANKED_TEXT = (
    "description",
    "excerpt",
    "website",
    "phone",
    "email",
    "address",
    "city",
    "country",
    "province",
    "zip",
    "stateprovince",
)
BLANKS = {
    **dict.fromkeys(BLANKED_TEXT, ""),
    "image": False,
    **dict.fromkeys(("geo_lat", "geo_lng"), 0),
    **dict.fromkeys(("show_map", "show_map_link"), None),
}


def is_empty(value):
    """PHP's empty(), which the plugin applies to every value of these records."""
    if isinstance(value, (bool, list, dict)):
        return not value
    if isinstance(value, (int, float)):
        return value == 0
    return value is None or value in ("", "0")


def without_empty(record):
    return {key: value for key, value in record.items() if not is_empty(value)}


def blanked(record, blanks):
    """`record` with the value `blanks` gives each key it has."""
    record.update((key, copy.deepcopy(value)) for key, value in blanks.items() if key in record)
    return record


def show_flag(value):
    """Map flags never stored (None) read as true, like WordPress's missing post meta."""
    return True if value is None else bool(value)


def is_blanked(record, context):
    """§1.4: a protected record embedded in an event (or asked `blank`) is always blanked; elsewhere
    unless unlocked by its `password`, or by `edit_context` when the caller may edit it."""
    if not record.password:
        return False
    if context.get("embedded") or context.get("blank"):
        return True
    if context.get("password") == record.password:
        return False
    user = getattr(context.get("request"), "user", None)
    return not (context.get("edit_context") and roles.can_edit(user, record))


class LinkedRecordSerializer(serializers.BaseSerializer):
    """What venue and organizer records share: the post keys, `json_ld`, password blanking.

    Expects `image` selected with the record. Context: `request`; `json_ld` (single reads, and
    the linked records of a single event read); `embedded` (inside an event record); `blank`,
    `password`, `edit_context` (password protection, §1.4).
    """

    name_key = ""

    def post_fields(self, record, request):
        """The shared keys up to `image`, in the plugin's order."""
        site_zone = timezone.get_default_timezone()
        return {
            "id": record.pk,
            "author": record.author_id_string,
            "status": str(record.status),
            "date": format_wp(record.date.astimezone(site_zone)),
            "date_utc": format_wp(record.date.astimezone(dt.UTC)),
            "modified": format_wp(record.modified.astimezone(site_zone)),
            "modified_utc": format_wp(record.modified.astimezone(dt.UTC)),
            "url": post_url(request, record),
            self.name_key: texturize(shown_text(record, "title") or ""),
            "description": autop(shown_text(record, "description") or ""),
            "excerpt": autop(shown_text(record, "excerpt") or ""),
            "slug": record.slug,
            "image": image_record(record.image, request) if record.image_id is not None else False,
        }

    def with_json_ld(self, record, data):
        """§1.3: only when asked for and the caller may view the record (readable, not blanked)."""
        context = self.context
        request = context["request"]
        if (
            context.get("json_ld")
            and not is_blanked(record, context)
            and roles.can_read(getattr(request, "user", None), record)
        ):
            data["json_ld"] = self.json_ld(record, request)
        return data

    @staticmethod
    def add_global_id(data, request, record):
        gid = global_id(request, record.pk)
        data["global_id"] = gid
        data["global_id_lineage"] = [gid]

    def blank_if_protected(self, record, data):
        if not is_blanked(record, self.context):
            return data
        # Source quirk: the blanking table was written for events, where the name key holds a list.
        return blanked(data, {**BLANKS, self.name_key: []})


class VenueRecordSerializer(LinkedRecordSerializer):
    """A Venue: empty values dropped, then the map flags and global IDs appended (always present)."""

    name_key = "venue"

    def json_ld(self, record, request):
        return venue_json_ld(record, request)

    def to_representation(self, venue):
        request = self.context["request"]
        data = self.post_fields(venue, request)
        data.update(
            address=venue.address,
            city=venue.city,
            country=venue.country,
            province=venue.province,
            state=venue.state,
            zip=venue.zip,
            phone=venue.phone,
            website=venue.website,
            stateprovince=venue.stateprovince,
        )
        if venue.has_coordinates:
            data["geo_lat"] = float(venue.geo_lat)
            data["geo_lng"] = float(venue.geo_lng)
        data = without_empty(self.with_json_ld(venue, data))
        data["show_map"] = show_flag(venue.show_map)
        data["show_map_link"] = show_flag(venue.show_map_link)
        self.add_global_id(data, request, venue)
        return self.blank_if_protected(venue, data)
