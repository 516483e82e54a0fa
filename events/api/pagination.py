"""Paging of every list: WordPress-style page/per_page, totals, headers and the page links."""
import math
from dataclasses import dataclass

from rest_framework.response import Response

from ..conf import events_settings
from .links import with_query


def effective_per_page(requested):
    """`per_page` above the maximum is clamped silently (clients rely on it not being refused)."""
    return min(requested, events_settings.MAX_PER_PAGE)


@dataclass
class Page:
    rows: list
    page: int
    per_page: int
    total: int

    @property
    def total_pages(self):
        return math.ceil(self.total / self.per_page) if self.total else 0

    @property
    def has_next(self):
        return self.page < self.total_pages


def paginate(queryset, page, per_page):
    """One COUNT and one page query, whatever the page size."""
    total = queryset.count()
    offset = (page - 1) * per_page
    rows = list(queryset[offset : offset + per_page]) if offset < total else []
    return Page(rows=rows, page=page, per_page=per_page, total=total)


def page_links(base_url, filters, page):
    """rest_url, next_rest_url and previous_rest_url of a post list (events, venues, organizers).

    `filters` are the applied (key, value) pairs in the order the plugin echoes them; `page` comes
    first in rest_url and is moved to the end of the next/previous links.
    """
    rest_url = with_query(base_url, [("page", page.page), *filters])
    links = {"rest_url": rest_url}
    if page.has_next:
        links["next_rest_url"] = with_query(base_url, [*filters, ("page", page.page + 1)])
    if page.page > 1:
        previous = [] if page.page == 2 else [("page", page.page - 1)]
        links["previous_rest_url"] = with_query(base_url, [*filters, *previous])
    return links


def list_response(key, records, page, links):
    """The list envelope (`{key: [...], rest_url, next/previous, total, total_pages}`) and headers."""
    body = {key: records, **{name: links[name] for name in ("rest_url", "next_rest_url", "previous_rest_url") if name in links}}
    body["total"] = page.total
    body["total_pages"] = page.total_pages
    response = Response(body)
    response["X-TEC-Total"] = str(page.total)
    response["X-TEC-TotalPages"] = str(page.total_pages)
    return response
