"""The floor: the least CPU a table action can cost in this stack (docs/performance.md).

    .venv/bin/python bench/floor.py --tables 50 --seconds 30 --frame-bytes 300
    .venv/bin/python bench/floor.py --tables 100 --human --frame-bytes 2500

Starts Daphne through bin/daphne-serve (the site's options) on a bare Channels consumer
(bench/floor_app.py) and the site's channel layer (REDIS_URL, CASINO_CHANNEL_LAYER=pubsub as
bin/cluster), no database. Bots in processes of their own drive T tables x 6 sockets: one seat
at a time acts after its think time, as at a poker table; the server turns the act frame into
one group message, and each of the table's 6 sockets gets one frame of --frame-bytes; the next
seat acts once its own frame arrives. Measured over a window after the warm-up:

- floor_ms_per_action: CPU of the Daphne process(es) (/proc/<pid>/stat utime+stime) over the
  window, divided by the actions sent in it;
- redis_ms_per_action: the same for redis-server (the whole server: other users show here);
- actions/s, latency from sending `act` to its echo on the sender's socket (p50/p99), and to the
  last socket of the table having it; frames lost; the bots' CPU and event-loop lag apart.

The last line is the summary:

    floor: tables=T sockets=S actions_per_s=.. p50_ms=.. p99_ms=.. floor_ms_per_action=..
        redis_ms_per_action=.. servers=N frame_bytes=B think=LO-HI     (one line)

--transaction adds what the issue keeps for every action: before the group message, one
committed PostgreSQL transaction on the server's database thread (lock the table's row, write its
state and seq, log the action; bench/floor_db.py), in a database of its own (casino_floor on
DATABASE_URL's server). It prints the PostgreSQL backends' CPU per action too, and adds
`postgres_ms_per_action=..` and `transaction=yes` to the summary line.

bench/load.py runs the same measurement beside the real site (run_floor below).
"""

import argparse
import json
import math
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench import floor_db  # noqa: E402
from bench.floor_bots import SEATS  # noqa: E402
from bench.procstat import (  # noqa: E402
    CpuWindow,
    bot_results,
    measure_window,
    postgres_pids,
    redis_pids,
    tree,
)

QUICK = "0.1-0.6"  # bots: the quick players
HUMAN = "1.5-4"  # a human pace


def think_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def add_pace_options(parser: argparse.ArgumentParser, default: str = QUICK) -> None:
    """--think LO-HI, or --quick (0.1-0.6 s) or --human (1.5-4 s): shared with bench/load.py."""
    pace = parser.add_mutually_exclusive_group()
    pace.add_argument(
        "--think", default=default, help=f"think time range in seconds (default {default})"
    )
    pace.add_argument(
        "--quick", dest="think", action="store_const", const=QUICK, help=f"quick bots: {QUICK} s"
    )
    pace.add_argument(
        "--human", dest="think", action="store_const", const=HUMAN, help=f"human pace: {HUMAN} s"
    )


def default_bot_procs(sockets: int, per_process: int = 500) -> int:
    return max(2, min(8, math.ceil(sockets / per_process)))


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def per_action_ms(seconds: float, actions: int) -> float:
    return seconds * 1000 / actions if actions else float("nan")


# --- the servers and the run ----------------------------------------------------------------------


def server_env(redis_url: str, layer: str, encode: str, database: str | None = None) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "CASINO_")) and k not in ("DATABASE_URL", "REDIS_URL")
    }
    env.update(REDIS_URL=redis_url, CASINO_CHANNEL_LAYER=layer, FLOOR_ENCODE=encode)
    if database:
        env["FLOOR_DATABASE"] = database
    return env


def start_servers(ports, env, run_dir: Path) -> list[subprocess.Popen]:
    """Daphne as bin/cluster starts it (bin/daphne-serve, --proxy-headers, an access log)."""
    servers = []
    for port in ports:
        log = open(run_dir / f"floor-{port}.log", "w")  # noqa: SIM115  (the server keeps it)
        servers.append(
            subprocess.Popen(
                [
                    str(ROOT / "bin" / "daphne-serve"),
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--proxy-headers",
                    "--access-log",
                    str(run_dir / f"floor-access-{port}.log"),
                    "bench.floor_app:application",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        )
    for port, server in zip(ports, servers):
        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                stop_servers(servers)
                tail = (run_dir / f"floor-{port}.log").read_text()[-2000:]
                raise SystemExit(f"floor: the server on port {port} died:\n{tail}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                stop_servers(servers)
                raise SystemExit(f"floor: the server on port {port} is not up after 30 s")
            time.sleep(0.2)
    return servers


def stop_servers(servers: list[subprocess.Popen]) -> None:
    for server in servers:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
    for server in servers:
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def run_floor(
    *,
    tables: int,
    think: str,
    seconds: float,
    warmup: float = 5,
    frame_bytes: int = 300,
    ports=(8141,),
    redis_url: str = "redis://127.0.0.1:6379/6",
    layer: str = "pubsub",
    encode: str = "once",
    bot_procs: int | None = None,
    connect_rate: float = 200,
    run_dir: Path = ROOT / "artifacts" / "floor",
    seed: int = 7,
    transaction: bool = False,
) -> dict:
    """Start the floor servers, play, measure, stop. Returns the figures (report() prints them).
    `transaction`: every action also commits a transaction (the module's docstring)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    sockets = tables * SEATS
    procs = bot_procs or default_bot_procs(sockets)
    run_id = secrets.token_hex(4)  # group names of this run only (pub/sub spans every Redis db)
    urls = [f"ws://127.0.0.1:{port}/ws/floor/" for port in ports]
    plans = [[] for _ in range(procs)]
    for t in range(tables):
        name = f"{run_id}-{t}"
        seat_urls = [f"{urls[(t * SEATS + s) % len(urls)]}{name}/" for s in range(SEATS)]
        plans[t % procs].append((name, seat_urls))

    database = None
    if transaction:
        server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
        database = floor_db.prepare(server, [name for mine in plans for name, _ in mine])
    servers = start_servers(ports, server_env(redis_url, layer, encode, database), run_dir)
    workers: list[subprocess.Popen] = []
    try:
        for i, mine in enumerate(plans):
            log = open(run_dir / f"floor-bots-{i}.log", "w")  # noqa: SIM115
            worker = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("floor_bots.py"))],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )
            plan = {
                "tables": mine,
                "think": think_range(think),
                "frame_bytes": frame_bytes,
                "connect_rate": connect_rate / procs,
                "seed": seed * 1000 + i,
            }
            worker.stdin.write(json.dumps(plan) + "\n")
            worker.stdin.flush()
            workers.append(worker)
        server_pids = [s.pid for s in servers]
        worker_pids = [w.pid for w in workers]

        def classify(stats):
            backends, shared = postgres_pids(stats, floor_db.DATABASE) if transaction else ([], [])
            return {
                "daphne": [p for pid in server_pids for p in tree(stats, pid)],
                "postgres backends": backends,
                "postgres shared": shared,
                "redis": redis_pids(stats),
                "bots": [p for pid in worker_pids for p in tree(stats, pid)],
                "driver": [os.getpid()],
            }

        opened = 0
        for i, worker in enumerate(workers):
            line = worker.stdout.readline()
            if not line:
                tail = (run_dir / f"floor-bots-{i}.log").read_text()[-2000:]
                raise SystemExit(f"floor: bot process {i} failed:\n{tail}")
            opened += json.loads(line)["open"]
        # The servers' idle cost: every socket open, nobody playing yet (the channel layer's
        # reader and Daphne's timers run regardless).
        time.sleep(0.5)
        idle = CpuWindow(classify).start()
        time.sleep(2)
        idle = idle.stop()
        play_at = time.monotonic() + 0.2
        measure_at = play_at + warmup
        end_at = measure_at + seconds
        times = {"play_at": play_at, "measure_at": measure_at, "end_at": end_at}
        for worker in workers:
            worker.stdin.write(json.dumps(times) + "\n")
            worker.stdin.close()
        measured = measure_window(classify, measure_at, end_at)
        results = bot_results(workers, lambda i: run_dir / f"floor-bots-{i}.log", "floor")
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
        stop_servers(servers)

    merged = {"errors": Counter(), "echo": [], "all": [], "lag_p99": []}
    for result in results:
        for key in ("actions", "frames_expected", "frames_delivered", "stalls", "lost_echoes"):
            merged[key] = merged.get(key, 0) + result[key]
        for key in ("connected", "sockets"):
            merged[key] = merged.get(key, 0) + result[key]
        merged["echo"] += result["echo"]
        merged["all"] += result["all"]
        merged["errors"].update(result["errors"])
        merged["lag_p99"].append(percentile(result["lag"], 0.99))
    actions = merged["actions"]
    return {
        "tables": tables,
        "sockets": sockets,
        "servers": len(ports),
        "bot_procs": procs,
        "think": think,
        "frame_bytes": frame_bytes,
        "layer": layer,
        "encode": encode,
        "window": measured,
        "idle_daphne_percent": idle.cpu("daphne") / idle.elapsed * 100,
        "actions": actions,
        "actions_per_s": actions / measured.elapsed,
        "p50_ms": percentile(merged["echo"], 0.5) * 1000,
        "p99_ms": percentile(merged["echo"], 0.99) * 1000,
        "all_p50_ms": percentile(merged["all"], 0.5) * 1000,
        "all_p99_ms": percentile(merged["all"], 0.99) * 1000,
        "transaction": transaction,
        "floor_ms_per_action": per_action_ms(measured.cpu("daphne"), actions),
        "postgres_ms_per_action": per_action_ms(
            measured.cpu("postgres backends", "postgres shared"), actions
        ),
        "redis_ms_per_action": per_action_ms(measured.cpu("redis"), actions),
        "bots_ms_per_action": per_action_ms(measured.cpu("bots"), actions),
        "lost_frames": merged["frames_expected"] - merged["frames_delivered"],
        "lost_echoes": merged["lost_echoes"],
        "stalls": merged["stalls"],
        "errors": dict(merged["errors"]),
        "connected": merged["connected"],
        "opened": opened,
        "bot_lag_p99_ms": max(merged["lag_p99"], default=float("nan")) * 1000,
    }


def report(floor: dict, prefix: str = "floor") -> None:
    w = floor["window"]
    print(
        f"{prefix}: {floor['tables']} tables x {SEATS} sockets on {floor['servers']} Daphne "
        f"process(es), {floor['layer']} layer, think {floor['think']} s, "
        f"{floor['frame_bytes']}-byte frames (encoded {floor['encode']}), "
        f"{floor['bot_procs']} bot processes"
        + (", a committed transaction per action" if floor.get("transaction") else "")
    )
    print(
        f"{prefix}: measured {w.elapsed:.1f}s; actions {floor['actions']} "
        f"({floor['actions_per_s']:.1f}/s); sockets opened {floor['opened']}/{floor['sockets']}, "
        f"open at the end {floor['connected']}"
    )
    print(
        f"{prefix}: act -> echo on the sender p50 {floor['p50_ms']:.1f} ms, p99 {floor['p99_ms']:.1f} ms; "
        f"-> all {SEATS} sockets p50 {floor['all_p50_ms']:.1f} ms, p99 {floor['all_p99_ms']:.1f} ms"
    )
    print(
        f"{prefix}: errors {floor['errors'] or 'none'}; frames lost {floor['lost_frames']}, "
        f"echoes never seen {floor['lost_echoes']} (10 s after the window), "
        f"stalled tables restarted {floor['stalls']}"
    )
    print(
        f"{prefix}: machine busy {w.machine_percent:.0f}% of one core ({w.cores} cores), "
        f"load average {w.load_before} before, {w.load_after} after"
    )
    print(f"{'process':<24}{'cpu %':>8}{'ms/action':>11}{'rss MB':>9}{'procs':>7}")
    for name in ("daphne", "postgres backends", "postgres shared", "redis", "bots", "driver"):
        usage = w.groups.get(name)
        if usage is None or (name.startswith("postgres") and not floor.get("transaction")):
            continue
        print(
            f"{prefix + ' ' + name:<24}{usage.cpu / w.elapsed * 100:>8.1f}"
            f"{per_action_ms(usage.cpu, floor['actions']):>11.2f}{usage.rss_kb / 1024:>9.1f}"
            f"{usage.processes:>7}"
        )
    print(
        f"{prefix}: bot event-loop lag p99 {floor['bot_lag_p99_ms']:.1f} ms (worst process); "
        f"Daphne idle with every socket open {floor['idle_daphne_percent']:.1f}% of a core"
    )


def summary(floor: dict) -> str:
    return (
        f"floor: tables={floor['tables']} sockets={floor['sockets']} "
        f"actions_per_s={floor['actions_per_s']:.1f} p50_ms={floor['p50_ms']:.1f} "
        f"p99_ms={floor['p99_ms']:.1f} floor_ms_per_action={floor['floor_ms_per_action']:.2f} "
        f"redis_ms_per_action={floor['redis_ms_per_action']:.2f} servers={floor['servers']} "
        f"frame_bytes={floor['frame_bytes']} think={floor['think']}"
        + (
            f" postgres_ms_per_action={floor['postgres_ms_per_action']:.2f} transaction=yes"
            if floor.get("transaction")
            else ""
        )
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30, help="measured time")
    parser.add_argument("--warmup", type=float, default=5)
    add_pace_options(parser)
    parser.add_argument(
        "--frame-bytes", type=int, default=300, help="size of each outgoing frame (300-2500)"
    )
    parser.add_argument("--ports", type=int, nargs="+", default=[8141], help="one per Daphne")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--layer", choices=["pubsub", "core"], default="pubsub")
    parser.add_argument(
        "--encode",
        choices=["once", "each"],
        default="once",
        help="encode the event once and forward text (default), or once per socket (send_json)",
    )
    parser.add_argument(
        "--bot-procs", type=int, default=None, help="default: one per 500 sockets, 2 to 8"
    )
    parser.add_argument("--connect-rate", type=float, default=200, help="new sockets per second")
    parser.add_argument("--run-dir", type=Path, default=ROOT / "artifacts" / "floor")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--transaction",
        action="store_true",
        help="each action also commits a PostgreSQL transaction (lock, update, log)",
    )
    args = parser.parse_args(argv)
    floor = run_floor(
        tables=args.tables,
        think=args.think,
        seconds=args.seconds,
        warmup=args.warmup,
        frame_bytes=args.frame_bytes,
        ports=args.ports,
        redis_url=args.redis_url,
        layer=args.layer,
        encode=args.encode,
        bot_procs=args.bot_procs,
        connect_rate=args.connect_rate,
        run_dir=args.run_dir.resolve(),
        seed=args.seed,
        transaction=args.transaction,
    )
    report(floor)
    print(summary(floor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
