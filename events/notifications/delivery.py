"""Deliveries: made from the change log for each subscription, attempted in log order, retried with
backoff, signed as the Standard Webhooks specification says (https://www.standardwebhooks.com/).

At least once: a delivery is marked done only in the transaction that holds its subscription's
row lock during the attempt, so a worker that dies mid-attempt leaves it pending (sent again, with
the same `webhook-id`), and two workers never attempt one subscription at once (the second skips
the locked row). In order: a subscription's next delivery waits until the one before it succeeded
or was given up.
"""

import base64
import datetime as dt
import hashlib
import hmac
import http.client
import urllib.error
import urllib.request
import uuid

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..json_text import to_json
from ..models import ChangeEntry, DeliveryStatus, WebhookDelivery, WebhookSubscription
from ..services.outbound import DestinationRefused, guarded_opener

# The wait before each retry: the first within seconds, then minutes, then hours; the last attempt
# comes about 27 hours after the first (Standard Webhooks' own schedule). Then the delivery fails
# and its subscription is disabled, with the reason, until an administrator turns it on again.
RETRY_DELAYS = (
    dt.timedelta(seconds=5),
    dt.timedelta(minutes=5),
    dt.timedelta(minutes=30),
    dt.timedelta(hours=2),
    dt.timedelta(hours=5),
    dt.timedelta(hours=10),
    dt.timedelta(hours=10),
)
ATTEMPTS = len(RETRY_DELAYS) + 1
TIMEOUT_SECONDS = 10
# Of a receiver's answer only the status counts; the body is read no further than this.
MAX_RESPONSE_BYTES = 64 * 1024
# Entries a fan-out turns into deliveries per subscription and round.
FAN_OUT_BATCH = 1000

_payload_records = None


def register_payload_records(records):
    """`records(entries)` → {(kind, ID): JSON text} of the records as a visitor reads them (the API's)."""
    global _payload_records
    _payload_records = records


# --- from the log to deliveries -------------------------------------------------------------------


def fan_out():
    """Make the deliveries of the entries each active subscription has not been given yet; returns
    the IDs of the subscriptions that got some."""
    fed = []
    for subscription_id in WebhookSubscription.objects.filter(active=True).values_list("pk", flat=True):
        with transaction.atomic():
            subscription = (
                WebhookSubscription.objects.select_for_update().filter(pk=subscription_id, active=True).first()
            )
            if subscription is None:
                continue
            entries = list(ChangeEntry.objects.filter(pk__gt=subscription.position).order_by("pk")[:FAN_OUT_BATCH])
            if not entries:
                continue
            WebhookDelivery.objects.bulk_create(
                [
                    WebhookDelivery(
                        subscription=subscription,
                        position=entry.pk,
                        kind=entry.kind,
                        record_id=entry.record_id,
                        action=entry.action,
                        change_time=entry.time,
                        languages=entry.languages,
                        message_id=f"msg_{uuid.uuid4().hex}",
                    )
                    for entry in entries
                    if subscription.wants(entry.kind, entry.action)
                ],
                ignore_conflicts=True,
            )
            subscription.position = entries[-1].pk
            subscription.save(update_fields=["position"])
            fed.append(subscription.pk)
    return fed


def due_subscriptions(now=None):
    """IDs of the active subscriptions whose next delivery (the first pending one) is due."""
    now = now or timezone.now()
    heads = {}
    pending = WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, subscription__active=True)
    for subscription_id, next_attempt in pending.order_by("subscription_id", "position").values_list(
        "subscription_id", "next_attempt"
    ):
        heads.setdefault(subscription_id, next_attempt)
    return sorted(pk for pk, next_attempt in heads.items() if next_attempt is None or next_attempt <= now)


def deliver_due(subscription_id, now=None):
    """Attempt the subscription's due deliveries in log order, stopping at the first that must wait;
    returns (attempts made, when the next one is due or None). Skips a subscription another worker
    is delivering."""
    made = 0
    while True:
        with transaction.atomic():
            subscription = (
                WebhookSubscription.objects.select_for_update(skip_locked=True)
                .filter(pk=subscription_id, active=True)
                .first()
            )
            if subscription is None:
                return made, None
            delivery = subscription.deliveries.filter(status=DeliveryStatus.PENDING).order_by("position").first()
            if delivery is None:
                return made, None
            moment = now or timezone.now()
            if delivery.next_attempt is not None and delivery.next_attempt > moment:
                return made, delivery.next_attempt
            attempt(subscription, delivery, moment)
            made += 1


# --- one attempt ----------------------------------------------------------------------------------


def signature(secret, message_id, timestamp, body):
    """Standard Webhooks' `webhook-signature`: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{timestamp}.".encode() + body.encode()
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def payload(delivery):
    """The body: the change and the record as a visitor reads it now (none once trashed or deleted)."""
    records = _payload_records([delivery]) if _payload_records is not None else {}
    change = {
        "position": delivery.position,
        "kind": delivery.kind,
        "id": delivery.record_id,
        "action": delivery.action,
        "time": delivery.change_time.isoformat().replace("+00:00", "Z"),
        "languages": delivery.languages.split(),
    }
    head = to_json({"type": f"{delivery.kind}.{delivery.action}", "timestamp": change["time"]})
    record = records.get((delivery.kind, delivery.record_id), "null")
    return f'{head[:-1]},"data":{to_json(change)[:-1]},"record":{record}}}}}'


def attempt(subscription, delivery, now):
    """POST the delivery once and keep what came of it."""
    if not delivery.body:
        delivery.body = payload(delivery)
    timestamp = str(int(now.timestamp()))
    request = urllib.request.Request(
        subscription.url,
        data=delivery.body.encode(),
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "events-calendar-webhooks",
            "webhook-id": delivery.message_id,
            "webhook-timestamp": timestamp,
            "webhook-signature": signature(subscription.secret, delivery.message_id, timestamp, delivery.body),
        },
    )
    status, error = None, ""
    try:
        # No redirect handler: a receiver that redirects has not accepted the delivery.
        with guarded_opener().open(request, timeout=TIMEOUT_SECONDS) as response:
            response.read(MAX_RESPONSE_BYTES)
            status = response.status
    except urllib.error.HTTPError as refusal:
        status = refusal.code
        refusal.close()
    except DestinationRefused as refusal:
        error = _("The receiver's address is private or could not be resolved (%(cause)s).") % {"cause": refusal.cause}
    except urllib.error.URLError as failure:
        reason = failure.reason
        if isinstance(reason, DestinationRefused):
            error = _("The receiver's address is private or could not be resolved (%(cause)s).") % {
                "cause": reason.cause
            }
        else:
            error = str(reason)[:500]
    except (http.client.HTTPException, OSError, ValueError) as failure:
        error = str(failure)[:500] or type(failure).__name__
    delivery.attempts += 1
    delivery.last_attempt = now
    delivery.response_status = status
    delivery.error = error
    if status is not None and 200 <= status < 300:
        delivery.status, delivery.next_attempt = DeliveryStatus.SUCCEEDED, None
    elif delivery.attempts >= ATTEMPTS:
        delivery.status, delivery.next_attempt = DeliveryStatus.FAILED, None
        subscription.active = False
        subscription.disabled_reason = _(
            "Disabled on %(time)s: the delivery of change %(position)s failed %(attempts)s times over about a day "
            "(last answer: %(answer)s)."
        ) % {
            "time": now.strftime("%Y-%m-%d %H:%M UTC"),
            "position": delivery.position,
            "attempts": delivery.attempts,
            "answer": f"HTTP {status}" if status is not None else error,
        }
        subscription.save(update_fields=["active", "disabled_reason"])
    else:
        delivery.next_attempt = now + RETRY_DELAYS[delivery.attempts - 1]
    delivery.save()


def resend(deliveries):
    """Send these deliveries again (same `webhook-id`, same body), as soon as their turn comes."""
    return WebhookDelivery.objects.filter(pk__in=[delivery.pk for delivery in deliveries]).update(
        status=DeliveryStatus.PENDING,
        attempts=0,
        next_attempt=None,
        error="",
    )
