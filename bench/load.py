"""Load run on the cluster topology (bin/cluster): T tables x 6 bots for a fixed time, then the
floor (bench/floor.py) at the same tables and think times. Prints figures, asserts nothing
(docs/performance.md has the results and how to read them).

    .venv/bin/python bench/load.py --tables 10 --seconds 60            # quick bots (0.1-0.6 s)
    .venv/bin/python bench/load.py --tables 500 --human --connect-rate 60   # human pace (1.5-4 s)

Starts its own cluster on a fresh database (casino_load), creates the tables (1-second
countdowns) and the bot accounts directly in that database, gives each bot a session, then plays
over real websockets with the bots spread over both servers and over processes of their own
(--bot-procs; each table's bots in one process). Measures hands per second, the latency from
sending `act` until every socket at the table has the resulting event, errors, lost or
out-of-order events (seq gaps), CPU and memory of every process, and audits the chips once the
cluster has stopped. Then measures the floor (--no-floor skips it): a bare Channels consumer on
the same channel layer and as many Daphne processes, no database, same tables and think times.

CPU per action: the CPU used over the measured window by every server process (the Daphne
servers, the Celery workers with their pools, beat, the PostgreSQL backends connected to the
run's database plus PostgreSQL's shared processes (postmaster, WAL writer, checkpointer,
background writer: also working for anyone else on that server), and the whole redis-server
(shared too)), divided by the actions sent in the window. The bots and this process are
reported apart and not counted. The last line is the summary:

    load: tables=T bots=B seconds=S hands_per_s=H p50_ms=.. p95_ms=.. p99_ms=.. errors=E
        lost_events=L chips_ok=yes|no cpu_ms_per_action=.. floor_ms_per_action=.. think=LO-HI
        routing=spread|sticky                                                     (one line)

A reconnect storm (--storm N --storm-rate R): after --seconds of play, N more sockets arrive at R
a second while the tables go on playing, as when a server restarts and its sockets reconnect to
the others (--storm-kinds: `seat`, a seated bot's second table socket; `me`, a seated bot's
ws/me/; `watch`, a new user watching a table; `lobby`, a new user's lobby socket; taken in turn).
They run in a process of their own, retry a refused handshake as the site's client does, and
read what comes until the end. The storm's window lasts --storm-seconds (default N/R + 30). The
report adds how long until every storm socket was in (from the first arrival), how many were
refused as busy and tried again or never got in, and the play of the bots already in before and
during the storm: actions a second, act-to-delivery p50/p99 and server CPU per action. The
summary line gains storm=N storm_rate=R storm_in=.. storm_all_in_s=.. storm_refused=..
storm_never_in=.. and the before/during figures.
"""

import argparse
import asyncio
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench import floor as floor_bench  # noqa: E402
from bench import floor_bots  # noqa: E402
from bench.bots import (  # noqa: E402
    Bot,
    Figures,
    StormFigures,
    TableWatch,
    parse_think,
    percentile,
    storm_socket,
)
from bench.procstat import (  # noqa: E402
    CpuWindow,
    bot_results,
    measure_window,
    postgres_pids,
    redis_pids,
    tree,
)

SEATS = 6
BANKROLL = 1_000_000  # per bot: enough to buy in again after every bust for the whole run


# --- the cluster ----------------------------------------------------------------------------------


def cluster_env(args) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CASINO_")) and k != "DATABASE_URL"
    }
    env.update(
        CLUSTER_PORTS=" ".join(map(str, args.ports)),
        CLUSTER_RUN_DIR=str(args.run_dir),
        CLUSTER_DB=args.database,
        CLUSTER_REDIS_URL=args.redis_url,
        CLUSTER_WORKERS=str(args.workers),
        CLUSTER_FRESH="1",
        DJANGO_LOG_LEVEL="WARNING",
    )
    env.update(item.split("=", 1) for item in args.server_env)
    return env


def cluster_started(args) -> dict:
    """A fresh cluster for a benchmark's run (bench/sit_and_go.py, bench/mtt.py): its run
    directory made, the last run's logs removed, the processes started again; returns their
    environment. `args` holds what cluster_env reads (server_env: none unless given)."""
    args.run_dir = args.run_dir.resolve()
    args.run_dir.mkdir(parents=True, exist_ok=True)
    args.server_env = getattr(args, "server_env", [])
    env = cluster_env(args)
    cluster("stop", env)
    for log in args.run_dir.glob("*.log"):
        log.unlink()
    print(cluster("start", env).strip())
    return env


def cluster(command: str, env: dict, timeout: float = 120) -> str:
    done = subprocess.run(
        ["bin/cluster", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode != 0:
        raise SystemExit(f"bin/cluster {command} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def use_cluster_settings(env: dict) -> None:
    """Point this process's Django at the cluster's database (the settings bin/cluster exports)."""
    for line in cluster("env", env).splitlines():
        key, _, value = line.removeprefix("export ").partition("=")
        os.environ[key] = value
    import django

    django.setup()


def prepare(tables: int, run_id: str, seed: int) -> list[dict]:
    """The tables, and per seat a bot account with a bankroll and a signed-in session."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from casino.accounts.models import LedgerKind, User
    from casino.accounts.services import account_open, wallet_adjust
    from holdem.services import room_create

    rng = random.Random(seed)
    plan = []
    for t in range(tables):
        table = room_create(
            name=f"load {run_id} #{t + 1}",
            preset="nl50",
            seats=SEATS,
            entry="next_hand",
            countdown_seconds=1,
            countdown_full_seconds=1,
            turn_seconds=20,
        )
        for seat in range(SEATS):
            user = User(username=f"load{run_id}t{t + 1}s{seat}")
            user.set_unusable_password()  # bots sign in by session only: no password hashing
            user.save()
            account_open(user=user)
            wallet_adjust(
                user=user,
                amount=BANKROLL,
                kind=LedgerKind.ADMIN_ADJUSTMENT,
                reason="load run bankroll",
            )
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            plan.append(
                {
                    "table_id": table.pk,
                    "seat": seat,
                    "name": user.username,
                    "session": session.session_key,
                    "buy_in": rng.randrange(5_000, 20_001, 100),
                }
            )
    return plan


def signed_in(username: str) -> str:
    """A new account with a signed-in session (no wallet: it only watches); its session key."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from casino.accounts.models import User

    user = User(username=username)
    user.set_unusable_password()
    user.save()
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def storm_plan(plan: list[dict], args, run_id: str) -> list[dict]:
    """The storm's sockets, kinds in turn: a seated bot's second table socket or its ws/me/ (its
    own session), a new user's table socket (watching) or lobby socket."""
    kinds = [kind.strip() for kind in args.storm_kinds.split(",") if kind.strip()]
    tables = list(dict.fromkeys(entry["table_id"] for entry in plan))
    urls = [f"http://127.0.0.1:{port}" for port in args.ports]
    sockets = []
    for i in range(args.storm):
        kind = kinds[i % len(kinds)]
        bot = plan[(i // len(kinds)) % len(plan)]
        if kind == "seat":
            path, session = f"/ws/table/{bot['table_id']}/", bot["session"]
        elif kind == "me":
            path, session = "/ws/me/", bot["session"]
        elif kind == "watch":
            path = f"/ws/table/{tables[i % len(tables)]}/"
            session = signed_in(f"load{run_id}w{i}")
        elif kind == "lobby":
            path, session = "/ws/lobby/", signed_in(f"load{run_id}l{i}")
        else:
            raise SystemExit(f"--storm-kinds: unknown kind {kind!r} (seat, me, watch, lobby)")
        url = urls[i % len(urls)]
        ws_url = "ws://" + url.split("://", 1)[1] + path
        sockets.append({"kind": kind, "url": ws_url, "origin": url, "session": session})
    return sockets


def audit() -> tuple[bool, str]:
    # Here, not at the top: Django is set up (for the cluster's database) only once it has stopped.
    from django.db import connection

    from holdem.selectors.audit import audit_chips

    connection.close()  # the cluster's processes are gone; start from a fresh connection
    result = audit_chips()
    return result.ok, result.summary()


def history_audit() -> tuple[bool, str]:
    """The hash chains of every ledger line and finished hand (manage.py verify_chain)."""
    from django.db import connection

    from holdem.selectors.chains import chains_audit

    connection.close()
    result = chains_audit()
    return result.ok, result.summary()


# --- processes ------------------------------------------------------------------------------------

# What counts as the server, by process kind; the bots and this process never do.
SERVER_KINDS = ("daphne", "celery workers", "celery beat", "postgres", "redis")


def kind_of(group: str) -> str | None:
    if group.startswith("web-"):
        return "daphne"
    if group.startswith("worker-"):
        return "celery workers"
    if group == "beat" or group.startswith("beat-"):  # bin/cluster names its beats beat-N
        return "celery beat"
    if group.startswith("postgres"):
        return "postgres"
    if group == "redis":
        return "redis"
    return None


def classifier(run_dir: Path, database: str, bot_pids: list[int]):
    """Groups of processes for procstat.CpuWindow: each process of the cluster (by its pid file,
    with its children: Celery's pool), the PostgreSQL backends of the run's database and
    PostgreSQL's shared processes, redis-server, the bot processes, and this process."""
    roles = {f.stem: int(f.read_text()) for f in sorted(run_dir.glob("*.pid"))}

    def classify(stats):
        groups = {role: tree(stats, pid) for role, pid in roles.items()}
        backends, shared = postgres_pids(stats, database)
        groups["postgres backends"] = backends
        groups["postgres shared"] = shared
        groups["redis"] = redis_pids(stats)
        groups["bots"] = [p for pid in bot_pids for p in tree(stats, pid)]
        groups["driver (this process)"] = [os.getpid()]
        return groups

    return classify


def server_log_errors(run_dir: Path) -> int:
    count = 0
    for log in run_dir.glob("*.log"):
        for line in log.read_text(errors="replace").splitlines():
            if (
                '"level": "ERROR"' in line
                or '"level": "CRITICAL"' in line
                or line.startswith("Traceback")
            ):
                count += 1
    return count


# --- the run: bots in processes of their own (`load.py --bots-worker`, their plan on stdin) --------


async def bots(plan: dict) -> dict:
    """One bot process: its tables' bots, from ramp_at to end_at; figures over the window."""
    figures = Figures(measuring=False)
    watches: dict[int, TableWatch] = {}
    rng = random.Random(plan["seed"])
    players = []
    for entry in plan["entries"]:
        watch = watches.setdefault(entry["table_id"], TableWatch(entry["table_id"], figures))
        players.append(
            Bot(
                name=entry["name"],
                base_url=entry["url"],
                session_id=entry["session"],
                table_id=entry["table_id"],
                watch=watch,
                figures=figures,
                think=tuple(plan["think"]),
                rng=random.Random(rng.random()),
                buy_in=entry["buy_in"],
                seat=entry["seat"],
            )
        )
    await floor_bots.wait_until(plan["ramp_at"])
    tasks = []
    for bot in players:  # open the tabs at a steady rate, like players arriving
        tasks.append(asyncio.create_task(bot.run(plan["end_at"] + 0.5)))
        await asyncio.sleep(1 / plan["connect_rate"])
    lag: list[float] = []
    lag_task = asyncio.create_task(floor_bots.loop_lag(lag, plan))
    await floor_bots.wait_until(plan["measure_at"])
    figures.measuring = True
    actions_before = figures.actions_sent
    split = None  # where the storm began in this process's figures
    if plan.get("storm_at") is not None:
        await floor_bots.wait_until(plan["storm_at"])
        split = {
            "actions": figures.actions_sent - actions_before,
            "latencies": len(figures.latencies),
            "answers": len(figures.answer_latencies),
        }
    await floor_bots.wait_until(plan["end_at"])
    figures.measuring = False
    actions = figures.actions_sent - actions_before
    connected = sum(len(w.connected) for w in watches.values())
    await asyncio.gather(*tasks, lag_task, return_exceptions=True)
    return {
        "errors": dict(figures.errors),
        "lost_events": figures.lost_events,
        "reordered": figures.reordered,
        "duplicates": figures.duplicates,
        "refused_handshakes": figures.refused_handshakes,
        "incomplete_broadcasts": figures.incomplete_broadcasts,
        "latencies": figures.latencies,
        "latencies_by_kind": figures.latencies_by_kind,
        "answer_latencies": figures.answer_latencies,
        "hands_ended": figures.hands_ended,
        "actions": actions,
        "connected": connected,
        "lag": lag,
        "split": split,
    }


async def storm(plan: dict) -> dict:
    """The storm's process: its sockets arrive at plan["rate"] a second from storm_at."""
    figures = StormFigures()
    await floor_bots.wait_until(plan["storm_at"])
    tasks = []
    for socket in plan["sockets"]:
        tasks.append(
            asyncio.create_task(
                storm_socket(
                    socket["url"], socket["origin"], socket["session"], plan["end_at"], figures
                )
            )
        )
        await asyncio.sleep(1 / plan["rate"])
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "arrived": figures.arrived,
        "waits": figures.waits,
        "last_in": max(figures.in_at, default=None),
        "refused": figures.refused,
        "errors": dict(figures.errors),
    }


def storm_worker() -> int:
    plan = json.loads(sys.stdin.readline())
    sys.stdout.write(json.dumps(asyncio.run(storm(plan))) + "\n")
    return 0


def bots_worker() -> int:
    plan = json.loads(sys.stdin.readline())
    sys.stdout.write(json.dumps(asyncio.run(bots(plan))) + "\n")
    return 0


def measure_phases(classify, measure_at: float, storm_at: float, end_at: float):
    """The whole window, and its two parts: before the storm and during it."""
    time.sleep(max(0.0, measure_at - time.monotonic()))
    whole = CpuWindow(classify).start()
    before = CpuWindow(classify).start()
    time.sleep(max(0.0, storm_at - time.monotonic()))
    before_window = before.stop()
    during = CpuWindow(classify).start()
    time.sleep(max(0.0, end_at - time.monotonic()))
    during_window = during.stop()
    return whole.stop(), before_window, during_window


def spawn(args, flag: str, plan: dict, log_name: str) -> subprocess.Popen:
    log = open(args.run_dir / "bots" / log_name, "w")  # noqa: SIM115
    worker = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), flag],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    worker.stdin.write(json.dumps(plan) + "\n")
    worker.stdin.close()
    return worker


def play(plan, args, storm_sockets=()) -> dict:
    """Spread the tables over bot processes, play, and measure every process over the window
    (and, with a storm, over its two parts)."""
    urls = [f"http://127.0.0.1:{port}" for port in args.ports]
    tables = list(dict.fromkeys(entry["table_id"] for entry in plan))
    procs = args.bot_procs or max(1, min(8, math.ceil(len(plan) / 300)))
    shares: list[list[dict]] = [[] for _ in range(procs)]
    for i, entry in enumerate(plan):
        table = tables.index(entry["table_id"])
        url = urls[table % len(urls)] if args.sticky else urls[i % len(urls)]
        shares[table % procs].append({**entry, "url": url})
    now = time.monotonic()
    ramp_at = now + 2 + 0.2 * procs  # the bot processes' imports
    measure_at = ramp_at + len(plan) / args.connect_rate + args.warmup
    storm_at = None
    end_at = measure_at + args.seconds
    if storm_sockets:
        storm_at = end_at
        end_at = storm_at + (args.storm_seconds or len(storm_sockets) / args.storm_rate + 30)
    workers = []
    stormer = None
    phases = None
    try:
        for i, share in enumerate(shares):
            workers.append(
                spawn(
                    args,
                    "--bots-worker",
                    {
                        "entries": share,
                        "think": parse_think(args.think),
                        "seed": args.seed * 1000 + i,
                        "connect_rate": args.connect_rate / procs,
                        "ramp_at": ramp_at,
                        "measure_at": measure_at,
                        "storm_at": storm_at,
                        "end_at": end_at,
                    },
                    f"{i}.log",
                )
            )
        if storm_sockets:
            stormer = spawn(
                args,
                "--storm-worker",
                {
                    "sockets": list(storm_sockets),
                    "rate": args.storm_rate,
                    "storm_at": storm_at,
                    "end_at": end_at,
                },
                "storm.log",
            )
        others = [w.pid for w in workers] + ([stormer.pid] if stormer else [])
        classify = classifier(args.run_dir, args.database, others)
        if storm_at is not None:
            measured, *phases = measure_phases(classify, measure_at, storm_at, end_at)
        else:
            measured = measure_window(classify, measure_at, end_at)
        results = bot_results(workers, lambda i: args.run_dir / "bots" / f"{i}.log", "load")
        storm_result = None
        if stormer is not None:
            storm_result = bot_results(
                [stormer], lambda i: args.run_dir / "bots" / "storm.log", "storm"
            )[0]
    finally:
        for worker in [*workers, *([stormer] if stormer else [])]:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    figures = Figures(measuring=False)
    lags = []
    split = {"before": Figures(measuring=False), "during": Figures(measuring=False)}
    for result in results:
        figures.errors.update(result["errors"])
        for key in (
            "lost_events",
            "reordered",
            "duplicates",
            "incomplete_broadcasts",
            "refused_handshakes",
        ):
            setattr(figures, key, getattr(figures, key) + result[key])
        figures.hands_ended += result["hands_ended"]
        figures.actions_sent += result["actions"]
        figures.latencies += result["latencies"]
        figures.answer_latencies += result["answer_latencies"]
        for kind, values in result["latencies_by_kind"].items():
            figures.latencies_by_kind.setdefault(kind, []).extend(values)
        lags.append(result["lag"])
        if result.get("split"):
            at = result["split"]
            split["before"].actions_sent += at["actions"]
            split["during"].actions_sent += result["actions"] - at["actions"]
            split["before"].latencies += result["latencies"][: at["latencies"]]
            split["during"].latencies += result["latencies"][at["latencies"] :]
            split["before"].answer_latencies += result["answer_latencies"][: at["answers"]]
            split["during"].answer_latencies += result["answer_latencies"][at["answers"] :]
    return {
        "window": measured,
        "figures": figures,
        "lags": lags,
        "actions": figures.actions_sent,
        "connected_at_end": sum(r["connected"] for r in results),
        "bot_procs": procs,
        "storm": storm_result,
        "storm_at": storm_at,
        "phases": phases,
        "split": split,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument(
        "--seconds", type=float, default=60, help="measured time, after ramp-up and warm-up"
    )
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument(
        "--connect-rate", type=float, default=60, help="new websockets per second during ramp-up"
    )
    floor_bench.add_pace_options(parser)
    parser.add_argument("--ports", type=int, nargs="+", default=[8131, 8132])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="casino_load")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/10")
    parser.add_argument("--run-dir", type=Path, default=ROOT / "artifacts" / "load")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--bot-procs", type=int, default=None, help="bot processes (default: one per 300 bots, 1-8)"
    )
    parser.add_argument("--keep", action="store_true", help="leave the cluster running afterwards")
    parser.add_argument(
        "--sticky",
        action="store_true",
        help="every socket of a table on one server, as sticky routing would do (the default "
        "spreads each table's seats over the servers, as the deployed nginx does)",
    )
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra environment for the cluster's processes (experiments)",
    )
    floor_options = parser.add_argument_group("the floor (bench/floor.py), after the site")
    floor_options.add_argument("--no-floor", action="store_true", help="skip the floor")
    floor_options.add_argument(
        "--floor-seconds", type=float, default=None, help="measured time (default: --seconds)"
    )
    floor_options.add_argument(
        "--floor-frame-bytes", type=int, default=300, help="its frame size (300-2500)"
    )
    floor_options.add_argument(
        "--floor-ports",
        type=int,
        nargs="+",
        default=None,
        help="as many as --ports (default: each of --ports + 10)",
    )
    floor_options.add_argument(
        "--transaction-floor",
        action="store_true",
        help="also the floor with a committed transaction per action (bench/floor.py --transaction)",
    )
    storm_options = parser.add_argument_group("a reconnect storm, after --seconds of play")
    storm_options.add_argument(
        "--storm", type=int, default=0, metavar="N", help="sockets that arrive at once"
    )
    storm_options.add_argument(
        "--storm-rate", type=float, default=30, metavar="R", help="storm sockets a second"
    )
    storm_options.add_argument(
        "--storm-seconds",
        type=float,
        default=None,
        help="how long the storm's window lasts (default N/R + 30)",
    )
    storm_options.add_argument(
        "--storm-kinds",
        default="seat,me,watch",
        help="the storm's sockets, in turn: seat (a seated bot's second table socket), me (its "
        "ws/me/), watch (a new user's table socket), lobby (a new user's lobby socket)",
    )
    parser.add_argument("--bots-worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--storm-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bots_worker:
        return bots_worker()
    if args.storm_worker:
        return storm_worker()
    args.run_dir = args.run_dir.resolve()
    (args.run_dir / "bots").mkdir(parents=True, exist_ok=True)

    env = cluster_env(args)
    cluster("stop", env)
    for log in [*args.run_dir.glob("*.log"), *args.run_dir.glob("bots/*.log")]:
        log.unlink()
    print(cluster("start", env).strip())
    try:
        use_cluster_settings(env)
        run_id = str(int(time.time()))[-6:]
        made = time.monotonic()
        plan = prepare(args.tables, run_id, args.seed)
        storm_sockets = storm_plan(plan, args, run_id) if args.storm else []
        print(
            f"load: {args.tables} tables, {len(plan)} bots and {len(storm_sockets)} storm sockets "
            f"with sessions in {time.monotonic() - made:.1f}s"
        )
        run = play(plan, args, storm_sockets)
    finally:
        if not args.keep:
            cluster("stop", env)
    chips_ok, summary = (
        audit() if not args.keep else (True, "audit skipped (--keep: cluster still running)")
    )
    log_errors = server_log_errors(args.run_dir)
    kinds = [] if args.no_floor else [False, True] if args.transaction_floor else [False]
    floors = {}
    for transaction in kinds:  # the plain floor, and the one with a transaction if asked
        floors[transaction] = floor_bench.run_floor(
            tables=args.tables,
            think=args.think,
            seconds=args.floor_seconds or args.seconds,
            warmup=args.warmup,
            frame_bytes=args.floor_frame_bytes,
            ports=args.floor_ports or [port + 10 for port in args.ports],
            redis_url=args.redis_url,
            layer=cluster_layer(args),
            run_dir=args.run_dir / "floor",
            seed=args.seed,
            transaction=transaction,
        )
    report(args, plan, run, chips_ok, summary, log_errors, floors.get(False), floors.get(True))
    return 0


def cluster_layer(args) -> str:
    """The channel layer the cluster ran with (bin/cluster's pubsub unless --server-env says)."""
    chosen = dict(item.split("=", 1) for item in args.server_env).get("CASINO_CHANNEL_LAYER")
    return chosen or "pubsub"


def report(args, plan, run, chips_ok, summary, log_errors, floor, transaction_floor=None) -> None:
    figures: Figures = run["figures"]
    window = run["window"]
    elapsed = window.elapsed
    actions = run["actions"]
    print(
        f"load: measured {elapsed:.1f}s; actions {actions} ({actions / elapsed:.1f}/s); "
        f"latency samples {len(figures.latencies)}; sockets open at the end {run['connected_at_end']}/{len(plan)}; "
        f"think {args.think} s"
    )
    print(
        f"load: client errors {dict(figures.errors) or 'none'}; server log errors {log_errors}; "
        f"events lost {figures.lost_events}, reordered {figures.reordered}, duplicated {figures.duplicates}, "
        f"actions not seen by every socket {figures.incomplete_broadcasts}; "
        f"handshakes refused as busy and tried again {figures.refused_handshakes}"
    )
    for kind, values in sorted(figures.latencies_by_kind.items()):
        print(
            f"load: latency when the act caused {kind}: n={len(values)} p50 {percentile(values, 0.5) * 1000:.0f} ms, "
            f"p99 {percentile(values, 0.99) * 1000:.0f} ms"
        )
    answers = figures.answer_latencies
    print(
        f"load: act -> its own ok (server work, before the broadcast is delivered): p50 "
        f"{percentile(answers, 0.5) * 1000:.0f} ms, p99 {percentile(answers, 0.99) * 1000:.0f} ms"
    )
    lag_p99 = max((percentile(lag, 0.99) for lag in run["lags"]), default=float("nan"))
    lag_p50 = max((percentile(lag, 0.5) for lag in run["lags"]), default=float("nan"))
    print(
        f"load: bot event-loop lag p50 {lag_p50 * 1000:.1f} ms, p99 {lag_p99 * 1000:.1f} ms "
        f"(worst of {run['bot_procs']} bot processes; part of every latency below)"
    )
    print(
        f"load: machine busy {window.machine_percent:.0f}% of one core ({window.cores} cores; "
        f"load average {window.load_before} before, {window.load_after} after), "
        f"everything included; the rows below are ours"
    )
    server_cpu = cpu_table(window, actions)
    print(summary.splitlines()[-1] if chips_ok else summary)
    floor_ms = float("nan")
    if floor is not None:
        floor_bench.report(floor)
        print(floor_bench.summary(floor))
        floor_ms = floor["floor_ms_per_action"]
    cpu_ms = floor_bench.per_action_ms(server_cpu, actions)
    if floor is not None:
        print(
            f"load: server CPU per action {cpu_ms:.2f} ms = {cpu_ms / floor_ms:.1f}x the floor "
            f"({floor_ms:.2f} ms of Daphne; with Redis {floor_ms + floor['redis_ms_per_action']:.2f} ms); "
            f"target at most 2x"
        )
    if floor is not None and transaction_floor is not None:
        floor_bench.report(transaction_floor, prefix="transaction floor")
        print(floor_bench.summary(transaction_floor))
        least = (
            transaction_floor["floor_ms_per_action"]
            + transaction_floor["postgres_ms_per_action"]
            + transaction_floor["redis_ms_per_action"]
        )
        print(
            f"load: a committed transaction per action alone costs {least:.2f} ms of server CPU "
            f"(Daphne, PostgreSQL, Redis) = {least / floor_ms:.1f}x the floor; the site "
            f"{cpu_ms:.2f} ms = {cpu_ms / least:.1f}x that"
        )
    storm_text = storm_report(args, run) if run.get("storm") is not None else ""
    errors = figures.error_count + log_errors
    lost = figures.lost_events + figures.reordered + figures.duplicates
    lat = figures.latencies
    floor_text = f"{floor_ms:.2f}" if floor is not None else "skipped"
    print(
        f"load: tables={args.tables} bots={len(plan)} seconds={elapsed:.0f} "
        f"hands_per_s={figures.hands_ended / elapsed:.2f} p50_ms={percentile(lat, 0.5) * 1000:.0f} "
        f"p95_ms={percentile(lat, 0.95) * 1000:.0f} p99_ms={percentile(lat, 0.99) * 1000:.0f} "
        f"errors={errors} lost_events={lost} chips_ok={'yes' if chips_ok else 'no'} "
        f"cpu_ms_per_action={cpu_ms:.2f} floor_ms_per_action={floor_text} think={args.think}"
        f" routing={'sticky' if args.sticky else 'spread'}{storm_text}"
    )


def server_cpu(window) -> float:
    """The server's CPU seconds over a window (bots, the storm and this process left out)."""
    return sum(usage.cpu for name, usage in window.groups.items() if kind_of(name) is not None)


def storm_report(args, run) -> str:
    """Prints the storm's lines; returns the summary line's storm fields."""
    storm = run["storm"]
    sockets = args.storm
    waits = storm["waits"]
    came_in = len(waits)
    never_in = sockets - came_in
    all_in = storm["last_in"] - run["storm_at"] if storm["last_in"] and never_in == 0 else None
    all_in_text = f"{all_in:.1f}" if all_in is not None else "never"
    print(
        f"load: storm: {sockets} sockets ({args.storm_kinds}) arriving at {args.storm_rate:g}/s "
        f"(the last one {sockets / args.storm_rate:.1f}s after the first): {came_in} in, "
        f"{never_in} never in; every one in {all_in_text}"
        f"{' s after the first arrived' if all_in is not None else ''}; handshakes refused as "
        f"busy and tried again {storm['refused']}; errors {storm['errors'] or 'none'}; a socket's "
        f"wait from its first try to its first frame p50 {percentile(waits, 0.5) * 1000:.0f} ms, "
        f"p99 {percentile(waits, 0.99) * 1000:.0f} ms, max {max(waits, default=float('nan')) * 1000:.0f} ms"
    )
    fields = (
        f" storm={sockets} storm_rate={args.storm_rate:g} storm_in={came_in}"
        f" storm_all_in_s={all_in_text} storm_refused={storm['refused']} storm_never_in={never_in}"
    )
    for name, window in zip(("before", "during"), run["phases"]):
        part = run["split"][name]
        actions = part.actions_sent
        lat = part.latencies
        cpu = floor_bench.per_action_ms(server_cpu(window), actions)
        print(
            f"load: play {name} the storm ({window.elapsed:.0f} s): {actions / window.elapsed:.1f} "
            f"actions/s, act to delivery p50 {percentile(lat, 0.5) * 1000:.0f} ms, p99 "
            f"{percentile(lat, 0.99) * 1000:.0f} ms; act to its ok p99 "
            f"{percentile(part.answer_latencies, 0.99) * 1000:.0f} ms; server CPU {cpu:.2f} ms "
            f"per action; machine busy {window.machine_percent:.0f}% of one core"
        )
        fields += (
            f" acts_per_s_{name}={actions / window.elapsed:.1f}"
            f" p50_ms_{name}={percentile(lat, 0.5) * 1000:.0f}"
            f" p99_ms_{name}={percentile(lat, 0.99) * 1000:.0f} cpu_ms_{name}={cpu:.2f}"
        )
    return fields


def cpu_table(window, actions: int) -> float:
    """Prints CPU per process and per kind (% of one core, ms per action, memory); returns the
    server's CPU seconds over the window (bots and this process excluded)."""
    elapsed = window.elapsed

    def row(name, usage_cpu, rss_kb, processes):
        print(
            f"{name:<26}{usage_cpu / elapsed * 100:>8.1f}"
            f"{floor_bench.per_action_ms(usage_cpu, actions):>11.2f}{rss_kb / 1024:>9.1f}{processes:>7}"
        )

    print(f"{'process':<26}{'cpu %':>8}{'ms/action':>11}{'rss MB':>9}{'procs':>7}")
    kinds: dict[str, list] = {kind: [0.0, 0, 0] for kind in SERVER_KINDS}
    others = []
    for name, usage in window.groups.items():
        kind = kind_of(name)
        if kind is None:
            others.append((name, usage))
            continue
        row(name, usage.cpu, usage.rss_kb, usage.processes)
        kinds[kind][0] += usage.cpu
        kinds[kind][1] += usage.rss_kb
        kinds[kind][2] += usage.processes
    print("by kind:")
    for kind, (cpu, rss, processes) in kinds.items():
        row(f"  {kind}", cpu, rss, processes)
    total = sum(cpu for cpu, _, _ in kinds.values())
    row(
        "server total",
        total,
        sum(rss for _, rss, _ in kinds.values()),
        sum(p for _, _, p in kinds.values()),
    )
    print("not the server:")
    for name, usage in others:
        row(f"  {name}", usage.cpu, usage.rss_kb, usage.processes)
    return total


if __name__ == "__main__":
    sys.exit(main())
