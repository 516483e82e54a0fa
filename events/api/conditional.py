"""Conditional requests on the API: ETags on reads, 304 for a client that has the answer, If-Match on writes.

The validator is a digest of the response exactly as sent (body and total headers) in the request's
language for this caller, so it changes whenever anything the response shows changes
(docs/decisions.md, "Conditional requests").
"""

import hashlib
import json
from contextlib import contextmanager

from django.db import transaction
from django.http import HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext_lazy as _

from ..conf import events_settings
from ..models import Event, Organizer, Term, Venue
from ..services import recurrence
from . import errors
from .context import request_copy

# Headers that are part of what a list shows, besides its body.
SHOWN_HEADERS = ("X-WP-Total", "X-WP-TotalPages", "X-TEC-Total", "X-TEC-TotalPages")
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
# What a 304 repeats of the answer it stands for (RFC 9110 §15.4.5), and the WordPress headers.
NOT_MODIFIED_HEADERS = ("ETag", "Vary", "Cache-Control", "Link", "Allow")


def etag_of(response):
    if getattr(response, "is_rendered", True) is False:
        response.render()
    digest = hashlib.sha256(response.content)
    for name in SHOWN_HEADERS:
        if name in response:
            digest.update(f"\n{name}: {response[name]}".encode())
    return f'W/"{digest.hexdigest()[:32]}"'


def matches(header, etag):
    """Whether the If-None-Match / If-Match `header` names `etag`, compared weakly (RFC 9110 §8.8.3.2)."""
    if not header:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}
    return "*" in tags or etag.removeprefix("W/") in tags


def add_validators(request, response, signed_in):
    """The ETag and the caching rules of a GET/HEAD answer."""
    patch_vary_headers(response, ("Authorization", "Cookie"))
    # A shared cache may keep anonymous answers (and must ask again each time); never a signed-in one.
    patch_cache_control(response, no_cache=True, **({"private": True} if signed_in else {"public": True}))
    if response.status_code == 200:
        response["ETag"] = etag_of(response)


def not_modified_or(request, response):
    """304 Not Modified, without a body, when the client's copy is current; else the answer itself."""
    etag = response.get("ETag") if response.status_code == 200 else None
    if etag is None or not matches(request.META.get("HTTP_IF_NONE_MATCH"), etag):
        return response
    return not_modified(response.headers)


def not_modified(headers):
    """The 304 for an answer with these headers: its validator and caching rules, no body."""
    return HttpResponseNotModified(headers={name: headers[name] for name in NOT_MODIFIED_HEADERS if name in headers})


@contextmanager
def if_match_holds(request, route_path, dispatch):
    """Run a write inside this block: 412 unless its `If-Match` names what a GET of the URL shows now.

    The current answer is produced by the same route as a GET by the same caller would be, so the
    comparison holds whatever the record embeds. The comparison and the write run in one
    transaction, with the record's row locked from before the comparison to the commit: of
    concurrent writers sending the same tag, exactly one gets through, and the others compare
    against what it wrote.
    """
    header = request.META.get("HTTP_IF_MATCH")
    if not header or request.method not in WRITE_METHODS:
        yield
        return
    with transaction.atomic():
        current = _current_answer(request, route_path, dispatch)
        if current.status_code == 200 and _lock_record(route_path, current):
            # Read again under the lock: a writer that committed meanwhile is now seen.
            current = _current_answer(request, route_path, dispatch)
        # Only a current representation can match (RFC 9110 §13.1.1): a record deleted or trashed
        # meanwhile fails the condition. A caller who could not sign in is left to that refusal.
        if current.status_code != 401 and not (current.status_code == 200 and matches(header, etag_of(current))):
            raise errors.ApiError(
                "rest_precondition_failed",
                _("The record has changed since it was read: read it again, then send the change."),
                412,
            )
        yield


# The record table of each route family whose records take If-Match writes.
_RECORD_MODELS = {"events": Event, "venues": Venue, "organizers": Organizer, "categories": Term, "tags": Term}


def _current_answer(request, route_path, dispatch):
    probe = request_copy(request)
    probe.method = "GET"
    unsent = ("HTTP_IF_MATCH", "CONTENT_TYPE", "CONTENT_LENGTH")
    probe.META = {**{key: value for key, value in request.META.items() if key not in unsent}, "REQUEST_METHOD": "GET"}
    return dispatch(probe, route_path)


def _lock_record(route_path, current):
    """Lock the row of the record `current` shows (as writers of it do); whether there was one."""
    family = route_path.lower().removeprefix(f"/{events_settings.namespace}/").split("/", 1)[0]
    model = _RECORD_MODELS.get(family)
    try:
        record_id = json.loads(current.content)["id"]
    except (ValueError, KeyError, TypeError):
        return False
    if model is None or not isinstance(record_id, int):
        return False
    if model is Event:
        # In the order every write to an event takes its locks, its series first: the other order
        # would deadlock with a write to the whole series.
        series_id = Event.objects.filter(pk=record_id).values_list("series_id", flat=True).first()
        return recurrence.lock_turn(record_id, series_id) is not None
    return model.objects.select_for_update().filter(pk=record_id).exists()
