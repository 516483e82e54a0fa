"""The featured-image object of events, venues and organizers (docs/contract/events.md §1.3)."""

from ..models.attachment import SIZE_NAMES


def _absolute(url, request):
    return request.build_absolute_uri(url) if request is not None else url


def _without_empty(data):
    return {key: value for key, value in data.items() if value not in (None, "", {}, [])}


def image_record(attachment, request):
    """`False` without an attachment, else the image object with its generated sizes."""
    if attachment is None:
        return False
    storage = attachment.file.storage
    stored = attachment.sizes or {}
    sizes = {}
    # PostgreSQL's jsonb does not keep key order, so sizes follow WordPress's registration order.
    for name in sorted(stored, key=lambda n: (SIZE_NAMES.index(n) if n in SIZE_NAMES else len(SIZE_NAMES), n)):
        size = stored[name] or {}
        if not size.get("file"):
            continue
        sizes[name] = _without_empty(
            {
                "width": size.get("width"),
                "height": size.get("height"),
                "mime-type": size.get("mime-type"),
                "filesize": size.get("filesize"),
                "url": _absolute(storage.url(size["file"]), request),
            }
        )
    return _without_empty(
        {
            "url": _absolute(attachment.file.url, request) if attachment.file else None,
            "id": attachment.id,
            "extension": attachment.extension,
            "width": attachment.width,
            "height": attachment.height,
            "filesize": attachment.filesize,
            "sizes": sizes,
        }
    )
