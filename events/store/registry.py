"""Which function renders each kind of row: the API registers its serializers here when the app is
ready, so the store never imports the API (docs/architecture-store.md, "Layers: the registry")."""

from django.utils import translation

from ..json_text import to_json
from .rows import ROW_KINDS, SOURCE_OF_ROW, NotRenderable

_renderers = {}
_rendering_request = None


def register_renderer(row_kind, render, sort_name=None):
    """Render the rows of `row_kind` with `render(record, request)` → the row's data, JSON-serialisable
    (raising NotRenderable leaves the record's remaining rows out), and give each row the sort name
    `sort_name(record)` (what embedded terms are listed by)."""
    if row_kind not in SOURCE_OF_ROW:
        raise ValueError(f"Unknown row kind: {row_kind!r}")
    _renderers[row_kind] = (render, sort_name)


def register_rendering_request(make_request):
    """`make_request()` → the request renderers are given: one per batch of records and language,
    with markers where a real request's values go (rows.HOME, GLOBAL_ID_HOST, ORIGIN)."""
    global _rendering_request
    _rendering_request = make_request


def rendered_texts(kind, records, language):
    """{(row kind, record ID): (JSON text, sort name)} of these records of source `kind` in `language`."""
    if _rendering_request is None or any(row_kind not in _renderers for row_kind in ROW_KINDS[kind]):
        raise LookupError(f"No renderer registered for {kind!r} rows: EventsConfig.ready() registers them.")
    request = _rendering_request()
    rows = {}
    with translation.override(language):
        for record in records:
            for row_kind in ROW_KINDS[kind]:
                render, sort_name = _renderers[row_kind]
                try:
                    data = render(record, request)
                except NotRenderable:
                    break
                rows[(row_kind, record.pk)] = data, sort_name(record) if sort_name else ""
    return {key: (to_json(data), name) for key, (data, name) in rows.items()}
