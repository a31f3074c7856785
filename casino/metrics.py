"""The site's own figures for Prometheus (docs/deploy.md, "Metrics"): the registry, what this
web process counts as it works, and the names of the figures read when Prometheus asks
(casino/metrics_endpoint.py reads those and serves everything at GET /metrics).

Each Daphne process keeps its own figures and is scraped on its own (no multiprocess mode):
Prometheus adds the processes up. The figures read at scrape time (tables playing, clock lag,
Celery queue length) are the site's, so every process reports the same value: take max(), not
sum().

The functions below are what the rest of the site calls, each from one line marked
`# metrics:` (sockets, table socket, broadcast, heartbeat).
"""

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
)

# The `_created` series (when each counter began) would double the series for nothing a
# dashboard reads: a process's start is in process_start_time_seconds. (The function has no
# annotations in prometheus-client.)
disable_created_metrics()  # type: ignore[no-untyped-call]

SOCKET_KINDS = ("table", "lobby", "me")  # the path after /ws/ (casino/routing.py)
RESYNC_KINDS = ("hint", "rejoin")

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # process_*: CPU seconds, resident memory, open files

OPEN_SOCKETS = Gauge(
    "casino_open_sockets",
    "Websockets open on this process (accepted and counted by presence), by kind.",
    ["kind"],
    registry=REGISTRY,
)
ACTIONS = Counter(
    "casino_actions",
    "Player actions (act frames) applied through this process's table sockets; repeats of an "
    "action_id and refused actions are not counted.",
    registry=REGISTRY,
)
ACT_COMMIT = Histogram(
    "casino_act_commit_seconds",
    "From an act frame reaching the table socket to its transaction committing: the wait for "
    "the database thread, the table lock and the transaction.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
COMMIT_DELIVERY = Histogram(
    "casino_commit_delivery_seconds",
    "From a commit (on any process: web server or Celery worker) to its broadcast reaching a "
    "socket of this process, once per socket; wall clocks of two machines, so their skew is in it.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
RESYNCS = Counter(
    "casino_heartbeat_resyncs",
    "What the heartbeat did for sockets that missed something: `hint`, a heartbeat frame telling "
    "a socket the table moved on (its client asks for a snapshot); `rejoin`, a socket joining its "
    "groups again after the channel layer lost them (Redis flushed or restarted).",
    ["kind"],
    registry=REGISTRY,
)
BUSY_REFUSALS = Counter(
    "casino_busy_refusals",
    "Websocket handshakes refused because this process's database thread was behind (BusyGate).",
    registry=REGISTRY,
)
DATABASE_LAG = Gauge(
    "casino_database_thread_lag_seconds",
    "How long a call waits for this process's database thread, as its heartbeat last found it "
    "(over 1 s, new sockets are refused).",
    registry=REGISTRY,
)
for _kind in SOCKET_KINDS:
    OPEN_SOCKETS.labels(_kind)
for _kind in RESYNC_KINDS:
    RESYNCS.labels(_kind)

# Read at scrape time (casino/metrics_endpoint.py).
TABLES_PLAYING = "casino_tables_playing"
CLOCK_LAG = "casino_clock_lag_seconds"
QUEUE_LENGTH = "casino_celery_queue_length"

# Every family this module exports (the name before _total, _bucket, _sum, _count) and its type:
# the dashboard may query these and no other (tests/casino/test_metrics.py).
METRICS: dict[str, str] = {
    "casino_open_sockets": "gauge",
    "casino_actions": "counter",
    "casino_act_commit_seconds": "histogram",
    "casino_commit_delivery_seconds": "histogram",
    "casino_heartbeat_resyncs": "counter",
    "casino_busy_refusals": "counter",
    "casino_database_thread_lag_seconds": "gauge",
    TABLES_PLAYING: "gauge",
    CLOCK_LAG: "gauge",
    QUEUE_LENGTH: "gauge",
    "process_cpu_seconds_total": "counter",
    "process_resident_memory_bytes": "gauge",
    "process_open_fds": "gauge",
    "process_max_fds": "gauge",
    "process_virtual_memory_bytes": "gauge",
    "process_start_time_seconds": "gauge",
}


def sample_names() -> set[str]:
    """The names of the samples the families in METRICS produce."""
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "gauge": ("",)}
    names = set()
    for family, kind in METRICS.items():
        if family.endswith("_total"):  # process_cpu_seconds_total is named so by its collector
            names.add(family)
            continue
        names.update(family + suffix for suffix in suffixes[kind])
    return names


# --- What the site calls ---------------------------------------------------------------------


def socket_kind(scope: dict[str, Any]) -> str:
    """table, lobby or me, from the socket's path (/ws/table/7/, /ws/lobby/, /ws/me/)."""
    parts = str(scope.get("path", "")).strip("/").split("/")
    kind = parts[1] if len(parts) > 1 and parts[0] == "ws" else ""
    return kind if kind in SOCKET_KINDS else "other"


def socket_opened(socket: Any) -> None:
    OPEN_SOCKETS.labels(socket_kind(socket.scope)).inc()


def socket_closed(socket: Any) -> None:
    OPEN_SOCKETS.labels(socket_kind(socket.scope)).dec()


def busy_refused() -> None:
    BUSY_REFUSALS.inc()


def resync_hinted() -> None:
    RESYNCS.labels("hint").inc()


def groups_rejoined(sockets: int) -> None:
    RESYNCS.labels("rejoin").inc(sockets)


# When the transaction of the act being timed on this thread (the database thread) committed.
_commit = threading.local()


def act_timed(service: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """`service` (table_act), timed from now (an act frame has just reached the socket, on the
    event loop) to its commit (commit_stamp, in the database thread); an applied action is
    counted. Without a broadcast to mark the commit, the service's return marks it."""
    received = time.monotonic()

    def timed(**kwargs: Any) -> dict[str, Any]:
        _commit.at = None
        _commit.waiting = True
        try:
            answer = service(**kwargs)
        finally:
            _commit.waiting = False
        if not answer.get("repeated"):
            ACTIONS.inc()
            ACT_COMMIT.observe((_commit.at or time.monotonic()) - received)
        return answer

    return timed


def commit_stamp(messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """A transaction has just committed and these channel messages leave for its sockets
    (holdem/realtime/broadcast.py, send_now): each carries the commit's wall-clock time, for
    frame_delivered; and an act being timed on this thread takes this as its commit."""
    if getattr(_commit, "waiting", False) and _commit.at is None:
        _commit.at = time.monotonic()
    now = time.time()
    for _, message in messages:
        message["committed_at"] = now


def frame_delivered(message: dict[str, Any]) -> None:
    """A socket of this process received a broadcast (TrackedConsumer.table_message)."""
    committed_at = message.get("committed_at")
    if committed_at is not None:
        COMMIT_DELIVERY.observe(time.time() - committed_at)
