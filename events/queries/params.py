"""The parameter vocabulary: what a request may name (record IDs, page sizes), read once for every edge."""
from ..conf import events_settings
from ..numbers import is_ascii_digits

# IDs beyond the 64-bit range cannot name a record; the databases refuse to compare with them.
MAX_RECORD_ID = 2**63 - 1


def parse_record_id(value):
    """A record ID from an int, an integral float or a digit string; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and is_ascii_digits(value.strip()):
        value = int(value.strip())
    if isinstance(value, int) and 0 < value <= MAX_RECORD_ID:
        return value
    return None


def default_per_page():
    return events_settings.DEFAULT_PER_PAGE


def effective_per_page(requested):
    """`per_page` above the maximum is clamped silently (clients rely on it not being refused)."""
    return min(requested, events_settings.MAX_PER_PAGE)
