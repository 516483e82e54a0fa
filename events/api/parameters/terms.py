"""Parameters of the categories and tags routes (docs/contract/terms.md §2-§6), declared once for both taxonomies."""

from functools import partial

from django.utils.translation import gettext_lazy as _

from ...models import Taxonomy, Term
from ...queries.params import (
    TermSelection,
    default_per_page,
    existing_event_id,
    existing_record_id,
    parse_record_id,
)
from .fields import (
    ID_ITEMS,
    BooleanParam,
    ListParam,
    Params,
    PositiveIntegerParam,
    RawParam,
    StringParam,
)


def existing_term_id(field, value):
    """The path `id`: a term of the route's taxonomy (a tag's ID on /categories is refused)."""
    return field.parsed(partial(existing_record_id, Term.objects.filter(taxonomy=field.parent.taxonomy)), value)


def existing_category(field, value):
    """`parent`: an existing category; `0` and `""` are refused too, as the plugin's validator does."""
    term_id = parse_record_id(value)
    parent = Term.objects.filter(taxonomy=Taxonomy.CATEGORY, pk=term_id).first() if term_id else None
    if parent is None:
        field.refuse()
    return parent


def category_parent_for_update(field, value):
    """`parent` of an update: also refused when it would make the category its own ancestor."""
    parent = existing_category(field, value)
    term_id = parse_record_id(field.parent.initial_data.get("id"))
    seen, node = set(), parent
    while node is not None and node.pk not in seen:
        if node.pk == term_id:
            field.refuse()
        seen.add(node.pk)
        node = node.parent
    return parent


def existing_term_items(field, items):
    """`include`/`exclude`: terms of the route's taxonomy, by ID (or by exact slug), checked in one query."""
    return field.parsed(partial(TermSelection.parse, field.parent.taxonomy, slug_first=False), items)


class TermListParams(Params):
    page = PositiveIntegerParam(default=1, help_text=_("The page of results to return."))
    per_page = PositiveIntegerParam(
        default=default_per_page, help_text=_("The number of terms to return on each page (at most 50).")
    )
    search = StringParam(non_empty=True, help_text=_("Terms whose name or slug contains this text."))
    exclude = ListParam(
        validator=existing_term_items, wp_items=ID_ITEMS, help_text=_("Leave out the terms with these IDs.")
    )
    include = ListParam(validator=existing_term_items, wp_items=ID_ITEMS, help_text=_("Only the terms with these IDs."))
    order = StringParam(non_empty=True, help_text=_("The sort direction: asc or desc."))
    orderby = StringParam(
        non_empty=True,
        help_text=_("The sort field: name, id, slug, term_group, count, description, parent, include or none."),
    )
    hide_empty = BooleanParam(default="1", help_text=_("Whether to leave out terms that no published event carries."))


def route_params(taxonomy):
    """The Params class of each action of one taxonomy's routes; only categories take a `parent`.

    Each reads its taxonomy from `taxonomy` (validators need it). Fields are declared in the order
    the index lists them (a base class's fields come first).
    """
    hierarchical = taxonomy == Taxonomy.CATEGORY
    prefix = "Category" if hierarchical else "Tag"

    def declare(name, bases, /, **declared):
        return type(f"{prefix}{name}", bases, {"taxonomy": taxonomy, **declared})

    def parent(validator, help_text):
        return {"parent": RawParam(validator=validator, wp_type="integer", help_text=help_text)} if hierarchical else {}

    def written(required, parent_validator):
        return {
            # A name or slug another term of the taxonomy has (under the same parent) is refused:
            # 400 term_exists, what no schema can say.
            "name": StringParam(non_empty=True, required=required, server_checked=True, help_text=_("The term name.")),
            "description": StringParam(non_empty=True, help_text=_("The term description.")),
            "slug": StringParam(non_empty=True, server_checked=True, help_text=_("The term slug.")),
            **parent(parent_validator, _("The ID of the parent category.")),
        }

    by_id = declare(
        "IdParams",
        (Params,),
        id=RawParam(validator=existing_term_id, wp_type="integer", required=True, help_text=_("The term ID.")),
    )
    return {
        "list": declare(
            "ListParams",
            (TermListParams,),
            **parent(existing_category, _("Only the direct children of this category.")),
            post=RawParam(parse=existing_event_id, wp_type="integer", help_text=_("Only the terms of this event.")),
            event=RawParam(
                parse=existing_event_id,
                wp_type="integer",
                help_text=_("Only the terms of this event (wins over post)."),
            ),
            slug=StringParam(non_empty=True, help_text=_("Only the term with exactly this slug.")),
        ),
        "retrieve": by_id,
        "create": declare("CreateParams", (Params,), **written(True, existing_category)),
        "update": declare("UpdateParams", (by_id,), **written(False, category_parent_for_update)),
        "destroy": by_id,
    }


ROUTE_PARAMS = {taxonomy: route_params(taxonomy) for taxonomy in (Taxonomy.CATEGORY, Taxonomy.TAG)}
