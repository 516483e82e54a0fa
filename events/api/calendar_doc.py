"""The OpenAPI document of the calendar's own namespace (`events-calendar/v1/doc`) and its rows on /api-docs/.

The v1 document stays the plugin's; this one describes only what the plugin has no route for.
"""

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from ..presentation.links import rest_root
from .openapi import OPENAPI_VERSION, _resolve, error_schema, openapi_path, operation_parameters
from .routes import CALENDAR_NAMESPACE, CALENDAR_ROUTES, ID

TITLE = "Events Calendar: change notifications"

DESCRIPTIONS = {
    ("/changes", "list"): _(
        "The changes after the cursor `since` (from the oldest kept entry without it), in the order they "
        "were committed: each with its position, kind, record ID, action, time and the record as the v1 "
        "API shows it to you (none for a deletion). Keep `next` and send it as `since` next time; an "
        "expired cursor answers 410 changes_cursor_expired."
    ),
    ("/webhooks", "list"): _("The webhooks (administrators only)."),
    ("/webhooks", "create"): _(
        "Subscribe `url` to the changes of `kinds` with `actions` (all when not given); the answer holds the "
        "`secret` (whsec_...) that signs each delivery as the Standard Webhooks specification says."
    ),
    (f"/webhooks/{ID}", "retrieve"): _("One webhook."),
    (f"/webhooks/{ID}", "update"): _(
        "Change `url`, `kinds`, `actions` or `active` (on again resumes a disabled webhook)."
    ),
    (f"/webhooks/{ID}", "destroy"): _("Delete the webhook and its delivery log."),
    (f"/webhooks/{ID}/deliveries", "deliveries"): _(
        "Its latest deliveries: webhook-id, change, status, attempts, the receiver's last HTTP status, times."
    ),
    ("/imports", "list"): _("The import sources: iCalendar feeds, events sites and CSV files (administrators only)."),
    ("/imports", "create"): _(
        "Import from `url` (an iCalendar feed or a site serving tribe/events/v1, found out at the first run) with "
        "a `policy` (overwrite, keep_local or new_only), the `status` of new events, `categories` for all of them, "
        "and a refresh every `interval_minutes`."
    ),
    (f"/imports/{ID}", "retrieve"): _("One import source."),
    (f"/imports/{ID}", "update"): _("Change its URL, name, policy, status, categories, interval or `active`."),
    (f"/imports/{ID}", "destroy"): _("Delete the source and its history; the events it imported stay."),
    (f"/imports/{ID}/runs", "runs"): _(
        "Its latest runs: when, how many events were created, updated, trashed, unchanged, skipped, the errors."
    ),
    (f"/imports/{ID}/run", "run"): _(
        "Run it now and answer what the run did (409 while another run of it is under way)."
    ),
    (f"/imports/events/{ID}", "origin"): _(
        "Where the event came from: its source, its identity there, when it was first and last imported."
    ),
}

CHANGE_SCHEMA = {
    "type": "object",
    "properties": {
        "position": {"type": "integer", "description": _("Position in the change log; positions only grow.")},
        "kind": {"type": "string", "enum": ["event", "venue", "organizer", "category", "tag"]},
        "id": {"type": "integer", "description": _("The record's ID.")},
        "action": {"type": "string", "enum": ["created", "updated", "trashed", "restored", "deleted"]},
        "time": {"type": "string", "format": "date-time", "description": _("When the change was committed (UTC).")},
        "languages": {
            "type": "array",
            "items": {"type": "string", "enum": [code for code, _name in settings.LANGUAGES]},
            "description": _(
                "The languages whose translated text the change changed (for a creation, trash, restore or "
                "deletion: every language the record has text in); empty when only what every language shows "
                "alike changed."
            ),
        },
        "record": {
            "type": "object",
            "nullable": True,
            "description": _(
                "The record as the v1 API shows it to you now; null for a deletion or a record no longer yours to read."
            ),
        },
    },
}

RESPONSES = {
    ("/changes", "list"): {
        "200": {
            "description": _("A page of changes and the cursor to continue from."),
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {
                            "changes": {"type": "array", "items": CHANGE_SCHEMA},
                            "next": {"type": "string"},
                        },
                    }
                }
            },
        },
        "400": _("since is not a cursor of this feed."),
        "410": _("The cursor is older than the change log keeps: read the calendar again."),
    },
}
WEBHOOK_ANSWERS = {
    "200": {"description": _("The webhook, or the list asked for.")},
    "400": _(
        "A parameter is invalid: a URL that is not http(s) or points to a private address, an unknown kind or action."
    ),
    "401": _("Not signed in."),
    "403": _("Only administrators manage webhooks."),
    "404": _("There is no webhook with this ID."),
}


IMPORT_ANSWERS = {
    "200": {"description": _("The import source, its runs, or the list asked for.")},
    "400": _("A parameter is invalid: a URL that is not http(s), an unknown policy or status, too short an interval."),
    "401": _("Not signed in."),
    "403": _("Only administrators manage imports."),
    "404": _("There is no import source (or imported event) with this ID."),
    "409": _("A run of this source is under way."),
}


def _responses(route, action):
    answers = {}
    imports = route.pattern.startswith("/imports")
    given = RESPONSES.get((route.pattern, action), IMPORT_ANSWERS if imports else WEBHOOK_ANSWERS)
    if action == "create":
        # A new webhook is 201 Created, the answer that carries its secret.
        created = _("The new import source.") if imports else _("The new webhook, with its secret.")
        given = {"201": {"description": created}, **given}
        given.pop("200", None)
    for status, answer in given.items():
        if isinstance(answer, dict):
            answers[status] = answer
        else:
            answers[status] = {"description": answer, "content": {"application/json": {"schema": error_schema()}}}
    return answers


def build_calendar_document(request):
    paths = {}
    for route in CALENDAR_ROUTES:
        item = {}
        for endpoint in route.endpoints:
            if (route.pattern, endpoint.action) not in DESCRIPTIONS:
                continue
            for method in endpoint.methods:
                item[method.lower()] = {
                    "summary": DESCRIPTIONS[route.pattern, endpoint.action],
                    "parameters": operation_parameters(route, endpoint.action),
                    "responses": _responses(route, endpoint.action),
                }
        if item:
            paths[openapi_path(route)] = item
    return _resolve(
        {
            "openapi": OPENAPI_VERSION,
            "info": {
                "version": "1.0.0",
                "title": TITLE,
                "description": _(
                    "Follow every change of the calendar: a feed read with a cursor, and signed webhooks."
                ),
            },
            "servers": [{"url": f"{rest_root(request)}{CALENDAR_NAMESPACE}/"}],
            "paths": paths,
        }
    )


def calendar_route_rows(request):
    """The routes of the calendar's namespace as /api-docs/ lists them: method, path, description."""
    root = rest_root(request)
    return [
        {
            "method": "/".join(endpoint.methods),
            "path": f"{root}{route.namespace}{openapi_path(route)}",
            "description": str(DESCRIPTIONS[route.pattern, endpoint.action]),
        }
        for route in CALENDAR_ROUTES
        for endpoint in route.endpoints
        if (route.pattern, endpoint.action) in DESCRIPTIONS
    ]
