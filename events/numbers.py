"""Integers read from untrusted text: ASCII digits only, everywhere the app parses one.

`str.isdigit()` is true for superscripts and other Unicode digits ("²", "٣"), which `int()` then
refuses or reads as another number; every integer in a URL, a query or a body goes through here.
"""

# Far beyond any ID, page or count (2**63 has 19 digits); int() itself refuses strings past 4,300.
MAX_DIGITS = 100


def is_ascii_digits(text):
    """Whether `text` is a string of 1 to MAX_DIGITS digits 0-9 (no sign, no blanks)."""
    return isinstance(text, str) and 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def parse_int(text, *, signed=False):
    """The integer `text` spells in ASCII digits (surrounding blanks allowed), or None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    body = text[1:] if signed and text[:1] in ("+", "-") else text
    return int(text) if is_ascii_digits(body) else None
