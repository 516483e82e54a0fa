"""HTTP Basic, session (CSRF-checked) and token authentication with WordPress's error codes."""

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS

from .. import roles
from ..conf import events_settings, settings_version
from ..exceptions import TooManyFailedLogins
from ..internals import drf_wrapped_request
from ..memory import memory
from ..models import ApplicationPassword
from ..services import credentials, login_throttle
from .errors import ApiError, from_domain


def sends_authorization(request):
    """Whether the request carries an Authorization header: without one, Basic and Token have
    nothing to read. Asked of META, because DRF's own reading builds `request.headers` from every
    header the request carries, a measured share of an anonymous read (bench/README.md)."""
    return "HTTP_AUTHORIZATION" in request.META


class BasicAuthentication(authentication.BasicAuthentication):
    """Username + application password (as WordPress clients send them) or login password.

    The common case, an application password, costs one query (the user's rights come with it)
    and one HMAC; a login password costs the password hasher once per process and user, then one
    HMAC (events.services.credentials).
    `request.auth` is the ApplicationPassword that authenticated the request, or None.
    """

    def authenticate_credentials(self, userid, password, request=None):
        address = login_throttle.client_address(request.META if request else {})
        try:
            return self._signed_in(userid, password, request, address)
        except ApiError:
            login_throttle.record_failure(userid, address)
            raise
        except TooManyFailedLogins as refusal:
            # Raised as the API's error here: DRF lets only its own exceptions out of authentication.
            raise from_domain(refusal, None) from None

    def _signed_in(self, userid, password, request, address):
        if "\x00" in userid:
            # No username holds NUL, and PostgreSQL cannot compare text holding one.
            raise _unknown_username()
        user_model = get_user_model()
        user = None
        if credentials.presented_secret(password) is not None:
            candidates = list(_application_passwords(userid))
            match = credentials.matching_application_password(candidates, password)
            if match is not None:
                if not match.user.is_active:
                    raise _incorrect_password()
                if hasattr(match, "user_rights"):
                    # NULL: a user without any right.
                    roles.adopt_rights(match.user, match.user_rights or "")
                credentials.record_application_password_use(match, address or None)
                return (match.user, match)
            user = candidates[0].user if candidates else None
        if user is None:
            try:
                user = user_model._default_manager.get_by_natural_key(userid)
            except user_model.DoesNotExist:
                # A locked address learns nothing more, not even which usernames exist.
                login_throttle.refuse_if_locked(userid, address)
                raise _unknown_username() from None
        hashed = []

        def before_hashing():
            # Only a password this process has not verified lately reaches the hasher: check the
            # throttle there, so remembered sign-ins pay nothing for it.
            login_throttle.refuse_if_locked(userid, address)
            hashed.append(True)

        if not (
            user.is_active
            and events_settings.BASIC_AUTH_LOGIN_PASSWORDS
            and credentials.check_login_password(user, password, before_hashing)
        ):
            raise _incorrect_password()
        if hashed:
            login_throttle.record_success(userid, address)
        return (user, None)

    def authenticate(self, request):
        if not sends_authorization(request):
            return None
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            # A malformed Basic header is a wrong password as far as clients can tell.
            raise _incorrect_password() from None


def _application_passwords(username):
    """The user's application passwords, each with the user and (where events.roles reads them)
    the user's rights as `user_rights`: all a signed request needs to know of its caller.

    Plain SQL, written once per process from the models' tables and columns, as events.roles
    does for the rights: on every signed request the ORM spent three times longer building and
    compiling this statement, and building the instances, than the database spent answering it.
    """
    statement = _statements.recall(DEFAULT_DB_ALIAS, settings_version())
    if statement is None:
        statement = _ApplicationPasswordsStatement(DEFAULT_DB_ALIAS)
        _statements.remember(DEFAULT_DB_ALIAS, settings_version(), statement)
    with connections[statement.using].cursor() as cursor:
        cursor.execute(statement.sql, [username])
        rows = cursor.fetchall()
    return [statement.candidate(row) for row in rows]


class _ApplicationPasswordsStatement:
    def __init__(self, using):
        self.using = using
        connection = connections[using]
        quote = connection.ops.quote_name
        user_model = get_user_model()
        # (model, fields, per field what the ORM applies to the value its column gives: dates and
        # UUIDs on SQLite) of the application password, then of its user.
        self.parts = []
        columns = []
        for model, alias in ((ApplicationPassword, "a"), (user_model, "u")):
            fields = model._meta.concrete_fields
            self.parts.append((model, fields, [self._converters(field, alias, connection) for field in fields]))
            columns += [f"{alias}.{quote(field.column)}" for field in fields]
        user_id = f"u.{quote(user_model._meta.pk.column)}"
        self.rights = roles.rights_column(user_id)
        if self.rights is not None:
            columns.append(self.rights)
        link = ApplicationPassword._meta.get_field("user").column
        username = user_model._meta.get_field(user_model.USERNAME_FIELD).column
        self.sql = (
            f"SELECT {', '.join(columns)} FROM {quote(ApplicationPassword._meta.db_table)} a "
            f"JOIN {quote(user_model._meta.db_table)} u ON {user_id} = a.{quote(link)} "
            f"WHERE u.{quote(username)} = %s"
        )

    @staticmethod
    def _converters(field, alias, connection):
        column = field.get_col(alias)
        return column, connection.ops.get_db_converters(column) + column.get_db_converters(connection)

    def candidate(self, row):
        connection = connections[self.using]
        instances, start = [], 0
        for model, fields, converters in self.parts:
            values = list(row[start : start + len(fields)])
            for index, (column, functions) in enumerate(converters):
                for function in functions:
                    values[index] = function(values[index], column, connection)
            instances.append(model.from_db(self.using, [field.attname for field in fields], values))
            start += len(fields)
        password, password.user = instances
        if self.rights is not None:
            password.user_rights = row[-1]
        return password


# What each memory holds, under what key and why it cannot answer stale: docs/architecture-memories.md.
_statements = memory("application-passwords-statement", max_entries=4)


def _unknown_username():
    return ApiError("invalid_username", _("Unknown username. Check again or try your email address."), 401)


def _incorrect_password():
    return ApiError("incorrect_password", _("The password you entered is incorrect."), 401)


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`; a wrong token is 401 incorrect_password (docs/contract/auth.md §1)."""

    def authenticate(self, request):
        if not sends_authorization(request):
            return None
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            raise _incorrect_password() from None


class SessionAuthentication(authentication.SessionAuthentication):
    """The browser session, mapped onto WordPress's cookie + nonce rules (docs/contract/auth.md §1).

    A request of any method, reads included, counts as signed in only with the anti-forgery token
    (WordPress's nonce) in `X-WP-Nonce` or `X-CSRFToken`; without one it is anonymous, as WordPress
    treats a cookie without a nonce, so a page on another site cannot read drafts through a
    visitor's session. A wrong token is 403 rest_cookie_invalid_nonce.
    """

    def authenticate(self, request):
        django_request = drf_wrapped_request(request)
        nonce = django_request.META.get("HTTP_X_WP_NONCE")
        if nonce and not django_request.META.get("HTTP_X_CSRFTOKEN"):
            django_request.META["HTTP_X_CSRFTOKEN"] = nonce
        if not django_request.META.get("HTTP_X_CSRFTOKEN"):
            # Looked at first: without a token nobody is signed in, so the session need not be read.
            return None
        user = getattr(django_request, "user", None)
        if user is None or not user.is_active or not user.is_authenticated:
            return None
        try:
            self.check_nonce(django_request)
        except exceptions.PermissionDenied:
            raise ApiError("rest_cookie_invalid_nonce", _("Cookie check failed."), 403) from None
        return (user, None)

    def check_nonce(self, django_request):
        """Django's CSRF check, which skips safe methods: a read is checked as a write would be.

        The Django request, not DRF's: the check reads request.POST, and this API parses bodies
        itself (DRF has no parsers configured here and would refuse the body).
        """
        method = django_request.method
        if method in SAFE_METHODS:
            django_request.method = "POST"
        try:
            self.enforce_csrf(django_request)
        finally:
            django_request.method = method
