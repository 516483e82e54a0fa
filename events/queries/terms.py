"""The categories and tags lists (docs/contract/terms.md §2): their filters and their order."""

from django.db.models import Case, IntegerField, Q, Value, When
from django.db.models.functions import Coalesce, Lower

from ..list_versions import Reads
from ..models import Event, Term
from .filtering import apply_filters, localized_text, reads_with_filters

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


def filter_terms(queryset, values):
    """The terms of `queryset` that every one of `values` keeps."""
    return apply_filters(queryset, FILTERS, values)


def _searched(queryset, text):
    # Name or slug, case-insensitive (WordPress convention), in the language the client reads.
    queryset = queryset.alias(searched_name=localized_text("name"))
    return queryset.filter(Q(searched_name__icontains=text) | Q(slug__icontains=text))


def _non_empty(queryset, hide):
    return queryset.filter(count__gt=0) if hide else queryset


def _of_event(queryset, event_id):
    links = Event.terms.through.objects.filter(event_id=event_id).values("term_id")
    return queryset.filter(pk__in=links)


FILTERS = {
    "search": _searched,
    "include": lambda queryset, ids: queryset.filter(pk__in=ids),
    "exclude": lambda queryset, ids: queryset.exclude(pk__in=ids),
    "hide_empty": _non_empty,
    "parent": lambda queryset, parent_id: queryset.filter(parent_id=parent_id),
    "event": _of_event,
    "slug": lambda queryset, slug: queryset.filter(slug=slug),
}


# What a list of terms reads: the terms table (its display columns when sorted by description),
# and the link table when filtered by event.
FILTER_READS = {"event": Reads.of(Event.terms.through)}
LISTED_READS = Reads.of(Term)
LISTED_BY_DESCRIPTION_READS = Reads.of(Term, display=True)


def reads(values, orderby):
    """What a statement of terms narrowed by filter_terms(`values`) and sorted by `orderby` reads."""
    listed = LISTED_BY_DESCRIPTION_READS if ORDER_FIELDS.get(orderby) == "ordered_description" else LISTED_READS
    return reads_with_filters(listed, FILTER_READS, values)


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
