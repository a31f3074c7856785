"""The Redis servers of a site, named by URL: the channel layer's shards, the broker, the beat lock.

A URL is either a plain server (`redis://` or `rediss://`, as redis-py takes it) or a server found
through Redis Sentinel:

    sentinel://[:password@]host:port[,host:port...]/master_name[/db][?sentinel_password=...]

The password is the master's; the sentinels' own, when they have one, is `sentinel_password`.
Each URL becomes a channels-redis host (`layer_host`), and a client that the health check and the
heartbeat use to reach the same server (`sync_client`, `async_client`). docs/scale.md.
"""

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import redis
import redis.asyncio
import redis.asyncio.sentinel
import redis.sentinel
from redis.connection import parse_url

SENTINEL_SCHEME = "sentinel"


@dataclass(frozen=True)
class RedisEndpoint:
    """One Redis server (or one Sentinel-managed master) and how to reach it."""

    url: str
    master_name: str | None = None  # set for a Sentinel-managed master
    sentinels: tuple[tuple[str, int], ...] = ()
    db: int = 0
    password: str | None = None
    sentinel_password: str | None = None
    label: str = ""  # the URL without its password, for logs and /healthz

    @property
    def is_sentinel(self) -> bool:
        return self.master_name is not None


def endpoint(url: str) -> RedisEndpoint:
    """Parse one URL; a URL we cannot use raises ValueError naming it (without its password)."""
    parts = urlsplit(url)
    if parts.scheme in ("redis", "rediss", "unix"):
        parsed: dict[str, Any] = parse_url(url)  # type: ignore[no-untyped-call]
        host = parsed.get("host") or parsed.get("path") or "localhost"
        label = f"{parts.scheme}://{host}:{parsed.get('port', 6379)}/{parsed.get('db', 0)}"
        return RedisEndpoint(
            url=url,
            db=int(parsed.get("db", 0)),
            password=parsed.get("password"),
            label=label,
        )
    if parts.scheme != SENTINEL_SCHEME:
        raise ValueError(
            f"a Redis URL must be redis://, rediss://, unix:// or sentinel://, not {parts.scheme!r}"
        )
    # urlsplit reads the port of one host only: the sentinels are parsed by hand.
    netloc = parts.netloc
    password: str | None = None
    if "@" in netloc:
        credentials, netloc = netloc.rsplit("@", 1)
        password = unquote(credentials.split(":", 1)[1]) if ":" in credentials else None
    sentinels = []
    for host_port in netloc.split(","):
        host, _, port = host_port.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"a sentinel must be host:port, not {host_port!r} in {_label(url)}")
        sentinels.append((host.strip("[]"), int(port)))
    path = [p for p in parts.path.split("/") if p]
    if not path:
        raise ValueError(
            f"a sentinel URL names its master: sentinel://host:port/master ({_label(url)})"
        )
    if len(path) > 2 or (len(path) == 2 and not path[1].isdigit()):
        raise ValueError(f"a sentinel URL's path is /master_name[/db], not {parts.path!r}")
    query = dict(parse_qsl(parts.query))
    return _watched(
        url,
        sentinels,
        master=unquote(path[0]),
        db=int(path[1]) if len(path) == 2 else 0,
        password=password,
        sentinel_password=query.get("sentinel_password"),
    )


def broker_endpoint(
    url: str, master_name: str, sentinel_password: str | None = None
) -> RedisEndpoint | None:
    """Celery's broker URL as a Redis server: a redis:// URL as it is; kombu's
    sentinel://host:port;sentinel://host:port as the master `master_name` names (the URL's
    password is the master's, as kombu takes it). None without a Redis broker (memory://) or
    with a sentinel URL and no master name."""
    scheme = urlsplit(url).scheme
    if scheme in ("redis", "rediss"):
        return endpoint(url)
    if scheme != SENTINEL_SCHEME or not master_name:
        return None
    sentinels, password, db = [], None, 0
    for each in url.split(";"):
        parts = urlsplit(each.strip())
        sentinels.append((parts.hostname or "localhost", parts.port or 26379))
        password = password or (unquote(parts.password) if parts.password else None)
        if parts.path.strip("/").isdigit():
            db = int(parts.path.strip("/"))
    return _watched(
        url,
        sentinels,
        master=master_name,
        db=db,
        password=password,
        sentinel_password=sentinel_password,
    )


def _watched(
    url: str,
    sentinels: list[tuple[str, int]],
    *,
    master: str,
    db: int,
    password: str | None,
    sentinel_password: str | None,
) -> RedisEndpoint:
    """The endpoint of a Sentinel-managed master, labelled without its password."""
    hosts = ",".join(f"{host}:{port}" for host, port in sentinels)
    return RedisEndpoint(
        url=url,
        master_name=master,
        sentinels=tuple(sentinels),
        db=db,
        password=password,
        sentinel_password=sentinel_password,
        label=f"sentinel://{hosts}/{master}/{db}",
    )


def _label(url: str) -> str:
    """A URL as it may be printed: without a password."""
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return f"{parts.scheme}://{netloc}{parts.path}"


def layer_host(point: RedisEndpoint, **connection: Any) -> dict[str, Any]:
    """The channels-redis host of `point`, with redis-py's connection options (timeouts, pool size)."""
    if not point.is_sentinel:
        return {"address": point.url, **connection}
    host: dict[str, Any] = {
        "master_name": point.master_name,
        "sentinels": list(point.sentinels),
        "db": point.db,
        **connection,
    }
    if point.password:
        host["password"] = point.password
    if point.sentinel_password:
        host["sentinel_kwargs"] = {"password": point.sentinel_password}
    return host


def sync_client(point: RedisEndpoint, timeout: float) -> redis.Redis:
    """A client of `point` (its current master, for a Sentinel URL); every call gives up after `timeout`."""
    if not point.is_sentinel:
        return redis.Redis.from_url(
            point.url, socket_timeout=timeout, socket_connect_timeout=timeout
        )
    sentinel = redis.sentinel.Sentinel(  # type: ignore[no-untyped-call]
        list(point.sentinels),
        socket_timeout=timeout,
        sentinel_kwargs=_sentinel_kwargs(point, timeout),
    )
    master: redis.Redis = sentinel.master_for(  # type: ignore[no-untyped-call]
        str(point.master_name), db=point.db, password=point.password, socket_connect_timeout=timeout
    )
    return master


def async_client(point: RedisEndpoint, timeout: float) -> redis.asyncio.Redis:
    """`sync_client` for an event loop."""
    if not point.is_sentinel:
        return redis.asyncio.Redis.from_url(
            point.url, socket_timeout=timeout, socket_connect_timeout=timeout
        )
    sentinel = redis.asyncio.sentinel.Sentinel(  # type: ignore[no-untyped-call]
        list(point.sentinels),
        socket_timeout=timeout,
        sentinel_kwargs=_sentinel_kwargs(point, timeout),
    )
    master: redis.asyncio.Redis = sentinel.master_for(
        str(point.master_name), db=point.db, password=point.password, socket_connect_timeout=timeout
    )
    return master


def _sentinel_kwargs(point: RedisEndpoint, timeout: float) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    if point.sentinel_password:
        kwargs["password"] = point.sentinel_password
    return kwargs
