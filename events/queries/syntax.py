"""Parameter values the way WordPress writes them: PHP bracket syntax, CSV lists, truthy strings."""

import re
from urllib.parse import parse_qsl, unquote

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from ..exceptions import InvalidValue
from ..numbers import is_ascii_digits

# No parameter of this API nests deeper than a few levels: a deeper bracket key (or JSON body) is
# refused, where PHP drops it silently past its max_input_nesting_level of 64.
MAX_NESTING = 32
_BRACKET_KEY = re.compile(r"^([^\[]+)((?:\[[^\]]*\])*)$")


def parse_php_pairs(pairs):
    """Build nested dicts/lists from (key, value) pairs written in PHP bracket syntax.

    `a[]=1&a[]=2` → {"a": ["1", "2"]}; `v[venue]=Hall` → {"v": {"venue": "Hall"}};
    `o[0][organizer]=A&o[1][id]=12` → {"o": [{"organizer": "A"}, {"id": "12"}]}.
    A key of MAX_NESTING brackets or more is InvalidValue, named by the parameter it is under.
    """
    result = _PhpArray()
    for key, value in pairs:
        match = _BRACKET_KEY.match(key)
        if not match:
            result.put(key, value)
            continue
        name, brackets = match.group(1), match.group(2)
        path = re.findall(r"\[([^\]]*)\]", brackets) if brackets else []
        if len(path) >= MAX_NESTING:
            raise InvalidValue(
                name, _("Brackets nest deeper than %(levels)d levels in this key.") % {"levels": MAX_NESTING - 1}
            )
        _assign(result, [name, *path], value)
    # The parameters themselves stay a mapping even when every name is a number (`0=x`).
    return {key: _listify(value) for key, value in result.items()}


class _PhpArray(dict):
    """A PHP array being built. `key[]` appends at the next free integer key (one past the largest
    integer key so far, as PHP does); the array keeps that number so an append costs the same
    however many entries came before: 200,000 appends in one body must not rescan the array each time."""

    def __init__(self):
        super().__init__()
        self.next_index = 0

    def put(self, key, value):
        if key == "":
            key = str(self.next_index)
            self.next_index += 1
        elif is_ascii_digits(key) and int(key) >= self.next_index:
            self.next_index = int(key) + 1
        self[key] = value
        return key


def _assign(container, path, value):
    head, rest = path[0], path[1:]
    if not rest:
        container.put(head, value)
        return
    child = container.get(head) if head else None
    if not isinstance(child, _PhpArray):
        child = _PhpArray()
        container.put(head, child)
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
    """The parameters of a query string or form body; past Django's DATA_UPLOAD_MAX_NUMBER_FIELDS
    fields, InvalidValue naming the first field past it, before any field is parsed."""
    _check_field_count(query_string)
    return parse_php_pairs(parse_qsl(query_string, keep_blank_values=True))


def _check_field_count(query_string):
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    if limit is None or query_string.count("&") < limit:
        return
    # Counting separators is one pass in C; only the name of the first field past the limit is read.
    separator = -1
    for _field in range(limit):
        separator = query_string.find("&", separator + 1)
    field = query_string[separator + 1 :].split("&", 1)[0]
    name = unquote(field.split("=", 1)[0].replace("+", " ")).split("[", 1)[0]
    raise InvalidValue(name or "body", _("The request holds more than %(count)d fields.") % {"count": limit})


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
    if isinstance(value, (int, float)):  # booleans included
        return [value]
    text = unquote(str(value))
    return [_numeric(part.strip()) for part in text.split(",") if part.strip()]


def _numeric(text):
    return int(text) if is_ascii_digits(text) else text


TRUTHY_WORDS = {"1", "true", "yes", "y", "on", "enable", "enabled"}


def is_truthy(value):
    """The plugin's truthiness rule for untyped flags (docs/contract/README.md §3.2)."""
    if isinstance(value, (int, float)):  # booleans included
        return value != 0
    if isinstance(value, str):
        return value.strip().lower() in TRUTHY_WORDS
    return False


def php_filter_bool(value):
    """PHP's FILTER_VALIDATE_BOOLEAN, used by `strict_dates` (`True` reads as "true")."""
    return str(value).strip().lower() in {"1", "true", "on", "yes"}
