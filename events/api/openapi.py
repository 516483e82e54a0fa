"""The OpenAPI 3.0.0 document of the `doc` route, generated from the route table and the parameter declarations."""

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework.fields import empty

from ..conf import events_settings
from ..presentation.links import namespace_url
from .parameters.event_writes import event_status
from .parameters.fields import BooleanParam, DateParam, IntegerParam, ListParam, status_filter
from .parameters.linked import OrganizerFields, VenueFields, registered_status
from .routes import ROUTES

OPENAPI_VERSION = "3.0.0"
# The product name stays untranslated, as the plugin's clients show it.
TITLE = "The Events Calendar REST API"
# A named group, whose regex may hold one level of groups: `(?P<user_id>(?:\d+|me))`.
PATH_VARIABLE = re.compile(r"\(\?P<(\w+)>((?:[^()]|\([^()]*\))*)\)")
FORM = "application/x-www-form-urlencoded"
JSON = "application/json"
NUMBER_FORMATS = {"double", "float"}
# No text of this API may hold NUL (PostgreSQL cannot store it): 400 rest_invalid_param.
NO_NUL = "^[^\\u0000]*$"
# Parameters whose schema-valid values may still be refused for what they name (see WPParamMixin).
SERVER_CHECKED = "x-server-checked"
# Validators that refuse an empty value whatever the caller (a status names a registered status).
REFUSE_EMPTY = (status_filter, event_status, registered_status)


def _ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def _string(description):
    return {"type": "string", "description": description}


def _integer(description):
    return {"type": "integer", "description": description}


def _array(items, description):
    return {"type": "array", "items": items, "description": description}


def _enum(values, description):
    return {"type": "string", "enum": values, "description": description}


def _flag(description):
    # Password-protected records are listed with their flags blanked to null.
    return {"type": "boolean", "nullable": True, "description": description}


def _object_or_empty_list(description, schema=None):
    # PHP serialises an empty associative array as `[]`, so "no object" arrives as an empty list.
    return {
        "description": description,
        "anyOf": [schema or {"type": "object"}, {"type": "array", "items": {}, "maxItems": 0}],
    }


def _image_or_false(description):
    return {"description": description, "anyOf": [_ref("Image"), {"type": "boolean", "enum": [False]}]}


def _name_or_blank(description):
    # A protected venue/organizer has its name key blanked to `[]` (a quirk pinned by the plugin's tests).
    return {"description": description, "anyOf": [{"type": "string"}, {"type": "array", "items": {}, "maxItems": 0}]}


def _as_written(params, names):
    """String properties described as the write parameters of the same names are."""
    declared = params.declared()
    return {name: _string(declared[name].help_text) for name in names}


def _post_dates():
    return {
        "date": _string(_("The publication date, in the site's time zone.")),
        "date_utc": _string(_("The publication date, in UTC.")),
        "modified": _string(_("The date of the last modification, in the site's time zone.")),
        "modified_utc": _string(_("The date of the last modification, in UTC.")),
    }


def _global_ids():
    return {
        "global_id": _string(_("The record's ID, prefixed with the site's host so it is unique across sites.")),
        "global_id_lineage": _array({"type": "string"}, _("The global IDs this record has had, oldest first.")),
    }


def component_schemas():
    """The record shapes as the API really returns them (the plugin's own declarations are not exact)."""
    date_part = _("A part of the date, zero-padded.")
    return {
        "ImageSize": {
            "type": "object",
            "properties": {
                "width": _integer(_("The width of this size, in pixels.")),
                "height": _integer(_("The height of this size, in pixels.")),
                "mime-type": _string(_("The MIME type of this size.")),
                "filesize": _integer(_("The file size, in bytes.")),
                "url": _string(_("The URL of this size.")),
            },
        },
        "CostDetails": {
            "type": "object",
            "properties": {
                "currency_symbol": _string(_("The currency symbol of the cost.")),
                "currency_code": _string(_("The ISO 4217 currency code of the cost.")),
                "currency_position": _enum(
                    ["prefix", "postfix", ""], _("Whether the currency symbol comes before or after the amount.")
                ),
                "values": _array({"type": "string"}, _("The amounts found in the cost, lowest first.")),
            },
        },
        "Term": {
            "type": "object",
            "properties": {
                "id": _integer(_("The term ID.")),
                "name": _string(_("The term name.")),
                "slug": _string(_("The term slug.")),
                "term_group": _integer(_("The term group.")),
                "term_taxonomy_id": _integer(_("The term taxonomy ID.")),
                "taxonomy": _enum(["tribe_events_cat", "post_tag"], _("The taxonomy of the term.")),
                "description": _string(_("The term description.")),
                "parent": _integer(_("The ID of the parent term, 0 for a top-level term.")),
                "count": _integer(_("The number of published events with this term.")),
                "filter": _string(_("How the term fields were filtered.")),
                "meta": _array({}, _("The term meta.")),
                "url": _string(_("The URL of the term's page on the site.")),
                "urls": {
                    "type": "object",
                    "description": _("The REST URLs of the term, of its collection and of its parent."),
                    "properties": {name: {"type": "string"} for name in ("self", "collection", "up")},
                },
            },
        },
        "Image": {
            "type": "object",
            "properties": {
                "url": _string(_("The URL of the full-size image.")),
                "id": _integer(_("The attachment ID of the image.")),
                "extension": _string(_("The file extension of the image.")),
                "width": _integer(_("The width of the full-size image, in pixels.")),
                "height": _integer(_("The height of the full-size image, in pixels.")),
                "filesize": _integer(_("The file size, in bytes.")),
                "sizes": {
                    "type": "object",
                    "description": _("The generated sizes of the image, by size name."),
                    "additionalProperties": _ref("ImageSize"),
                },
            },
        },
        "DateDetails": {
            "type": "object",
            "properties": {part: _string(date_part) for part in ("year", "month", "day", "hour", "minutes", "seconds")},
        },
        "Event": {
            "type": "object",
            "required": ["id", "title", "start_date", "end_date"],
            "properties": {
                "id": _integer(_("The event ID.")),
                **_global_ids(),
                "author": _string(_("The ID of the event's author, as a string.")),
                "status": _string(_("The event's status.")),
                **_post_dates(),
                "url": _string(_("The URL of the event's page on the site.")),
                "rest_url": _string(_("The REST URL of the event.")),
                "title": _string(_("The event title.")),
                "description": _string(_("The event description, as HTML.")),
                "excerpt": _string(_("The event excerpt, as HTML.")),
                "slug": _string(_("The event slug.")),
                "image": _image_or_false(_("The featured image of the event, or false.")),
                "all_day": _flag(_("Whether the event lasts all day.")),
                "start_date": _string(_("The start of the event, in the event's time zone.")),
                "start_date_details": {**_ref("DateDetails")},
                "end_date": _string(_("The end of the event, in the event's time zone.")),
                "end_date_details": {**_ref("DateDetails")},
                "utc_start_date": _string(_("The start of the event, in UTC.")),
                "utc_start_date_details": {**_ref("DateDetails")},
                "utc_end_date": _string(_("The end of the event, in UTC.")),
                "utc_end_date_details": {**_ref("DateDetails")},
                "timezone": _string(_("The time zone of the event.")),
                "timezone_abbr": _string(_("The abbreviation of the event's time zone at its start.")),
                "cost": _string(_("The cost of the event, formatted.")),
                "cost_details": {**_ref("CostDetails")},
                "website": _string(_("The event's website.")),
                "show_map": _flag(_("Whether the venue map is shown.")),
                "show_map_link": _flag(_("Whether the link to the venue map is shown.")),
                "hide_from_listings": _flag(_("Whether the event is hidden from event lists.")),
                "sticky": _flag(_("Whether the event is pinned to the top of lists.")),
                "featured": _flag(_("Whether the event is featured.")),
                "categories": _array(_ref("Term"), _("The event's categories.")),
                "tags": _array(_ref("Term"), _("The event's tags.")),
                "venue": _object_or_empty_list(_("The event's venue, or an empty list."), _ref("Venue")),
                "organizer": _array(_ref("Organizer"), _("The event's organizers.")),
                "custom_fields": _object_or_empty_list(_("The event's additional fields, by key.")),
                # Only records of a recurring series carry it (docs/recurrence.md).
                "recurrence": {
                    "type": "object",
                    "description": _("The recurring series the event belongs to; absent for other events."),
                    "properties": {
                        "rules": _array({"type": "string"}, _("RFC 5545 RRULE values.")),
                        "dates": _array({"type": "string"}, _("Extra starts, in the event's time zone.")),
                        "exclusions": _array({"type": "string"}, _("Excluded starts, in the event's time zone.")),
                        "series": _integer(_("The series ID: its first occurrence's ID.")),
                        "position": _integer(_("The event's place in the series, 1 for the first.")),
                    },
                },
                "json_ld": {"type": "object", "description": _("The event as schema.org JSON-LD.")},
            },
        },
        "Venue": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": _integer(_("The venue ID.")),
                "author": _string(_("The ID of the venue's author, as a string.")),
                "status": _string(_("The venue's status.")),
                **_post_dates(),
                "url": _string(_("The URL of the venue's page on the site.")),
                "venue": _name_or_blank(_("The venue name.")),
                "description": _string(_("The venue description, as HTML.")),
                "excerpt": _string(_("The venue excerpt, as HTML.")),
                "slug": _string(_("The venue slug.")),
                "image": _image_or_false(_("The featured image of the venue.")),
                **_as_written(
                    VenueFields,
                    ("address", "city", "country", "province", "state", "zip", "phone", "website", "stateprovince"),
                ),
                "geo_lat": {"type": "number", "description": _("The venue's latitude, in decimal degrees.")},
                "geo_lng": {"type": "number", "description": _("The venue's longitude, in decimal degrees.")},
                "json_ld": {"type": "object", "description": _("The venue as schema.org JSON-LD.")},
                "show_map": _flag(_("Whether the venue map is shown.")),
                "show_map_link": _flag(_("Whether the link to the venue map is shown.")),
                **_global_ids(),
            },
        },
        "Organizer": {
            "type": "object",
            "required": ["id"],
            "properties": {
                "id": _integer(_("The organizer ID.")),
                "author": _string(_("The ID of the organizer's author, as a string.")),
                "status": _string(_("The organizer's status.")),
                **_post_dates(),
                "url": _string(_("The URL of the organizer's page on the site.")),
                "organizer": _name_or_blank(_("The organizer name.")),
                "description": _string(_("The organizer description, as HTML.")),
                "excerpt": _string(_("The organizer excerpt, as HTML.")),
                "slug": _string(_("The organizer slug.")),
                "image": _image_or_false(_("The featured image of the organizer.")),
                **_as_written(OrganizerFields, ("phone", "website", "email")),
                "json_ld": {"type": "object", "description": _("The organizer as schema.org JSON-LD.")},
                **_global_ids(),
            },
        },
    }


# What each collection is called in the list envelope, and the schema of its records.
RESOURCES = {"events": "Event", "venues": "Venue", "organizers": "Organizer", "categories": "Term", "tags": "Term"}

SUMMARIES = {
    ("events", "list"): _("List events"),
    ("events", "create"): _("Create an event"),
    ("events", "retrieve"): _("Read an event"),
    ("events", "update"): _("Update an event"),
    ("events", "destroy"): _("Move an event to the trash"),
    ("venues", "list"): _("List venues"),
    ("venues", "create"): _("Create a venue"),
    ("venues", "retrieve"): _("Read a venue"),
    ("venues", "update"): _("Update a venue"),
    ("venues", "destroy"): _("Move a venue to the trash"),
    ("organizers", "list"): _("List organizers"),
    ("organizers", "create"): _("Create an organizer"),
    ("organizers", "retrieve"): _("Read an organizer"),
    ("organizers", "update"): _("Update an organizer"),
    ("organizers", "destroy"): _("Move an organizer to the trash"),
    ("categories", "list"): _("List event categories"),
    ("categories", "create"): _("Create an event category"),
    ("categories", "retrieve"): _("Read an event category"),
    ("categories", "update"): _("Update an event category"),
    ("categories", "destroy"): _("Delete an event category"),
    ("tags", "list"): _("List tags"),
    ("tags", "create"): _("Create a tag"),
    ("tags", "retrieve"): _("Read a tag"),
    ("tags", "update"): _("Update a tag"),
    ("tags", "destroy"): _("Delete a tag"),
}

RESPONSE_DESCRIPTIONS = {
    "200": _("The request succeeded."),
    "201": _("The record was created."),
    "304": _("Not modified: the ETag sent in If-None-Match is still current (no body)."),
    "400": _("A parameter is missing or invalid."),
    "401": _("The request needs an authenticated user."),
    "403": _("The caller may not do this."),
    "404": _("No route, record or page was found."),
    "410": _("The record is already in the trash."),
    "412": _("If-Match named an ETag that is no longer current: the record changed since it was read."),
    "500": _("The record could not be deleted."),
}


def error_schema():
    return {
        "type": "object",
        "required": ["code", "message", "data"],
        "properties": {
            "code": {"type": "string"},
            "message": {"type": "string"},
            "data": {"type": "object", "required": ["status"], "properties": {"status": {"type": "integer"}}},
        },
    }


def openapi_path(route):
    """`/events/(?P<id>\\d+)` → `/events/{id}` (relative to the namespace root)."""
    return PATH_VARIABLE.sub(lambda match: "{" + match.group(1) + "}", route.pattern)


def path_variables(route):
    """{name: schema} of the route's path variables, in order.

    `\\d+` is an integer from 1: no record has ID 0 (the venue, organizer and term routes refuse it
    with 400, the event routes find nothing: 404). A slug is one non-empty path segment.
    """
    return {
        name: {"type": "integer", "minimum": 1} if regex == r"\d+" else {"type": "string", "minLength": 1}
        for name, regex in PATH_VARIABLE.findall(route.pattern)
    }


def params_fields(route, action):
    return route.viewset.get_params_class(action)().fields


def param_schema(field):
    """The OpenAPI schema of a parameter, from its declaration (untyped inputs travel as strings)."""
    override = getattr(field, "openapi_schema", None)
    if override:
        return dict(override)
    fmt = getattr(field, "wp_format", None)
    refuses_empty = getattr(field, "validator", None) in REFUSE_EMPTY
    if isinstance(field, ListParam) or getattr(field, "wp_items", None):
        items = dict(field.wp_items or {"type": "string"})
        if items.get("type") == "integer":
            # Record IDs, which start at 1: 0 names nothing and is refused.
            items["minimum"] = 1
        schema = {"type": "array", "items": items}
        if refuses_empty:
            # An empty item is dropped (docs/contract/README.md §3): a list of them is an empty list.
            schema["minItems"] = 1
            items["minLength"] = 1
    elif isinstance(field, BooleanParam):
        schema = {"type": "boolean"}
    elif isinstance(field, IntegerParam):
        schema = {"type": "integer"}
        if field.minimum is not None:
            schema["minimum"] = field.minimum
    elif getattr(field, "wp_type", None) == "object":
        # A form sends it in bracket syntax (`recurrence[rules][0]=...`); a text is refused.
        schema = {"type": "object"}
    elif getattr(field, "wp_type", None) == "integer":
        # An untyped parameter published as an integer names a record (an event, a category, a user)
        # by its ID: digits from 1, as the validators require.
        schema = {"type": "integer", "minimum": 1}
    elif fmt in NUMBER_FORMATS:
        schema = {"type": "number", "format": fmt}
        limit = getattr(getattr(field, "parse", None), "limit", None)
        if limit is not None:
            schema.update({"minimum": -limit, "maximum": limit})
    else:
        schema = {"type": "string", "pattern": NO_NUL}
        if getattr(field, "enum", None):
            schema = {"type": "string", "enum": list(field.enum)}
        # No date reads as "", nor names a status.
        if getattr(field, "non_empty", False) or isinstance(field, DateParam) or refuses_empty:
            schema["minLength"] = 1
        if getattr(field, "max_length", None):
            schema["maxLength"] = field.max_length
    default = _default_of(field)
    if default is not None and _fits(default, schema):
        schema["default"] = default
    return schema


def _default_of(field):
    if field.default is empty:
        return None
    return field.default() if callable(field.default) else field.default


def _fits(value, schema):
    expected = {"array": list, "boolean": bool, "integer": int, "number": (int, float), "string": str}[schema["type"]]
    if isinstance(value, bool) and schema["type"] != "boolean":
        return False
    if not isinstance(value, expected):
        return False
    return "enum" not in schema or value in schema["enum"]


def _description(field):
    return str(field.help_text) if field.help_text else ""


def operation_parameters(route, action):
    """Path variables first (always required), then the action's other parameters as query parameters."""
    fields = params_fields(route, action)
    variables = path_variables(route)
    parameters = []
    for name, schema in variables.items():
        # The path pattern decides what can be sent here (`\d+` is an integer), whatever the declaration.
        description = _description(fields[name]) if name in fields else ""
        # A path variable names a record, which may not exist (or be of another kind: 400).
        parameters.append(
            {
                "name": name,
                "in": "path",
                "description": description,
                "required": True,
                "schema": schema,
                SERVER_CHECKED: True,
            }
        )
    for name, field in fields.items():
        if name in variables:
            continue
        parameter = {
            "name": name,
            "in": "query",
            "description": _description(field),
            "required": bool(field.required),
            "schema": param_schema(field),
        }
        if getattr(field, "server_checked", False):
            parameter[SERVER_CHECKED] = True
        if parameter["schema"]["type"] == "array":
            # Lists are also accepted as one comma-separated value (docs/contract/README.md §3).
            parameter["style"] = "form"
            parameter["explode"] = False
        parameters.append(parameter)
    return parameters


def request_body(route, creating=False):
    """The body of a write: every create parameter but the language. A create needs the required
    ones; an update needs none (it changes only what is sent)."""
    # The language is a query parameter of every operation; a body's value would win over it.
    fields = {
        name: field for name, field in params_fields(route, "create").items() if name != events_settings.language_param
    }
    properties = {}
    for name, field in fields.items():
        schema = param_schema(field)
        schema.pop("default", None)
        properties[name] = {"description": _description(field), **schema}
        if getattr(field, "server_checked", False):
            properties[name][SERVER_CHECKED] = True
    schema = {"type": "object", "properties": properties}
    required = [name for name, field in fields.items() if field.required] if creating else []
    if required:
        schema["required"] = required
    body = {"content": {FORM: {"schema": schema}}}
    if required:
        body["required"] = True
    return body


def _responses(codes, success=None):
    responses = {}
    for code in codes:
        entry = {"description": str(RESPONSE_DESCRIPTIONS[code])}
        schema = success if code in ("200", "201") else None if code == "304" else error_schema()
        if schema is not None:
            entry["content"] = {JSON: {"schema": schema}}
        responses[code] = entry
    return responses


def list_schema(collection):
    """The list envelope: the records under the collection's name, the page links and the totals."""
    return {
        "title": collection,
        "type": "object",
        "required": [collection, "rest_url", "total", "total_pages"],
        "properties": {
            collection: {"type": "array", "items": _ref(RESOURCES[collection])},
            **{name: {"type": "string"} for name in ("rest_url", "next_rest_url", "previous_rest_url")},
            **{name: {"type": "integer", "minimum": 0} for name in ("total", "total_pages")},
        },
    }


# The operations of a record route: (action, HTTP method, the response codes it documents). An
# update is routed for POST, PUT and PATCH alike; POST comes first, where the plugin's own document
# has it, PUT and PATCH after the other methods (added to it: the server routes them too).
OPERATIONS = (
    ("list", "get", ("200", "304", "400", "404")),
    ("create", "post", ("201", "400", "401", "403")),
    ("retrieve", "get", ("200", "304", "400", "401", "403", "404")),
    ("update", "post", ("200", "400", "401", "403", "404", "412")),
    ("destroy", "delete", ("200", "400", "401", "403", "404", "410", "412", "500")),
    ("update", "put", ("200", "400", "401", "403", "404", "412")),
    ("update", "patch", ("200", "400", "401", "403", "404", "412")),
)


def path_item(route):
    collection = route.pattern.strip("/").split("/")[0]
    # `retrieve_by_slug` is documented as a `retrieve`.
    actions = {endpoint.action.removesuffix("_by_slug"): endpoint.action for endpoint in route.endpoints}
    if "doc" in actions:
        return {
            "get": {
                "summary": str(_("The OpenAPI document of this API")),
                "parameters": operation_parameters(route, "doc"),
                # The plugin documents only the 200; the server also answers these.
                "responses": {
                    "200": {"description": str(_("The OpenAPI document."))},
                    **_responses(("304", "400")),
                },
            }
        }
    record = _ref(RESOURCES[collection]) if collection in RESOURCES else {"type": "object"}
    item = {}
    for kind, method, codes in OPERATIONS:
        if kind not in actions:
            continue
        operation = {"summary": str(SUMMARIES[(collection, kind)])}
        if kind == "update":
            # An update takes the path variables of the read and its fields as a body.
            operation["parameters"] = operation_parameters(route, actions["retrieve"]) if "retrieve" in actions else []
            operation["requestBody"] = request_body(route)
        elif kind == "create":
            # A create's fields travel in the body; the query string carries only the language.
            operation["parameters"] = [
                parameter
                for parameter in operation_parameters(route, actions[kind])
                if parameter["name"] == events_settings.language_param
            ]
            operation["requestBody"] = request_body(route, creating=True)
        else:
            operation["parameters"] = operation_parameters(route, actions[kind])
        operation["responses"] = _responses(codes, list_schema(collection) if kind == "list" else record)
        item[method] = operation
    return item


def build_document(request):
    """The whole document, with descriptions in the active language and the server URL of `request`."""
    return _resolve(
        {
            "openapi": OPENAPI_VERSION,
            "info": {
                "version": "1.0.0",
                "title": TITLE,
                "description": _(
                    "The Events Calendar REST API allows accessing upcoming events information easily and conveniently."
                ),
            },
            "components": {"schemas": component_schemas()},
            # The namespace root with a trailing slash; unlike the plugin, the port is kept.
            "servers": [{"url": namespace_url(request, "/")}],
            # Every route but the namespace index itself, in registration order.
            "paths": {openapi_path(route): path_item(route) for route in ROUTES if route.pattern},
        }
    )


def _resolve(value):
    """Lazy translations become strings in the language active now."""
    if isinstance(value, dict):
        return {key: _resolve(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolve(item) for item in value]
    if isinstance(value, Promise):
        return str(value)
    return value
