"""Webhooks: subscriptions through the API and the admin, signed deliveries at least once and in order, retries."""

import datetime as dt
import http.server
import json
import threading

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from standardwebhooks.webhooks import Webhook

from events import changes
from events.models import DeliveryStatus, WebhookDelivery, WebhookSubscription
from events.notifications import delivery
from events.services.events import update_event

from .factories import make_event
from .test_admin import staff_client

pytestmark = pytest.mark.django_db

HOOKS = "/wp-json/events-calendar/v1/webhooks"


class Receiver:
    """An HTTP server on 127.0.0.1 in a thread: answers each POST with the next status of `answers`
    (then 200), and keeps what it was sent."""

    def __init__(self, answers=()):
        self.answers = list(answers)
        self.received = []
        self.arrived = threading.Event()
        self.release = threading.Event()
        self.release.set()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                receiver.received.append(({name.lower(): value for name, value in self.headers.items()}, body))
                receiver.arrived.set()
                receiver.release.wait(30)
                status = receiver.answers.pop(0) if receiver.answers else 200
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def ids(self):
        return [headers["webhook-id"] for headers, _body in self.received]

    def stop(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    settings.EVENTS = {"IMAGE_IMPORT_ALLOWED_HOSTS": ["127.0.0.1"]}
    made = Receiver()
    yield made
    made.stop()


@pytest.fixture
def admin(as_role):
    return as_role("administrator")


def subscribe(client, url, **fields):
    return client.post(HOOKS, json.dumps({"url": url, **fields}), content_type="application/json")


def deliver():
    call_command("events_deliver", "--until-idle", stdout=open("/dev/null", "w"))


# --- subscriptions ----------------------------------------------------------------------------------


def test_an_administrator_subscribes_and_gets_a_standard_webhooks_secret(admin, receiver):
    response = subscribe(admin, receiver.url)
    assert response.status_code == 201
    record = response.json()
    assert record["secret"].startswith("whsec_")
    assert record["kinds"] == ["event", "venue", "organizer", "category", "tag"]
    assert record["actions"] == ["created", "updated", "trashed", "restored", "deleted"]
    assert record["active"] is True
    read = admin.get(f"{HOOKS}/{record['id']}").json()
    assert "secret" not in read and read["url"] == receiver.url
    assert [hook["id"] for hook in admin.get(HOOKS).json()] == [record["id"]]

    changed = admin.patch(
        f"{HOOKS}/{record['id']}", json.dumps({"kinds": ["event"], "active": False}), content_type="application/json"
    )
    assert changed.status_code == 200
    assert (changed.json()["kinds"], changed.json()["active"]) == (["event"], False)
    assert admin.delete(f"{HOOKS}/{record['id']}").status_code == 200
    assert admin.get(f"{HOOKS}/{record['id']}").json()["code"] == "rest_webhook_invalid_id"
    assert WebhookSubscription.objects.count() == 0


@pytest.mark.parametrize(
    "role, status", [(None, 401), ("editor", 403), ("subscriber", 403)], ids=["anonymous", "editor", "subscriber"]
)
def test_only_administrators_manage_webhooks(api, as_role, role, status, receiver):
    client = api if role is None else as_role(role)
    hook = WebhookSubscription.objects.create(
        url=receiver.url, kinds=["event"], actions=["created"], secret="whsec_AAAA"
    )
    for response in (
        client.get(HOOKS),
        subscribe(client, receiver.url),
        client.get(f"{HOOKS}/{hook.pk}"),
        client.patch(f"{HOOKS}/{hook.pk}", json.dumps({"active": False}), content_type="application/json"),
        client.delete(f"{HOOKS}/{hook.pk}"),
        client.get(f"{HOOKS}/{hook.pk}/deliveries"),
    ):
        assert response.status_code == status
        assert response.json()["code"] == "rest_forbidden"
    assert WebhookSubscription.objects.get().active


@pytest.mark.parametrize(
    "fields, param",
    [
        ({"url": "ftp://example.org/hook"}, "url"),
        ({"url": "http://10.1.2.3/hook"}, "url"),
        ({"url": "http://169.254.169.254/latest"}, "url"),
        ({"url": "not a url"}, "url"),
        ({"kinds": ["event", "movie"]}, "kinds"),
        ({"actions": ["exploded"]}, "actions"),
    ],
    ids=["scheme", "private", "metadata", "garbage", "kind", "action"],
)
def test_bad_subscriptions_are_400_in_the_contract_shape(admin, fields, param, settings):
    settings.EVENTS = {}
    response = subscribe(admin, **{"url": "http://127.0.0.1/hook", **fields})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert body["data"]["status"] == 400
    assert param in body["data"]["params"]
    assert WebhookSubscription.objects.count() == 0


def test_the_admin_makes_a_subscription_with_a_secret_and_shows_why_it_was_disabled(receiver):
    staff = staff_client("administrator")
    response = staff.post(
        "/admin/events/webhooksubscription/add/",
        {
            "url": receiver.url,
            "kinds": ["event"],
            "actions": ["created", "updated"],
            "active": "on",
            "deliveries-TOTAL_FORMS": "0",
            "deliveries-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content
    hook = WebhookSubscription.objects.get()
    assert hook.secret.startswith("whsec_") and hook.kinds == ["event"]
    hook.active, hook.disabled_reason = False, "Disabled on purpose"
    hook.save()
    assert "Disabled on purpose" in staff.get("/admin/events/webhooksubscription/").content.decode()
    assert staff_client("editor").get("/admin/events/webhooksubscription/").status_code == 403


# --- deliveries -----------------------------------------------------------------------------------


def test_a_change_is_delivered_signed_as_standard_webhooks_says(admin, receiver, editor):
    secret = subscribe(admin, receiver.url).json()["secret"]
    event = make_event(title="Night")
    changes.finished()
    deliver()
    assert len(receiver.received) == 1
    headers, body = receiver.received[0]
    verified = Webhook(secret).verify(body, headers)
    assert verified["type"] == "event.created"
    assert verified["data"] == {**verified["data"], "kind": "event", "id": event.pk, "action": "created"}
    assert verified["data"]["record"]["title"] == "Night"
    assert headers["webhook-signature"].startswith("v1,")
    delivered = WebhookDelivery.objects.get()
    assert (delivered.status, delivered.response_status, delivered.attempts) == (DeliveryStatus.SUCCEEDED, 200, 1)
    log = admin.get(f"{HOOKS}/{delivered.subscription_id}/deliveries").json()
    assert [(entry["id"], entry["status"], entry["response_status"]) for entry in log] == [
        (headers["webhook-id"], "succeeded", 200)
    ]


def test_a_receiver_answering_500_then_200_gets_the_same_webhook_id_again(admin, receiver):
    subscribe(admin, receiver.url)
    receiver.answers = [500]
    make_event()
    changes.finished()
    deliver()
    pending = WebhookDelivery.objects.get()
    assert (pending.status, pending.response_status, pending.attempts) == (DeliveryStatus.PENDING, 500, 1)
    # The first retry comes within seconds of the attempt's end (last_attempt is its start).
    assert pending.next_attempt - pending.last_attempt >= dt.timedelta(seconds=5)
    deliver()
    assert len(receiver.received) == 1
    WebhookDelivery.objects.update(next_attempt=timezone.now())
    deliver()
    assert receiver.ids() == [pending.message_id, pending.message_id]
    assert receiver.received[0][1] == receiver.received[1][1]
    assert WebhookDelivery.objects.get().status == DeliveryStatus.SUCCEEDED


def test_deliveries_wait_for_the_one_before_them(admin, receiver):
    subscribe(admin, receiver.url)
    receiver.answers = [503]
    first, second = make_event(title="First"), make_event(title="Second")
    changes.finished()
    deliver()
    assert len(receiver.received) == 1
    WebhookDelivery.objects.update(next_attempt=timezone.now())
    deliver()
    titles = [json.loads(body)["data"]["record"]["title"] for _headers, body in receiver.received]
    assert titles == ["First", "First", "Second"]


def test_a_subscription_is_disabled_after_failing_for_about_a_day_and_resent_from_the_admin(admin, receiver):
    hook_id = subscribe(admin, receiver.url).json()["id"]
    receiver.answers = [500] * delivery.ATTEMPTS
    make_event()
    changes.finished()
    for _attempt in range(delivery.ATTEMPTS):
        WebhookDelivery.objects.update(next_attempt=timezone.now())
        deliver()
    assert sum(delivery.RETRY_DELAYS, dt.timedelta()) > dt.timedelta(hours=24)
    hook = WebhookSubscription.objects.get()
    assert not hook.active
    assert "failed 8 times" in hook.disabled_reason and "HTTP 500" in hook.disabled_reason
    failed = WebhookDelivery.objects.get()
    assert failed.status == DeliveryStatus.FAILED

    staff = staff_client("administrator")
    response = staff.post("/admin/events/webhookdelivery/", {"action": "resend", "_selected_action": [failed.pk]})
    assert response.status_code == 302
    admin.patch(f"{HOOKS}/{hook_id}", json.dumps({"active": True}), content_type="application/json")
    deliver()
    assert receiver.ids()[-1] == failed.message_id
    assert WebhookDelivery.objects.get().status == DeliveryStatus.SUCCEEDED


def test_a_rolled_back_write_notifies_nobody(admin, receiver, editor):
    subscribe(admin, receiver.url)
    event = make_event()
    changes.finished()
    deliver()
    receiver.received.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        update_event(event, editor.user, {"title": "Never"})
        raise RuntimeError
    deliver()
    assert receiver.received == []


def test_a_receiver_on_a_private_address_is_not_reached_without_the_allow_list(admin, receiver, settings):
    subscribe(admin, receiver.url)
    settings.EVENTS = {}
    make_event()
    changes.finished()
    deliver()
    assert receiver.received == []
    refused = WebhookDelivery.objects.get()
    assert refused.status == DeliveryStatus.PENDING and refused.response_status is None
    assert "private" in refused.error


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_delivery_loses_nothing(admin, receiver):
    """The worker dies while the receiver holds its request: the delivery stays pending, claimed
    until its claim lapses, and then the next worker sends it again, with the same webhook-id."""
    import os
    import signal
    import subprocess
    import sys

    from django.db import connection

    subscribe(admin, receiver.url)
    make_event(title="Survives")
    receiver.release.clear()
    database = connection.settings_dict
    script = (
        "import django; django.setup(); from django.conf import settings; "
        "settings.EVENTS = {'IMAGE_IMPORT_ALLOWED_HOSTS': ['127.0.0.1']}; "
        "from django.core.management import call_command; call_command('events_deliver', '--until-idle')"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "calendar_site.settings",
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
    }
    worker = subprocess.Popen(
        [sys.executable, "-c", script], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        assert receiver.arrived.wait(60), worker.stderr.read() if worker.poll() is not None else "no delivery"
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(30)
    finally:
        if worker.poll() is None:
            worker.kill()
        receiver.release.set()
    assert WebhookDelivery.objects.get().status == DeliveryStatus.PENDING
    # Until the claim lapses, no other worker takes the subscription's turn.
    deliver()
    assert len(receiver.ids()) == 1
    WebhookDelivery.objects.update(claimed_until=timezone.now())
    deliver()
    assert len(set(receiver.ids())) == 1 and len(receiver.ids()) == 2
    assert WebhookDelivery.objects.get().status == DeliveryStatus.SUCCEEDED


def test_a_delivery_names_the_languages_of_its_change_even_once_the_entry_is_gone(admin, receiver, editor):
    from events.models import ChangeEntry

    from .conftest import post_json

    subscribe(admin, receiver.url)
    event = make_event(title="Night")
    changes.finished()
    deliver()
    assert post_json(editor, f"/events/{event.pk}", {"title": "夜晚場"}, prefix="/zh-hant").status_code == 200
    # The deliveries are made from the log; the log's retention may remove the entry before the
    # first attempt (a subscription turned on again after weeks): the delivery keeps its languages.
    delivery.fan_out()
    ChangeEntry.objects.all().delete()
    deliver()
    bodies = [json.loads(body) for _headers, body in receiver.received]
    assert [(body["type"], body["data"]["languages"]) for body in bodies] == [
        ("event.created", ["en"]),
        ("event.updated", ["zh-hant"]),
    ]
