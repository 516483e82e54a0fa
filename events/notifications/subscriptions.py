"""Making and changing webhook subscriptions: the URL guard, kinds and actions, the secret."""

import base64
import secrets
import urllib.parse

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from ..exceptions import InvalidValue
from ..models import ChangeEntry, WebhookSubscription
from ..models.webhook import ALL_ACTIONS, ALL_KINDS
from ..services.outbound import UNRESOLVED, DestinationRefused, allowed_hosts, public_addresses

URL_MAX_LENGTH = 2000


def new_secret():
    """Standard Webhooks' secret form: `whsec_` and the base64 of 24 random bytes."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def checked_url(url):
    """The URL when the guard would let a delivery reach it; InvalidValue("url") otherwise. The
    guard checks again at each connection (the host's addresses may change)."""
    if not isinstance(url, str) or not url.strip() or len(url) > URL_MAX_LENGTH:
        raise InvalidValue("url", _("url must be an http or https URL."))
    url = url.strip()
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        raise InvalidValue("url", _("url must be an http or https URL.")) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        raise InvalidValue("url", _("url must be an http or https URL."))
    host = parts.hostname.lower().rstrip(".")
    if host in allowed_hosts():
        return url
    try:
        public_addresses(parts.hostname, port or 443)
    except DestinationRefused as refusal:
        if refusal.cause == UNRESOLVED:
            raise InvalidValue("url", _("The host of url could not be resolved.")) from None
        raise InvalidValue(
            "url",
            _(
                "url may not point to a private or reserved network address "
                "(the site's OUTBOUND_ALLOWED_HOSTS setting can allow a host)."
            ),
        ) from None
    return url


def checked_choices(field, values, allowed):
    if values is None:
        return list(allowed)
    unknown = [value for value in values if value not in allowed]
    if unknown or not isinstance(values, list | tuple):
        raise InvalidValue(
            field,
            _("%(param)s must hold only these values: %(values)s.") % {"param": field, "values": ", ".join(allowed)},
        )
    return [value for value in allowed if value in values]


def create_subscription(url, kinds=None, actions=None, active=True):
    """A subscription to the changes committed from now on (`kinds`, `actions`: every one when None)."""
    with transaction.atomic():
        subscription = WebhookSubscription(
            url=checked_url(url),
            kinds=checked_choices("kinds", kinds, ALL_KINDS),
            actions=checked_choices("actions", actions, ALL_ACTIONS),
            active=bool(active),
            secret=new_secret(),
            position=ChangeEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0,
        )
        subscription.save()
    return subscription


def update_subscription(subscription, **fields):
    """Change the fields given (url, kinds, actions, active). Made active again, it sends what waited."""
    if "url" in fields:
        subscription.url = checked_url(fields["url"])
    if "kinds" in fields:
        subscription.kinds = checked_choices("kinds", fields["kinds"], ALL_KINDS)
    if "actions" in fields:
        subscription.actions = checked_choices("actions", fields["actions"], ALL_ACTIONS)
    if "active" in fields:
        subscription.active = bool(fields["active"])
        if subscription.active:
            subscription.disabled_reason = ""
    subscription.save()
    return subscription


def delete_subscription(subscription):
    """End `subscription` for good, with its delivery log: nothing more is sent to its URL, and a
    delivery a worker has in hand is recorded nowhere."""
    with transaction.atomic():
        WebhookSubscription.objects.filter(pk=subscription.pk).delete()
