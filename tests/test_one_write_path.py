"""Every way in reaches the same rule: the admin and the API delete, revoke and rename through one service each."""

import base64
import json
import logging

import pytest
from django.test import Client
from rest_framework.test import APIClient

from events.models import ApplicationPassword, Event, RenderedRecord, Tag, WebhookDelivery, WebhookSubscription
from events.notifications import delivery

from .conftest import API
from .factories import finish_writes, make_event, make_organizer, make_tag, make_user, make_venue
from .test_admin import staff_client
from .test_recurrence_admin import weekly_series

pytestmark = pytest.mark.django_db

FEED = "/wp-json/events-calendar/v1/changes"
PASSWORDS = "/wp-json/wp/v2/users/me/application-passwords"
PASSWORDS_ADMIN = "/admin/events/applicationpassword/"
HOOKS = "/wp-json/events-calendar/v1/webhooks"
LOGIN_PASSWORD = "login-pass-123"


def last_position():
    finish_writes()
    response = APIClient().get(FEED, {"per_page": 100})
    return max((change["position"] for change in response.json()["changes"]), default=0)


def fed(after):
    """(kind, ID, action) of the feed's entries after `after`, as a visitor reads them."""
    response = APIClient().get(FEED, {"per_page": 100})
    assert response.status_code == 200
    return [
        (change["kind"], change["id"], change["action"])
        for change in response.json()["changes"]
        if change["position"] > after
    ]


def stored_rows(kind, record_id):
    return RenderedRecord.objects.filter(kind=kind, record_id=record_id).count()


# --- permanent deletes ---------------------------------------------------------------------------


def delete_on_its_page(editor, collection, record):
    return editor.post(f"/admin/events/{collection}/{record.pk}/delete/", {"post": "yes"})


def delete_in_bulk(editor, collection, record):
    return editor.post(
        f"/admin/events/{collection}/", {"action": "delete_selected", "_selected_action": [record.pk], "post": "yes"}
    )


@pytest.mark.parametrize("delete", [delete_on_its_page, delete_in_bulk], ids=["page", "bulk-action"])
def test_an_event_deleted_for_good_in_the_admin_is_logged_deleted_and_leaves_no_stored_row(api, delete):
    editor = staff_client("editor")
    event = make_event("Gala")
    assert api.get(f"{API}/events/{event.pk}").status_code == 200
    assert stored_rows("event", event.pk) > 0
    start = last_position()
    assert delete(editor, "event", event).status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()
    assert fed(start) == [("event", event.pk, "deleted")]
    assert stored_rows("event", event.pk) == 0
    assert api.get(f"{API}/events/{event.pk}").status_code == 404


@pytest.mark.parametrize("delete", [delete_on_its_page, delete_in_bulk], ids=["page", "bulk-action"])
@pytest.mark.parametrize("kind", ["venue", "organizer"])
def test_a_venue_or_organizer_deleted_for_good_in_the_admin_is_logged_and_its_event_shows_it_gone(api, delete, kind):
    editor = staff_client("editor")
    record = make_venue("Hall") if kind == "venue" else make_organizer("Band")
    event = make_event("Gala", **({"venue": record} if kind == "venue" else {"organizers": [record]}))
    assert api.get(f"{API}/{kind}s/{record.pk}").status_code == 200
    assert api.get(f"{API}/events/{event.pk}").json()[kind] not in ([], {})
    start = last_position()
    assert delete(editor, kind, record).status_code == 302
    assert fed(start) == [("event", event.pk, "updated"), (kind, record.pk, "deleted")]
    assert stored_rows(kind, record.pk) == 0
    # The contract answers an unknown venue or organizer ID as an invalid `id` parameter.
    assert api.get(f"{API}/{kind}s/{record.pk}").json()["code"] == "rest_invalid_param"
    assert api.get(f"{API}/events/{event.pk}").json()[kind] in ([], {})


def delete_through_the_api(administrator, tag):
    return administrator.delete(f"{API}/tags/{tag.pk}?force=true")


@pytest.mark.parametrize("way", ["api-force", "admin-page", "admin-bulk-action"])
def test_a_tag_deleted_for_good_leaves_the_same_log_and_store_whichever_way_in(api, as_role, way):
    tag = make_tag("Outdoor")
    event = make_event(tags=[tag])
    assert api.get(f"{API}/tags/{tag.pk}").status_code == 200
    start = last_position()
    if way == "api-force":
        assert delete_through_the_api(as_role("administrator"), tag).status_code == 200
    else:
        deleting = delete_on_its_page if way == "admin-page" else delete_in_bulk
        assert deleting(staff_client("editor"), "tag", tag).status_code == 302
    assert not Tag.objects.filter(pk=tag.pk).exists()
    assert fed(start) == [("event", event.pk, "updated"), ("tag", tag.pk, "deleted")]
    assert stored_rows("tag", tag.pk) == 0


def test_an_occurrence_deleted_for_good_is_logged_once_as_deleted():
    editor = staff_client("editor")
    first, second, *_others = weekly_series(editor, repeat_end="count", repeat_count="4")
    start = last_position()
    assert delete_in_bulk(editor, "event", second).status_code == 302
    # It left its series through the trash first, in the same write: one entry says what became of it.
    assert [entry for entry in fed(start) if entry[1] == second.pk] == [("event", second.pk, "deleted")]


# --- application passwords -------------------------------------------------------------------------


def signed(username, password):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Basic " + base64.b64encode(f"{username}:{password}".encode()).decode())
    return client


@pytest.fixture
def owner():
    """An editor with an admin session and an API client signed with their login password."""
    make_user("editor", username="ed", password=LOGIN_PASSWORD, is_staff=True)
    browser = Client()
    assert browser.login(username="ed", password=LOGIN_PASSWORD)
    return browser, signed("ed", LOGIN_PASSWORD)


def issue(api_client, name="Sync tool"):
    response = api_client.post(PASSWORDS, {"name": name}, format="json")
    assert response.status_code == 201
    return response.json()


def revoke_in_the_admin(browser, api_client, record):
    stored = ApplicationPassword.objects.get(uuid=record["uuid"])
    browser.post(PASSWORDS_ADMIN, {"action": "revoke", "_selected_action": [stored.pk]})


def revoke_on_its_admin_page(browser, api_client, record):
    stored = ApplicationPassword.objects.get(uuid=record["uuid"])
    assert browser.post(f"{PASSWORDS_ADMIN}{stored.pk}/delete/", {"post": "yes"}).status_code == 302


def revoke_through_the_api(browser, api_client, record):
    assert api_client.delete(f"{PASSWORDS}/{record['uuid']}").status_code == 200


def revoke_all_through_the_api(browser, api_client, record):
    assert api_client.delete(PASSWORDS).json() == {"deleted": True, "count": 1}


@pytest.mark.parametrize(
    "revoke",
    [revoke_in_the_admin, revoke_on_its_admin_page, revoke_through_the_api, revoke_all_through_the_api],
    ids=["admin-action", "admin-delete-page", "api-delete", "api-delete-all"],
)
def test_a_revoked_application_password_stops_signing_and_is_logged_whichever_way_in(owner, revoke, caplog):
    browser, api_client = owner
    record = issue(api_client)
    assert signed("ed", record["password"]).get(API).status_code == 200
    with caplog.at_level(logging.INFO, logger="events.credentials"):
        revoke(browser, api_client, record)
    assert not ApplicationPassword.objects.exists()
    assert signed("ed", record["password"]).get(f"{API}/events").status_code == 401
    user_id = ApplicationPassword._meta.get_field("user").related_model.objects.get(username="ed").pk
    assert [entry.getMessage() for entry in caplog.records if entry.name == "events.credentials"] == [
        f"Application password {record['uuid']} ('Sync tool') of user {user_id} revoked."
    ]


def rename_in_the_admin(browser, api_client, record, name):
    stored = ApplicationPassword.objects.get(uuid=record["uuid"])
    return browser.post(f"{PASSWORDS_ADMIN}{stored.pk}/change/", {"name": name})


def rename_through_the_api(browser, api_client, record, name):
    return api_client.post(f"{PASSWORDS}/{record['uuid']}", {"name": name}, format="json")


@pytest.mark.parametrize("rename", [rename_in_the_admin, rename_through_the_api], ids=["admin", "api"])
def test_a_renamed_application_password_is_stored_as_wordpress_cleans_the_name_whichever_way_in(owner, rename):
    browser, api_client = owner
    record = issue(api_client)
    rename(browser, api_client, record, "  <b>Desktop</b>   app ")
    assert ApplicationPassword.objects.get().name == "Desktop app"


def test_a_name_of_nothing_but_tags_is_refused_by_the_api_and_the_admin_alike(owner):
    browser, api_client = owner
    record = issue(api_client)
    answer = rename_through_the_api(browser, api_client, record, "<b></b>")
    assert answer.status_code == 400
    assert answer.json()["code"] == "application_password_empty_name"
    page = rename_in_the_admin(browser, api_client, record, "<b></b>")
    assert page.status_code == 200
    assert "An application name is required to create an application password." in page.content.decode()
    assert ApplicationPassword.objects.get().name == "Sync tool"
    created = api_client.post(PASSWORDS, {"name": "<i> </i>"}, format="json")
    assert (created.status_code, created.json()["code"]) == (400, "application_password_empty_name")


# --- webhooks ----------------------------------------------------------------------------------------


@pytest.fixture
def subscription(settings, as_role):
    settings.EVENTS = {"OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"]}
    administrator = as_role("administrator")
    made = administrator.post(
        HOOKS, json.dumps({"url": "http://127.0.0.1:9/hook"}), content_type="application/json"
    ).json()
    make_event("Announced")
    finish_writes()
    delivery.fan_out()
    assert WebhookDelivery.objects.filter(subscription_id=made["id"]).exists()
    return administrator, made


def delete_webhook_through_the_api(administrator, made):
    answer = administrator.delete(f"{HOOKS}/{made['id']}")
    assert answer.status_code == 200
    assert answer.json()["previous"]["id"] == made["id"]


def delete_webhook_on_its_admin_page(administrator, made):
    browser = staff_client("administrator", "webmaster")
    assert browser.post(f"/admin/events/webhooksubscription/{made['id']}/delete/", {"post": "yes"}).status_code == 302


def delete_webhooks_in_bulk(administrator, made):
    browser = staff_client("administrator", "webmaster")
    response = browser.post(
        "/admin/events/webhooksubscription/",
        {"action": "delete_selected", "_selected_action": [made["id"]], "post": "yes"},
    )
    assert response.status_code == 302


@pytest.mark.parametrize(
    "delete",
    [delete_webhook_through_the_api, delete_webhook_on_its_admin_page, delete_webhooks_in_bulk],
    ids=["api", "admin-page", "admin-bulk-action"],
)
def test_a_deleted_webhook_goes_with_its_delivery_log_whichever_way_in(subscription, delete):
    administrator, made = subscription
    delete(administrator, made)
    assert not WebhookSubscription.objects.exists()
    assert not WebhookDelivery.objects.exists()
    assert administrator.get(f"{HOOKS}/{made['id']}").status_code == 404
