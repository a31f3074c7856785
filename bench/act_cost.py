"""What one table action costs on the server's database thread, in one process, no network:
the service (`table_act`) with its queries and the building of every frame, then the send to
the channel layer after commit, on a worker thread beside a running event loop as in Daphne.
Prints CPU per action of this process and of its PostgreSQL
backend, split into mid-hand actions, hand ends and hand starts, and what a busted player's
buying in again costs. Asserts nothing.

    .venv/bin/python bench/act_cost.py --hands 200            # figures
    .venv/bin/python bench/act_cost.py --hands 100 --profile  # and the top of a cProfile

Uses its own database (casino_actcost, made and migrated on first use) on the PostgreSQL at
127.0.0.1:5432, and the pub/sub channel layer on CASINO_REDIS (default db 11), with
nobody listening: what the sockets cost is bench/floor.py's to measure.

`--port` reaches the database through a pooler on that port instead (bench/pool_cost.py starts
PgBouncer and runs this beside a direct run); `--pooler-pid` adds that process's CPU to
PostgreSQL's. The backend measured is the one answering `pg_backend_pid()`: behind a pooler,
give it one server connection so that it stays the same.
"""

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

DATABASE = "casino_actcost"
SEATS = 6


from asgiref.sync import sync_to_async  # noqa: E402

from bench.django_setup import setup_django  # noqa: E402

# Django's modules are imported inside the functions below: they load only once setup_django
# (bench/django_setup.py) has pointed the settings at the benchmark's own database.


# A pooler's process, when the database is reached through one: its CPU is shown apart.
POOLER_PID: int | None = None
# Statements sent to the database (counted by an execute wrapper: the query log is off).
STATEMENTS = [0]


def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pooler_cpu_seconds() -> float:
    return process_cpu_seconds(POOLER_PID) if POOLER_PID is not None else 0.0


def count_statement(execute, sql, params, many, context):
    STATEMENTS[0] += 1
    return execute(sql, params, many, context)


def make_table():
    from casino.accounts.services import account_create, wallet_adjust
    from holdem.services import room_create, table_sit

    stamp = f"{int(time.time() * 1000) % 10**9}"
    table = room_create(name=f"act cost {stamp}", preset="nl50", time_bank_seconds=0)
    users = {}
    for number in range(SEATS):
        user = account_create(username=f"ac{stamp}x{number}", password="pw-for-bench-123")
        wallet_adjust(user=user, amount=10**9, kind="admin_adjustment", reason="bench bankroll")
        table_sit(table_id=table.pk, user=user, seat=number, buy_in=5_000)
        users[number] = user
    return table, users


def deal(table_id: int) -> None:
    from django.db import transaction
    from django.utils import timezone

    from holdem.db.locks import table_lock
    from holdem.services.hand_start import hand_start

    with transaction.atomic():
        hand_start(table_lock(table_id), timezone.now())


def play(hands: int, rng, table, users, figures) -> None:
    from django.db import connection

    from bench.bots import choose_action
    from holdem import engine
    from holdem.models import Seat, Table
    from holdem.services import table_act, table_sit

    with connection.cursor() as cursor:  # behind a pooler, its server connection's backend
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    played = 0
    while played < hands:
        seated = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        for number in set(users) - seated:  # a bust player buys in again
            started = (time.process_time(), process_cpu_seconds(pid))
            table_sit(table_id=table.pk, user=users[number], seat=number, buy_in=5_000)
            figures.add("sit", started, pid)
        started = (time.process_time(), process_cpu_seconds(pid))
        deal(table.pk)
        figures.add("start", started, pid)
        while True:
            row = Table.objects.get(pk=table.pk)
            if not row.in_hand:
                break
            state = engine.state_from_json(row.hand_state)
            legal = engine.legal_actions(state)
            if legal is None:
                break
            action, amount = choose_action(asdict(legal), rng)
            started = (
                time.process_time(),
                process_cpu_seconds(pid),
                time.perf_counter(),
                STATEMENTS[0],
                pooler_cpu_seconds(),
            )
            table_act(
                table_id=table.pk,
                user=users[legal.seat],
                action=action,
                amount=amount,
                turn_token=row.turn_token,
            )
            spent = (
                time.process_time(),
                process_cpu_seconds(pid),
                time.perf_counter(),
                STATEMENTS[0],
                pooler_cpu_seconds(),
            )
            row.refresh_from_db()  # not measured: the benchmark's own look at the table
            figures.add("act" if row.in_hand else "end", started, pid, spent)
        played += 1


class Figures:
    def __init__(self):
        self.rows = {}
        self.timed = {}

    def add(self, kind: str, started, pid, ended=None) -> None:
        ended = ended or (time.process_time(), process_cpu_seconds(pid))
        app = ended[0] - started[0]
        db = ended[1] - started[1]
        count, app_sum, db_sum = self.rows.get(kind, (0, 0.0, 0.0))
        self.rows[kind] = (count + 1, app_sum + app, db_sum + db)
        if len(started) == 5:  # an action: its wall time, statements and the pooler's CPU too
            wall, statements, pooler = self.timed.get(kind, (0.0, 0, 0.0))
            self.timed[kind] = (
                wall + ended[2] - started[2],
                statements + ended[3] - started[3],
                pooler + ended[4] - started[4],
            )

    def print(self) -> None:
        total = [0, 0.0, 0.0]
        for kind in ("act", "end", "start", "sit"):
            count, app, db = self.rows.get(kind, (0, 0.0, 0.0))
            if kind != "sit":  # a bust's buy-in again: what a bot does, not every player
                total = [total[0] + count, total[1] + app, total[2] + db]
            if count:
                line = (
                    f"act_cost: {kind:5} n={count:5} app_ms={1000 * app / count:6.2f} "
                    f"postgres_ms={1000 * db / count:5.2f}"
                )
                if kind in self.timed:
                    wall, statements, pooler = self.timed[kind]
                    line += f" wall_ms={1000 * wall / count:6.2f} queries={statements / count:4.2f}"
                    if POOLER_PID is not None:
                        line += f" pooler_ms={1000 * pooler / count:5.2f}"
                print(line)
        acts = self.rows.get("act", (0,))[0] + self.rows.get("end", (0,))[0]
        print(
            f"act_cost: per player action (starts shared out) n={acts} "
            f"app_ms={1000 * total[1] / acts:.2f} postgres_ms={1000 * total[2] / acts:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--port", type=int, default=5432, help="the database's (or a pooler's)")
    parser.add_argument("--pooler-pid", type=int, help="a pooler's process, to count its CPU")
    args = parser.parse_args()
    global POOLER_PID
    POOLER_PID = args.pooler_pid
    setup_django(DATABASE, args.redis_url, port=args.port)
    rng = random.Random(args.seed)
    table, users = make_table()
    figures = Figures()
    profiler = cProfile.Profile() if args.profile else None

    def run() -> None:
        from django.db import connection

        connection.ensure_connection()
        connection.execute_wrappers.append(count_statement)
        play(args.warmup, rng, table, users, Figures())
        if profiler:
            profiler.enable()
        play(args.hands, rng, table, users, figures)
        if profiler:
            profiler.disable()

    async def as_a_server() -> None:
        # As in Daphne: the services run on the database thread while an event loop runs, so
        # the broadcast after commit hops to that loop (holdem/realtime/broadcast.py send_now).
        await sync_to_async(run, thread_sensitive=True)()

    asyncio.run(as_a_server())
    figures.print()
    if profiler:
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats("holdem|casino|broadcast|asgiref|channels", 40)
        stats.sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
