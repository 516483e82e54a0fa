"""Request parameters the way WordPress reads them: PHP bracket syntax, CSV lists, truthy strings.

Precedence when a name appears in several places: JSON body > form body > query string > path.
"""
import json
import re
from io import BytesIO

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http.multipartparser import MultiPartParserError
from urllib.parse import parse_qsl, unquote

from . import errors
from ..numbers import is_ascii_digits

BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
# No parameter of this API nests deeper than a few levels; deeper input would only feed recursion.
# (PHP drops bracket keys past its max_input_nesting_level of 64 the same way.)
MAX_NESTING = 32
_BRACKET_KEY = re.compile(r"^([^\[]+)((?:\[[^\]]*\])*)$")


def parse_php_pairs(pairs):
    """Build nested dicts/lists from (key, value) pairs written in PHP bracket syntax.

    `a[]=1&a[]=2` → {"a": ["1", "2"]}; `v[venue]=Hall` → {"v": {"venue": "Hall"}};
    `o[0][organizer]=A&o[1][id]=12` → {"o": [{"organizer": "A"}, {"id": "12"}]}.
    """
    result = {}
    for key, value in pairs:
        match = _BRACKET_KEY.match(key)
        if not match:
            result[key] = value
            continue
        name, brackets = match.group(1), match.group(2)
        path = re.findall(r"\[([^\]]*)\]", brackets) if brackets else []
        if len(path) >= MAX_NESTING:
            continue
        _assign(result, [name, *path], value)
    # The parameters themselves stay a mapping even when every name is a number (`0=x`).
    return {key: _listify(value) for key, value in result.items()}


def _assign(container, path, value):
    head, rest = path[0], path[1:]
    if head == "":
        # `key[]`: append, as PHP does, using the next free integer key.
        head = str(sum(1 for k in container if is_ascii_digits(k)))
    if not rest:
        container[head] = value
        return
    child = container.get(head)
    if not isinstance(child, dict):
        child = {}
        container[head] = child
    _assign(child, rest, value)


def _listify(node):
    """PHP arrays with only integer keys become lists (ordered by key), as JSON clients expect."""
    if not isinstance(node, dict):
        return node
    converted = {key: _listify(value) for key, value in node.items()}
    if converted and all(is_ascii_digits(key) for key in converted):
        return [converted[key] for key in sorted(converted, key=int)]
    return converted


def parse_query_string(query_string):
    return parse_php_pairs(parse_qsl(query_string, keep_blank_values=True))


def _content_type(request):
    return (request.META.get("CONTENT_TYPE") or "").split(";", 1)[0].strip().lower()


def parse_body(request):
    """(json_params, form_params) of the request body.

    A body over Django's DATA_UPLOAD_MAX_MEMORY_SIZE is 413; JSON that does not parse, nests deeper than
    MAX_NESTING or holds a lone UTF-16 surrogate (which no database stores) is 400
    rest_invalid_json; a multipart body without a usable boundary is 400 rest_invalid_body.
    """
    if request.method not in BODY_METHODS:
        return {}, {}
    content_type = _content_type(request)
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
    """All parameters of a request, merged with WordPress's precedence."""
    json_params, form_params = parse_body(request)
    query_params = parse_query_string(request.META.get("QUERY_STRING", ""))
    merged = {}
    for source in (path_params, query_params, form_params, json_params):
        merged.update(source)
    return merged


def split_list(value):
    """A list parameter: JSON/bracket list, or a comma-separated string ("12, 14")."""
    if value is None:
        return []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        items = []
        for item in value:
            items.extend(split_list(item) if isinstance(item, str) else [item])
        return items
    if isinstance(value, bool):
        return [value]
    if isinstance(value, (int, float)):
        return [value]
    text = unquote(str(value))
    return [_numeric(part.strip()) for part in text.split(",") if part.strip()]


def _numeric(text):
    return int(text) if is_ascii_digits(text) else text


TRUTHY_WORDS = {"1", "true", "yes", "y", "on", "enable", "enabled"}


def is_truthy(value):
    """The plugin's truthiness rule for untyped flags (README §3.2)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    if isinstance(value, str):
        return value.strip().lower() in TRUTHY_WORDS
    return False


def php_filter_bool(value):
    """PHP's FILTER_VALIDATE_BOOLEAN, used by `strict_dates`."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in {"1", "true", "on", "yes"}
