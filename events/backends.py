"""The site's sign-in backend: Django's username-and-password check behind the API's login throttle.

Listed in AUTHENTICATION_BACKENDS in place of Django's ModelBackend (docs/install.md), it stands in
every `authenticate()` call: the admin's login form, any LoginView a site adds, and whatever else
checks a login password through Django. It counts on the counters of the API's HTTP Basic
(events.api.authentication), so failures anywhere count everywhere and a lock holds everywhere
(docs/decisions.md). A system check (`manage.py check`) warns when it is missing.
"""

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend, RemoteUserBackend
from django.core import checks
from django.core.exceptions import PermissionDenied
from django.utils.module_loading import import_string

from .conf import events_settings
from .exceptions import TooManyFailedLogins
from .services import login_throttle


def sign_in_address(request):
    """The client address a sign-in is counted against, or None for one made without a request (a
    command, the test client's login), which is counted against its account only."""
    return None if request is None else login_throttle.client_address(request.META)


class ThrottledModelBackend(ModelBackend):
    """ModelBackend refusing a locked account or address before any database read or password hash,
    counting its failures, and ending an account's run of failures on success, as the API does."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        address = sign_in_address(request)
        try:
            login_throttle.refuse_if_locked(username, address)
        except TooManyFailedLogins:
            # PermissionDenied ends authenticate() at once: no backend listed after this one gets
            # to check the password either. A form words the refusal (events.admin.login).
            raise PermissionDenied from None
        user = super().authenticate(request, username, password, **kwargs)
        if user is None:
            login_throttle.record_failure(username, address)
        else:
            login_throttle.record_success(username, address)
        return user

    async def aauthenticate(self, request, **credentials):
        # ModelBackend's own async version would skip the throttle; the throttle's cache calls are
        # synchronous anyway.
        return await sync_to_async(self.authenticate)(request, **credentials)


@checks.register(checks.Tags.security)
def check_throttled_backend(app_configs=None, **kwargs):
    """Warn when login passwords can be checked through Django without the login throttle."""
    if not events_settings.LOGIN_LOCKOUT_SECONDS:
        return []
    backends = []
    for path in settings.AUTHENTICATION_BACKENDS:
        try:
            backends.append((path, import_string(path)))
        except ImportError:
            continue  # Django itself refuses the setting on the first sign-in.
    if not any(issubclass(backend, ThrottledModelBackend) for _path, backend in backends):
        return [
            checks.Warning(
                "The login throttle does not guard sign-ins through Django: the admin's login form "
                "neither counts failures nor refuses a locked account or address.",
                hint="Put 'events.backends.ThrottledModelBackend' in AUTHENTICATION_BACKENDS in place of "
                "ModelBackend (docs/install.md).",
                id="events.W002",
            )
        ]
    # RemoteUserBackend checks no password: the web server has signed the user in.
    unthrottled = [
        path
        for path, backend in backends
        if issubclass(backend, ModelBackend) and not issubclass(backend, (ThrottledModelBackend, RemoteUserBackend))
    ]
    if unthrottled:
        return [
            checks.Warning(
                f"{', '.join(unthrottled)} in AUTHENTICATION_BACKENDS checks login passwords without "
                "the login throttle.",
                hint="Remove it: events.backends.ThrottledModelBackend replaces ModelBackend (docs/install.md).",
                id="events.W003",
            )
        ]
    return []
