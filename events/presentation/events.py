"""The event record of docs/contract/events.md §1, built by hand: every list page renders up to 50 of them."""

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext
from rest_framework import serializers

from .. import roles
from ..conf import events_settings
from ..cost import cost_values, format_cost
from ..dates import date_details, format_wp, wall_clock
from ..models import Event, EventOrganizer, Taxonomy, links_prefetched
from ..store import IMAGE, ORGANIZER, TERM, VENUE, reference
from ..text import autop, escape_url, texturize
from ..translation import shown_text
from .images import image_record
from .json_ld import event_json_ld
from .links import global_id, namespace_url, post_url
from .organizers import OrganizerRecordSerializer
from .rendering import rendering_context
from .terms import embedded_term
from .venues import VenueRecordSerializer, blanked, show_flag

# docs/contract/events.md §1.6: what a password-protected event shows in a list.
BLANKS = {
    **dict.fromkeys(("description", "excerpt", "cost", "website"), ""),
    "image": False,
    **dict.fromkeys(("all_day", "show_map", "show_map_link", "hide_from_listings", "sticky", "featured"), None),
    **dict.fromkeys(("categories", "tags", "venue", "organizer", "custom_fields"), []),
    "cost_details": {"currency_symbol": "", "currency_position": "", "currency_code": "", "values": []},
}


def events_for_records(terms=None):
    """Events with everything their record and JSON-LD read selected with them: the venue, the
    organizers, the images and the series (the events routes, the change feed and the public event
    page read them so); `terms`: the queryset their terms are read with."""
    return links_prefetched(
        Event.objects.select_related("image", "venue", "venue__image", "series"),
        EventOrganizer.objects.select_related("organizer", "organizer__image"),
        terms=terms,
    )


def is_protected(event, request):
    """A password hides the event unless the request sends it, or asks `context=edit` as someone who may edit."""
    if not event.password:
        return False
    raw = rendering_context(request).raw_params
    if raw.get("password") == event.password:
        return False
    return not (raw.get("context") == "edit" and roles.can_edit(request.user, event))


def blank_protected(record):
    return blanked(record, BLANKS)


def cost_fields(event):
    """`cost` and `cost_details` (docs/contract/events.md §1.2)."""
    values = [str(value) for value in (event.cost or [])]
    cost = format_cost(
        values,
        event.currency_symbol,
        event.currency_position,
        default_symbol=events_settings.DEFAULT_CURRENCY_SYMBOL,
        free_label=gettext("Free"),
    )
    details = {
        "currency_symbol": event.currency_symbol,
        "currency_code": event.currency_code,
        "currency_position": event.currency_position,
        "values": cost_values(values),
    }
    return cost, details


def linked_records(event, request, context):
    """(image, venue, organizers, categories, tags) of a prefetched event: embedded records, or with
    the context's `references` (the stored rendering, events/store) references joined at read time."""
    if context.get("references"):
        terms = sorted(event.shown_terms(), key=lambda term: term.pk)
        shown = [(term.taxonomy, reference(TERM, term.pk)) for term in terms]
        image = reference(IMAGE, event.image_id) if event.image_id is not None else False
        venue = reference(VENUE, event.venue_id) if event.venue_id is not None else []
        organizers = [reference(ORGANIZER, link.organizer_id) for link in event.shown_organizer_links()]
    else:
        # Terms sorted by name, as WordPress returns them.
        records = [embedded_term(term, request) for term in event.shown_terms()]
        shown = [(term["taxonomy"], term) for term in sorted(records, key=lambda term: (term["name"], term["id"]))]
        image = image_record(event.image, request) if event.image_id is not None else False
        linked_context = {"request": request, "json_ld": bool(context.get("json_ld")), "embedded": True}
        venue = []
        if event.venue_id is not None and event.venue is not None:
            venue = VenueRecordSerializer(event.venue, context=linked_context).data
        links = event.shown_organizer_links()
        organizers = [OrganizerRecordSerializer(link.organizer, context=linked_context).data for link in links]
    categories = [term for taxonomy, term in shown if taxonomy == Taxonomy.CATEGORY]
    tags = [term for taxonomy, term in shown if taxonomy == Taxonomy.TAG]
    return image, venue, organizers, categories, tags


class EventRecordSerializer(serializers.BaseSerializer):
    """An Event as the API shows it; expects the relations events_for_records() selects.

    Context: `request`; `json_ld` (single reads: add `json_ld` here and in the embedded venue and
    organizers); `blank_protected` (lists: blank password-protected events, docs/contract/events.md §1.6);
    `references` (the stored rendering: linked records and terms as references, joined at read time).
    """

    def to_representation(self, event):
        request = self.context["request"]
        single = bool(self.context.get("json_ld"))
        site_zone = timezone.get_default_timezone()
        url = post_url(request, event)
        gid = global_id(request, event.pk)
        start, end = wall_clock(event.start_local), wall_clock(event.end_local)
        start_utc, end_utc = event.start_utc.astimezone(dt.UTC), event.end_utc.astimezone(dt.UTC)
        cost, cost_details = cost_fields(event)
        image, venue, organizers, categories, tags = linked_records(event, request, self.context)
        record = {
            "id": event.pk,
            "global_id": gid,
            "global_id_lineage": [gid],
            "author": event.author_id_string,
            "status": event.status,
            "date": format_wp(event.date.astimezone(site_zone)),
            "date_utc": format_wp(event.date.astimezone(dt.UTC)),
            "modified": format_wp(event.modified.astimezone(site_zone)),
            "modified_utc": format_wp(event.modified.astimezone(dt.UTC)),
            "url": url,
            "rest_url": namespace_url(request, f"/events/{event.pk}"),
            "title": texturize(shown_text(event, "title") or ""),
            "description": autop(shown_text(event, "description") or ""),
            "excerpt": autop(shown_text(event, "excerpt") or ""),
            "slug": event.slug,
            "image": image,
            "all_day": event.all_day,
            "start_date": format_wp(start),
            "start_date_details": date_details(start),
            "end_date": format_wp(end),
            "end_date_details": date_details(end),
            "utc_start_date": format_wp(start_utc),
            "utc_start_date_details": date_details(start_utc),
            "utc_end_date": format_wp(end_utc),
            "utc_end_date_details": date_details(end_utc),
            "timezone": event.timezone_name,
            "timezone_abbr": event.timezone_abbr,
            "cost": cost,
            "cost_details": cost_details,
            # Never stored: the event page; stored empty: "" (docs/contract/events.md §1).
            "website": url if event.website is None else escape_url(event.website),
            "show_map": show_flag(event.show_map),
            "show_map_link": show_flag(event.show_map_link),
            "hide_from_listings": event.hide_from_listings,
            "sticky": event.sticky,
            "featured": event.featured,
            "categories": categories,
            "tags": tags,
            "venue": venue,
            "organizer": organizers,
            "custom_fields": [],
        }
        # Only records of a series have the field: every other record stays as v1 has it.
        recurrence = recurrence_field(event)
        if recurrence is not None:
            record["recurrence"] = recurrence
        if single and not event.password:
            record["json_ld"] = event_json_ld(event, request)
        if self.context.get("blank_protected") and is_protected(event, request):
            blank_protected(record)
        return record


def recurrence_field(event):
    """The `recurrence` object of a record in a series (its series selected with it), else None."""
    if event.series_id is None or event.series is None:
        return None
    series = event.series
    # Kept in the API's form (Recurrence.store): read as they are, not parsed again for each of
    # the series' records, which would cost the series' length times its dates.
    return {
        "rules": list(series.rules),
        "dates": list(series.dates),
        "exclusions": list(series.exclusions),
        "series": series.pk,
        "position": event.series_position,
    }
