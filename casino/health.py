"""GET /healthz: can this web process reach its database and Redis? For load balancers and
container health checks; 200 when everything configured answers, 503 otherwise."""
import logging

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

log = logging.getLogger(__name__)
OK = "ok"
NOT_CONFIGURED = "not configured"  # embedded mode: no Redis, and that is healthy
REDIS_TIMEOUT_SECONDS = 2


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure is "unhealthy", whatever the driver raises
        log.warning("healthz: database check failed: %s", error)
        return f"error: {type(error).__name__}"
    return OK


def redis_status() -> str:
    if not settings.REDIS_URL:
        return NOT_CONFIGURED
    import redis

    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_timeout=REDIS_TIMEOUT_SECONDS, socket_connect_timeout=REDIS_TIMEOUT_SECONDS
        )
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        log.warning("healthz: redis check failed: %s", error)
        return f"error: {type(error).__name__}"
    return OK


@never_cache
@require_safe
def healthz(request):
    checks = {"database": database_status(), "redis": redis_status()}
    healthy = all(status in (OK, NOT_CONFIGURED) for status in checks.values())
    return JsonResponse({"status": OK if healthy else "error", **checks}, status=200 if healthy else 503)
