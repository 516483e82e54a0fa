"""Event cost parsing and display that mirror The Events Calendar's Tribe__Events__Cost_Utils."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal

# En dash with spaces, the plugin's "Cost range separator".
RANGE_SEPARATOR = " \u2013 "

# Digits with optional "." / "," groups; which separator is the decimal one is decided afterwards.
_NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*", re.ASCII)
# A currency mark touching a number: a run of anything but digits, spaces and range punctuation.
_MARK = r"[^\d\s.,\-\u2013\u2014~/]+"
_PREFIX_RE = re.compile(rf"(?P<mark>{_MARK})\s?\d")
_POSTFIX_RE = re.compile(rf"\d\s?(?P<mark>{_MARK})")
_ISO_CODE_RE = re.compile(r"[A-Z]{3}")
_SLUG_RE = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class CostInput:
    """A cost as given to the API: the strings to store and the currency mark found in them."""

    values: list[str] = field(default_factory=list)
    currency_symbol: str = ""
    currency_position: str = ""


def _as_text(item):
    if isinstance(item, bool):
        raise ValueError("A boolean is not a cost")
    if isinstance(item, str):
        return item.strip()
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if not math.isfinite(item):
            raise ValueError("Cost must be finite")
        # Fixed notation: "1e+20" would otherwise read as the two costs 1 and 20.
        return format(Decimal(repr(item)), "f")
    raise ValueError(f"Cannot read a cost from {type(item).__name__}")


def _is_currency_mark(mark):
    # Only marks that look like money count, so words next to a number ("5 dollars", "From 5")
    # are not taken for a symbol: a currency sign somewhere in it ("$", "€", "R$") or an ISO code.
    return any(unicodedata.category(char) == "Sc" for char in mark) or bool(_ISO_CODE_RE.fullmatch(mark))


def _currency_of(value):
    for regex, position in ((_PREFIX_RE, "prefix"), (_POSTFIX_RE, "postfix")):
        for match in regex.finditer(value):
            if _is_currency_mark(match["mark"]):
                return match["mark"], position
    return "", ""


def parse_cost_input(raw) -> CostInput:
    """Split a cost parameter (string, number or list of those) into stored values and currency."""
    items = list(raw) if isinstance(raw, (list, tuple)) else [raw]
    values = [text for text in (_as_text(item) for item in items) if text]
    for value in values:
        symbol, position = _currency_of(value)
        if symbol:
            return CostInput(values=values, currency_symbol=symbol, currency_position=position)
    return CostInput(values=values)


def _normalise_number(found):
    """Plain "1234.56" notation for a number as written ("1,234.56", "1.234,56", "6,50")."""
    separators = [char for char in found if char in ".,"]
    if not separators:
        return found
    last = separators[-1]
    if "." in separators and "," in separators:
        # Both kinds used: the last one is the decimal mark, the other groups thousands.
        decimal_mark = last
    elif len(separators) > 1:
        decimal_mark = None  # "1,000,000" or "1.000.000": repeated marks only group thousands.
    elif last == "," and len(found) - found.rindex(",") - 1 == 3:
        decimal_mark = None  # "1,000" is a thousand; "6,50" is six fifty.
    else:
        decimal_mark = last  # A lone "." is always decimal, as PHP's is_numeric() reads it.
    whole, _, fraction = found.rpartition(decimal_mark) if decimal_mark else (found, "", "")
    whole = whole.replace(".", "").replace(",", "")
    return f"{whole}.{fraction}" if decimal_mark else whole


def _numbers(values):
    """(Decimal, notation) for every distinct number in `values`, lowest first."""
    seen = {}
    for value in values:
        for found in _NUMBER_RE.findall(value):
            notation = _normalise_number(found)
            seen.setdefault(Decimal(notation), notation)
    return sorted(seen.items())


def _slug(value):
    return _SLUG_RE.sub("-", value.lower()).strip("-")


def cost_values(values: list[str]) -> list[str]:
    """The plugin's `cost_details.values`: every number found, lowest first; words by their slug."""
    numbers = [notation for _, notation in _numbers(values)]
    # A value without a number keeps a place in the list (after the numbers) by its slug.
    words = []
    for value in values:
        if not _NUMBER_RE.search(value):
            slug = _slug(value)
            if slug and slug not in words:
                words.append(slug)
    return numbers + words


def format_cost(
    values: list[str], symbol: str, position: str, default_symbol: str = "$", free_label: str = "Free"
) -> str:
    """The plugin's `cost` string: "Free", "$5" or "$5 – $50"; a cost without numbers as stored."""
    values = [value for value in values if value]
    if not values:
        return ""
    numbers = _numbers(values)
    if not numbers:
        return ", ".join(values)
    mark = symbol or default_symbol

    def show(amount, notation):
        # Tribe__Cost_Utils::maybe_replace_cost_with_free: a zero cost reads "Free", with no symbol.
        if amount == 0:
            return free_label
        return f"{notation}{mark}" if position == "postfix" else f"{mark}{notation}"

    low, high = numbers[0], numbers[-1]
    if low[0] == high[0]:
        return show(*low)
    return show(*low) + RANGE_SEPARATOR + show(*high)
