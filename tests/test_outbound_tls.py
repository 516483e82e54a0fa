"""The outbound guard over TLS: certificates and host names checked, one deadline for the whole exchange.

tests/tls/localhost.pem is a self-signed certificate for the name `localhost` only (no IP address).
"""

import http.server
import pathlib
import ssl
import threading
import time
import urllib.error

import pytest

from events.services.outbound import guarded_opener

TLS = pathlib.Path(__file__).parent / "tls"
CERTIFICATE, KEY = TLS / "localhost.pem", TLS / "localhost.key"


class TlsServer:
    """An HTTPS server on 127.0.0.1 answering GET with `ok`, or with a body trickled a byte a tenth of a second."""

    def __init__(self, trickle=False):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Length", "100" if trickle else "2")
                self.end_headers()
                if not trickle:
                    self.wfile.write(b"ok")
                    return
                try:
                    for _ in range(100):
                        self.wfile.write(b".")
                        self.wfile.flush()
                        time.sleep(0.1)
                except OSError:  # the client went at its deadline
                    pass

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # A client that refuses the certificate ends the handshake: nothing to report.
        self.server.handle_error = lambda request, client_address: None
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(CERTIFICATE, KEY)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def tls_server(settings):
    settings.EVENTS = {"OUTBOUND_ALLOWED_HOSTS": ["localhost", "127.0.0.1"]}
    server = TlsServer()
    yield server
    server.stop()


@pytest.fixture
def trusted(monkeypatch):
    """The test certificate trusted as the system's certificates are (OpenSSL reads SSL_CERT_FILE)."""
    monkeypatch.setenv("SSL_CERT_FILE", str(CERTIFICATE))


def test_a_trusted_certificate_for_the_host_name_is_answered(tls_server, trusted):
    with guarded_opener().open(f"https://localhost:{tls_server.port}/", timeout=5) as response:
        assert (response.status, response.read()) == (200, b"ok")


def test_an_untrusted_certificate_is_refused(tls_server):
    with pytest.raises(urllib.error.URLError) as refusal:
        guarded_opener().open(f"https://localhost:{tls_server.port}/", timeout=5)
    assert isinstance(refusal.value.reason, ssl.SSLCertVerificationError)


def test_a_certificate_for_another_host_name_is_refused(tls_server, trusted):
    with pytest.raises(urllib.error.URLError) as refusal:
        guarded_opener().open(f"https://127.0.0.1:{tls_server.port}/", timeout=5)
    assert isinstance(refusal.value.reason, ssl.SSLCertVerificationError)


def test_a_trickling_tls_receiver_is_cut_off_at_the_deadline(settings, trusted):
    settings.EVENTS = {"OUTBOUND_ALLOWED_HOSTS": ["localhost"]}
    server = TlsServer(trickle=True)
    started = time.monotonic()
    try:
        with (
            pytest.raises(TimeoutError),
            guarded_opener().open(f"https://localhost:{server.port}/", timeout=1) as response,
        ):
            response.read()
    finally:
        server.stop()
    # A byte every tenth of a second would keep a per-operation timeout of 1 second waiting for 10.
    assert time.monotonic() - started < 3
