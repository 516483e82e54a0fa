"""The two shapes of a category or tag: the standalone record (docs/contract/terms.md §1) and the one embedded in events."""

from types import SimpleNamespace

from rest_framework import serializers

from ..models import Category, Taxonomy
from .links import namespace_url, term_url

COLLECTIONS = {Taxonomy.CATEGORY: "/categories", Taxonomy.TAG: "/tags"}


class CategoryTree:
    """(parent ID, slug) of every category, loaded in one query the first time an ancestor is needed.

    Category URLs carry every ancestor's slug; walking `parent` row by row would cost a query per
    level and per listed term.
    """

    def __init__(self):
        self._nodes = None

    def ancestors(self, term):
        """The ancestors of `term`, root first, as objects with a `slug` (what links.term_url reads)."""
        if not term.parent_id:
            return []
        if self._nodes is None:
            rows = Category.objects.order_by().values_list("pk", "parent_id", "slug")
            self._nodes = {pk: (parent_id, slug) for pk, parent_id, slug in rows}
        chain, seen, node_id = [], {term.pk}, term.parent_id
        while node_id and node_id in self._nodes and node_id not in seen:
            parent_id, slug = self._nodes[node_id]
            chain.append(SimpleNamespace(slug=slug))
            seen.add(node_id)
            node_id = parent_id
        return chain[::-1]


def term_urls(request, term):
    """`{"self", "collection"}` plus `"up"` for a category with a parent."""
    collection = namespace_url(request, COLLECTIONS[term.taxonomy])
    urls = {"self": f"{collection}/{term.pk}", "collection": collection}
    if term.taxonomy == Taxonomy.CATEGORY and term.parent_id:
        urls["up"] = f"{collection}/{term.parent_id}"
    return urls


class TermRecordSerializer(serializers.BaseSerializer):
    """The standalone record of lists, single reads and writes. Context: `request`, optionally a shared `category_tree`."""

    def to_representation(self, term):
        request = self.context["request"]
        data = {
            "id": term.pk,
            "count": term.count,
            "description": term.description or "",
            "name": term.name or "",
            "slug": term.slug,
            "taxonomy": term.taxonomy,
        }
        if term.taxonomy == Taxonomy.CATEGORY:
            data["parent"] = term.parent_id or 0
            ancestors = self.context.setdefault("category_tree", CategoryTree()).ancestors(term)
        else:
            ancestors = ()
        data["meta"] = []
        data["url"] = term_url(request, term, ancestors)
        data["urls"] = term_urls(request, term)
        return data


def embedded_term(term, request):
    """The raw term plus links, as events embed it (docs/contract/events.md §1.4)."""
    return {
        "name": term.name or "",
        "slug": term.slug,
        "term_group": term.term_group,
        "term_taxonomy_id": term.pk,
        "taxonomy": term.taxonomy,
        "description": term.description or "",
        "parent": term.parent_id or 0,
        "count": term.count,
        "filter": "raw",
        "id": term.pk,
        "urls": term_urls(request, term),
    }
