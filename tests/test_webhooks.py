"""Webhooks: subscriptions through the API and the admin, signed deliveries at least once and in order, retries."""

import datetime as dt
import http.server
import json
import threading

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone
from standardwebhooks.webhooks import Webhook

from events.models import DeliveryStatus, WebhookDelivery, WebhookSubscription
from events.notifications import delivery
from events.services.events import update_event

from .factories import finish_writes, make_event
from .test_admin import staff_client

pytestmark = pytest.mark.django_db

HOOKS = "/wp-json/events-calendar/v1/webhooks"


class Receiver:
    """An HTTP server on 127.0.0.1 in a thread: answers each POST with the next status of `answers`
    (then 200), and keeps what it was sent."""

    def __init__(self, answers=()):
        self.answers = list(answers)
        self.received = []
        self.paths = []
        self.arrived = threading.Event()
        self.release = threading.Event()
        self.release.set()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                receiver.received.append(({name.lower(): value for name, value in self.headers.items()}, body))
                receiver.paths.append(self.path)
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


class TricklingReceiver:
    """An HTTP server on 127.0.0.1 that answers a POST with its status line, then one header byte a
    second: each read gets a byte in time, so only a deadline for the whole attempt ends it."""

    HEAD = b"X-Slow: aaaaaaaa\r\n\r\n"

    def __init__(self):
        stop = self.stop_sending = threading.Event()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                try:
                    self.wfile.write(b"HTTP/1.0 200 OK\r\n")
                    for byte in TricklingReceiver.HEAD:
                        if stop.wait(1):
                            return
                        self.wfile.write(bytes([byte]))
                except OSError:
                    return

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/slow"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.stop_sending.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    settings.EVENTS = {"OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"]}
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


PRIVATE_REFUSAL = (
    "url may not point to a private or reserved network address "
    "(the site's OUTBOUND_ALLOWED_HOSTS setting can allow a host)."
)


def test_the_former_name_of_the_outbound_allow_list_still_allows_a_host_and_is_reported(admin, settings):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    settings.EVENTS = {"IMAGE_IMPORT_ALLOWED_HOSTS": ["127.0.0.1"]}
    assert subscribe(admin, "http://127.0.0.1/hook").status_code == 201
    with pytest.raises(SystemCheckError, match="events.W005"):
        call_command("check", fail_level="WARNING", stdout=StringIO(), stderr=StringIO())


@pytest.mark.parametrize(
    "url",
    [
        "http://[2002:7f00:1::]/hook",
        "http://[2002:a9fe:a9fe::1]/hook",
        "http://[64:ff9b::7f00:1]/hook",
        "http://[64:ff9b::a00:1]/hook",
        "http://[64:ff9b:1::808:808]/hook",
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://[::127.0.0.1]/hook",
        "http://[::8.8.8.8]/hook",
    ],
    ids=[
        "6to4-loopback",
        "6to4-metadata",
        "nat64-loopback",
        "nat64-private",
        "local-nat64-any",
        "teredo-loopback-client",
        "mapped-loopback",
        "compatible-loopback",
        "compatible-any",
    ],
)
def test_ipv6_addresses_are_refused_for_the_ipv4_address_they_carry(admin, settings, url):
    settings.EVENTS = {}
    response = subscribe(admin, url)
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["data"]["params"]["url"]) == ("rest_invalid_param", PRIVATE_REFUSAL)
    assert WebhookSubscription.objects.count() == 0


@pytest.mark.parametrize(
    "url",
    ["http://[2002:808:808::1]/hook", "http://[64:ff9b::808:808]/hook", "http://[::ffff:8.8.8.8]/hook"],
    ids=["6to4", "nat64", "mapped"],
)
def test_ipv6_addresses_that_carry_a_public_ipv4_address_are_accepted(admin, settings, url):
    settings.EVENTS = {}
    response = subscribe(admin, url)
    assert response.status_code == 201
    assert response.json()["url"] == url


@pytest.mark.parametrize(
    "url",
    [
        "http://%31%32%37.0.0.1/hook",
        "http://[fe80::1%25lo]/hook",
        "http://under_score.example/hook",
        "http://empty..label.example/hook",
        f"http://{'a' * 64}.example/hook",
        f"http://{'.'.join(['a' * 60] * 5)}/hook",
        "http://-dash.example/hook",
        "http://127.1/hook",
        "http://0x7f.0.0.1/hook",
    ],
    ids=[
        "percent-encoded",
        "zone-id",
        "underscore",
        "empty-label",
        "long-label",
        "long-name",
        "leading-hyphen",
        "short-ipv4",
        "hex-ipv4",
    ],
)
def test_a_host_that_is_no_host_name_is_refused_before_any_look_up(admin, settings, no_lookup, url):
    settings.EVENTS = {}
    response = subscribe(admin, url)
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["data"]["params"]["url"]) == ("rest_invalid_param", PRIVATE_REFUSAL)
    assert no_lookup == []
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
    finish_writes()
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
    finish_writes()
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
    finish_writes()
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
    finish_writes()
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
    finish_writes()
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
    finish_writes()
    deliver()
    assert receiver.received == []
    refused = WebhookDelivery.objects.get()
    assert refused.status == DeliveryStatus.PENDING and refused.response_status is None
    assert "private" in refused.error


def test_the_guard_refuses_a_stored_url_that_is_no_host_name_at_the_connection(receiver, no_lookup):
    # Stored before the check existed: the guard at the connection refuses it too, without a look-up.
    WebhookSubscription.objects.create(
        url="http://under_score.example/hook", kinds=["event"], actions=["created"], secret="whsec_AAAA"
    )
    make_event()
    finish_writes()
    deliver()
    refused = WebhookDelivery.objects.get()
    assert (refused.status, refused.response_status) == (DeliveryStatus.PENDING, None)
    assert "private" in refused.error
    assert receiver.received == [] and no_lookup == []


def test_a_trickling_receiver_is_cut_off_at_the_deadline_and_another_is_served_in_the_same_run(
    admin, receiver, monkeypatch
):
    monkeypatch.setattr(delivery, "TIMEOUT_SECONDS", 2)
    trickling = TricklingReceiver()
    try:
        # The trickling receiver's subscription is the older one: its attempt comes first.
        slow_id = subscribe(admin, trickling.url).json()["id"]
        served_id = subscribe(admin, receiver.url).json()["id"]
        make_event()
        finish_writes()
        deliver()
    finally:
        trickling.stop()
    [slow] = admin.get(f"{HOOKS}/{slow_id}/deliveries").json()
    assert (slow["status"], slow["attempts"], slow["response_status"]) == ("pending", 1, None)
    assert slow["error"] == "The receiver did not answer within 2 seconds."
    # The wait before the retry counts from the attempt's end, which came at the deadline.
    started, retry = (dt.datetime.fromisoformat(slow[field]) for field in ("last_attempt", "next_attempt"))
    assert retry - started >= dt.timedelta(seconds=2) + delivery.RETRY_DELAYS[0]
    [served] = admin.get(f"{HOOKS}/{served_id}/deliveries").json()
    assert (served["status"], served["response_status"]) == ("succeeded", 200)
    assert len(receiver.received) == 1


def test_a_round_gives_each_subscription_one_attempt_so_a_backlog_does_not_hold_up_others(admin, receiver):
    subscribe(admin, f"{receiver.url}/backlog")
    for _number in range(3):
        make_event()
    finish_writes()
    subscribe(admin, f"{receiver.url}/other")
    make_event()
    finish_writes()
    deliver()
    assert receiver.paths == ["/hook/backlog", "/hook/other", "/hook/backlog", "/hook/backlog", "/hook/backlog"]
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {DeliveryStatus.SUCCEEDED}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_no_transaction_or_lock_is_held_while_a_receiver_holds_the_request(admin, receiver):
    """While the receiver holds the request, the worker's connection is not idle in a transaction,
    the subscription's and the delivery's rows can be locked at once, and a second worker does not
    take the subscription's turn."""
    hook_id = subscribe(admin, receiver.url).json()["id"]
    make_event()
    receiver.release.clear()

    def work():
        try:
            deliver()
        finally:
            connection.close()

    worker = threading.Thread(target=work)
    worker.start()
    try:
        assert receiver.arrived.wait(60), "no delivery"
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%%'"
            )
            assert cursor.fetchone()[0] == 0
        with transaction.atomic():
            WebhookSubscription.objects.select_for_update(nowait=True).get(pk=hook_id)
            WebhookDelivery.objects.select_for_update(nowait=True).get()
        assert delivery.deliver_next(hook_id) is None
        assert len(receiver.received) == 1
    finally:
        receiver.release.set()
        worker.join(60)
    assert not worker.is_alive()
    assert len(receiver.received) == 1
    assert WebhookDelivery.objects.get().status == DeliveryStatus.SUCCEEDED


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
        "settings.EVENTS = {'OUTBOUND_ALLOWED_HOSTS': ['127.0.0.1']}; "
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
    finish_writes()
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
