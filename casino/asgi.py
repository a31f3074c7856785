"""ASGI entry point: HTTP through Django, websockets through Channels (authenticated, origin-checked)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django_http = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from casino.handshake import auth_stack  # noqa: E402  (needs the app registry loaded)
from casino.metrics_endpoint import MetricsEndpoint  # noqa: E402
from casino.origin import SiteOriginValidator  # noqa: E402
from casino.routing import websocket_urlpatterns  # noqa: E402
from holdem.realtime.embedded_clock import EmbeddedClock  # noqa: E402
from holdem.realtime.sockets import BusyGate  # noqa: E402

if settings.DEBUG or settings.EMBEDDED or settings.CASINO_SERVE_STATIC:
    # One-process mode (and bin/cluster) serves its own static files; production puts nginx in front.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    django_http = ASGIStaticFilesHandler(django_http)

application = EmbeddedClock(
    ProtocolTypeRouter(
        {
            "http": MetricsEndpoint(django_http),  # GET /metrics, before Django
            "websocket": BusyGate(
                SiteOriginValidator(auth_stack(URLRouter(websocket_urlpatterns)))
            ),
        }
    )
)
