"""Idempotent retries: a write sent again with the same Idempotency-Key gets the first answer again.

The IETF draft "The Idempotency-Key HTTP Header Field" (as pretix's X-Idempotency-Key): a client
that did not hear the answer to a write (a timeout, a 503, a dropped connection) sends it again
with the same key and the same body, and gets the answer of the write that happened, never a
second record. The answer is saved in the write's own transaction, so a write that committed
always has its answer kept, and a write that did not commit (a fault, a refusal) left nothing:
its retry runs afresh. A retry racing the first attempt waits for it on the key's unique index,
then gets its answer. The same key with another request is 422; keys are kept
IDEMPOTENCY_KEY_SECONDS (a day) and belong to the credentials they were sent with.
"""

import datetime as dt
import hashlib

from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..conf import events_settings
from ..models import IdempotentRequest
from .errors import ApiError

HEADER = "HTTP_IDEMPOTENCY_KEY"
MAX_KEY_LENGTH = 255


def once(request, route_path, write):
    """The answer of `write()` (a function of no argument answering the request), run at most once
    per Idempotency-Key: a retry gets the kept answer instead."""
    key = _key(request)
    if key is None:
        return write()
    scope = _digest(request.META.get("HTTP_AUTHORIZATION", ""), request.COOKIES.get("sessionid", ""))
    fingerprint = _digest(request.method, route_path, request.META.get("QUERY_STRING", ""), request.body)
    now = timezone.now()
    with transaction.atomic():
        kept = _claim(scope, key, fingerprint, now)
        if kept is not None:
            if kept.fingerprint != fingerprint:
                raise ApiError(
                    "rest_idempotency_key_reused",
                    _("This Idempotency-Key was already used with another request: use a new key for a new request."),
                    422,
                )
            return _replayed(kept)
        response = write()
        if 200 <= response.status_code < 300:
            IdempotentRequest.objects.filter(scope=scope, key=key).update(
                status=response.status_code,
                content_type=response.get("Content-Type", ""),
                location=response.get("Location", ""),
                body=response.content.decode("utf-8"),
            )
        else:
            # Nothing was written, so a retry may run again.
            IdempotentRequest.objects.filter(scope=scope, key=key).delete()
        return response


def _key(request):
    """The request's key (a quoted string in the draft's syntax, or bare), None without one; 400 if malformed."""
    value = request.META.get(HEADER)
    if value is None or request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return None
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    if not value or len(value) > MAX_KEY_LENGTH or not value.isascii() or not value.isprintable():
        raise ApiError(
            "rest_invalid_idempotency_key",
            _("Idempotency-Key must be 1 to 255 printable ASCII characters."),
            400,
        )
    return value


def _claim(scope, key, fingerprint, now):
    """Take the key for this request (None), or return the request that holds it. A holder still
    writing is waited for: the insert blocks on the unique index until it commits or rolls back."""
    retention = dt.timedelta(seconds=events_settings.IDEMPOTENCY_KEY_SECONDS)
    IdempotentRequest.objects.filter(created__lt=now - retention).delete()
    try:
        with transaction.atomic():
            IdempotentRequest.objects.create(scope=scope, key=key, fingerprint=fingerprint, status=0, created=now)
        return None
    except IntegrityError:
        return IdempotentRequest.objects.get(scope=scope, key=key)


def _replayed(kept):
    response = HttpResponse(kept.body.encode("utf-8"), status=kept.status, content_type=kept.content_type or None)
    if kept.location:
        response["Location"] = kept.location
    return response


def _digest(*parts):
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()
