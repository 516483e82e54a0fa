"""The categories and tags lists (docs/contract/terms.md §2): their filters and their order."""

from django.db.models import Case, IntegerField, Q, Value, When
from django.db.models.functions import Coalesce, Lower

from ..models import Event
from .filtering import localized_text

# orderby values WordPress understands, and the column each sorts on; anything else sorts by name.
ORDER_FIELDS = {
    "name": "ordered_name",
    "id": "pk",
    "term_id": "pk",
    "slug": "slug",
    "term_group": "term_group",
    "count": "count",
    "description": "ordered_description",
    "parent": "ordered_parent",
}


def searched(queryset, text):
    # Name or slug, case-insensitive (WordPress convention), in the language the client reads.
    queryset = queryset.alias(searched_name=localized_text("name"))
    return queryset.filter(Q(searched_name__icontains=text) | Q(slug__icontains=text))


def of_event(queryset, event_id):
    links = Event.terms.through.objects.filter(event_id=event_id).values("term_id")
    return queryset.filter(pk__in=links)


def order_terms(queryset, orderby, order, include_ids=()):
    """WordPress's term ordering: name (case-insensitive) by default, id as the tie-breaker.

    `order` is ascending only when it says `asc` (any case); any other value sorts descending.
    """
    if orderby == "none":
        return queryset.order_by("pk")
    descending = order is not None and order.lower() != "asc"
    if orderby == "include" and include_ids:
        positions = [When(pk=term_id, then=Value(position)) for position, term_id in enumerate(include_ids)]
        queryset = queryset.alias(
            include_position=Case(*positions, default=Value(len(include_ids)), output_field=IntegerField())
        )
        field = "include_position"
    else:
        field = ORDER_FIELDS.get(orderby, "ordered_name")
    if field == "ordered_name":
        queryset = queryset.alias(ordered_name=Lower(localized_text("name")))
    elif field == "ordered_description":
        queryset = queryset.alias(ordered_description=Lower(localized_text("description")))
    elif field == "ordered_parent":
        queryset = queryset.alias(ordered_parent=Coalesce("parent_id", Value(0)))
    return queryset.order_by(f"-{field}" if descending else field, "pk")
