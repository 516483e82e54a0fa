"""The admin's sign-in form, which says so when the login throttle refuses a sign-in.

The refusal itself is events.backends.ThrottledModelBackend's, in every `authenticate()` call; Django
tells a form only that no backend accepted the password, so the form asks the throttle why.
"""

from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError

from ..backends import sign_in_address
from ..exceptions import TooManyFailedLogins
from ..services import login_throttle


class AdminLoginForm(AdminAuthenticationForm):
    def get_invalid_login_error(self):
        try:
            # One cache read, on a failed sign-in only: the backend has already refused or counted it.
            login_throttle.refuse_if_locked(self.cleaned_data["username"], sign_in_address(self.request))
        except TooManyFailedLogins as refusal:
            return ValidationError(refusal.message, code="too_many_retries")
        return super().get_invalid_login_error()
