"""Reading a source: an http(s) URL through the outbound guard, or a file, within the size and time caps of the run."""

import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..conf import events_settings
from ..numbers import is_ascii_digits
from ..services.outbound import UNRESOLVED, DestinationRefused, guarded_opener

CHUNK_BYTES = 64 * 1024
MAX_REDIRECTS = 5
USER_AGENT = "events-calendar-import"


class SourceUnreadable(Exception):
    """The source could not be read at all; the message says why, in words for an editor."""


@dataclass
class Budget:
    """What is left of a run's caps: one deadline and one byte allowance for every request it makes."""

    deadline: float
    bytes_left: int

    @classmethod
    def for_run(cls):
        return cls(time.monotonic() + events_settings.IMPORT_SECONDS, events_settings.IMPORT_MAX_BYTES)

    def seconds_left(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise SourceUnreadable(_("The import took longer than its time limit."))
        return left

    @property
    def expired(self):
        return time.monotonic() >= self.deadline


@dataclass(frozen=True)
class Fetched:
    body: bytes
    content_type: str = ""
    url: str = ""
    etag: str = ""
    last_modified: str = ""
    not_modified: bool = False


class _LimitedRedirectHandler(urllib.request.HTTPRedirectHandler):
    max_redirections = MAX_REDIRECTS

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if urllib.parse.urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise SourceUnreadable(_("The source redirects to an address that is not http or https."))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def is_url(location):
    return urllib.parse.urlsplit(location).scheme.lower() in ("http", "https")


def fetch(location, budget, etag="", last_modified="", accept="*/*"):
    """The bytes at `location` (a URL or a file path); with `etag`/`last_modified`, an unchanged
    URL answers `not_modified` without a body."""
    if not is_url(location):
        return _read_file(location, budget)
    headers = {"User-Agent": USER_AGENT, "Accept": accept}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    opener = guarded_opener(_LimitedRedirectHandler())
    try:
        with opener.open(urllib.request.Request(location, headers=headers), timeout=budget.seconds_left()) as response:
            _check_length(response.headers, budget)
            body = _read_capped(response, budget)
            return Fetched(
                body=body,
                content_type=(response.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower(),
                url=response.geturl(),
                etag=response.headers.get("ETag") or "",
                last_modified=response.headers.get("Last-Modified") or "",
            )
    except urllib.error.HTTPError as error:
        if error.code == 304:
            return Fetched(body=b"", url=location, etag=etag, last_modified=last_modified, not_modified=True)
        raise SourceUnreadable(_("The source answered HTTP %(status)s.") % {"status": error.code}) from error
    except DestinationRefused as error:
        raise SourceUnreadable(
            _("The source's host could not be resolved.")
            if error.cause == UNRESOLVED
            else _(
                "Sources on a private or reserved network address are not read "
                "(the site's OUTBOUND_ALLOWED_HOSTS setting can allow a host)."
            )
        ) from error
    except (OSError, ValueError, urllib.error.URLError) as error:
        # Timeouts, refused connections, TLS failures, malformed answers.
        if budget.expired:
            raise SourceUnreadable(_("The import took longer than its time limit.")) from error
        raise SourceUnreadable(_("The source could not be reached: %(reason)s") % {"reason": error}) from error


def _check_length(headers, budget):
    length = (headers.get("Content-Length") or "").strip()
    if is_ascii_digits(length) and int(length) > budget.bytes_left:
        raise SourceUnreadable(_("The source is larger than the import limit."))


def _read_capped(response, budget):
    body = bytearray()
    while True:
        budget.seconds_left()
        chunk = response.read(CHUNK_BYTES)
        if not chunk:
            break
        body.extend(chunk)
        if len(body) > budget.bytes_left:
            raise SourceUnreadable(_("The source is larger than the import limit."))
    budget.bytes_left -= len(body)
    return bytes(body)


def _read_file(path, budget):
    try:
        with open(path, "rb") as file:
            body = file.read(budget.bytes_left + 1)
    except OSError as error:
        raise SourceUnreadable(_("The file could not be read: %(reason)s") % {"reason": error.strerror}) from error
    if len(body) > budget.bytes_left:
        raise SourceUnreadable(_("The source is larger than the import limit."))
    budget.bytes_left -= len(body)
    return Fetched(body=body, content_type="text/csv" if path.lower().endswith(".csv") else "", url=path)
