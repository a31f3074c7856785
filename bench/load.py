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
from bench.bots import Bot, Figures, TableWatch, parse_think, percentile  # noqa: E402
from bench.procstat import bot_results, measure_window, postgres_pids, redis_pids, tree  # noqa: E402

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
    if group == "beat":
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
    }


def bots_worker() -> int:
    plan = json.loads(sys.stdin.readline())
    sys.stdout.write(json.dumps(asyncio.run(bots(plan))) + "\n")
    return 0


def play(plan, args) -> dict:
    """Spread the tables over bot processes, play, and measure every process over the window."""
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
    end_at = measure_at + args.seconds
    workers = []
    try:
        for i, share in enumerate(shares):
            log = open(args.run_dir / "bots" / f"{i}.log", "w")  # noqa: SIM115
            worker = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--bots-worker"],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )
            worker.stdin.write(
                json.dumps(
                    {
                        "entries": share,
                        "think": parse_think(args.think),
                        "seed": args.seed * 1000 + i,
                        "connect_rate": args.connect_rate / procs,
                        "ramp_at": ramp_at,
                        "measure_at": measure_at,
                        "end_at": end_at,
                    }
                )
                + "\n"
            )
            worker.stdin.close()
            workers.append(worker)
        classify = classifier(args.run_dir, args.database, [w.pid for w in workers])
        measured = measure_window(classify, measure_at, end_at)
        results = bot_results(workers, lambda i: args.run_dir / "bots" / f"{i}.log", "load")
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    figures = Figures(measuring=False)
    lags = []
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
    return {
        "window": measured,
        "figures": figures,
        "lags": lags,
        "actions": figures.actions_sent,
        "connected_at_end": sum(r["connected"] for r in results),
        "bot_procs": procs,
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
    parser.add_argument("--bots-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bots_worker:
        return bots_worker()
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
        print(
            f"load: {args.tables} tables, {len(plan)} bots with sessions in {time.monotonic() - made:.1f}s"
        )
        run = play(plan, args)
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
        f" routing={'sticky' if args.sticky else 'spread'}"
    )


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
