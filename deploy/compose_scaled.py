"""The scaled shape's checks in `make compose-e2e` (deploy/compose_e2e.py calls them at their
moment of the play): the channel layer's two Redis shards, PgBouncer in front of the primary, the
streaming replica, beat's failover to its second replica, and Prometheus scraping every web
container's /metrics. Each reads the servers themselves (admin consoles, system views, Redis
INFO), never the site's own account of them.
"""

import itertools
import json
import re
import time
import urllib.parse

from deploy.compose_stack import Container, Failure, Stack, check, step

LAYER_SHARDS = ("redis-layer-1", "redis-layer-2")
# Beat's lock and its waiting replica (settings: CELERY_REDBEAT_LOCK_TIMEOUT, the loop interval).
BEAT_TAKEOVER_SECONDS = 20
# A tick the dead beat sent just before it died may still run this long after (its `expires`).
TICK_EXPIRY_SECONDS = 6


def run_in(stack: Stack, service: str, *command: str) -> str:
    """A command in the service's (first) container: `docker exec`, which starts in a fraction of
    the time `docker-compose exec` takes, so the failover's polling sees a tick when it comes."""
    containers = stack.containers(service)
    check(containers, f"no running {service} container")
    return stack.docker("exec", containers[0].id, *command)


def sql(stack: Stack, service: str, query: str) -> str:
    """A query on `postgres` or `postgres-replica`, as the casino role, over the local socket."""
    return run_in(
        stack, service, "psql", "--username=casino", "--dbname=casino", "-tAF", "|", "-c", query
    ).strip()


def redis_cli(stack: Stack, service: str, *args: str) -> str:
    quoted = " ".join(f"'{arg}'" for arg in args)
    return run_in(stack, service, "sh", "-c", f'REDISCLI_AUTH="$REDIS_PASSWORD" redis-cli {quoted}')


def info_fields(text: str) -> dict[str, str]:
    """Redis INFO's `name:value` lines."""
    return dict(
        line.strip().split(":", 1) for line in text.splitlines() if ":" in line and line[0] != "#"
    )


def command_calls(stack: Stack, service: str) -> dict[str, int]:
    """How often each command ran on this Redis (INFO commandstats: cmdstat_publish:calls=7,...)."""
    calls = {}
    for name, value in info_fields(redis_cli(stack, service, "INFO", "commandstats")).items():
        found = re.match(r"calls=(\d+)", value)
        if name.startswith("cmdstat_") and found:
            calls[name.removeprefix("cmdstat_")] = int(found.group(1))
    return calls


# --- the channel layer's shards -----------------------------------------------------------------


def shards(stack: Stack) -> str:
    """Both shards carry the channel layer: each has had subscriptions and published messages
    (the pubsub layer) or channel keys (the core layer). Run while sockets are open, after two
    hands and a reconnection: the table's and the players' groups and every socket's own channel
    are hashed over the shards by name. (The broker's Redis has PUBLISH traffic of its own:
    Celery's remote control, which the workers' health check uses.)"""
    figures = []
    for shard in LAYER_SHARDS:
        calls = command_calls(stack, shard)
        channels = len(redis_cli(stack, shard, "PUBSUB", "CHANNELS").split())
        # pubsub: a SUBSCRIBE per channel and group here, a PUBLISH per message sent to one;
        # core: messages in sorted sets, taken with BZPOPMIN. (Every shard also has the
        # heartbeat's marker key, which says nothing about traffic.)
        pubsub = calls.get("subscribe", 0) > 0 and calls.get("publish", 0) > 0
        core = calls.get("zadd", 0) > 0 and calls.get("bzpopmin", 0) > 0
        check(
            pubsub or core,
            f"{shard} carries no channel-layer traffic: {calls}, {channels} channels subscribed",
        )
        figures.append(
            f"{shard}: {calls.get('subscribe', 0)} SUBSCRIBE, {calls.get('publish', 0)} PUBLISH,"
            f" {channels} channels subscribed now"
        )
    step("channel layer on both shards: " + "; ".join(figures))
    return "ok"


# --- PgBouncer and the replica -------------------------------------------------------------------


def pgbouncer_console(stack: Stack, command: str) -> list[dict[str, str]]:
    """PgBouncer's admin console (SHOW ...), asked with psql from the primary's container: the
    pgbouncer image need not have psql."""
    output = run_in(
        stack,
        "postgres",
        "sh",
        "-c",
        'PGPASSWORD="$POSTGRES_PASSWORD" psql --host=pgbouncer --port=6432 --username=casino'
        f" --dbname=pgbouncer --no-align --field-separator='|' --pset=footer=off -c '{command}'",
    )
    lines = [line for line in output.splitlines() if line.strip()]
    header = lines[0].split("|")
    return [dict(zip(header, line.split("|"), strict=False)) for line in lines[1:]]


def pgbouncer(stack: Stack) -> str:
    """The app's queries go through PgBouncer: its console counts transactions for `casino`, the
    primary's client connections come from PgBouncer's address, and none from an app container."""
    stats = {row["database"]: row for row in pgbouncer_console(stack, "SHOW STATS")}
    check("casino" in stats, f"PgBouncer has no statistics for casino: {list(stats)}")
    transactions = int(stats["casino"]["total_xact_count"])
    queries = int(stats["casino"]["total_query_count"])
    check(transactions > 0, f"no transaction went through PgBouncer: {stats['casino']}")
    pools = {row["database"]: row for row in pgbouncer_console(stack, "SHOW POOLS")}
    check(pools["casino"]["pool_mode"] == "transaction", f"pool: {pools['casino']}")

    bouncer = {stack.address(c) for c in stack.containers("pgbouncer")}
    apps = {
        stack.address(c): c.name
        for service in ("web", "worker", "beat")
        for c in stack.containers(service)
    }
    rows = sql(
        stack,
        "postgres",
        "select host(client_addr), count(*) from pg_stat_activity where datname = 'casino'"
        " and backend_type = 'client backend' and client_addr is not null group by 1",
    )
    connections = {
        address: int(count) for address, count in (row.split("|") for row in rows.splitlines())
    }
    from_bouncer = sum(count for address, count in connections.items() if address in bouncer)
    direct = {apps[address]: count for address, count in connections.items() if address in apps}
    check(from_bouncer > 0, f"no connection to the primary from PgBouncer: {connections}")
    check(not direct, f"app containers connected to the primary past PgBouncer: {direct}")
    # Prepared statements kept across the pooling (max_prepared_statements): the clients'
    # Parse messages, the ones PgBouncer sent on to a server, and the Binds that reused them.
    prepared = ", ".join(
        f"{stats['casino'].get(f'total_{name}_count', '?')} {name}"
        for name in ("client_parse", "server_parse", "bind")
    )
    step(
        f"PgBouncer: {transactions:,} transactions and {queries:,} queries for casino in transaction"
        f" mode (prepared statements: {prepared}); the primary's {from_bouncer} client"
        f" connection(s) all from PgBouncer, none from the {len(apps)} app containers"
    )
    return "ok"


def replica(stack: Stack, usernames: list[str]) -> str:
    """The replica streams from the primary (pg_stat_replication there), and rows written through
    the site during the play (the sign-ups) are read back on it."""
    streaming = sql(
        stack,
        "postgres",
        "select state, coalesce(replay_lag::text, '0'), slot_name from pg_stat_replication"
        " left join pg_replication_slots on active_pid = pid",
    )
    check(streaming.startswith("streaming|"), f"pg_stat_replication on the primary: {streaming!r}")
    in_recovery = sql(stack, "postgres-replica", "select pg_is_in_recovery()")
    check(in_recovery == "t", f"the replica is not in recovery: {in_recovery!r}")
    names = ", ".join(f"'{name}'" for name in usernames)
    query = f"select count(*) from accounts_user where username in ({names})"
    deadline = time.monotonic() + 10
    while (found := int(sql(stack, "postgres-replica", query))) < len(usernames):
        check(time.monotonic() < deadline, f"the replica has {found} of {usernames} after 10 s")
        time.sleep(0.2)
    state, lag, slot = streaming.split("|")
    step(
        f"replica: {state} through slot {slot} (replay lag {lag}), in recovery, and reads back"
        f" the {len(usernames)} accounts signed up during the play"
    )
    return "ok"


# --- beat's failover ----------------------------------------------------------------------------


def clock_ran_at(stack: Stack) -> float:
    value = sql(
        stack,
        "postgres",
        "select extract(epoch from ran_at) from holdem_clockbeat where name = 'deadlines'",
    )
    return float(value) if value else 0.0


# What a beat waiting for the lock sends (SET NX, once a loop) besides the connection's own set-up.
WAITING_COMMANDS = {"set", "auth", "hello", "select", "ping", "client|setinfo", "client|setname"}


def redis_clients(stack: Stack) -> dict[str, set[str]]:
    """The broker Redis' clients: address -> the last command of each of its connections."""
    clients: dict[str, set[str]] = {}
    for line in redis_cli(stack, "redis", "CLIENT", "LIST").splitlines():
        fields = dict(field.split("=", 1) for field in line.split() if "=" in field)
        if "addr" in fields:
            clients.setdefault(fields["addr"].rsplit(":", 1)[0], set()).add(fields.get("cmd", ""))
    return clients


def lock_holder(stack: Stack, beats: list[Container]) -> tuple[Container, Container]:
    """(the beat holding redbeat's lock, the one waiting for it). The lock's value is a random
    token that names no process, and beat logs taking it at INFO, which the settings keep quiet;
    Redis itself tells them apart: the waiting beat's only connection keeps sending SET NX for
    the lock, the holder's connections renew it and send the ticks (EVALSHA, ZRANGEBYSCORE,
    LPUSH to the broker's queue)."""
    clients = redis_clients(stack)
    working = {beat: clients.get(stack.address(beat), set()) - WAITING_COMMANDS for beat in beats}
    holders = [beat for beat, commands in working.items() if commands]
    waiting = [beat for beat in beats if "set" in clients.get(stack.address(beat), set())]
    check(
        len(holders) == 1 and len(waiting) == 1 and holders != waiting,
        f"cannot tell the beats apart: {[(b.name, clients.get(stack.address(b))) for b in beats]}",
    )
    return holders[0], waiting[0]


def lock_key(stack: Stack) -> str:
    keys = [
        key
        for key in redis_cli(stack, "redis", "--scan", "--pattern", "*lock*").split()
        if key.endswith(":lock")
    ]
    check(len(keys) == 1, f"redbeat's lock (…:lock) in the broker's Redis: {keys}")
    return keys[0]


def beat_failover(stack: Stack) -> str:
    """Kill the beat holding the lock (SIGKILL: it cannot release it); the other takes the lock
    once it runs out, and the deadline clock's ClockBeat row moves again."""
    beats = stack.containers("beat")
    check(len(beats) == 2, f"{len(beats)} beat containers run, not 2")
    deadline = time.monotonic() + 15  # a beat restarted a moment ago may not have sent yet
    while True:
        try:
            holder, standby = lock_holder(stack, beats)
            break
        except Failure:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    key = lock_key(stack)
    token = redis_cli(stack, "redis", "GET", key).strip()
    ttl = redis_cli(stack, "redis", "PTTL", key).strip()
    before = clock_ran_at(stack)
    check(before > time.time() - 5, f"the clock is not ticking before the kill: {before}")
    killed_at = time.time()
    stack.docker("kill", holder.id)
    step(f"beat: {holder.name} held {key} (ttl {ttl} ms); killed it, {standby.name} waited")
    seen = [before]
    while True:
        ran_at = clock_ran_at(stack)
        if ran_at != seen[-1]:
            seen.append(ran_at)
        if ran_at > killed_at + TICK_EXPIRY_SECONDS:
            break
        check(
            time.time() - killed_at < BEAT_TAKEOVER_SECONDS + 10,
            f"no tick in the {BEAT_TAKEOVER_SECONDS + 10} s after killing {holder.name}; last"
            f" tick {killed_at - seen[-1]:.1f} s before the kill",
        )
        time.sleep(0.25)
    new_token = redis_cli(stack, "redis", "GET", key).strip()
    check(new_token and new_token != token, f"the lock was not taken again: {token} {new_token}")
    now_working = redis_clients(stack).get(stack.address(standby), set()) - WAITING_COMMANDS
    check(now_working, f"{standby.name} does not tick, yet the clock moves")
    # The clock's gap: the last tick before the kill, the first after the takeover.
    last, first = max(
        itertools.pairwise(seen), key=lambda pair: pair[1] - pair[0], default=(before, ran_at)
    )
    check(
        first - killed_at <= BEAT_TAKEOVER_SECONDS,
        f"the ticks resumed {first - killed_at:.1f} s after the kill, over {BEAT_TAKEOVER_SECONDS} s",
    )
    step(
        f"beat failover: {standby.name} took the lock; ticks resumed {first - killed_at:.1f} s"
        f" after the kill (the clock was silent {first - last:.1f} s)"
    )
    return "ok"


# --- Prometheus -------------------------------------------------------------------------------


def prometheus_query(stack: Stack, query: str) -> list[dict]:
    url = "http://127.0.0.1:9090/api/v1/query?" + urllib.parse.urlencode({"query": query})
    answer = json.loads(run_in(stack, "prometheus", "wget", "-qO-", url))
    check(answer.get("status") == "success", f"Prometheus answered {answer}")
    return answer["data"]["result"]


def metrics(stack: Stack, web_count: int) -> str:
    """Prometheus found every web container by DNS and scrapes its /metrics: up == 1 for each,
    and each one's casino_open_sockets counts the table socket it serves."""
    addresses = {stack.address(web) for web in stack.containers("web")}
    check(len(addresses) == web_count, f"{len(addresses)} web containers, not {web_count}")
    deadline = time.monotonic() + 45
    while True:
        up = prometheus_query(stack, 'up{job="casino-web"}')
        healthy = {
            series["metric"]["instance"].rsplit(":", 1)[0]
            for series in up
            if series["value"][1] == "1"
        }
        if addresses <= healthy:
            break
        check(
            time.monotonic() < deadline,
            f"Prometheus scrapes {sorted(healthy)} of {sorted(addresses)} after 45 s: {up}",
        )
        time.sleep(1)
    # Each web container serves one of the two table sockets: its figure says so once Prometheus
    # has scraped it since (every 5 s).
    deadline = time.monotonic() + 20
    while True:
        sockets = {
            series["metric"]["instance"].rsplit(":", 1)[0]: float(series["value"][1])
            for series in prometheus_query(
                stack, 'sum by (instance) (casino_open_sockets{job="casino-web"})'
            )
        }
        if all(sockets.get(address, 0) >= 1 for address in addresses):
            break
        check(
            time.monotonic() < deadline,
            f"casino_open_sockets per web container after 20 s: {sockets}, expected 1 or more"
            f" on each of {sorted(addresses)}",
        )
        time.sleep(1)
    scraped = prometheus_query(stack, 'count by (instance) ({job="casino-web"})')
    series = sum(int(float(s["value"][1])) for s in scraped)
    figures = ", ".join(f"{address}: {count:g}" for address, count in sorted(sockets.items()))
    step(
        f"Prometheus: up == 1 for all {len(addresses)} web containers (DNS discovery of `web`),"
        f" {series} series scraped; casino_open_sockets {figures}"
    )
    return "ok"
