"""Image attachments: generated sizes, the image object, lookup by ID/URL, and the guarded URL import."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO

import pytest
from django.core.files.storage import default_storage
from PIL import Image

from events.models import Attachment
from events.presentation.images import image_record
from events.services.images import (
    ImageImportError,
    find_attachment,
    generate_sizes,
    import_image_from_url,
    resize_dimensions,
)

from .factories import make_image, make_user

pytestmark = pytest.mark.django_db


def image_bytes(size=(400, 200), image_format="PNG"):
    buffer = BytesIO()
    Image.new("RGB", size, (10, 120, 200)).save(buffer, format=image_format)
    return buffer.getvalue()


# Generated sizes --------------------------------------------------------------------------------


def test_generate_sizes_writes_the_wordpress_sizes_smaller_than_the_original():
    attachment = make_image("poster.png", size=(1200, 800))
    generate_sizes(attachment)
    attachment.refresh_from_db()

    dims = {name: (s["width"], s["height"]) for name, s in attachment.sizes.items()}
    assert dims == {
        "thumbnail": (150, 150),
        "medium": (300, 200),
        "medium_large": (768, 512),
        "large": (1024, 683),
    }
    assert attachment.mime_type == "image/png"
    assert attachment.filesize == attachment.file.size
    base = attachment.file.name[: -len(".png")]
    for name, size in attachment.sizes.items():
        assert size["file"] == f"{base}-{size['width']}x{size['height']}.png"
        assert default_storage.exists(size["file"])
        with default_storage.open(size["file"]) as stored:
            assert Image.open(stored).size == (size["width"], size["height"])
        assert size["filesize"] == default_storage.size(size["file"])
        assert size["mime-type"] == "image/png"


def test_a_small_original_gets_no_sizes():
    attachment = make_image("icon.png", size=(120, 90))
    generate_sizes(attachment)
    attachment.refresh_from_db()
    assert attachment.sizes == {}


def test_regenerating_replaces_the_earlier_files():
    attachment = make_image("poster.png", size=(500, 500))
    generate_sizes(attachment)
    first = {size["file"] for size in attachment.sizes.values()}
    generate_sizes(attachment)
    second = {size["file"] for size in attachment.sizes.values()}
    assert first == second
    assert all(default_storage.exists(name) for name in second)


@pytest.mark.parametrize(
    "original, box, crop, expected",
    [
        ((640, 100), (150, 150), True, (150, 100)),
        ((100, 100), (150, 150), True, None),
        ((2000, 500), (768, 0), False, (768, 192)),
        ((300, 300), (300, 300), False, None),
    ],
    ids=["crop-keeps-short-side", "crop-smaller-original", "width-only-box", "same-size"],
)
def test_resize_dimensions_follow_wordpress(original, box, crop, expected):
    result = resize_dimensions(*original, *box, crop)
    assert (result[0] if result else None) == expected


# The image object ---------------------------------------------------------------------------------


def test_image_record_is_false_without_an_attachment(rf):
    assert image_record(None, rf.get("/")) is False


def test_image_record_has_absolute_urls_and_sizes_in_wordpress_order(rf):
    attachment = make_image("poster.png", size=(1200, 800))
    generate_sizes(attachment)
    attachment = Attachment.objects.get(pk=attachment.pk)
    record = image_record(attachment, rf.get("/"))

    assert list(record) == ["url", "id", "extension", "width", "height", "filesize", "sizes"]
    assert record["url"] == f"http://testserver/media/{attachment.file.name}"
    assert record["id"] == attachment.pk
    assert record["extension"] == "png"
    assert (record["width"], record["height"]) == (1200, 800)
    assert list(record["sizes"]) == ["thumbnail", "medium", "medium_large", "large"]
    thumbnail = record["sizes"]["thumbnail"]
    assert list(thumbnail) == ["width", "height", "mime-type", "filesize", "url"]
    assert thumbnail["url"] == f"http://testserver/media/{attachment.file.name[:-4]}-150x150.png"


def test_image_record_drops_empty_keys(rf):
    attachment = make_image("plain.png", size=(100, 80))
    Attachment.objects.filter(pk=attachment.pk).update(filesize=None)
    attachment.refresh_from_db()
    record = image_record(attachment, rf.get("/"))
    assert "sizes" not in record
    assert "filesize" not in record
    assert record["width"] == 100


# Lookup -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reference",
    [
        lambda a: a.pk,
        lambda a: str(a.pk),
        lambda a: f"http://testserver/media/{a.file.name}",
        lambda a: f"/media/{a.file.name}",
    ],
    ids=["integer-id", "string-id", "absolute-url", "relative-url"],
)
def test_find_attachment(reference):
    attachment = make_image("found.png")
    assert find_attachment(reference(attachment)) == attachment


@pytest.mark.parametrize(
    "reference",
    [
        lambda a: a.pk + 1000,
        lambda a: f"http://elsewhere.example/media/{a.file.name}",
        lambda a: f"http://testserver/other/{a.file.name}",
        lambda a: "http://testserver/media/",
        lambda a: "",
        lambda a: None,
    ],
    ids=["unknown-id", "foreign-host", "outside-media", "media-root", "empty", "none"],
)
def test_find_attachment_misses(reference):
    attachment = make_image("found.png")
    assert find_attachment(reference(attachment)) is None


def test_find_attachment_accepts_the_requests_own_host(rf, settings):
    settings.ALLOWED_HOSTS = ["calendar.example"]
    attachment = make_image("found.png")
    request = rf.get("/", HTTP_HOST="calendar.example")
    assert find_attachment(f"https://calendar.example/media/{attachment.file.name}", request) == attachment
    assert find_attachment(f"https://testserver/media/{attachment.file.name}", request) is None


# Import -------------------------------------------------------------------------------------------


class ImageServer:
    """A tiny HTTP server on 127.0.0.1 serving fixed bodies per path."""

    def __init__(self):
        self.routes = {}
        self.requests = []
        routes, requests = self.routes, self.requests

        class Handler(BaseHTTPRequestHandler):
            def _answer(self, with_body):
                requests.append((self.command, self.path))
                status, headers, body = routes.get(self.path, (404, {}, b"missing"))
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if with_body:
                    self.wfile.write(body)

            def do_GET(self):
                self._answer(True)

            def do_HEAD(self):
                self._answer(False)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def url(self, path):
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def image_server(settings):
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "OUTBOUND_ALLOWED_HOSTS": ["127.0.0.1"]}
    with ImageServer() as server:
        yield server


def test_import_from_an_allowed_local_host_creates_an_attachment_with_sizes(image_server):
    body = image_bytes((400, 200), "JPEG")
    image_server.routes["/pictures/sunset%20view.jpeg"] = (200, {"Content-Type": "image/jpeg"}, body)
    user = make_user("editor")

    attachment = import_image_from_url(image_server.url("/pictures/sunset%20view.jpeg"), user)

    attachment.refresh_from_db()
    assert attachment.file.name.endswith(".jpg")
    assert "sunset_view" in attachment.file.name
    assert (attachment.width, attachment.height) == (400, 200)
    assert attachment.mime_type == "image/jpeg"
    assert attachment.filesize == len(body)
    assert attachment.author == user
    assert attachment.source_url == image_server.url("/pictures/sunset%20view.jpeg")
    assert set(attachment.sizes) == {"thumbnail", "medium"}
    assert [method for method, _path in image_server.requests] == ["HEAD", "GET"]


def test_import_names_the_file_after_what_the_content_really_is(image_server):
    image_server.routes["/photo.jpg"] = (200, {"Content-Type": "application/octet-stream"}, image_bytes())
    attachment = import_image_from_url(image_server.url("/photo.jpg"), None)
    assert attachment.file.name.endswith(".png")
    assert attachment.mime_type == "image/png"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/image.png",
        "http://10.0.0.1/image.png",
        "http://169.254.169.254/latest/meta-data/",
        "http://localhost/image.png",
        "http://[::1]/image.png",
        "http://0.0.0.0/image.png",
        "http://192.168.1.20/image.png",
        "http://[::ffff:127.0.0.1]/image.png",
        "http://[2002:7f00:1::]/image.png",
        "http://[64:ff9b::a9fe:a9fe]/image.png",
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/image.png",
    ],
    ids=[
        "loopback",
        "private-10",
        "metadata-link-local",
        "localhost-name",
        "ipv6-loopback",
        "unspecified",
        "private-192",
        "ipv4-mapped-loopback",
        "6to4-loopback",
        "nat64-metadata",
        "teredo-loopback-client",
    ],
)
def test_import_refuses_private_and_reserved_addresses(url):
    with pytest.raises(ImageImportError) as refused:
        import_image_from_url(url, None)
    assert "private or reserved" in refused.value.reason
    assert not Attachment.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://%31%32%37.0.0.1/image.png",
        "http://[fe80::1%25lo]/image.png",
        "http://under_score.example/image.png",
        "http://empty..label.example/image.png",
        "http://127.1/image.png",
    ],
    ids=["percent-encoded", "zone-id", "underscore", "empty-label", "short-ipv4"],
)
def test_import_refuses_a_host_that_is_no_host_name_before_any_look_up(no_lookup, url):
    with pytest.raises(ImageImportError) as refused:
        import_image_from_url(url, None)
    assert "private or reserved" in refused.value.reason
    assert no_lookup == []


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "ftp://example.org/a.png",
        "gopher://example.org/",
        "not a url",
        "http:///nohost.png",
        "http://user:pw@example.org/a.png",
        "http://example.org:99999/a.png",
    ],
    ids=["file", "ftp", "gopher", "no-scheme", "no-host", "credentials", "bad-port"],
)
def test_import_refuses_unsupported_urls(url):
    with pytest.raises(ImageImportError):
        import_image_from_url(url, None)


def test_import_refuses_a_body_that_is_not_an_image(image_server):
    image_server.routes["/fake.png"] = (200, {"Content-Type": "image/png"}, b"<html>not an image</html>")
    with pytest.raises(ImageImportError) as refused:
        import_image_from_url(image_server.url("/fake.png"), None)
    assert "valid image" in refused.value.reason
    assert not Attachment.objects.exists()


def test_import_refuses_a_truncated_image(image_server):
    image_server.routes["/cut.png"] = (200, {"Content-Type": "image/png"}, image_bytes((300, 300))[:200])
    with pytest.raises(ImageImportError):
        import_image_from_url(image_server.url("/cut.png"), None)


def test_import_refuses_an_image_format_outside_the_allowed_ones(image_server):
    image_server.routes["/old.bmp"] = (200, {}, image_bytes(image_format="BMP"))
    with pytest.raises(ImageImportError) as refused:
        import_image_from_url(image_server.url("/old.bmp"), None)
    assert "JPEG, PNG, GIF or WebP" in refused.value.reason


def test_import_refuses_an_html_content_type_before_downloading(image_server):
    image_server.routes["/page"] = (200, {"Content-Type": "text/html"}, image_bytes())
    with pytest.raises(ImageImportError):
        import_image_from_url(image_server.url("/page"), None)
    assert [method for method, _path in image_server.requests] == ["HEAD"]


def test_import_refuses_a_body_over_the_size_cap(image_server, settings):
    settings.EVENTS = {**settings.EVENTS, "IMAGE_IMPORT_MAX_BYTES": 1000}
    image_server.routes["/big.png"] = (200, {"Content-Type": "image/png"}, image_bytes((800, 800)) + b"\0" * 2000)
    with pytest.raises(ImageImportError) as refused:
        import_image_from_url(image_server.url("/big.png"), None)
    assert "larger than the import limit" in refused.value.reason


def test_import_refuses_an_error_status(image_server):
    with pytest.raises(ImageImportError):
        import_image_from_url(image_server.url("/nothing-here.png"), None)


def test_import_refuses_a_redirect_to_a_host_that_is_not_allowed(image_server):
    image_server.routes["/hop.png"] = (302, {"Location": "http://localhost/secret.png"}, b"")
    with pytest.raises(ImageImportError) as refused:
        import_image_from_url(image_server.url("/hop.png"), None)
    assert "private or reserved" in refused.value.reason


def test_import_refuses_a_redirect_to_a_host_that_is_no_host_name(image_server):
    # urllib decodes the host to 127.0.0.1, an allowed host here: it is refused as written.
    image_server.routes["/hop.png"] = (302, {"Location": "http://%31%32%37.0.0.1/secret.png"}, b"")
    with pytest.raises(ImageImportError) as refused:
        import_image_from_url(image_server.url("/hop.png"), None)
    assert "private or reserved" in refused.value.reason
    assert ("GET", "/secret.png") not in image_server.requests


def test_import_refuses_loopback_when_the_host_is_not_allowed(settings):
    settings.EVENTS = {**getattr(settings, "EVENTS", {}), "OUTBOUND_ALLOWED_HOSTS": []}
    with ImageServer() as server:
        server.routes["/ok.png"] = (200, {"Content-Type": "image/png"}, image_bytes())
        with pytest.raises(ImageImportError):
            import_image_from_url(server.url("/ok.png"), None)
        assert server.requests == []
