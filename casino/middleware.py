"""Response headers the whole site sends: the Content Security Policy.

The pages use static files only (no inline script or style, no `style=""` attributes), so the
policy forbids everything inline. Websockets may go to the page's own host only.
"""

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
