"""WordPress's "authorize application" flow on the admin: a person approves a program in the browser,
and the program receives the user's login and a new application password at its success URL.

Clients find this page in the REST index (`authentication.application-passwords.endpoints.
authorization`) and open it with WordPress's parameters: `app_name`, `app_id` (a UUID), `success_url`
and `reject_url`. The URLs must carry a scheme and a host; `http`, `javascript` and `data` are
refused (plain `http` is allowed when DEBUG is on, as WordPress allows it in a local environment),
while an app's own scheme (`myapp://callback`) is fine. Approving redirects to the success URL with
`site_url`, `user_login` and `password` added to its query, or shows the password when there is no
success URL; rejecting redirects to the reject URL, else to the success URL with `success=false`,
else to the admin's home. An invalid request is answered 400 with the reasons (WordPress answers
them with its error page, status 500).
"""

import re
import uuid
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_protect

from ..exceptions import DuplicateApplicationName
from ..models import ApplicationPassword
from ..services import credentials

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_BAD_SCHEMES = {"javascript", "data", "vbscript"}


class _AnySchemes:
    """The schemes an app's redirect may use: any but those that run code in the browser."""

    def __contains__(self, scheme):
        return scheme.lower() not in _BAD_SCHEMES


class AppRedirect(HttpResponseRedirect):
    """A redirect to the app: to another site, or to the app's own URL scheme."""

    allowed_schemes = _AnySchemes()


def _url_problem(url):
    """Why `url` cannot take a redirect, or None."""
    if not url:
        return None
    if not _SCHEME.match(url):
        return _("Invalid URL format.")
    parts = urlsplit(url)
    if not parts.scheme or not parts.hostname or parts.scheme.lower() in _BAD_SCHEMES:
        return _("Invalid URL format.")
    if parts.scheme.lower() == "http" and not settings.DEBUG:
        return _("The URL must be served over a secure connection.")
    return None


def _with_query(url, **params):
    """`url` with `params` added to its query (replacing any of the same name), as add_query_arg does."""
    parts = urlsplit(url)
    query = [(name, value) for name, value in parse_qsl(parts.query, keep_blank_values=True) if name not in params]
    return urlunsplit(parts._replace(query=urlencode(query + list(params.items()))))


def _request_of(data):
    app_name = data.get("app_name", "").strip()
    app_id = data.get("app_id", "").strip()
    success_url = data.get("success_url", "").strip()
    reject_url = data.get("reject_url", "").strip()
    if not reject_url and success_url:
        reject_url = _with_query(success_url, success="false")
    problems = [problem for problem in (_url_problem(success_url), _url_problem(reject_url)) if problem]
    if app_id:
        try:
            uuid.UUID(app_id)
        except ValueError:
            problems.append(_("The application ID must be a UUID."))
    return {"app_name": app_name, "app_id": app_id, "success_url": success_url, "reject_url": reject_url}, problems


def _page(request, admin_site, context, status=200):
    response = TemplateResponse(
        request,
        "admin/events/applicationpassword/authorize.html",
        {**admin_site.each_context(request), "title": _("Authorize Application"), **context},
        status=status,
    )
    add_never_cache_headers(response)
    return response


def authorize_application(request, admin_site):
    """The page a program sends a person to, to be given an application password."""
    if not (request.user.is_active and request.user.is_staff):
        return redirect_to_login(request.get_full_path(), reverse("admin:login", current_app=admin_site.name))
    return _authorize(request, admin_site)


@csrf_protect
def _authorize(request, admin_site):
    app, problems = _request_of(request.POST if request.method == "POST" else request.GET)
    if problems:
        return _page(request, admin_site, {"problems": problems, **app}, status=400)
    error = None
    if request.method == "POST":
        if "reject" in request.POST:
            return AppRedirect(app["reject_url"] or reverse("admin:index", current_app=admin_site.name))
        if "approve" in request.POST:
            record = ApplicationPassword(user=request.user, name=app["app_name"], app_id=app["app_id"])
            try:
                if not record.name:
                    raise ValueError
                password = credentials.issue_application_password(record)
            except ValueError:
                error = _("An application name is required to create an application password.")
            except DuplicateApplicationName as refusal:
                error = str(refusal)
            else:
                if app["success_url"]:
                    return AppRedirect(
                        _with_query(
                            app["success_url"],
                            site_url=request.build_absolute_uri("/"),
                            user_login=request.user.get_username(),
                            password=password,
                        )
                    )
                response = _page(request, admin_site, {"password": password, **app})
                patch_cache_control(response, no_store=True)
                return response
    return _page(request, admin_site, {"error": error, **app})
