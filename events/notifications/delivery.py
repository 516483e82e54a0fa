"""Deliveries: made from the change log for each subscription, attempted in log order, retried with
backoff, signed as the Standard Webhooks specification says (https://www.standardwebhooks.com/).

No transaction is open while a receiver is asked: a worker claims its subscription's turn in one
short transaction (a token and a time the claim lapses, on the delivery), makes the request, then
records the outcome in a second one, only if the claim is still its own. Two workers never attempt
one subscription at once (a subscription with a live claim is skipped); a worker that dies
mid-attempt leaves a claim that lapses, and the delivery is sent again with the same `webhook-id`
(at least once). In order: a subscription's next delivery waits until the one before it succeeded
or was given up. Fair: a round gives each due subscription one attempt, so a slow receiver holds
the others up for one attempt at most (TIMEOUT_SECONDS), never for its whole backlog.
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
from ..presentation.payloads import payload_records
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
# The deadline of a whole attempt: connecting, sending, the receiver's status line, headers and body.
TIMEOUT_SECONDS = 10
# How long a claim on a subscription's turn lasts: many attempts' deadlines, so that only a worker
# that died (or stalled for a minute) loses it.
CLAIM_SECONDS = 60
# Of a receiver's answer only the status counts; the body is read no further than this.
MAX_RESPONSE_BYTES = 64 * 1024
# Entries a fan-out turns into deliveries per subscription and round.
FAN_OUT_BATCH = 1000

# --- from the log to deliveries -------------------------------------------------------------------


def fan_out(subscription_ids=None):
    """Make the deliveries of the entries each active subscription (of `subscription_ids`, or every
    one) has not been given yet; returns the IDs of the subscriptions that got some."""
    fed = []
    active = WebhookSubscription.objects.filter(active=True)
    if subscription_ids is not None:
        active = active.filter(pk__in=subscription_ids)
    for subscription_id in active.values_list("pk", flat=True):
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
    """IDs of the active subscriptions whose next delivery (the first pending one) is due and whose
    turn no worker holds."""
    now = now or timezone.now()
    heads, claimed = {}, set()
    pending = WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, subscription__active=True)
    for subscription_id, next_attempt, claimed_until in pending.order_by("subscription_id", "position").values_list(
        "subscription_id", "next_attempt", "claimed_until"
    ):
        heads.setdefault(subscription_id, next_attempt)
        if claimed_until is not None and claimed_until > now:
            claimed.add(subscription_id)
    return sorted(
        pk for pk, next_attempt in heads.items() if pk not in claimed and (next_attempt is None or next_attempt <= now)
    )


def deliver_next(subscription_id):
    """Attempt the subscription's next delivery if it is due and its turn is free; returns when the
    subscription's next delivery is due (now or earlier: another is due at once), or None when
    nothing is pending, the subscription is off or another worker has its turn."""
    claimed, due = _claim(subscription_id, timezone.now())
    if claimed is None:
        return due
    subscription, delivery = claimed
    started = timezone.now()
    status, error = _post(subscription, delivery, started)
    return _record(subscription, delivery, started, timezone.now(), status, error)


def _claim(subscription_id, now):
    """In one short transaction: ((subscription, delivery), None) with the delivery claimed for one
    attempt and its body written (sent unchanged on every retry), or (None, when it is due)."""
    with transaction.atomic():
        subscription = (
            WebhookSubscription.objects.select_for_update(skip_locked=True)
            .filter(pk=subscription_id, active=True)
            .first()
        )
        if subscription is None:
            return None, None
        pending = subscription.deliveries.filter(status=DeliveryStatus.PENDING)
        if pending.filter(claimed_until__gt=now).exists():
            return None, None
        delivery = pending.order_by("position").first()
        if delivery is None:
            return None, None
        if delivery.next_attempt is not None and delivery.next_attempt > now:
            return None, delivery.next_attempt
        delivery.claim = uuid.uuid4().hex
        delivery.claimed_until = now + dt.timedelta(seconds=CLAIM_SECONDS)
        if not delivery.body:
            delivery.body = payload(delivery)
        delivery.save(update_fields=["claim", "claimed_until", "body"])
    return (subscription, delivery), None


# --- one attempt ----------------------------------------------------------------------------------


def signature(secret, message_id, timestamp, body):
    """Standard Webhooks' `webhook-signature`: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{timestamp}.".encode() + body.encode()
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def payload(delivery):
    """The body: the change and the record as a visitor reads it now (none once trashed or deleted)."""
    records = payload_records([delivery])
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


def _post(subscription, delivery, now):
    """POST the delivery once: (the receiver's HTTP status or None, the error when there is none)."""
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
    try:
        # No redirect handler: a receiver that redirects has not accepted the delivery. The
        # guard's timeout is the deadline of the whole exchange, not of each read.
        with guarded_opener().open(request, timeout=TIMEOUT_SECONDS) as response:
            response.read(MAX_RESPONSE_BYTES)
            return response.status, ""
    except urllib.error.HTTPError as refusal:
        refusal.close()
        return refusal.code, ""
    except (DestinationRefused, urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as failure:
        return None, _failure_text(failure.reason if isinstance(failure, urllib.error.URLError) else failure)


def _failure_text(failure):
    if isinstance(failure, DestinationRefused):
        return _("The receiver's address is private or could not be resolved (%(cause)s).") % {"cause": failure.cause}
    if isinstance(failure, TimeoutError):
        return _("The receiver did not answer within %(seconds)s seconds.") % {"seconds": TIMEOUT_SECONDS}
    return str(failure)[:500] or type(failure).__name__


def _record(subscription, delivery, started, ended, status, error):
    """Keep what came of the attempt, in one short transaction, if the claim is still this worker's
    (else the worker that took the lapsed turn decides); returns when the next delivery is due."""
    with transaction.atomic():
        current = WebhookDelivery.objects.select_for_update().filter(pk=delivery.pk, claim=delivery.claim).first()
        if current is None:
            return None
        current.claim, current.claimed_until = "", None
        current.attempts += 1
        current.last_attempt = started
        current.response_status = status
        current.error = error
        if status is not None and 200 <= status < 300:
            current.status, current.next_attempt = DeliveryStatus.SUCCEEDED, None
        elif current.attempts >= ATTEMPTS:
            current.status, current.next_attempt = DeliveryStatus.FAILED, None
            subscription.active = False
            subscription.disabled_reason = _(
                "Disabled on %(time)s: the delivery of change %(position)s failed %(attempts)s times over about a day "
                "(last answer: %(answer)s)."
            ) % {
                "time": ended.strftime("%Y-%m-%d %H:%M UTC"),
                "position": current.position,
                "attempts": current.attempts,
                "answer": f"HTTP {status}" if status is not None else error,
            }
            subscription.save(update_fields=["active", "disabled_reason"])
            current.save()
            return None
        else:
            # Counted from the attempt's end: a receiver that held it to the deadline still gets
            # the whole wait before the next one.
            current.next_attempt = ended + RETRY_DELAYS[current.attempts - 1]
        current.save()
        if current.status == DeliveryStatus.PENDING:
            return current.next_attempt
        following = (
            WebhookDelivery.objects.filter(subscription_id=subscription.pk, status=DeliveryStatus.PENDING)
            .order_by("position")
            .first()
        )
        if following is None:
            return None
        return following.next_attempt or ended


def resend(deliveries):
    """Send these deliveries again (same `webhook-id`, same body), as soon as their turn comes."""
    return WebhookDelivery.objects.filter(pk__in=[delivery.pk for delivery in deliveries]).update(
        status=DeliveryStatus.PENDING,
        attempts=0,
        next_attempt=None,
        error="",
    )
