"""Image attachments: generated sizes, lookup by ID or URL, and guarded import from a remote URL."""

import http.client
import math
import posixpath
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from dataclasses import dataclass
from io import BytesIO

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.files.base import ContentFile
from django.http.request import split_domain_port, validate_host
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

from events.conf import events_settings
from events.models import Attachment
from events.models.attachment import IMAGE_SIZES
from events.numbers import is_ascii_digits

from .outbound import UNRESOLVED, DestinationRefused, guarded_opener

ALLOWED_FORMATS = {"JPEG": "jpg", "PNG": "png", "GIF": "gif", "WEBP": "webp"}
MIME_TYPES = {"JPEG": "image/jpeg", "PNG": "image/png", "GIF": "image/gif", "WEBP": "image/webp"}
# A server may label an image generically; Pillow decides what the body really is.
ACCEPTED_CONTENT_TYPES = set(MIME_TYPES.values()) | {"image/jpg", "application/octet-stream", "binary/octet-stream"}
# WordPress's default JPEG quality for generated sizes.
JPEG_QUALITY = 82
CHUNK_BYTES = 64 * 1024

MAX_REDIRECTS = 5


@dataclass(frozen=True)
class ImageChoice:
    """The image a write gives a record: an existing attachment, a URL to import when saving, or
    neither (remove the image)."""

    attachment: object = None
    import_url: str = ""

    @property
    def removes(self):
        return self.attachment is None and not self.import_url


class ImageImportError(Exception):
    """A remote image could not be imported; `reason` is a translated sentence for the client."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


# Generated sizes -------------------------------------------------------------------------------


def _constrain(orig_w, orig_h, max_w, max_h):
    """wp_constrain_dimensions(): scale down to fit the box, keeping the aspect ratio."""
    ratios = []
    if max_w and orig_w > max_w:
        ratios.append(max_w / orig_w)
    if max_h and orig_h > max_h:
        ratios.append(max_h / orig_h)
    ratio = min(ratios) if ratios else 1.0
    return max(1, round(orig_w * ratio)), max(1, round(orig_h * ratio))


def resize_dimensions(orig_w, orig_h, max_w, max_h, crop):
    """image_resize_dimensions(): (new size, source box) or None when the original is not larger."""
    if crop:
        new_w, new_h = min(max_w, orig_w), min(max_h, orig_h)
        ratio = max(new_w / orig_w, new_h / orig_h)
        crop_w, crop_h = round(new_w / ratio), round(new_h / ratio)
        left, top = math.floor((orig_w - crop_w) / 2), math.floor((orig_h - crop_h) / 2)
        box = (left, top, left + crop_w, top + crop_h)
    else:
        new_w, new_h = _constrain(orig_w, orig_h, max_w, max_h)
        box = (0, 0, orig_w, orig_h)
    if new_w >= orig_w and new_h >= orig_h:
        return None
    return (new_w, new_h), box


def _sized_name(name, width, height):
    stem, ext = posixpath.splitext(name)
    return f"{stem}-{width}x{height}{ext}"


def _encode(image, image_format, exif):
    if image_format == "JPEG" and image.mode not in ("RGB", "L", "CMYK"):
        image = image.convert("RGB")
    options = {}
    if image_format == "JPEG":
        options = {"quality": JPEG_QUALITY, "optimize": True}
        if exif:
            # Keeps the orientation tag, so a size shows the way its original does.
            options["exif"] = exif
    buffer = BytesIO()
    image.save(buffer, format=image_format, **options)
    return buffer.getvalue()


def generate_sizes(attachment, save=True):
    """Write the WordPress sizes next to the original (`name-WxH.ext`) and record them.

    Fills `sizes`, `filesize`, `mime_type` (and the dimensions when missing); replaces the files of
    an earlier generation.
    """
    storage = attachment.file.storage
    for size in (attachment.sizes or {}).values():
        old = (size or {}).get("file")
        if old and old != attachment.file.name and storage.exists(old):
            storage.delete(old)

    with attachment.file.open("rb") as file:
        original = file.read()
    image = Image.open(BytesIO(original))
    image_format = image.format
    exif = image.info.get("exif")
    orig_w, orig_h = image.size
    image.load()
    if image.mode == "P":
        image = image.convert("RGBA")

    attachment.width, attachment.height = orig_w, orig_h
    attachment.filesize = len(original)
    attachment.mime_type = MIME_TYPES.get(image_format) or Image.MIME.get(image_format, "")

    sizes, written = {}, {}
    for name, max_w, max_h, crop in IMAGE_SIZES:
        dimensions = resize_dimensions(orig_w, orig_h, max_w, max_h, crop)
        if dimensions is None:
            continue
        (new_w, new_h), box = dimensions
        if (new_w, new_h) not in written:
            resized = image.resize((new_w, new_h), Image.Resampling.LANCZOS, box=box)
            content = _encode(resized, image_format, exif)
            stored = storage.save(_sized_name(attachment.file.name, new_w, new_h), ContentFile(content))
            written[(new_w, new_h)] = (stored, len(content))
        stored, filesize = written[(new_w, new_h)]
        sizes[name] = {
            "file": stored,
            "width": new_w,
            "height": new_h,
            "mime-type": attachment.mime_type,
            "filesize": filesize,
        }
    attachment.sizes = sizes
    if save and attachment.pk is not None:
        attachment.save(update_fields=["width", "height", "filesize", "mime_type", "sizes"])
    return attachment


def delete_files(attachment):
    """Remove the original and every generated size from storage."""
    storage = attachment.file.storage
    names = {(size or {}).get("file") for size in (attachment.sizes or {}).values()}
    names.add(attachment.file.name)
    for name in filter(None, names):
        if storage.exists(name):
            storage.delete(name)


# Lookup ----------------------------------------------------------------------------------------


def _own_host(host, request):
    if request is not None:
        try:
            return host == request.get_host().lower()
        except DisallowedHost:
            return False
    domain, port = split_domain_port(host)
    return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)


def find_attachment(value, request=None):
    """The attachment with this numeric ID, or whose file is at this absolute or relative URL."""
    if value is None or isinstance(value, bool):
        return None
    text = str(value).strip()
    if not text:
        return None
    if is_ascii_digits(text):
        return Attachment.objects.filter(pk=int(text)).first()

    parts = urllib.parse.urlsplit(text)
    media = urllib.parse.urlsplit(settings.MEDIA_URL)
    if parts.netloc:
        host = parts.netloc.lower()
        # A URL on another host only names our file when media is served from that host.
        if host != media.netloc.lower() and not _own_host(host, request):
            return None
    media_path = "/" + media.path.strip("/") + "/" if media.path.strip("/") else "/"
    path = urllib.parse.unquote(parts.path)
    if not path.startswith("/"):
        path = "/" + path
    if not path.startswith(media_path):
        return None
    name = path[len(media_path) :]
    if not name:
        return None
    return Attachment.objects.filter(file=name).first()


# Import ----------------------------------------------------------------------------------------


class _LimitedRedirectHandler(urllib.request.HTTPRedirectHandler):
    max_redirections = MAX_REDIRECTS

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if urllib.parse.urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise ImageImportError(_("The image URL redirects to an unsupported address."))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _refused(cause):
    """What a host the guard refused reads as (the guard is shared: services/outbound.py)."""
    if cause == UNRESOLVED:
        return _("The image host could not be resolved.")
    return _(
        "Images cannot be imported from a private or reserved network address "
        "(the site's OUTBOUND_ALLOWED_HOSTS setting can allow a host)."
    )


def _opener():
    return guarded_opener(_LimitedRedirectHandler())


def _check_headers(headers, max_bytes):
    content_type = (headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
    if content_type and content_type not in ACCEPTED_CONTENT_TYPES:
        raise ImageImportError(_("The URL does not point to a JPEG, PNG, GIF or WebP image."))
    length = headers.get("Content-Length")
    if length and is_ascii_digits(length.strip()) and int(length) > max_bytes:
        raise ImageImportError(_("The image is larger than the import limit."))


def _validated_url(url):
    if not isinstance(url, str):
        raise ImageImportError(_("The image URL is not valid."))
    try:
        parts = urllib.parse.urlsplit(url.strip())
        parts.port  # noqa: B018 — raises on a malformed port
    except ValueError as error:
        raise ImageImportError(_("The image URL is not valid.")) from error
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ImageImportError(_("Only http and https image URLs can be imported."))
    if parts.username or parts.password:
        raise ImageImportError(_("The image URL is not valid."))
    return parts


def _download(url, timeout, max_bytes):
    opener = _opener()
    headers = {"User-Agent": "events-calendar-image-import", "Accept": "image/*"}
    try:
        with opener.open(urllib.request.Request(url, headers=headers, method="HEAD"), timeout=timeout) as response:
            _check_headers(response.headers, max_bytes)
    except urllib.error.HTTPError as error:
        # Some servers do not answer HEAD; the GET below decides.
        if error.code not in (403, 405, 501):
            raise ImageImportError(_("The image URL answered with an error.")) from error

    deadline = time.monotonic() + timeout
    with opener.open(urllib.request.Request(url, headers=headers), timeout=timeout) as response:
        _check_headers(response.headers, max_bytes)
        body = bytearray()
        while True:
            chunk = response.read(CHUNK_BYTES)
            if not chunk:
                break
            body.extend(chunk)
            if len(body) > max_bytes:
                raise ImageImportError(_("The image is larger than the import limit."))
            if time.monotonic() > deadline:
                raise ImageImportError(_("The image download took too long."))
    return bytes(body)


def _verified_format(content):
    """The Pillow format of `content` when it really decodes as an allowed image."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(BytesIO(content)) as image:
                image_format = image.format
                image.verify()
            # verify() checks structure only; decoding catches truncated pixel data.
            with Image.open(BytesIO(content)) as image:
                image.load()
    except (
        UnidentifiedImageError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
        OSError,
        SyntaxError,
        ValueError,
    ) as error:
        raise ImageImportError(_("The URL does not point to a valid image.")) from error
    if image_format not in ALLOWED_FORMATS:
        raise ImageImportError(_("The URL does not point to a JPEG, PNG, GIF or WebP image."))
    return image_format


def _file_name(parts, image_format):
    stem = posixpath.splitext(posixpath.basename(urllib.parse.unquote(parts.path)))[0]
    stem = get_valid_filename(stem)[:100] if stem.strip(". ") else ""
    return f"{stem or 'image'}.{ALLOWED_FORMATS[image_format]}"


def import_image_from_url(url, user):
    """Download an image and store it as a new attachment with its sizes; ImageImportError on failure."""
    parts = _validated_url(url)
    try:
        content = _download(
            urllib.parse.urlunsplit(parts), events_settings.IMAGE_IMPORT_TIMEOUT, events_settings.IMAGE_IMPORT_MAX_BYTES
        )
    except ImageImportError:
        raise
    except DestinationRefused as refusal:
        raise ImageImportError(_refused(refusal.cause)) from refusal
    except urllib.error.HTTPError as error:
        raise ImageImportError(_("The image URL answered with an error.")) from error
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as error:
        inner = getattr(error, "reason", None)
        if isinstance(inner, ImageImportError):
            raise inner from error
        if isinstance(inner, DestinationRefused):
            raise ImageImportError(_refused(inner.cause)) from error
        raise ImageImportError(_("The image could not be downloaded.")) from error
    image_format = _verified_format(content)
    name = _file_name(parts, image_format)
    attachment = Attachment(
        file=ContentFile(content, name=name),
        title=posixpath.splitext(name)[0],
        author=user if getattr(user, "is_authenticated", False) else None,
        source_url=url.strip()[:2000],
        mime_type=MIME_TYPES[image_format],
        filesize=len(content),
    )
    attachment.save()
    generate_sizes(attachment)
    return attachment
