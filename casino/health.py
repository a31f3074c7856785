"""GET /healthz: can this web process reach its database and Redis, and is the deadline clock
(Celery beat, or the in-process clock) running? For load balancers and container health checks;
200 when everything configured answers, 503 otherwise."""

import logging

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from holdem.selectors.liveness import clock_last_run

log = logging.getLogger(__name__)
OK = "ok"
NOT_CONFIGURED = "not configured"  # embedded mode: no Redis, and that is healthy
REDIS_TIMEOUT_SECONDS = 2
NOT_STARTED = "not started"  # a new site whose clock has not run yet
# The clock runs every second; silent this long, it is down and no turn times out.
CLOCK_STALE_SECONDS = 15


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
            settings.REDIS_URL,
            socket_timeout=REDIS_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        )
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        log.warning("healthz: redis check failed: %s", error)
        return f"error: {type(error).__name__}"
    return OK


def clock_status() -> tuple[str, str | None]:
    """The deadline clock's state and when it last ran (ISO 8601)."""
    try:
        last_run = clock_last_run()
    except Exception as error:
        return f"error: {type(error).__name__}", None
    if last_run is None:
        return NOT_STARTED, None
    age = (timezone.now() - last_run).total_seconds()
    return (
        OK if age <= CLOCK_STALE_SECONDS else f"stale: last ran {age:.0f} s ago"
    ), last_run.isoformat()


@never_cache
@require_safe
def healthz(request):
    checks = {"database": database_status(), "redis": redis_status()}
    clock, clock_last_ran = clock_status() if checks["database"] == OK else ("unknown", None)
    checks["clock"] = clock
    healthy = all(status in (OK, NOT_CONFIGURED, NOT_STARTED) for status in checks.values())
    body = {"status": OK if healthy else "error", **checks, "clock_last_ran": clock_last_ran}
    return JsonResponse(body, status=200 if healthy else 503)
