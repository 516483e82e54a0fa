"""`events-calendar/v1/webhooks`: administrators' webhook subscriptions and their delivery logs."""

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission
from rest_framework.response import Response

from ... import roles
from ...models import WebhookDelivery, WebhookSubscription
from ...models.webhook import ALL_ACTIONS, ALL_KINDS
from ...notifications import subscriptions
from ...notifications.delivery import fan_out
from .. import errors
from ..parameters.fields import BooleanParam, ListParam, Params, PositiveIntegerParam, StringParam
from .base import WPViewSet

MAX_DELIVERIES = 100


class Administrators(BasePermission):
    def has_permission(self, request, view):
        return roles.role_of(request.user) == roles.ADMINISTRATOR


def _choices(allowed):
    def validate(field, values):
        unknown = [value for value in values if value not in allowed]
        if unknown:
            field.refuse(
                _("%(param)s must hold only these values: %(values)s.")
                % {"param": field.field_name, "values": ", ".join(allowed)}
            )
        return values

    return validate


def kinds_param(**kwargs):
    return ListParam(
        validator=_choices(ALL_KINDS),
        wp_items={"type": "string", "enum": ALL_KINDS},
        help_text=_("The kinds of records whose changes are sent (all when not given)."),
        **kwargs,
    )


def actions_param(**kwargs):
    return ListParam(
        validator=_choices(ALL_ACTIONS),
        wp_items={"type": "string", "enum": ALL_ACTIONS},
        help_text=_("The actions sent (all when not given)."),
        **kwargs,
    )


class CreateParams(Params):
    url = StringParam(required=True, non_empty=True, max_length=2000, help_text=_("The receiver's http or https URL."))
    kinds = kinds_param()
    actions = actions_param()
    active = BooleanParam(default=True, help_text=_("Whether changes are sent."))


class UpdateParams(Params):
    url = StringParam(non_empty=True, max_length=2000, help_text=_("The receiver's http or https URL."))
    kinds = kinds_param()
    actions = actions_param()
    active = BooleanParam(help_text=_("Whether changes are sent; turning it on again resumes a disabled webhook."))


class DeliveriesParams(Params):
    per_page = PositiveIntegerParam(
        default=MAX_DELIVERIES, help_text=_("How many of the latest deliveries (at most 100).")
    )


def no_webhook():
    return errors.ApiError("rest_webhook_invalid_id", _("There is no webhook with this ID."), 404)


def subscription_record(subscription, with_secret=False):
    record = {
        "id": subscription.pk,
        "url": subscription.url,
        "kinds": subscription.kinds,
        "actions": subscription.actions,
        "active": subscription.active,
        "disabled_reason": subscription.disabled_reason,
        "created": subscription.created.isoformat().replace("+00:00", "Z"),
    }
    if with_secret:
        record["secret"] = subscription.secret
    return record


def delivery_record(delivery):
    def moment(value):
        return value.isoformat().replace("+00:00", "Z") if value else None

    return {
        "id": delivery.message_id,
        "position": delivery.position,
        "kind": delivery.kind,
        "record_id": delivery.record_id,
        "action": delivery.action,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "response_status": delivery.response_status,
        "last_attempt": moment(delivery.last_attempt),
        "next_attempt": moment(delivery.next_attempt),
        "error": delivery.error,
    }


class WebhookViewSet(WPViewSet):
    params_classes = {"create": CreateParams, "update": UpdateParams, "deliveries": DeliveriesParams}
    permission_classes_by_action = {
        action: [Administrators] for action in ("list", "create", "retrieve", "update", "destroy", "deliveries")
    }

    def subscription(self):
        subscription = WebhookSubscription.objects.filter(pk=int(self.kwargs["id"])).first()
        if subscription is None:
            raise no_webhook()
        return subscription

    def list(self, request, *args, **kwargs):
        return Response(
            [subscription_record(subscription) for subscription in WebhookSubscription.objects.order_by("pk")]
        )

    def create(self, request, *args, **kwargs):
        params = self.params
        subscription = subscriptions.create_subscription(
            params["url"],
            kinds=params.get("kinds"),
            actions=params.get("actions"),
            active=params.get("active", True),
        )
        # The secret is shown here and in the admin; the other answers leave it out.
        return Response(subscription_record(subscription, with_secret=True), status=201)

    def retrieve(self, request, *args, **kwargs):
        return Response(subscription_record(self.subscription()))

    def update(self, request, *args, **kwargs):
        fields = {name: self.params[name] for name in ("url", "kinds", "actions", "active") if name in self.params}
        return Response(subscription_record(subscriptions.update_subscription(self.subscription(), **fields)))

    def destroy(self, request, *args, **kwargs):
        subscription = self.subscription()
        record = subscription_record(subscription)
        subscriptions.delete_subscription(subscription)
        return Response({"deleted": True, "previous": record})

    def deliveries(self, request, *args, **kwargs):
        subscription = self.subscription()
        # Changes no worker has looked at yet are listed as the pending deliveries they are, not
        # left out: a site whose worker is not running shows what waits for it.
        fan_out([subscription.pk])
        latest = WebhookDelivery.objects.filter(subscription=subscription).order_by("-position")
        return Response(
            [delivery_record(delivery) for delivery in latest[: min(self.params["per_page"], MAX_DELIVERIES)]]
        )
