"""GET /metrics on every web process: the figures of casino/metrics.py, and those read when
Prometheus asks (docs/deploy.md, "Metrics").

Answered here, in front of Django (casino/asgi.py), not by a view: Django would refuse
Prometheus's `Host` (a pod's or container's address) and redirect the scrape to https, and a
scrape needs none of the middleware. Nothing here waits for the sockets' database thread: the
scrape-time reads (tables playing, clock lag, Celery queue length) run on a thread of their own,
each with a timeout, and a read that fails or is late leaves its sample out while the rest is
served.

Not public. Allowed with `Authorization: Bearer <CASINO_METRICS_TOKEN>` (when that is set), or
from an address in CASINO_METRICS_NETWORKS (loopback and private networks by default: Prometheus
beside the servers). A wrong token is refused wherever it comes from. The address is the one
Daphne reports: behind nginx with --proxy-headers, the X-Forwarded-For nginx sets, which is why
nginx refuses /metrics itself (deploy/nginx.conf). Anything else: 403 with a JSON body.
"""

import asyncio
import hmac
import ipaddress
import json
import logging
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.registry import Collector

from casino import metrics
from casino.celery import app as celery_app
from casino.redis_shards import RedisEndpoint, sync_client
from casino.redis_shards import broker_endpoint as redis_broker  # this module's takes settings
from holdem.realtime.heartbeat import heartbeat
from holdem.selectors.liveness import clock_last_run, tables_playing

log = logging.getLogger(__name__)

PATH = "/metrics"
# Each scrape-time read gives up after this long (connect, statement), and all of them together
# after READ_BUDGET_SECONDS: well inside Prometheus's default 10 s scrape timeout.
READ_TIMEOUT_SECONDS = 1.0
READ_BUDGET_SECONDS = 3.0


# --- Who may read them ----------------------------------------------------------------------


def bearer_token(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The token of an `Authorization: Bearer ...` header (None without one)."""
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            if scheme.lower() == "bearer":
                return token.strip()
    return None


def address_allowed(host: str | None) -> bool:
    """Whether `host` is in one of CASINO_METRICS_NETWORKS (an IPv4 address written as IPv6,
    ::ffff:10.0.0.5, counts as itself)."""
    try:
        address = ipaddress.ip_address((host or "").strip())
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in ipaddress.ip_network(n) for n in settings.CASINO_METRICS_NETWORKS)


def refusal(scope: dict[str, Any]) -> str | None:
    """Why this request may not read the metrics (None: it may)."""
    token = bearer_token(scope.get("headers", ()))
    expected = settings.CASINO_METRICS_TOKEN
    if token is not None and expected:
        if hmac.compare_digest(token.encode(), expected.encode()):
            return None
        return "wrong metrics token"
    client = scope.get("client")
    if address_allowed(client[0] if client else None):
        return None
    return "metrics are served to the monitoring network, or with the metrics token"


# --- Read at scrape time ----------------------------------------------------------------------


def broker_endpoint() -> RedisEndpoint | None:
    """Celery's broker (settings.CELERY_BROKER_URL) as a Redis server (redis_shards.broker_endpoint);
    None in embedded mode (memory://)."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {})
    return redis_broker(
        settings.CELERY_BROKER_URL,
        getattr(settings, "CELERY_BROKER_MASTER_NAME", ""),
        options.get("sentinel_kwargs", {}).get("password"),
    )


def queue_names() -> list[str]:
    """The Celery queues the workers take tasks from (the default one unless others are set)."""
    names = [str(celery_app.conf.task_default_queue)]
    for queue in celery_app.conf.task_queues or ():
        if queue.name not in names:
            names.append(queue.name)
    return names


# kombu's Redis transport keeps a queue's prioritised messages in lists of their own beside it,
# named queue + separator + priority step (priority 0 is the plain list).
PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = (3, 6, 9)


def queue_lengths(point: RedisEndpoint | None) -> dict[str, int] | None:
    """Messages waiting in each Celery queue on the broker; None without one."""
    if point is None:
        return None
    client = sync_client(point, READ_TIMEOUT_SECONDS)
    try:
        names = queue_names()
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.llen(name)
            for step in PRIORITY_STEPS:
                pipe.llen(f"{name}{PRIORITY_SEPARATOR}{step}")
        counts = pipe.execute()
    finally:
        client.close()
    per_queue = 1 + len(PRIORITY_STEPS)
    return {name: sum(counts[i * per_queue : (i + 1) * per_queue]) for i, name in enumerate(names)}


def database_readings() -> tuple[int, float | None]:
    """Tables playing, and seconds since the deadline clock last ran (None: it never ran). In
    PostgreSQL, in a transaction of their own whose statements give up after READ_TIMEOUT_SECONDS;
    SQLite (embedded mode) reads without one: its transactions take the write lock at BEGIN."""
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL statement_timeout = {int(READ_TIMEOUT_SECONDS * 1000)}")
            playing, last_run = tables_playing(), clock_last_run()
    else:
        playing, last_run = tables_playing(), clock_last_run()
    lag = None if last_run is None else (timezone.now() - last_run).total_seconds()
    return playing, lag


class ReadAtScrape(Collector):
    """The figures read when Prometheus asks, on the metrics thread (ScrapeReader)."""

    def collect(self) -> Iterable[Metric]:
        yield from self.database_families()
        yield from self.broker_families()

    def database_families(self) -> list[Metric]:
        try:
            playing, lag = database_readings()
        except Exception as error:  # a figure left out, never a failed scrape
            log.warning("metrics: the database read failed: %s", error)
            return []
        finally:
            connection.close()  # this thread keeps no connection between scrapes
        families: list[Metric] = [
            GaugeMetricFamily(
                metrics.TABLES_PLAYING, "Tables with a hand in progress (the site's).", playing
            )
        ]
        if lag is not None:
            families.append(
                GaugeMetricFamily(
                    metrics.CLOCK_LAG,
                    "Seconds since the deadline clock (Celery beat, or the in-process clock) "
                    "last ran; it runs every second.",
                    lag,
                )
            )
        return families

    def broker_families(self) -> list[Metric]:
        try:
            lengths = queue_lengths(broker_endpoint())
        except Exception as error:
            log.warning("metrics: the broker read failed: %s", error)
            return []
        if lengths is None:
            return []
        family = GaugeMetricFamily(
            metrics.QUEUE_LENGTH,
            "Celery messages waiting on the broker, by queue.",
            labels=["queue"],
        )
        for name, length in lengths.items():
            family.add_metric([name], length)
        return [family]


SCRAPE_REGISTRY = CollectorRegistry()
SCRAPE_REGISTRY.register(ReadAtScrape())


class ScrapeReader:
    """Runs the scrape-time reads on one thread of its own, waiting READ_BUDGET_SECONDS at most.
    While a late read is still running (a database that does not answer), later scrapes do not
    queue another behind it: they go without those figures until it ends."""

    def __init__(self) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="metrics")
        self.pending: Future[bytes] | None = None

    async def read(self) -> bytes:
        if self.pending is not None and not self.pending.done():
            log.warning("metrics: the last scrape's reads are still running; left out")
            return b""
        self.pending = self.thread.submit(generate_latest, SCRAPE_REGISTRY)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(self.pending), READ_BUDGET_SECONDS)
        except Exception as error:  # late (TimeoutError) or failed: left out
            log.warning("metrics: the scrape-time reads gave nothing: %r", error)
            return b""


reader = ScrapeReader()


async def exposition() -> bytes:
    """The Prometheus text of this process: what it keeps, then what is read now."""
    metrics.DATABASE_LAG.set(heartbeat().database_behind())
    return generate_latest(metrics.REGISTRY) + await reader.read()


# --- The endpoint ----------------------------------------------------------------------------


class MetricsEndpoint:
    """ASGI middleware for HTTP: GET /metrics is answered here, everything else goes on."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != PATH:
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD"):
            await respond(send, 405, json_body("method_not_allowed", "GET /metrics only"))
            return
        why = refusal(scope)
        if why is not None:
            await respond(send, 403, json_body("forbidden", why))
            return
        body = await exposition()
        await respond(
            send, 200, (CONTENT_TYPE_PLAIN_0_0_4, b"" if scope["method"] == "HEAD" else body)
        )


def json_body(code: str, message: str) -> tuple[str, bytes]:
    return "application/json", json.dumps({"error": code, "message": message}).encode()


async def respond(send: Any, status: int, content: tuple[str, bytes]) -> None:
    content_type, body = content
    headers = [(b"content-type", content_type.encode()), (b"cache-control", b"no-store")]
    if status == 405:
        headers.append((b"allow", b"GET, HEAD"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
