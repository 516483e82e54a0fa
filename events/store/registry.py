"""Which function renders the rows of each kind of record: a table events.presentation.store_rows
fills when it is imported. Presentation reads the store, so the store never imports it back
(docs/architecture-store.md, "Layers: the registry")."""

from django.utils import translation

from ..json_text import to_json

# {source kind: render_rows(records) → {(row kind, record ID): (data, sort name)}}, filled by
# events.presentation.store_rows when it is imported, which EventsConfig.ready() does.
RENDERERS = {}


def rendered_texts(kind, records, language):
    """{(row kind, record ID): (JSON text, sort name)} of these records of source `kind` in `language`."""
    render_rows = RENDERERS.get(kind)
    if render_rows is None:
        raise LookupError(
            f"No renderer of {kind!r} rows: importing events.presentation.store_rows fills store.RENDERERS."
        )
    with translation.override(language):
        rows = render_rows(records)
    return {key: (to_json(data), name) for key, (data, name) in rows.items()}
