"""JSON output as WordPress sends it: `application/json; charset=UTF-8`, whatever the Accept header."""

from rest_framework.renderers import JSONRenderer


class JSONText(str):
    """JSON already written (records joined from the rendering store): sent as it is."""


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
