"""Load run on the cluster topology (bin/cluster): T tables x 6 bots for a fixed time. Prints
figures, asserts nothing (docs/performance.md has the results and how to read them).

    .venv/bin/python bench/load.py --tables 10 --seconds 60

Starts its own cluster on a fresh database (casino_load), creates the tables (1-second
countdowns) and the bot accounts directly in that database, gives each bot a session, then plays
over real websockets with the bots spread over both servers. Measures hands per second, the
latency from sending `act` until every socket at the table has the resulting event, errors,
lost or out-of-order events (seq gaps), CPU and memory of every process, and audits the chips
once the cluster has stopped. The last line is the summary:

    load: tables=T bots=B seconds=S hands_per_s=H p50_ms=.. p95_ms=.. p99_ms=.. errors=E lost_events=L chips_ok=yes|no
"""

import argparse
import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench.bots import Bot, Figures, TableWatch, parse_think, percentile  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024
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
    from django.db import connection

    from holdem.audit import audit_chips

    connection.close()  # the cluster's processes are gone; start from a fresh connection
    result = audit_chips()
    return result.ok, result.summary()


# --- processes ------------------------------------------------------------------------------------


def read_stat(pid: int):
    """(command name, parent pid, CPU seconds of it and of its reaped children, resident kB), or
    None if it has gone. Reaped children count so that short-lived processes (PostgreSQL
    backends, Celery pool processes) are not missed."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
        statm = Path(f"/proc/{pid}/statm").read_text().split()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    cpu = sum(int(value) for value in fields[11:15]) / CLOCK_TICKS  # utime stime cutime cstime
    return name, int(fields[1]), cpu, int(statm[1]) * PAGE_KB


def command_line(pid: int) -> str:
    try:
        return (
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        )
    except OSError:
        return ""


def process_groups(run_dir: Path, database: str) -> dict[str, list[int]]:
    """The cluster's processes by role (with their children: Celery's pool), the PostgreSQL
    backends serving the cluster's database (not other users of the same server), Redis, and
    this process (the bots). Looked up afresh at each sample: processes come and go."""
    stats = {
        int(p.name): s
        for p in Path("/proc").iterdir()
        if p.name.isdigit()
        if (s := read_stat(int(p.name)))
    }
    children: dict[int, list[int]] = {}
    for pid, (_, parent, _, _) in stats.items():
        children.setdefault(parent, []).append(pid)

    def tree(pid):
        return [pid] + [c for child in children.get(pid, []) for c in tree(child)]

    groups = {}
    for pid_file in sorted(run_dir.glob("*.pid")):
        pid = int(pid_file.read_text())
        if pid in stats:
            groups[pid_file.stem] = tree(pid)
    groups["postgres backends"] = [
        pid
        for pid, s in stats.items()
        if s[0] == "postgres" and f" {database} " in command_line(pid)
    ]
    groups["redis"] = [pid for pid, s in stats.items() if s[0] == "redis-server"]
    groups["bots (this process)"] = [os.getpid()]
    return groups


def sample(run_dir: Path, database: str) -> dict[str, dict[int, tuple[float, int]]]:
    """Per group, per process: (CPU seconds, resident kB)."""
    answer = {}
    for name, pids in process_groups(run_dir, database).items():
        answer[name] = {pid: (s[2], s[3]) for pid in pids if (s := read_stat(pid))}
    return answer


def cpu_percent(before: dict, after: dict, elapsed: float) -> float:
    """CPU used during the window by the processes alive at its end (a process that ended
    inside the window, such as a closed PostgreSQL connection, is not counted)."""
    used = sum(cpu - before.get(pid, (0, 0))[0] for pid, (cpu, _) in after.items())
    return used / elapsed * 100


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far: other users of it show here."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return (sum(values) - idle) / CLOCK_TICKS, sum(values) / CLOCK_TICKS


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


# --- the run --------------------------------------------------------------------------------------


async def loop_lag(figures_lag: list, stop: asyncio.Event) -> None:
    """How late this process's event loop runs: the bots' own share of the measured latency."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.05)
        figures_lag.append(time.perf_counter() - started - 0.05)


async def play(plan, args, figures: Figures) -> dict:
    urls = [f"http://127.0.0.1:{port}" for port in args.ports]
    watches: dict[int, TableWatch] = {}
    rng = random.Random(args.seed)
    bots = []
    for i, entry in enumerate(plan):
        watch = watches.setdefault(entry["table_id"], TableWatch(entry["table_id"], figures))
        bots.append(
            Bot(
                name=entry["name"],
                base_url=urls[i % len(urls)],
                session_id=entry["session"],
                table_id=entry["table_id"],
                watch=watch,
                figures=figures,
                think=parse_think(args.think),
                rng=random.Random(rng.random()),
                buy_in=entry["buy_in"],
                seat=entry["seat"],
            )
        )
    ramp = len(bots) / args.connect_rate
    end = time.monotonic() + ramp + args.warmup + args.seconds
    figures.measuring = False
    tasks = []
    for bot in bots:  # open the tabs at a steady rate, like players arriving
        tasks.append(asyncio.create_task(bot.run(end)))
        await asyncio.sleep(1 / args.connect_rate)
    await asyncio.sleep(args.warmup)
    lag, stop = [], asyncio.Event()
    lag_task = asyncio.create_task(loop_lag(lag, stop))
    figures.measuring = True
    before, started = sample(args.run_dir, args.database), time.monotonic()
    machine_before = machine_busy()
    actions_before = figures.actions_sent
    await asyncio.sleep(max(0.0, end - time.monotonic() - 0.5))
    figures.measuring = False
    elapsed = time.monotonic() - started
    after = sample(args.run_dir, args.database)
    machine_after = machine_busy()
    connected = sum(len(w.connected) for w in watches.values())
    stop.set()
    await asyncio.gather(*tasks, lag_task, return_exceptions=True)
    busy = machine_after[0] - machine_before[0]
    return {
        "elapsed": elapsed,
        "before": before,
        "after": after,
        "lag": lag,
        "machine": (
            busy / elapsed * 100,
            os.cpu_count(),
            Path("/proc/loadavg").read_text().split()[0],
        ),
        "actions": figures.actions_sent - actions_before,
        "connected_at_end": connected,
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
    parser.add_argument("--think", default="0.1-0.6", help="bot think time range in seconds")
    parser.add_argument("--ports", type=int, nargs="+", default=[8131, 8132])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="casino_load")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/10")
    parser.add_argument("--run-dir", type=Path, default=ROOT / "artifacts" / "load")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="leave the cluster running afterwards")
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra environment for the cluster's processes (experiments)",
    )
    args = parser.parse_args(argv)
    args.run_dir = args.run_dir.resolve()

    env = cluster_env(args)
    cluster("stop", env)
    for log in args.run_dir.glob("*.log"):
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
        figures = Figures()
        bound = len(plan) / args.connect_rate + args.warmup + args.seconds + 60
        run = asyncio.run(asyncio.wait_for(play(plan, args, figures), timeout=bound))
    finally:
        if not args.keep:
            cluster("stop", env)
    chips_ok, summary = (
        audit() if not args.keep else (True, "audit skipped (--keep: cluster still running)")
    )
    log_errors = server_log_errors(args.run_dir)
    report(args, plan, figures, run, chips_ok, summary, log_errors)
    return 0


def report(args, plan, figures: Figures, run, chips_ok, summary, log_errors) -> None:
    elapsed = run["elapsed"]
    print(
        f"load: measured {elapsed:.1f}s; actions {run['actions']} ({run['actions'] / elapsed:.1f}/s); "
        f"latency samples {len(figures.latencies)}; sockets open at the end {run['connected_at_end']}/{len(plan)}"
    )
    print(
        f"load: client errors {dict(figures.errors) or 'none'}; server log errors {log_errors}; "
        f"events lost {figures.lost_events}, reordered {figures.reordered}, duplicated {figures.duplicates}, "
        f"actions not seen by every socket {figures.incomplete_broadcasts}"
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
    lag = run["lag"]
    print(
        f"load: bot event-loop lag p50 {percentile(lag, 0.5) * 1000:.1f} ms, p99 {percentile(lag, 0.99) * 1000:.1f} ms "
        f"(part of every latency below)"
    )
    machine_cpu, cores, load_average = run["machine"]
    print(
        f"load: machine busy {machine_cpu:.0f}% of one core ({cores} cores; load average {load_average}), "
        f"everything included; the rows below are ours"
    )
    print(f"{'process':<22}{'cpu %':>8}{'rss MB':>9}")
    for name, processes in run["after"].items():
        cpu = cpu_percent(run["before"].get(name, {}), processes, elapsed)
        rss = sum(kb for _, kb in processes.values())
        print(f"{name:<22}{cpu:>8.1f}{rss / 1024:>9.1f}")
    print(summary.splitlines()[-1] if chips_ok else summary)
    errors = figures.error_count + log_errors
    lost = figures.lost_events + figures.reordered + figures.duplicates
    lat = figures.latencies
    print(
        f"load: tables={args.tables} bots={len(plan)} seconds={elapsed:.0f} "
        f"hands_per_s={figures.hands_ended / elapsed:.2f} p50_ms={percentile(lat, 0.5) * 1000:.0f} "
        f"p95_ms={percentile(lat, 0.95) * 1000:.0f} p99_ms={percentile(lat, 0.99) * 1000:.0f} "
        f"errors={errors} lost_events={lost} chips_ok={'yes' if chips_ok else 'no'}"
    )


if __name__ == "__main__":
    sys.exit(main())
