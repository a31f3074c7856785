"""Websocket handshakes only from the site's own origin: scheme, host and port (docs/protocol.md).

channels' AllowedHostsOriginValidator compares the Origin's host alone, so a page served on another
port of our host (another site) could open a socket that carries the visitor's session cookie.
"""

import logging
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

logger = logging.getLogger(__name__)

DEFAULT_PORTS = {"http": 80, "https": 443}
# ASGI websocket scopes say ws/wss (and may leave the scheme out: it is then ws); origins say http(s).
PAGE_SCHEME_OF = {"ws": "http", "wss": "https"}

Origin = tuple[str, str, int]  # scheme, host (lowercase, IPv6 in brackets), port


def origin_at(scheme: str, netloc: str) -> Origin | None:
    """The origin of `netloc` ("host" or "host:port") under `scheme`, its default port filled in."""
    host, port = split_domain_port(netloc)
    if not host or scheme not in DEFAULT_PORTS:
        return None
    return scheme, host, int(port) if port else DEFAULT_PORTS[scheme]


def origin_of_url(url: str) -> Origin | None:
    """The origin a serialized origin such as `https://poker.example.com` names; None for `null`
    or for anything a browser would not send as an Origin (a path, user info, a query)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return None
    return origin_at(parts.scheme.lower(), parts.netloc)


def only_header(scope, name: bytes) -> str | None:
    """The one value of a request header; None when it is missing or repeated."""
    values = [value for key, value in scope.get("headers", ()) if key.lower() == name]
    return values[0].decode("latin1") if len(values) == 1 else None


def page_scheme(scope) -> str | None:
    """The scheme of the page that may open this socket, as django's HttpRequest.scheme decides
    it: behind a TLS-terminating proxy (SECURE_PROXY_SSL_HEADER) the proxy's header wins, since
    Daphne only ever sees plain ws from nginx."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        forwarded = only_header(
            scope, meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        )
        if forwarded is not None:
            return "https" if forwarded.split(",", 1)[0].strip() == secure_value else "http"
    return PAGE_SCHEME_OF.get(scope.get("scheme") or "ws")


def site_origin(scope) -> Origin | None:
    """Our own origin for this handshake: the Host header (one of ALLOWED_HOSTS, like every page
    request) under the page's scheme."""
    host = only_header(scope, b"host")
    scheme = page_scheme(scope)
    if host is None or scheme is None:
        return None
    allowed_hosts = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed_hosts:  # django's HttpRequest.get_host does the same
        allowed_hosts = [".localhost", "127.0.0.1", "[::1]"]
    origin = origin_at(scheme, host)
    if origin is None or not validate_host(origin[1], allowed_hosts):
        return None
    return origin


def trusted(origin: Origin) -> bool:
    """Listed in CSRF_TRUSTED_ORIGINS, read as django's CSRF check reads it: exact, or
    `https://*.example.com` for the domain and its subdomains (same scheme and port)."""
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        subdomains = "://*." in entry
        listed = origin_of_url(entry.replace("://*.", "://", 1))
        if listed is None or listed[0] != scheme or listed[2] != port:
            continue
        if host == listed[1] or (subdomains and host.endswith("." + listed[1])):
            return True
    return False


def origin_allowed(scope) -> bool:
    site = site_origin(scope)
    if site is None:
        return False  # a Host outside ALLOWED_HOSTS is refused whatever the Origin says
    header = only_header(scope, b"origin")
    origin = origin_of_url(header) if header is not None else None
    return origin is not None and (origin == site or trusted(origin))


class SiteOriginValidator:
    """ASGI middleware for websockets: refuse the handshake (Daphne answers HTTP 403) unless the
    Origin is the site's own (origin_allowed). Browsers always send an Origin on websockets, so a
    missing one is refused too."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SiteOriginValidator guards websockets only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        logger.warning(
            "websocket refused: origin %r is not the site's own (host %r)",
            only_header(scope, b"origin"),
            only_header(scope, b"host"),
        )
        return await WebsocketDenier()(scope, receive, send)
