"""Response headers the whole site sends: the Content Security Policy, and the device cookie.

The pages use static files only (no inline script or style, no `style=""` attributes), so the
policy forbids everything inline. Websockets may go to the page's own host only.
"""

import re
import secrets

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import DisallowedHost

# Everything but connect-src, which names the request's own host (see content_security_policy).
BASE_POLICY = (
    "default-src 'self'",
    "img-src 'self' data:",
    "style-src 'self'",
    "script-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
)
CSP_HEADERS = ("Content-Security-Policy", "Content-Security-Policy-Report-Only")


def content_security_policy(request) -> str:
    # CSP3 lets 'self' cover ws:/wss: on the same host, but older Safari does not: name the host.
    try:
        host = request.get_host()
    except DisallowedHost:
        return "; ".join((*BASE_POLICY, "connect-src 'self'"))
    sockets = f"wss://{host}" if request.is_secure() else f"ws://{host} wss://{host}"
    return "; ".join((*BASE_POLICY, f"connect-src 'self' {sockets}"))


class ContentSecurityPolicyMiddleware:
    """Set the policy on every response that has not chosen its own (sync and async alike, so
    Daphne never has to hop threads for this middleware)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.header = CSP_HEADERS[1] if settings.CASINO_CSP_REPORT_ONLY else CSP_HEADERS[0]
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        return self._with_policy(request, self.get_response(request))

    async def _acall(self, request):
        return self._with_policy(request, await self.get_response(request))

    def _with_policy(self, request, response):
        if not any(name in response for name in CSP_HEADERS):
            response[self.header] = content_security_policy(request)
        return response


# The device cookie (docs/integrity.md): a long random value, opaque and HttpOnly, set on a
# browser's first visit. The accounts app records a keyed hash of it at each sign-in, which links
# two accounts used from one browser.
DEVICE_COOKIE = "casino_device"
DEVICE_COOKIE_SECONDS = 2 * 365 * 24 * 3600
_DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{43}")


class DeviceCookieMiddleware:
    """Give `request.device_id` from the cookie, or a new one that the response then sets."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        fresh = self._assign(request)
        return self._set(request, self.get_response(request), fresh)

    async def _acall(self, request):
        fresh = self._assign(request)
        return self._set(request, await self.get_response(request), fresh)

    @staticmethod
    def _assign(request) -> bool:
        sent = request.COOKIES.get(DEVICE_COOKIE, "")
        if _DEVICE_ID.fullmatch(sent):
            request.device_id = sent
            return False
        request.device_id = secrets.token_urlsafe(32)  # 43 characters
        return True

    @staticmethod
    def _set(request, response, fresh: bool):
        if fresh:
            response.set_cookie(
                DEVICE_COOKIE,
                request.device_id,
                max_age=DEVICE_COOKIE_SECONDS,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
