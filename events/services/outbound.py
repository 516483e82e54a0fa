"""Requests the calendar makes to addresses its users give (image imports, webhook deliveries): a
guard that connects only to public addresses, unless the host is in IMAGE_IMPORT_ALLOWED_HOSTS.
"""

import http.client
import ipaddress
import socket
import urllib.request

from events.conf import events_settings

# Why a destination was refused.
UNRESOLVED, PRIVATE = "unresolved", "private"


class DestinationRefused(Exception):
    """The guard would not connect; `cause` is UNRESOLVED or PRIVATE."""

    def __init__(self, cause):
        super().__init__(cause)
        self.cause = cause


def forbidden_address(address):
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
        or not ip.is_global
    )


def allowed_hosts():
    """Hosts the guard lets through although they resolve to private addresses (a setting)."""
    return {str(host).strip().lower().rstrip(".") for host in events_settings.IMAGE_IMPORT_ALLOWED_HOSTS if host}


def _guarded_create_connection(address, timeout=socket._GLOBAL_DEFAULT_TIMEOUT, source_address=None, *args, **kwargs):
    """socket.create_connection() that only connects to the public addresses it has just checked.

    Checking at connect time (not before the request) also covers redirects and DNS answers that
    change between two look-ups.
    """
    host, port = address
    if host.lower().rstrip(".") in allowed_hosts():
        return socket.create_connection(address, timeout, source_address)
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise DestinationRefused(UNRESOLVED) from error
    if not answers or any(forbidden_address(answer[4][0]) for answer in answers):
        raise DestinationRefused(PRIVATE)
    last_error = None
    for family, socktype, proto, _canonname, sockaddr in answers:
        sock = socket.socket(family, socktype, proto)
        try:
            if timeout is not socket._GLOBAL_DEFAULT_TIMEOUT:
                sock.settimeout(timeout)
            if source_address:
                sock.bind(source_address)
            sock.connect(sockaddr)
            return sock
        except OSError as error:
            last_error = error
            sock.close()
    raise last_error or OSError("no address to connect to")


class _GuardedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = _guarded_create_connection


class _GuardedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = _guarded_create_connection


class _GuardedHTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req):
        return self.do_open(_GuardedHTTPConnection, req)


class _GuardedHTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req):
        return self.do_open(_GuardedHTTPSConnection, req, context=self._context)


def guarded_opener(*handlers):
    """A urllib opener that connects through the guard, with the `handlers` given (a redirect
    handler, say: without one, a redirect is an HTTPError)."""
    # Built by hand rather than with build_opener(): no proxy from the environment (the address
    # check must see the real destination) and no file:, ftp: or data: handlers.
    opener = urllib.request.OpenerDirector()
    for handler in (
        _GuardedHTTPHandler(),
        _GuardedHTTPSHandler(),
        *handlers,
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener
