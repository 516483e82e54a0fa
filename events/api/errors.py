"""The one error path: every refusal is an ApiError, rendered as {"code", "message", "data": {"status"}}.

Domain refusals (events.exceptions) become ApiErrors here, in from_domain(), at the edge of the API.
"""

import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response

from .. import exceptions
from ..deadline import RequestTimedOut

logger = logging.getLogger("events.api")
DATABASE_FAILURES = exceptions.DATABASE_FAULTS


class ApiError(Exception):
    """A refusal with the contract's `code`, HTTP status, translatable message and extra `data` keys."""

    def __init__(self, code, message, status, headers=None, **data):
        super().__init__(code)
        self.code = code
        self.message = message
        self.status = status
        self.headers = headers or {}
        self.data = data

    def as_body(self):
        # Lazy messages are resolved here, in the language active for the request.
        data = {"status": self.status, **{key: _resolve(value) for key, value in self.data.items()}}
        return {"code": self.code, "message": str(self.message), "data": data}

    def as_response(self):
        return Response(self.as_body(), status=self.status, headers=self.headers)


def _resolve(value):
    """Turn lazy translation strings nested in error data into plain strings."""
    if isinstance(value, dict):
        return {key: _resolve(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_resolve(item) for item in value]
    if value.__class__.__name__ == "__proxy__":
        return str(value)
    return value


def no_route():
    return ApiError("rest_no_route", _("No route was found matching the URL and request method."), 404)


def invalid_json(error):
    return ApiError(
        "rest_invalid_json",
        _("Invalid JSON body passed."),
        400,
        json_error_code=4,
        json_error_message=str(error),
    )


def body_too_large():
    """Past DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB by default); no record of this API comes near it."""
    return ApiError("rest_request_too_large", _("The request body is too large."), 413)


def invalid_body(error):
    """A form body that cannot be read (a multipart body without a boundary, too many fields)."""
    return ApiError("rest_invalid_body", _("The request body could not be read."), 400, body_error_message=str(error))


def missing_params(names):
    return ApiError(
        "rest_missing_callback_param",
        _("Missing parameter(s): %(names)s") % {"names": ", ".join(names)},
        400,
        params=list(names),
    )


def invalid_params(params, details=None):
    """`params` maps each failing parameter to why it failed; `details` to a nested error, if any."""
    return ApiError(
        "rest_invalid_param",
        _("Invalid parameter(s): %(names)s") % {"names": ", ".join(params)},
        400,
        params=params,
        # WordPress serialises an empty details object as a JSON list.
        details=details or [],
    )


def invalid_param(name, reason=None):
    return invalid_params({name: reason or _("Invalid parameter.")})


def forbidden(user):
    """The route-level refusal: 401 for anonymous callers, 403 for logged-in ones (WordPress convention)."""
    status = 403 if user is not None and user.is_authenticated else 401
    return ApiError("rest_forbidden", _("Sorry, you are not allowed to do that."), status)


# The contract's code and status of each domain refusal whose body carries no more than its message.
DOMAIN_CODES = {
    exceptions.SlugTaken: ("duplicate_term_slug", 400),
    exceptions.NotHierarchical: ("rest_taxonomy_not_hierarchical", 400),
    exceptions.DuplicateApplicationName: ("application_password_duplicate_name", 409),
    exceptions.EmptyApplicationName: ("application_password_empty_name", 400),
    exceptions.CursorExpired: ("changes_cursor_expired", 410),
}
# The plugin's codes of records it could not write: 400 when it refused the data, 500 when the trash failed.
WRITE_FAILURES = {
    ("event", exceptions.DELETE): ("could-not-delete-event", 500),
    ("venue", exceptions.CREATE): ("could-not-create-venue", 400),
    ("venue", exceptions.UPDATE): ("could-not-update-venue", 400),
    ("venue", exceptions.DELETE): ("could-not-delete-venue", 500),
    ("organizer", exceptions.CREATE): ("could-not-create-organizer", 400),
    ("organizer", exceptions.UPDATE): ("could-not-update-organizer", 400),
    ("organizer", exceptions.DELETE): ("could-not-delete-organizer", 500),
    ("term", exceptions.DELETE): ("rest_cannot_delete", 500),
}


def from_domain(error, user):
    """The contract's refusal for a domain exception raised while serving `user`."""
    if isinstance(error, exceptions.NotPermitted):
        return forbidden(user)
    if isinstance(error, exceptions.InvalidValue):
        return invalid_param(error.field, error.reason)
    if isinstance(error, exceptions.TermExists):
        return ApiError("term_exists", error.message, 400, term_id=error.term_id)
    if isinstance(error, exceptions.CouldNotWrite):
        code, status = WRITE_FAILURES[error.kind, error.action]
        return ApiError(code, error.message, status)
    if isinstance(error, exceptions.RecordGone):
        # What a read of the ID now answers: the record is not there.
        return ApiError(f"rest-{error.kind}-not-found", error.message, 404)
    if isinstance(error, exceptions.InTrash):
        return ApiError(f"{error.kind}-is-in-trash", error.message, 410)
    if isinstance(error, exceptions.ReadCacheUnavailable):
        return read_cache_unavailable()
    if isinstance(error, exceptions.TooManyFailedLogins):
        # The code login-limiting plugins give WordPress; the status and header say when to come back.
        return ApiError("too_many_retries", error.message, 429, headers={"Retry-After": str(error.retry_after)})
    code, status = DOMAIN_CODES[type(error)]
    return ApiError(code, error.message, status)


def unavailable(code, message):
    """A service the calendar needs failed: unavailable, not broken (503, with Retry-After)."""
    return ApiError(code, message, 503, headers={"Retry-After": str(exceptions.RETRY_AFTER)})


def database_unavailable():
    """The database refused, dropped or timed out."""
    return unavailable(
        "rest_database_unavailable", _("The calendar's database is not available right now. Try again shortly.")
    )


def read_cache_unavailable():
    """A write could not retire the shared read cache's answers, so it wrote nothing."""
    return unavailable(
        "rest_cache_unavailable",
        _("The calendar's shared cache is not available right now, so nothing was written. Try again shortly."),
    )


def database_failure(request, error):
    """Log a database failure met while serving `request`; the 503 to answer it with."""
    logger.warning(
        "Database unavailable while serving %s %s: %s",
        getattr(request, "method", "?"),
        getattr(request, "get_full_path", lambda: "?")(),
        error,
    )
    if isinstance(error, RequestTimedOut):
        return unavailable(
            "rest_request_timeout",
            _("The request took too long and was stopped; nothing was written. Try again shortly."),
        )
    return database_unavailable()


def internal_error():
    return ApiError("rest_internal_error", _("The server could not complete the request."), 500)


def exception_handler(exc, context):
    """DRF's exception handler, replaced so that every error has the contract's shape."""
    if isinstance(exc, ApiError):
        return exc.as_response()
    request = context.get("request") if context else None
    user = getattr(request, "user", None) if request is not None else None
    if isinstance(exc, exceptions.CalendarError):
        return from_domain(exc, user).as_response()
    if isinstance(exc, drf_exceptions.AuthenticationFailed):
        return ApiError("incorrect_password", _("The password you entered is incorrect."), 401).as_response()
    if isinstance(exc, (drf_exceptions.NotAuthenticated, drf_exceptions.PermissionDenied, DjangoPermissionDenied)):
        return forbidden(user).as_response()
    if isinstance(exc, (drf_exceptions.NotFound, drf_exceptions.MethodNotAllowed, Http404)):
        return no_route().as_response()
    if isinstance(exc, drf_exceptions.ParseError):
        return invalid_json(exc.detail).as_response()
    if isinstance(exc, drf_exceptions.APIException):
        return ApiError(exc.default_code, str(exc.detail), exc.status_code).as_response()
    if isinstance(exc, DATABASE_FAILURES):
        return database_failure(request, exc).as_response()
    logger.exception(
        "Unhandled error while serving %s %s",
        getattr(request, "method", "?"),
        getattr(request, "get_full_path", lambda: "?")(),
    )
    return internal_error().as_response()
