"""The probes of a web process, each for its own caller (docs/deploy.md, "Probes"):

- GET /livez: the process answers. An orchestrator restarts a process that stops answering; nothing
  outside the process is asked, so an outage elsewhere restarts nobody.
- GET /readyz: it can take sockets: its database thread is not queued past the busy gate's limit
  (the wait a new socket would have). An orchestrator stops sending new connections to a process
  that is not ready, and sends them again when it is; the other servers are not affected by it.
- GET /healthz: for the operator and compose's health checks: the database, every Redis server
  (REDIS_URL, each shard of the channel layer, the broker) and the deadline clock. A beat outage
  turns it red on every server at once, so it must not be a readiness probe.
200 when ready or healthy, 503 otherwise.
"""

import asyncio
import contextvars
import functools
import logging
import time
from collections.abc import Callable

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from casino.metrics_endpoint import broker_endpoint
from casino.redis_shards import RedisEndpoint, endpoint, sync_client
from holdem.realtime.heartbeat import heartbeat
from holdem.realtime.sockets import BUSY_SECONDS
from holdem.selectors.liveness import clock_last_run

log = logging.getLogger(__name__)
# How a check reaches one Redis server: ok, or the error.
type Ping = Callable[[RedisEndpoint], str]
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


def redis_status(layer: dict[str, str], ping: Ping) -> str:
    """Every Redis server the process uses, as one status: the first failure, or ok. `layer`:
    the shards' statuses (layer_status)."""
    if not settings.REDIS_URL:
        return NOT_CONFIGURED
    failed = [status for status in layer.values() if status != OK]
    return failed[0] if failed else ping(endpoint(settings.REDIS_URL))


def layer_status(ping: Ping) -> dict[str, str]:
    """Each shard of the channel layer (its URL without the password) -> ok or the error."""
    if not settings.REDIS_URL:
        return {}
    return {
        point.label: ping(point) for point in (endpoint(url) for url in settings.CHANNEL_LAYER_URLS)
    }


def broker_status(ping: Ping) -> str:
    """The Celery broker, reached as the workers reach it (through Sentinel, if configured)."""
    if not settings.REDIS_URL:
        return NOT_CONFIGURED
    point = broker_endpoint()
    return NOT_CONFIGURED if point is None else ping(point)


def _ping(point: RedisEndpoint) -> str:
    try:
        client = sync_client(point, REDIS_TIMEOUT_SECONDS)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        log.warning("healthz: redis %s check failed: %s", point.label, error)
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
    # One ping per server however many roles it has (REDIS_URL is the first shard and the broker
    # of a small site).
    ping: Ping = functools.cache(_ping)
    layer = layer_status(ping)
    checks = {
        "database": database_status(),
        "redis": redis_status(layer, ping),
        "broker": broker_status(ping),
    }
    clock, clock_last_ran = clock_status() if checks["database"] == OK else ("unknown", None)
    checks["clock"] = clock
    healthy = all(status in (OK, NOT_CONFIGURED, NOT_STARTED) for status in checks.values())
    body = {"status": OK if healthy else "error", **checks, "layer": layer}
    body["clock_last_ran"] = clock_last_ran
    return JsonResponse(body, status=200 if healthy else 503)


@never_cache
@require_safe
def livez(request):
    """The process answers: nothing else is asked."""
    return JsonResponse({"status": OK})


# A readiness probe's own trip to the database thread waits this long at most.
READY_WAIT_SECONDS = 2.0


@never_cache
@require_safe
async def readyz(request):
    """Whether a socket opened now would be taken: the busy gate's measure of this process
    (holdem/realtime/sockets.py, BusyGate), and a trip of our own to the database thread, which
    tells the same when no socket is open to measure it."""
    asked = time.monotonic()
    # In a context of its own: this request's context would give it a thread of its own (Django
    # runs each request's sync calls on a thread of the request), and the queue to measure is
    # the one the sockets share.
    trip_done = asyncio.get_running_loop().create_task(
        database_sync_to_async(_nothing)(), context=contextvars.Context()
    )
    try:
        await asyncio.wait_for(trip_done, READY_WAIT_SECONDS)
        trip = time.monotonic() - asked
    except TimeoutError:
        trip = READY_WAIT_SECONDS
    behind = max(heartbeat().database_behind(), trip)
    ready = behind <= BUSY_SECONDS
    body = {"status": OK if ready else "busy", "database_behind": round(behind, 3)}
    return JsonResponse(body, status=200 if ready else 503)


def _nothing() -> None:
    """A call that only waits its turn on the database thread."""
