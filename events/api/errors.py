"""The one error path: every refusal is an ApiError, rendered as {"code", "message", "data": {"status"}}."""
import logging

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response

logger = logging.getLogger("events.api")


class ApiError(Exception):
    """A refusal with the contract's `code`, HTTP status, translatable message and extra `data` keys."""

    def __init__(self, code, message, status, **data):
        super().__init__(code)
        self.code = code
        self.message = message
        self.status = status
        self.data = data

    def as_body(self):
        # Lazy messages are resolved here, in the language active for the request.
        data = {"status": self.status, **{key: _resolve(value) for key, value in self.data.items()}}
        return {"code": self.code, "message": str(self.message), "data": data}

    def as_response(self):
        return Response(self.as_body(), status=self.status)


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


def internal_error():
    return ApiError("rest_internal_error", _("The server could not complete the request."), 500)


def exception_handler(exc, context):
    """DRF's exception handler, replaced so that every error has the contract's shape."""
    if isinstance(exc, ApiError):
        return exc.as_response()
    request = context.get("request") if context else None
    user = getattr(request, "user", None) if request is not None else None
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
    logger.exception("Unhandled error while serving %s", getattr(request, "path", "?"))
    return internal_error().as_response()
