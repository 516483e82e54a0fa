"""Requests the calendar makes to addresses its users give (image imports, webhook deliveries): a
guard that connects only to public addresses, unless the host is in OUTBOUND_ALLOWED_HOSTS,
and that gives each connection one deadline for all of it.
"""

import contextlib
import functools
import http.client
import io
import ipaddress
import re
import socket
import ssl
import sys
import time
import urllib.parse
import urllib.request

from events.conf import events_settings

# Why a destination was refused.
UNRESOLVED, PRIVATE = "unresolved", "private"

# RFC 1035/1123 host names: labels of letters, digits and inner hyphens, at most 63 characters
# each and 253 in all (an internationalized name is checked in its ASCII form).
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\Z", re.IGNORECASE)
MAX_HOST_NAME_LENGTH = 253

# IPv6 prefixes that carry an IPv4 address at a fixed place: the NAT64 well-known prefix
# (RFC 6052) holds it in its last 32 bits. 6to4, Teredo and IPv4-mapped addresses have their
# own properties in ipaddress.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
# Refused whatever they hold: the local-use NAT64 prefix (RFC 8215) is never public and places
# the IPv4 address where its operator's prefix length says, and IPv4-compatible addresses were
# deprecated in 2006 (RFC 4291, 2.5.5.1) and have no route (this also covers :: and ::1).
_NOT_PUBLIC_FORMS = (ipaddress.IPv6Network("64:ff9b:1::/48"), ipaddress.IPv6Network("::/96"))


class DestinationRefused(Exception):
    """The guard would not connect; `cause` is UNRESOLVED or PRIVATE."""

    def __init__(self, cause):
        super().__init__(cause)
        self.cause = cause


def _not_public(ip):
    return (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
        or not ip.is_global
    )


def _embedded_ipv4(ip):
    """The IPv4 addresses an IPv6 address carries (6to4, NAT64, Teredo's server and client,
    IPv4-mapped): a packet to it may end at them."""
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)
    if ip in _NAT64:
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    return []


def forbidden_address(address):
    """Whether the guard refuses to connect to `address` (an IP address as text): not public, or an
    IPv6 form that embeds an IPv4 address that is not public."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in form for form in _NOT_PUBLIC_FORMS):
            return True
        if any(_not_public(embedded) for embedded in _embedded_ipv4(ip)):
            return True
        if ip.ipv4_mapped is not None or ip in _NAT64:
            # The IPv4 address they stand for decides alone: ipaddress calls neither form global,
            # yet a host behind DNS64 reaches every public IPv4 address through 64:ff9b::/96.
            return False
    return _not_public(ip)


def valid_host(host):
    """Whether `host` is an IP address or a host name of LDH labels. Anything else (percent signs,
    IPv6 zone IDs, empty or over-long labels, other characters) is refused before any look-up, so
    no DNS query leaves for it."""
    if ":" in host:
        if "%" in host:
            return False
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return False
        return True
    try:
        name = host.encode("idna").decode("ascii")
    except UnicodeError:
        return False
    name = name.removesuffix(".")
    if not name or len(name) > MAX_HOST_NAME_LENGTH:
        return False
    labels = name.split(".")
    if not all(_LABEL.match(label) for label in labels):
        return False
    if labels[-1].isdigit():
        # A numeric last label is only an IPv4 address, written in full: the resolver would read
        # "127.1" or "0177.0.0.1" as 127.0.0.1 too.
        try:
            ipaddress.IPv4Address(name)
        except ValueError:
            return False
    return True


def allowed_hosts():
    """Hosts the guard lets through although they resolve to private addresses: OUTBOUND_ALLOWED_HOSTS,
    and IMAGE_IMPORT_ALLOWED_HOSTS, its deprecated former name."""
    hosts = [*events_settings.OUTBOUND_ALLOWED_HOSTS, *events_settings.IMAGE_IMPORT_ALLOWED_HOSTS]
    return {str(host).strip().lower().rstrip(".") for host in hosts if host}


def public_addresses(host, port):
    """getaddrinfo's answers for `host` when they are all public addresses; DestinationRefused
    otherwise. A host that is not a valid host name is refused as a private address is, before
    any look-up."""
    if not valid_host(host):
        raise DestinationRefused(PRIVATE)
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise DestinationRefused(UNRESOLVED) from error
    if not answers or any(forbidden_address(answer[4][0]) for answer in answers):
        raise DestinationRefused(PRIVATE)
    return answers


def _time_left(deadline):
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("timed out")
    return left


class _DeadlineReader(io.RawIOBase):
    """A response's socket, each read given only what is left of the connection's deadline."""

    def __init__(self, sock, deadline):
        super().__init__()
        self._sock = sock
        # The socket's own file keeps it open after urllib closes the connection, until the
        # response is closed.
        self._file = sock.makefile("rb", buffering=0)
        self._deadline = deadline

    def readable(self):
        return True

    def readinto(self, buffer):
        self._sock.settimeout(_time_left(self._deadline))
        return self._file.readinto(buffer)

    def close(self):
        self._file.close()
        super().close()


class _SocketWithDeadline:
    """What an HTTPResponse reads from (it only asks for `makefile("rb")`)."""

    def __init__(self, sock, deadline):
        self._sock = sock
        self._deadline = deadline

    def makefile(self, mode):
        return io.BufferedReader(_DeadlineReader(self._sock, self._deadline))


class _DeadlineResponse(http.client.HTTPResponse):
    def __init__(self, sock, *args, deadline, **kwargs):
        super().__init__(_SocketWithDeadline(sock, deadline), *args, **kwargs)


class _GuardedHTTPConnection(http.client.HTTPConnection):
    """An http.client connection through the guard, whose `timeout` bounds the whole exchange.

    The standard library's timeout bounds each socket operation, so a receiver that sends a byte
    every few seconds would hold the request for as long as it liked; here connecting, the TLS
    handshake, sending and reading the status line, headers and body share one deadline.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # urllib passes a sentinel object, not a number, when open() was given no timeout.
        self.deadline = time.monotonic() + self.timeout if isinstance(self.timeout, int | float) else None
        if self.deadline is not None:
            self.response_class = functools.partial(_DeadlineResponse, deadline=self.deadline)

    def operation_timeout(self):
        if self.deadline is not None:
            return _time_left(self.deadline)
        if self.timeout is None:
            return None
        # urllib's "no timeout given": the process's default, as socket.create_connection() takes it.
        return socket.getdefaulttimeout()

    def connect(self):
        """Connect only to the public addresses just checked (or an allowed host); the socket is
        left with what remains of the deadline (for the TLS handshake).

        Checking at connect time (not before the request) also covers redirects and DNS answers
        that change between two look-ups. No proxy is ever used (guarded_opener), so there is no
        tunnel to set up.
        """
        sys.audit("http.client.connect", self, self.host, self.port)
        self.sock = self.guarded_socket()
        with contextlib.suppress(OSError):
            # What http.client sets too: a request's headers and body leave without waiting for an ACK.
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def guarded_socket(self):
        address = (self.host, self.port)
        if self.host.lower().rstrip(".") in allowed_hosts():
            sock = socket.create_connection(address, self.operation_timeout(), self.source_address)
            if self.deadline is not None:
                sock.settimeout(_time_left(self.deadline))
            return sock
        last_error = None
        for family, socktype, proto, _canonname, sockaddr in public_addresses(self.host, self.port):
            sock = socket.socket(family, socktype, proto)
            try:
                sock.settimeout(self.operation_timeout())
                if self.source_address:
                    sock.bind(self.source_address)
                sock.connect(sockaddr)
                if self.deadline is not None:
                    sock.settimeout(_time_left(self.deadline))
                return sock
            except OSError as error:
                last_error = error
                sock.close()
        raise last_error or OSError("no address to connect to")

    def send(self, data):
        if self.sock is not None and self.deadline is not None:
            self.sock.settimeout(_time_left(self.deadline))
        super().send(data)


class _GuardedHTTPSConnection(_GuardedHTTPConnection):
    """The same over TLS, with the `context` given (certificate and host name checked by default)."""

    default_port = http.client.HTTPS_PORT

    def __init__(self, *args, context=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tls_context = context or default_tls_context()

    def connect(self):
        super().connect()
        self.sock = self.tls_context.wrap_socket(self.sock, server_hostname=self.host)


def default_tls_context():
    """What http.client uses when given no context: the system's certificates, host names checked,
    and HTTP/1.1 offered by ALPN."""
    context = ssl.create_default_context()
    context.set_alpn_protocols(["http/1.1"])
    return context


class _HostNameCheck(urllib.request.BaseHandler):
    """Refuses a request (the first and each redirect) whose host, as the URL writes it, is no host
    name: urllib decodes percent signs in the host before it connects."""

    def http_request(self, request):
        if not valid_host(urllib.parse.urlsplit(request.full_url).hostname or ""):
            raise DestinationRefused(PRIVATE)
        return request

    https_request = http_request


class _GuardedHTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(_GuardedHTTPConnection, req)


class _GuardedHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, context=None):
        super().__init__(context=context)
        self.tls_context = context

    def https_open(self, req):
        return self.do_open(_GuardedHTTPSConnection, req, context=self.tls_context)


def guarded_opener(*handlers):
    """A urllib opener that connects through the guard, with the `handlers` given (a redirect
    handler, say: without one, a redirect is an HTTPError). Each connection it makes lasts no
    longer than the `timeout` given to open(), whatever the other side does."""
    # Built by hand rather than with build_opener(): no proxy from the environment (the address
    # check must see the real destination) and no file:, ftp: or data: handlers.
    opener = urllib.request.OpenerDirector()
    for handler in (
        _HostNameCheck(),
        _GuardedHTTPHandler(),
        _GuardedHTTPSHandler(),
        *handlers,
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener
