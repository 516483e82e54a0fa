"""The lists' HTTP shape: the envelope, the X-TEC-Total headers, the page links and remembered bodies
(events.queries.pages reads the page and its total)."""

from rest_framework.response import Response

from .. import list_versions
from ..json_text import to_json
from ..memory import memory
from ..presentation.links import marker_values, with_query
from .renderers import JSONText

# What each memory holds, under what key and why it cannot answer stale: docs/architecture-memories.md.
remembered_bodies = memory("list-bodies", max_entries=256, max_bytes=16 * 1024 * 1024)


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
    """The list envelope (`{key: [...], **page_links(), total, total_pages}`) and headers.

    `records` are dicts, or JSON texts (the events list joins stored renderings): the envelope is
    then written around them.
    """
    tail = {**links, "total": page.total, "total_pages": page.total_pages}
    if records and isinstance(records[0], str):
        return list_answer(JSONText(f"{{{to_json(key)}:[{','.join(records)}],{to_json(tail)[1:]}"), page)
    return list_answer({key: records, **tail}, page)


def list_answer(body, page):
    response = Response(body)
    response["X-TEC-Total"] = str(page.total)
    response["X-TEC-TotalPages"] = str(page.total_pages)
    return response


def remembered_list(request, statement, page, echoed, build):
    """The list's answer, `build()` (a list_answer), its body remembered by this process under
    everything it is made of (the `list-bodies` row of docs/architecture-memories.md). A page
    showing a password-protected record is never remembered (it is blanked or not per request)."""
    if page.versions is None or any(row.get("password") for row in page.rows):
        return build()
    key = (statement.key, page.page, page.per_page, repr(echoed), marker_values(request))
    valid_for = (page.versions, list_versions.store_version(page.state))
    body = remembered_bodies.recall(key, valid_for)
    if body is not None:
        return list_answer(body, page)
    response = build()
    if isinstance(response.data, JSONText):
        remembered_bodies.remember(key, valid_for, response.data)
    return response
