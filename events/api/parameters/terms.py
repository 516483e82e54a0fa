"""Parameters of the categories and tags routes (docs/contract/terms.md §2-§6), declared once for both taxonomies."""

from functools import partial

from django.utils.translation import gettext_lazy as _

from ...models import Taxonomy, Term
from ...queries import params
from ...queries.params import (
    existing_record_id,
    parse_record_id,
)
from .fields import (
    Params,
    RawParam,
    StringParam,
)


def existing_term_id(field, value):
    """The path `id`: a term of the route's taxonomy (a tag's ID on /categories is refused)."""
    return field.parsed(partial(existing_record_id, Term.objects.filter(taxonomy=field.parent.taxonomy)), value)


def existing_category(field, value):
    """`parent`: an existing category (events.queries.params.existing_category)."""
    return field.parsed(params.existing_category, value)


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
        "retrieve": by_id,
        "create": declare("CreateParams", (Params,), **written(True, existing_category)),
        "update": declare("UpdateParams", (by_id,), **written(False, category_parent_for_update)),
        "destroy": by_id,
    }


ROUTE_PARAMS = {taxonomy: route_params(taxonomy) for taxonomy in (Taxonomy.CATEGORY, Taxonomy.TAG)}
