"""JSON output as WordPress sends it: `application/json; charset=UTF-8`, whatever the Accept header."""
import json

from rest_framework.renderers import JSONRenderer
from rest_framework.utils import encoders


class JSONText(str):
    """JSON already written (records joined from the rendering store): sent as it is."""


def to_json(data):
    """JSON text exactly as WPJSONRenderer writes `data` (compact, UTF-8, strict)."""
    text = json.dumps(data, cls=encoders.JSONEncoder, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    # As DRF's JSONRenderer: these two are valid JSON but not valid JavaScript.
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


class WPJSONRenderer(JSONRenderer):
    media_type = "application/json"
    charset = "UTF-8"
    # WordPress ignores Accept; so do we (no 406), by offering the one renderer for any type.
    format = "json"
    # Fixed here rather than read from the site's REST_FRAMEWORK setting, so output never depends on it.
    ensure_ascii = False
    compact = True
    strict = True

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, JSONText):
            return data.encode()
        return super().render(data, accepted_media_type, renderer_context)
