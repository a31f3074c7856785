"""The deadline clock at scale: N tables, D of them due each second, fired (a) by the serial walk
(deadlines_fire_due firing every due table in this process, one after another: the clock before
the chunks, and the embedded clock's still) and (b) by the chunked path beat's tick takes (one
scan here, chunks of 50 ids sent through Redis to W real Celery worker processes that fire them
in parallel), side by side in one run on one database.

    .venv/bin/python bench/clock.py                          # 30,000 tables, 500 due a second
    .venv/bin/python bench/clock.py --tables 3000 --due 100 --ticks 3 --workers 2   # a quick one

The database (--database, casino_bench_clock) is dropped and made again: N seated heads-up
tables (bulk_create: the tables, two players each, their seats), all with a deadline in the
future (a countdown or a turn) so that the scan reads them all and finds only the due ones. Each
tick makes D tables due, a realistic mix: a share (--turns, 0.4) are hands whose turn ran out
(a timeout: the player to act folds or checks, the hand goes on or ends), the rest are
countdowns that ended (hand_start deals a hand: blinds, cards, the deck commitment). Every tick
takes tables fresh to it, dealt beforehand where it needs hands in progress.

Per tick and path it prints: the scan (the one query finding the due tables), the time until all
D due tables had fired (the serial walk: its call; the chunks: from the tick's start until a
poll of the database finds none of the D still due, polled every 0.1 s, with a further scan and
send every second meanwhile, as beat's next ticks would: a chunk no worker took within 3 s
expired, and its tables go out again), how many scans that took, the CPU seconds the tick cost
(this process, which is the tick and the poll, the workers, and the PostgreSQL backends of the
bench's database), and how many of the D fired. The last line is the summary. Redis
(--redis-url, flushed) carries the chunks; beat is not run: this process is the tick, the next
one a second after the last or as soon as its tables have all fired, whichever is later.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from bench.procstat import CpuWindow, postgres_pids  # noqa: E402

PG_SERVER = "postgres://{user}@{host}:{port}".format(
    user=os.environ.get("PGUSER", "postgres"),
    host=os.environ.get("PGHOST", "127.0.0.1"),
    port=os.environ.get("PGPORT", "5432"),
)


def settings_env(args) -> dict[str, str]:
    """Production settings over plain http (as bin/cluster), on the bench's database and Redis."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CASINO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="casino.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="bench-clock-" + "0123456789abcdef" * 3,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_LOG_LEVEL="ERROR",
        DATABASE_URL=f"{PG_SERVER}/{args.database}",
        REDIS_URL=args.redis_url,
    )
    env.pop("CELERY_BROKER_URL", None)
    return env


def fresh_database(args, env: dict[str, str]) -> None:
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{args.database}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


@dataclass
class Tick:
    path: str
    scan_ms: float
    fired_in_s: float
    cpu_s: float
    cpu_tick_s: float
    cpu_workers_s: float
    cpu_postgres_s: float
    fired: int
    due: int
    scans: int


def populate(args):
    """N seated tables with a deadline in the future, from one template room; returns the ids
    of the tables in hand (to time out) and not (to deal), in the order the ticks take them."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from holdem.models import Seat, Table
    from holdem.services import room_create

    template = room_create(
        name="bench template",
        preset="nl50",
        turn_seconds=600,
        time_bank_seconds=0,
        countdown_seconds=600,
    )
    values = {
        f.attname: getattr(template, f.attname)
        for f in Table._meta.concrete_fields
        if not f.primary_key and f.attname not in ("name", "created_at")
    }
    later = timezone.now() + timedelta(hours=1)
    values["next_hand_at"] = later
    Table.objects.bulk_create(
        [Table(**values, name=f"bench {n}") for n in range(args.tables)], batch_size=2000
    )
    ids = list(Table.objects.exclude(pk=template.pk).values_list("pk", flat=True))
    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"bench{n}", password="!") for n in range(2 * len(ids))], batch_size=5000
    )
    users = list(User.objects.filter(username__startswith="bench").values_list("pk", flat=True))
    Seat.objects.bulk_create(
        [
            Seat(table_id=table_id, number=number, user_id=users[2 * i + number], stack=5_000)
            for i, table_id in enumerate(ids)
            for number in (0, 1)
        ],
        batch_size=5000,
    )
    per_tick = args.ticks * 2  # both paths
    turns = round(args.due * args.turns)
    needed_turns = turns * per_tick
    needed_deals = (args.due - turns) * per_tick
    if needed_turns + needed_deals > len(ids):
        raise SystemExit(f"{len(ids)} tables are too few for {per_tick} ticks of {args.due}")
    in_hand = ids[:needed_turns]
    to_deal = ids[needed_turns : needed_turns + needed_deals]
    return in_hand, to_deal, turns


def deal_beforehand(table_ids: list[int]) -> None:
    """Deal a hand at each table (their turns then run for 600 s: not due until a tick says so)."""
    from django.utils import timezone

    from holdem.models import Table
    from holdem.services.clock import deadline_chunks, deadline_tables_fire

    for chunk in deadline_chunks(table_ids, size=500):
        Table.objects.filter(pk__in=chunk).update(
            next_hand_at=timezone.now() - timedelta(seconds=1)
        )
        deadline_tables_fire(chunk)
    dealt = Table.objects.filter(pk__in=table_ids).exclude(hand_state="").count()
    if dealt != len(table_ids):
        raise SystemExit(f"only {dealt} of {len(table_ids)} tables were dealt beforehand")


def make_due(turn_ids: list[int], deal_ids: list[int]):
    """Turns that ran out and countdowns that ended, a moment ago; the clock ran a second ago
    (so this is no downtime: the turns time out rather than get a fresh clock)."""
    from django.utils import timezone

    from holdem.models import DEADLINES_CLOCK, ClockBeat, Table

    now = timezone.now()
    past = now - timedelta(milliseconds=200)
    Table.objects.filter(pk__in=turn_ids).update(turn_deadline=past)
    Table.objects.filter(pk__in=deal_ids).update(next_hand_at=past)
    ClockBeat.objects.update_or_create(
        name=DEADLINES_CLOCK, defaults={"ran_at": now - timedelta(seconds=1)}
    )


def still_due(table_ids: list[int]) -> int:
    """How many of `table_ids` still have a turn run out or a countdown ended."""
    from django.db.models import Q
    from django.utils import timezone

    from holdem.models import Table

    now = timezone.now()
    in_hand = ~Q(hand_state="")
    return (
        Table.objects.filter(pk__in=table_ids)
        .filter((Q(turn_deadline__lte=now) & in_hand) | (Q(next_hand_at__lte=now) & ~in_hand))
        .count()
    )


class Cpu:
    """CPU seconds of this process, the workers, and the bench database's PostgreSQL backends,
    sampled every quarter second (bench/procstat.py): a backend that ends meanwhile (a connection
    replaced after CONN_MAX_AGE) still counts up to its last sample."""

    def __init__(self, database: str, workers: list[int]):
        self.database, self.workers = database, workers

    def classify(self, stats) -> dict[str, list[int]]:
        backends, _ = postgres_pids(stats, self.database)
        workers = [pid for pid in self.workers if pid in stats]
        return {"tick": [os.getpid()], "workers": workers, "postgres": backends}

    def window(self) -> CpuWindow:
        return CpuWindow(self.classify, every=0.25).start()


def scan_ms() -> float:
    from django.utils import timezone

    from holdem.services.clock import deadline_tables_due

    started = time.perf_counter()
    deadline_tables_due(timezone.now())
    return (time.perf_counter() - started) * 1000


def run_tick(path: str, turn_ids, deal_ids, cpu: Cpu, send) -> Tick:
    from holdem.services.clock import deadlines_fire_due

    due = [*turn_ids, *deal_ids]
    make_due(turn_ids, deal_ids)
    scan = scan_ms()  # the tick's own scan, timed alone (the same query, the same rows)
    window = cpu.window()
    started = time.perf_counter()
    scans = 1
    if send is None:
        deadlines_fire_due()
        left = still_due(due)
    else:
        # As beat would: a tick a second until every one of these tables fired (the chunks the
        # workers did not take within 3 s expired, and the next scan sends their tables again).
        ticked = time.perf_counter()
        deadlines_fire_due(fire_chunk=send)
        left = still_due(due)
        while left and time.perf_counter() - started < 120:
            time.sleep(0.1)
            if time.perf_counter() - ticked >= 1:
                ticked = time.perf_counter()
                deadlines_fire_due(fire_chunk=send)
                scans += 1
            left = still_due(due)
    fired_in = time.perf_counter() - started
    used = window.stop()
    tick, workers, postgres = used.cpu("tick"), used.cpu("workers"), used.cpu("postgres")
    return Tick(
        path,
        scan,
        fired_in,
        tick + workers + postgres,
        tick,
        workers,
        postgres,
        len(due) - left,
        len(due),
        scans,
    )


def fired_twice(turn_ids: list[int], deal_ids: list[int]) -> int:
    """Tables fired more than once: a dealt table with more than one hand, or a turn that timed
    out more than once (the countdowns run 600 s: no table was due again in the run)."""
    from django.db.models import Count

    from holdem.models import HandAction, HandRecord

    hands = (
        HandRecord.objects.filter(table_id__in=deal_ids)
        .values("table_id")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .count()
    )
    timeouts = (
        HandAction.objects.filter(hand__table_id__in=turn_ids, source="timeout")
        .values("hand__table_id")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .count()
    )
    return hands + timeouts


def start_workers(count: int, env: dict[str, str], log_dir: Path) -> list[subprocess.Popen]:
    celery = str(Path(sys.executable).with_name("celery"))
    workers = []
    for n in range(count):
        log = open(log_dir / f"bench-clock-worker-{n + 1}.log", "w")  # noqa: SIM115
        workers.append(
            subprocess.Popen(
                [
                    celery,
                    "--app=casino",
                    "worker",
                    "--pool=solo",
                    f"--hostname=bench-clock-{n + 1}@%h",
                    "--without-mingle",
                    "--without-gossip",
                    "--loglevel=WARNING",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
    return workers


def workers_ready(redis_url: str, count: int, seconds: float = 60) -> None:
    """Wait until every worker consumes: a ping through the app's control answers from all."""
    from casino.celery import app

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=1.0) or []
        if len(replies) >= count:
            return
    raise SystemExit(f"the workers did not all answer within {seconds:.0f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30_000)
    parser.add_argument("--due", type=int, default=500, help="tables due each tick")
    parser.add_argument("--turns", type=float, default=0.4, help="share of turns timing out")
    parser.add_argument("--ticks", type=int, default=5, help="ticks of each path")
    parser.add_argument("--workers", type=int, default=4, help="Celery worker processes")
    parser.add_argument("--database", default="casino_bench_clock")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--log-dir", type=Path, default=ROOT / "artifacts")
    args = parser.parse_args(argv)
    args.log_dir.mkdir(parents=True, exist_ok=True)

    env = settings_env(args)
    os.environ.update(env)
    print(f"clock bench: {args.tables} tables, {args.due} due a tick, {args.workers} workers")
    fresh_database(args, env)
    import django

    django.setup()
    import redis

    from holdem.tasks import deadline_chunk_send

    redis.Redis.from_url(args.redis_url).flushdb()
    started = time.perf_counter()
    in_hand, to_deal, turns = populate(args)
    print(f"  made {args.tables} tables in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    deal_beforehand(in_hand)
    print(f"  dealt {len(in_hand)} hands beforehand in {time.perf_counter() - started:.1f} s")

    deals = args.due - turns

    def tables_of(tick: int) -> tuple[list[int], list[int]]:
        return in_hand[tick * turns : (tick + 1) * turns], to_deal[
            tick * deals : (tick + 1) * deals
        ]

    results: list[Tick] = []
    header = (
        f"{'path':<8} {'tick':>4} {'scan ms':>8} {'fired in s':>10} {'scans':>5} {'cpu s':>6}"
        f" (tick + workers + postgres) {'fired':>9}"
    )
    print(header)

    def show(n: int, tick: Tick) -> None:
        results.append(tick)
        print(
            f"{tick.path:<8} {n:>4} {tick.scan_ms:>8.1f} {tick.fired_in_s:>10.2f} {tick.scans:>5} "
            f"{tick.cpu_s:>6.2f} ({tick.cpu_tick_s:.2f} + {tick.cpu_workers_s:.2f} + {tick.cpu_postgres_s:.2f})"
            f"{'':>6} {tick.fired:>4}/{tick.due}",
            flush=True,
        )

    cpu = Cpu(args.database, [])
    for n in range(args.ticks):
        began = time.monotonic()
        show(n + 1, run_tick("serial", *tables_of(n), cpu, None))
        time.sleep(max(0.0, 1 - (time.monotonic() - began)))

    workers = start_workers(args.workers, env, args.log_dir)
    try:
        workers_ready(args.redis_url, args.workers)
        cpu = Cpu(args.database, [w.pid for w in workers])
        for n in range(args.ticks):
            began = time.monotonic()
            show(n + 1, run_tick("chunked", *tables_of(args.ticks + n), cpu, deadline_chunk_send))
            time.sleep(max(0.0, 1 - (time.monotonic() - began)))
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            try:
                worker.wait(20)
            except subprocess.TimeoutExpired:
                worker.kill()

    def summary(path: str) -> str:
        ticks = [t for t in results if t.path == path]
        return (
            f"{path} fired_in={statistics.median(t.fired_in_s for t in ticks):.2f}s "
            f"cpu={statistics.median(t.cpu_s for t in ticks):.2f}s "
            f"fired={sum(t.fired for t in ticks)}/{sum(t.due for t in ticks)}"
        )

    used = [tables_of(n) for n in range(2 * args.ticks)]
    twice = fired_twice([i for t, _ in used for i in t], [i for _, d in used for i in d])
    scan = statistics.median(t.scan_ms for t in results)
    load = ",".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"clock: tables={args.tables} due={args.due} workers={args.workers} "
        f"scan={scan:.1f}ms {summary('serial')} {summary('chunked')} fired_twice={twice} "
        f"load={load} cores={os.cpu_count()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
