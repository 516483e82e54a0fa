"""HTTP Basic, session (CSRF-checked) and token authentication with WordPress's error codes."""
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS

from .errors import ApiError


class BasicAuthentication(authentication.BasicAuthentication):
    """Username + password, the way WordPress application passwords are sent."""

    def authenticate_credentials(self, userid, password, request=None):
        user_model = get_user_model()
        try:
            user = user_model._default_manager.get_by_natural_key(userid)
        except user_model.DoesNotExist:
            raise ApiError("invalid_username", _("Unknown username. Check again or try your email address."), 401) from None
        if not user.is_active or not user.check_password(password):
            raise ApiError("incorrect_password", _("The password you entered is incorrect."), 401)
        return (user, None)

    def authenticate(self, request):
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            # A malformed Basic header is a wrong password as far as clients can tell.
            raise ApiError("incorrect_password", _("The password you entered is incorrect."), 401) from None


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`; a wrong token is 401 incorrect_password (auth.md §1)."""

    def authenticate(self, request):
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            raise ApiError("incorrect_password", _("The password you entered is incorrect."), 401) from None


class SessionAuthentication(authentication.SessionAuthentication):
    """The browser session, mapped onto WordPress's cookie + nonce rules.

    An unsafe request without an anti-forgery token is treated as anonymous (WordPress ignores a
    cookie without a nonce); a wrong token is 403 rest_cookie_invalid_nonce. The token may come in
    `X-WP-Nonce` (what WordPress clients send) or `X-CSRFToken`.
    """

    def authenticate(self, request):
        user = getattr(request._request, "user", None)
        if user is None or not user.is_active or not user.is_authenticated:
            return None
        if request.method in SAFE_METHODS:
            return (user, None)
        django_request = request._request
        nonce = django_request.META.get("HTTP_X_WP_NONCE")
        if nonce and not django_request.META.get("HTTP_X_CSRFTOKEN"):
            django_request.META["HTTP_X_CSRFTOKEN"] = nonce
        if not (django_request.META.get("HTTP_X_CSRFTOKEN") or nonce):
            return None
        try:
            # The Django request, not DRF's: the CSRF check reads request.POST, and this API parses
            # bodies itself (DRF has no parsers configured here and would refuse the body).
            self.enforce_csrf(django_request)
        except exceptions.PermissionDenied:
            raise ApiError("rest_cookie_invalid_nonce", _("Cookie check failed."), 403) from None
        return (user, None)
