"""JSON text exactly as the API sends it (compact, UTF-8, strict): written once, by the API or the store."""

import json

from rest_framework.utils import encoders


def to_json(data):
    """JSON text exactly as WPJSONRenderer writes `data` (compact, UTF-8, strict)."""
    text = json.dumps(data, cls=encoders.JSONEncoder, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    # As DRF's JSONRenderer: these two are valid JSON but not valid JavaScript.
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
