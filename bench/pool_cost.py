"""What a table action costs directly and through PgBouncer in transaction mode, side by side in
one run: bench/act_cost.py run in turns against PostgreSQL itself (prepared statements on, as
today, and off) and against a PgBouncer this script starts on a free port (a temporary
configuration, one server connection, prepared statements off: Debian bookworm's 1.18 cannot
keep them). Prints each run's figures and the mean per configuration. Asserts nothing.

    .venv/bin/python bench/pool_cost.py --hands 60 --rounds 2

PgBouncer's own CPU per action is shown apart (`pgbouncer ms`): it is a process every
statement passes through. `wall_ms` is the action's time as its caller waits
for it (commits included); `queries` the statements it sent.
"""

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from tests.pgbouncer import pgbouncer, pgbouncer_version  # noqa: E402

LINE = re.compile(r"act_cost: (act|end)\s+n=\s*(\d+) (.*)")
TOTAL = re.compile(r"act_cost: per player action .* app_ms=([\d.]+) postgres_ms=([\d.]+)")
FIGURE = re.compile(r"(\w+)=\s*([\d.]+)")

# (name, environment, through the pooler)
CONFIGURATIONS = (
    ("direct, prepared", {"CASINO_PREPARED_STATEMENTS": "1"}, False),
    ("direct, not prepared", {"CASINO_PREPARED_STATEMENTS": "0"}, False),
    ("pgbouncer transaction", {"DATABASE_POOL_MODE": "transaction"}, True),
)


def run(
    args: argparse.Namespace, env: dict[str, str], port: int, pooler: int | None
) -> dict[str, float]:
    command = [
        sys.executable,
        str(ROOT / "bench" / "act_cost.py"),
        f"--hands={args.hands}",
        f"--warmup={args.warmup}",
        f"--redis-url={args.redis_url}",
        f"--port={port}",
    ]
    if pooler is not None:
        command.append(f"--pooler-pid={pooler}")
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("DATABASE_") and k != "CASINO_PREPARED_STATEMENTS"
    }
    done = subprocess.run(
        command, cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"act_cost failed:\n{done.stderr[-3000:]}")
    figures: dict[str, float] = {}
    for line in done.stdout.splitlines():
        if found := LINE.match(line):
            kind = found.group(1)
            for name, value in FIGURE.findall(found.group(3)):
                figures[f"{kind}_{name}"] = float(value)
        elif found := TOTAL.match(line):
            figures["all_app_ms"] = float(found.group(1))
            figures["all_postgres_ms"] = float(found.group(2))
    return figures


COLUMNS = (
    ("act_queries", "mid-hand queries"),
    ("act_app_ms", "app ms"),
    ("act_postgres_ms", "postgres ms"),
    ("act_pooler_ms", "pgbouncer ms"),
    ("act_wall_ms", "wall ms"),
    ("end_queries", "hand-end queries"),
    ("end_wall_ms", "hand-end wall ms"),
    ("all_app_ms", "app ms/action"),
    ("all_postgres_ms", "postgres ms/action"),
)


def show(name: str, figures: dict[str, float]) -> None:
    cells = " ".join(f"{label}={figures.get(key, float('nan')):.2f}" for key, label in COLUMNS)
    print(f"pool_cost: {name:22} {cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    args = parser.parse_args()
    major, minor = pgbouncer_version()
    print(f"pool_cost: PgBouncer {major}.{minor}, pool_mode=transaction, one server connection")
    results: dict[str, list[dict[str, float]]] = {name: [] for name, _, _ in CONFIGURATIONS}
    with pgbouncer(pool_size=1) as bouncer:
        for round_number in range(args.rounds):
            for name, env, pooled in CONFIGURATIONS:
                port, pooler = (bouncer.port, bouncer.pid) if pooled else (5432, None)
                figures = run(args, env, port, pooler)
                results[name].append(figures)
                show(f"{name} #{round_number + 1}", figures)
    print("pool_cost: means")
    for name, runs in results.items():
        keys = {key for figures in runs for key in figures}
        show(name, {key: sum(f.get(key, 0.0) for f in runs) / len(runs) for key in keys})


if __name__ == "__main__":
    main()
