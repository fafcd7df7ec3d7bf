"""HTTP and websocket hardening: the Content-Security-Policy header and the websocket origin check.

Django 5.2 has no CSP support of its own, so a small middleware sends ``settings.CONTENT_SECURITY_POLICY``.

Channels' AllowedHostsOriginValidator compares only the Origin's host with ALLOWED_HOSTS, so a page served on
another port or over plain HTTP of an allowed host could open a socket. ``WebsocketOriginValidator`` compares
scheme, host and port, accepting an origin that is
  * listed in CSRF_TRUSTED_ORIGINS (exactly, or a ``*.`` subdomain pattern with the same scheme and port), or
  * the socket's own origin (its scheme and Host header), when that host is in ALLOWED_HOSTS, or
  * an ALLOWED_HOSTS host on the scheme's default port, over HTTPS only when SECURE_SSL_REDIRECT is on.
This is what Django's CSRF check accepts for a form POST, so a page that may POST may also open a socket.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http import HttpResponseNotAllowed
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


# Methods no page of the site answers: TRACE echoes a request (cookies included) back, TRACK is its IIS twin, and
# CONNECT opens a tunnel. Refused for every URL with 405, before any view runs.
REFUSED_METHODS = frozenset({"TRACE", "TRACK", "CONNECT"})


class RefuseDiagnosticMethodsMiddleware:
    """405 for TRACE, TRACK and CONNECT on every URL (issue 37, point 6: TRACE answered 200 on seven views)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in REFUSED_METHODS:
            return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    """Adds the configured Content-Security-Policy header to every response that has none."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", "")
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response


def _origin_parts(origin: str) -> tuple[str, str, str] | None:
    """(scheme, host, port) of an origin, the port made explicit; None if it is not an http(s) origin."""
    try:
        parts = urlsplit(origin.strip())
        parts.port  # noqa: B018  (raises ValueError on a malformed port)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.netloc or parts.username is not None:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return None
    host, port = split_domain_port(parts.netloc.lower())
    if not host:
        return None
    return scheme, host, port or DEFAULT_PORTS[scheme]


def _scope_header(scope: dict, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _own_scheme(scope: dict) -> str:
    """http or https: the socket's scheme, or what a trusted TLS-terminating proxy says (SECURE_PROXY_SSL_HEADER)."""
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        header, secure_value = proxy
        name = header.removeprefix("HTTP_").lower().replace("_", "-").encode("latin1")
        value = _scope_header(scope, name)
        if value is not None:
            return "https" if value.split(",")[0].strip() == secure_value else "http"
    return "https" if scope.get("scheme") in ("wss", "https") else "http"


def _trusted(origin: tuple[str, str, str], trusted: str) -> bool:
    """Whether the origin is a CSRF_TRUSTED_ORIGINS entry; "https://*.example.com" as in Django's CSRF check."""
    wildcard = "://*." in trusted
    parts = _origin_parts(trusted.replace("://*.", "://", 1))
    if parts is None:
        return False
    scheme, host, port = parts
    if (origin[0], origin[2]) != (scheme, port):
        return False
    return is_same_domain(origin[1], "." + host) if wildcard else origin[1] == host


def origin_allowed(scope: dict) -> bool:
    """Whether the websocket's Origin header names a page of this site (see the module docstring)."""
    raw = _scope_header(scope, b"origin")
    origin = _origin_parts(raw) if raw is not None else None
    if origin is None:
        return False
    if any(_trusted(origin, trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS):
        return True
    scheme, host, port = origin
    if not validate_host(host, settings.ALLOWED_HOSTS):
        return False
    own_host, own_port = split_domain_port((_scope_header(scope, b"host") or "").lower())
    own_scheme = _own_scheme(scope)
    if own_host and (scheme, host, port) == (own_scheme, own_host, own_port or DEFAULT_PORTS[own_scheme]):
        return True
    schemes = ("https",) if settings.SECURE_SSL_REDIRECT else ("http", "https")
    return scheme in schemes and port == DEFAULT_PORTS[scheme]


class WebsocketOriginValidator:
    """ASGI middleware: refuses a websocket handshake whose Origin is not allowed (see ``origin_allowed``)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
