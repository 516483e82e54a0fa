"""Request parameters the way WordPress reads them from a request: bodies, and their precedence.

Precedence when a name appears in several places: JSON body > form body > query string > path.
The values' own syntax (bracket keys, CSV lists, truthy strings) is events.queries.syntax.
"""

import json
import re
from io import BytesIO

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http.multipartparser import MultiPartParserError

from ..exceptions import InvalidValue
from ..queries.syntax import MAX_NESTING, parse_php_pairs, parse_query_string
from . import errors

BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def parse_body(request):
    """(json_params, form_params) of the request body.

    A body over Django's DATA_UPLOAD_MAX_MEMORY_SIZE is 413; JSON that does not parse, nests deeper than
    MAX_NESTING or holds a lone UTF-16 surrogate (which no database stores) is 400
    rest_invalid_json; a multipart body without a usable boundary, or over Django's
    DATA_UPLOAD_MAX_NUMBER_FIELDS, is 400 rest_invalid_body. A form body over that many fields, or
    with a key nested MAX_NESTING brackets deep, is 400 rest_invalid_param naming its parameter.
    """
    if request.method not in BODY_METHODS:
        return {}, {}
    content_type = (request.META.get("CONTENT_TYPE") or "").split(";", 1)[0].strip().lower()
    try:
        if content_type == "application/json" or content_type.endswith("+json"):
            return _json_body(request.body), {}
        if content_type == "multipart/form-data":
            form = _multipart_form(request)
            pairs = [(key, value) for key in form for value in form.getlist(key)]
            return {}, parse_php_pairs(pairs)
        if content_type in ("", "application/x-www-form-urlencoded"):
            raw = request.body.decode("utf-8", errors="replace")
            return {}, parse_query_string(raw)
    except RequestDataTooBig:
        raise errors.body_too_large() from None
    except (MultiPartParserError, TooManyFieldsSent, TooManyFilesSent) as error:
        raise errors.invalid_body(error) from None
    # Any other content type is not read: its parameters are simply absent (no 415).
    return {}, {}


def _json_body(raw):
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise errors.invalid_json(error) from None
    problem = _unstorable(data)
    if problem:
        raise errors.invalid_json(ValueError(problem)) from None
    return data if isinstance(data, dict) else {}


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unstorable(value):
    """Why a parsed JSON body cannot be taken, or None: nesting past MAX_NESTING, or a lone
    UTF-16 surrogate ("\\ud800") in a string, which UTF-8 (and so no database) can hold."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return "lone UTF-16 surrogate in a string"
        elif isinstance(item, (dict, list)):
            if depth > MAX_NESTING:
                return f"nested deeper than {MAX_NESTING} levels"
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
    return None


def _multipart_form(request):
    """The multipart fields of any body method: Django itself parses multipart only for POST."""
    if request.method == "POST" or request.META.get("REQUEST_METHOD", "").upper() == "POST":
        return request.POST
    form, _files = request.parse_file_upload(request.META, BytesIO(request.body))
    return form


def collect_params(request, path_params):
    """All parameters of a request, merged with WordPress's precedence. Read before the caller's
    rights are checked, so the caps of parse_query_string() bound what an anonymous request costs."""
    try:
        json_params, form_params = parse_body(request)
        query_params = parse_query_string(request.META.get("QUERY_STRING", ""))
    except InvalidValue as error:
        raise errors.invalid_param(error.field, error.reason) from None
    return {**path_params, **query_params, **form_params, **json_params}
