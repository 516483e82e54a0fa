"""Record shapes, links and JSON-LD: what the API, the public pages, the store and the webhook
payloads all render from (docs/architecture.md, "Presentation").

Rendering a record reads the record, the active language and a few request facts
(rendering.RenderingContext): never the API, the public pages or the admin.
"""
