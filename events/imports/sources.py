"""Import source writes shared by the admin and the API: the one place a source's URL, policy and schedule are checked."""

import datetime as dt
import urllib.parse

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..exceptions import InvalidValue
from ..models import ImportedRecord, ImportPolicy, ImportSource
from ..models.imports import IMPORT_STATUSES

EDITABLE = ("name", "url", "policy", "status", "categories", "interval_minutes", "active")
STATUSES = [value for value, _label in IMPORT_STATUSES]
# A refresh more often than this is a load on the source, not a calendar's need.
MIN_INTERVAL_MINUTES = 5
MAX_CATEGORIES = 20


def checked_url(url):
    url = (url or "").strip()
    parts = urllib.parse.urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        raise InvalidValue("url", _("The source is an http or https URL."))
    return url


def checked_fields(fields):
    """`fields` as stored, or InvalidValue naming the first that is refused."""
    checked = dict(fields)
    if checked.get("url"):
        checked["url"] = checked_url(checked["url"])
    elif "url" in checked:
        # No URL: the source is an uploaded file (save_source checks it has one).
        checked["url"] = ""
    if "policy" in checked and checked["policy"] not in ImportPolicy.values:
        raise InvalidValue("policy")
    if "status" in checked and checked["status"] not in STATUSES:
        raise InvalidValue("status")
    if "interval_minutes" in checked:
        minutes = int(checked["interval_minutes"])
        if minutes and minutes < MIN_INTERVAL_MINUTES:
            raise InvalidValue(
                "interval_minutes", _("Refresh at most every %(minutes)s minutes.") % {"minutes": MIN_INTERVAL_MINUTES}
            )
        checked["interval_minutes"] = minutes
    if "categories" in checked:
        names = [str(name).strip()[:200] for name in checked["categories"] or [] if str(name).strip()]
        if len(names) > MAX_CATEGORIES:
            raise InvalidValue("categories")
        checked["categories"] = names
    return checked


def save_source(fields, owner=None, source=None):
    """A new source (owned by `owner`) or `source` with the `fields` given; it runs at the worker's next look."""
    fields = checked_fields(fields)
    creating = source is None
    source = source or ImportSource(owner=owner)
    if "url" in fields and fields["url"] != source.url:
        # Another address is another source: it is read afresh, whatever the last one served.
        source.kind, source.etag, source.last_modified = "", "", ""
    for name, value in fields.items():
        setattr(source, name, value)
    if not source.url and not source.file and not source.path:
        raise InvalidValue("url", _("A source needs a URL or a file."))
    if creating or "interval_minutes" in fields or "active" in fields:
        source.next_run = timezone.now() if source.interval_minutes else None
        if not creating and source.last_run and source.interval_minutes:
            source.next_run = source.last_run + dt.timedelta(minutes=source.interval_minutes)
    source.save()
    return source


def origin_of(event):
    """Where an imported event came from (its ImportedRecord, source selected), or None."""
    return ImportedRecord.objects.select_related("source").filter(event=event).order_by("pk").first()
