"""`wp/v2/users/{id|me}/application-passwords`: WordPress core's routes for a user's credentials.

Same routes, record shape, status codes and error codes as WordPress's application-passwords
controller, so that clients which make and revoke their own credentials work here unchanged.
Users manage their own passwords; administrators also those of other users, by ID.
"""

import uuid

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework.response import Response

from ... import roles
from ...models import ApplicationPassword
from ...presentation.links import rest_root
from ...queries.params import parse_record_id
from ...services import credentials
from .. import errors
from ..parameters.fields import Params, StringParam
from .base import WPViewSet

CONTEXTS = ("view", "embed", "edit")
# The fields WordPress's schema gives no `embed` context.
NOT_EMBEDDED = ("created", "last_used", "last_ip")

# The refusal of each action for a caller who may not manage the target user's passwords.
REFUSALS = {
    "list": (
        "rest_cannot_list_application_passwords",
        _("Sorry, you are not allowed to list application passwords for this user."),
    ),
    "create": (
        "rest_cannot_create_application_passwords",
        _("Sorry, you are not allowed to create application passwords for this user."),
    ),
    "destroy_all": (
        "rest_cannot_delete_application_passwords",
        _("Sorry, you are not allowed to delete application passwords for this user."),
    ),
    "retrieve": (
        "rest_cannot_read_application_password",
        _("Sorry, you are not allowed to read this application password."),
    ),
    "update": (
        "rest_cannot_edit_application_password",
        _("Sorry, you are not allowed to edit this application password."),
    ),
    "destroy": (
        "rest_cannot_delete_application_password",
        _("Sorry, you are not allowed to delete this application password."),
    ),
    "introspect": (
        "rest_cannot_introspect_app_password_for_non_authenticated_user",
        _("The authenticated application password can only be introspected for the current user."),
    ),
}


def _uuid_or_empty(field, value):
    if value == "":
        return value
    try:
        return str(uuid.UUID(value))
    except ValueError:
        field.refuse(_("%(param)s is not a valid UUID.") % {"param": field.field_name})


class UuidParam(StringParam):
    wp_format = "uuid"

    def to_internal_value(self, data):
        return _uuid_or_empty(self, super().to_internal_value(data))


def context_param():
    return StringParam(
        default="view",
        choices=CONTEXTS,
        help_text=_("Scope under which the request is made; determines fields present in response."),
    )


class ContextParams(Params):
    context = context_param()


class CreateParams(Params):
    app_id = UuidParam(
        help_text=_(
            "A UUID provided by the application to uniquely identify it. It is recommended to use a UUID v5 "
            "with the URL or DNS namespace."
        )
    )
    name = StringParam(
        required=True, non_empty=True, max_length=255, help_text=_("The name of the application password.")
    )


class UpdateParams(Params):
    name = StringParam(non_empty=True, max_length=255, help_text=_("The name of the application password."))


def _wp_datetime(value):
    # WordPress gives these GMT dates without an offset: gmdate('Y-m-d\TH:i:s').
    return value.strftime("%Y-%m-%dT%H:%M:%S") if value else None


class ApplicationPasswordViewSet(WPViewSet):
    params_classes = {
        "list": ContextParams,
        "create": CreateParams,
        "update": UpdateParams,
        "retrieve": ContextParams,
        "introspect": ContextParams,
    }

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        # WordPress's permission callbacks: find the target user, then ask whether the caller may
        # manage that user's passwords (only their own, unless an administrator).
        self.target_user = self.resolve_target_user(kwargs["user_id"])
        caller = request.user
        allowed = caller.pk == self.target_user.pk
        if self.action != "introspect":
            allowed = allowed or roles.role_of(caller) == roles.ADMINISTRATOR
        if not allowed:
            code, message = REFUSALS[self.action]
            raise errors.ApiError(code, message, 403 if caller.is_authenticated else 401)

    def resolve_target_user(self, user_id):
        caller = self.request.user
        if user_id == "me":
            if not caller.is_authenticated:
                raise errors.ApiError("rest_not_logged_in", _("You are not currently logged in."), 401)
            return caller
        user_pk = parse_record_id(user_id)
        user = get_user_model()._default_manager.filter(pk=user_pk).first() if user_pk else None
        if user is None:
            raise errors.ApiError("rest_user_invalid_id", _("Invalid user ID."), 404)
        return user

    # --- records --------------------------------------------------------------------------------

    def self_url(self, record):
        return f"{rest_root(self.request)}wp/v2/users/{self.target_user.pk}/application-passwords/{record.uuid}"

    def record(self, item, *, context=None, new_password=None, links=True):
        body = {
            "uuid": str(item.uuid),
            "app_id": item.app_id,
            "name": item.name,
            "created": _wp_datetime(item.created),
            "last_used": _wp_datetime(item.last_used),
            "last_ip": item.last_ip,
        }
        if new_password is not None:
            body["password"] = new_password
        if (context or self.params.get("context", "view")) == "embed":
            body = {key: value for key, value in body.items() if key not in NOT_EMBEDDED}
        if links:
            body["_links"] = {"self": [{"href": self.self_url(item)}]}
        return body

    def get_item(self):
        not_found = errors.ApiError("rest_application_password_not_found", _("Application password not found."), 404)
        try:
            key = uuid.UUID(self.kwargs["uuid"])
        except ValueError:
            raise not_found from None
        item = ApplicationPassword.objects.filter(user=self.target_user, uuid=key).first()
        if item is None:
            raise not_found
        return item

    # --- actions --------------------------------------------------------------------------------

    def list(self, request, *args, **kwargs):
        items = ApplicationPassword.objects.filter(user=self.target_user)
        return Response([self.record(item) for item in items])

    def create(self, request, *args, **kwargs):
        item = ApplicationPassword(
            user=self.target_user, name=self.params["name"], app_id=self.params.get("app_id", "")
        )
        password = credentials.issue_application_password(item)
        response = Response(self.record(item, context="edit", new_password=password), status=201)
        response["Location"] = self.self_url(item)
        return response

    def retrieve(self, request, *args, **kwargs):
        return Response(self.record(self.get_item()))

    def update(self, request, *args, **kwargs):
        item = self.get_item()
        if "name" in self.params:
            credentials.rename_application_password(item, self.params["name"])
        return Response(self.record(item, context="edit"))

    def destroy(self, request, *args, **kwargs):
        item = self.get_item()
        previous = self.record(item, context="edit", links=False)
        credentials.revoke_application_passwords(ApplicationPassword.objects.filter(pk=item.pk))
        return Response({"deleted": True, "previous": previous})

    def destroy_all(self, request, *args, **kwargs):
        count = credentials.revoke_application_passwords(ApplicationPassword.objects.filter(user=self.target_user))
        return Response({"deleted": True, "count": count})

    def introspect(self, request, *args, **kwargs):
        if not isinstance(request.auth, ApplicationPassword):
            raise errors.ApiError(
                "rest_no_authenticated_app_password", _("Cannot introspect application password."), 404
            )
        return Response(self.record(request.auth))
