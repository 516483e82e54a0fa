"""The categories and tags routes: one viewset shape for both taxonomies (docs/contract/terms.md)."""

from django.utils import translation
from rest_framework.response import Response

from ... import store
from ...exceptions import NotHierarchical
from ...json_text import to_json
from ...models import Taxonomy, Term
from ...numbers import parse_int
from ...presentation.links import marker_values, namespace_url, with_query
from ...presentation.terms import TermRecordSerializer, term_urls
from ...queries.filtersets import CategoryFilterSet, TagFilterSet
from ...queries.pages import ListStatement, Page, fetch_page
from ...queries.params import effective_per_page
from ...services import terms as term_service
from ..context import api_context
from ..pagination import list_answer, page_links, remembered_list
from ..parameters import terms as term_params
from ..permissions import CanManageCategories, CanManageTags
from ..renderers import JSONText
from .base import WPViewSet

# The list parameters echoed into rest_url and the page links, in declaration order.
ECHOED_PARAMS = (
    "per_page",
    "search",
    "exclude",
    "include",
    "order",
    "orderby",
    "hide_empty",
    "parent",
    "post",
    "event",
    "slug",
)


class TermViewSet(WPViewSet):
    """list, create, retrieve, update and destroy of one taxonomy's terms."""

    taxonomy = None
    per_page_noun = "terms"

    def get_queryset(self):
        return Term.objects.filter(taxonomy=self.taxonomy)

    def serialize(self, term, context=None):
        return TermRecordSerializer(term, context=context or {"request": self.request}).data

    # --- list -----------------------------------------------------------------------------------

    def list(self, request, *args, **kwargs):
        params = self.params
        per_page = effective_per_page(params["per_page"])
        filterset = self.list_filterset()

        def page_query():
            # The page is read as IDs: the records come from the rendering store (events/store).
            return self.filter_queryset(self.get_queryset()).values("pk")

        # Everything the query is built from, and nothing else, is its key.
        statement = ListStatement(
            Term, (self.collection, filterset.statement_key()), page_query, reads=filterset.reads()
        )
        page = self.fetch_page(statement, params["page"], per_page)
        echoed = self.echoed_filters(per_page)
        return remembered_list(
            request, statement, page, echoed, lambda: self.list_response(self.page_records(page), page, echoed)
        )

    def page_records(self, page):
        """The JSON texts of a page's records: stored renderings, built (and stored) where missing."""
        assembler = store.Assembler(marker_values(self.request), translation.get_language(), page.state)
        return list(
            assembler.record_texts(store.TERM_RECORD, [row["pk"] for row in page.rows], self.built_texts).values()
        )

    def built_texts(self, ids):
        # One context: category ancestors are loaded once, not per record.
        context = {"request": self.request}
        return {term.pk: to_json(self.serialize(term, context)) for term in self.get_queryset().filter(pk__in=ids)}

    # Tags read the page their own way.
    fetch_page = staticmethod(fetch_page)

    def list_response(self, records, page, filters):
        """The list envelope (docs/contract/terms.md §2 order) written around the records' JSON texts; `filters`
        are what its links echo (echoed_filters)."""
        base = namespace_url(self.request, f"/{self.collection}/")
        # Unlike a post list's, a term list's rest_url leaves the page out.
        head = {"rest_url": with_query(base, filters), "total": page.total, "total_pages": page.total_pages}
        links = page_links(base, filters, page)
        del links["rest_url"]
        text = f"{to_json(head)[:-1]},{to_json(self.collection)}:[{','.join(records)}]"
        text += f",{to_json(links)[1:]}" if links else "}"
        return list_answer(JSONText(text), page)

    def echoed_filters(self, per_page):
        """The request's other arguments, as sent, so following a link keeps the same list (decisions.md)."""
        params, pairs = self.params, []
        for name in ECHOED_PARAMS:
            if name not in self.sent or name not in params:
                continue
            value = params[name]
            if name == "per_page":
                value = per_page
            elif name in ("include", "exclude"):
                value = value.given or None
            elif name == "parent":
                value = value.pk
            pairs.append((name, value))
        return pairs

    # --- single records -------------------------------------------------------------------------

    def get_term(self):
        return self.get_queryset().get(pk=self.params["id"])

    def retrieve(self, request, *args, **kwargs):
        return Response(self.serialize(self.get_term()))

    def create(self, request, *args, **kwargs):
        params = self.params
        term = term_service.create_term(
            self.taxonomy,
            name=params["name"],
            description=params.get("description"),
            slug=params.get("slug"),
            parent=self.requested_parent(),
        )
        response = Response(self.serialize(term), status=201)
        response["Location"] = term_urls(request, term)["self"]
        return response

    def update(self, request, *args, **kwargs):
        params = self.params
        changes = {name: params[name] for name in ("name", "description", "slug") if name in params}
        parent = self.requested_parent()
        if parent is not None:
            changes["parent"] = parent
        term = term_service.update_term(self.get_term(), **changes)
        return Response(self.serialize(term))

    def destroy(self, request, *args, **kwargs):
        term = self.get_term()
        # The answer is the term as it was just before deletion (docs/contract/terms.md §6).
        record = self.serialize(term)
        term_service.delete_term(term)
        return Response(record)

    def requested_parent(self):
        """The validated `parent` of a category write, or None; tags refuse any `parent` sent."""
        if "parent" in self.sent and self.taxonomy != Taxonomy.CATEGORY:
            raise NotHierarchical()
        return self.params.get("parent")


class CategoryViewSet(TermViewSet):
    taxonomy = Taxonomy.CATEGORY
    collection = "categories"
    filterset_class = CategoryFilterSet
    params_classes = term_params.ROUTE_PARAMS[Taxonomy.CATEGORY]
    permission_classes_by_action = {action: [CanManageCategories] for action in ("create", "update", "destroy")}


class TagViewSet(TermViewSet):
    taxonomy = Taxonomy.TAG
    collection = "tags"
    filterset_class = TagFilterSet
    params_classes = term_params.ROUTE_PARAMS[Taxonomy.TAG]
    permission_classes_by_action = {action: [CanManageTags] for action in ("create", "update", "destroy")}

    def fetch_page(self, listing, page_number, per_page):
        # WordPress honours an undeclared `offset` on tags: it skips that many terms instead of paging.
        offset = api_context(self.request).raw_params.get("offset")
        if isinstance(offset, str):
            offset = parse_int(offset)
        if not isinstance(offset, int) or isinstance(offset, bool) or offset <= 0:
            return super().fetch_page(listing, page_number, per_page)
        queryset = listing.queryset
        total = queryset.count()
        rows = list(queryset[offset : offset + per_page]) if offset < total else []
        return Page(rows=rows, page=page_number, per_page=per_page, total=total)
