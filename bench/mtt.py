"""A multi-table tournament of bots on the cluster topology (bin/cluster, as bench/load.py starts
it: two Daphne servers, Celery workers and beats), played to its end. Prints how long it took,
the hands, the players moved and the tables broken, the time spent hand for hand, and the
server's CPU per hand. Asserts nothing (docs/performance.md, "Multi-table tournament
(bench/mtt.py)", has a run and how to read it).

    .venv/bin/python bench/mtt.py --entrants 200 --seats 9 --level-seconds 30

The tournament (RULES.md 9) is scheduled in the cluster's fresh database with every bot
registered, and starts when the bots are listening. Each bot does what a player does: its page's
ws/me/ says where the start seated it (`tournament_started`) and where the clock moved it
(`tournament_moved`); it opens that table's socket (the old table's said `moved_out` first) and
answers each of its turns with a random legal action after a think time (tests/mtt_bots.py, with
the patient choices of the socket tests). The bots are spread over both servers and run in this
process. The figures are quick ones, so that 200 entrants finish in minutes: --stack (1,000)
chips, levels of --level-seconds (30) whose blinds double every level, 20-second turns.

Server CPU (bench/procstat.py, as bench/load.py measures it): the Daphne servers, the Celery
workers and beats, the PostgreSQL backends of the run's database and PostgreSQL's shared
processes, and redis-server, from the start to the end of the tournament; the bots are not
counted. Hand for hand: the time the tournament's row said so, read every half second. The
last line:

    mtt: entrants=N seats=S seconds=.. hands=.. moves=.. breaks=.. hand_for_hand_s=..
        cpu_ms_per_hand=.. chips_ok=yes|no                                     (one line)
"""

import argparse
import asyncio
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench import load  # noqa: E402
from bench.bots import parse_think  # noqa: E402
from bench.procstat import CpuWindow  # noqa: E402
from bench.sit_and_go import bot_accounts, per, server_cpu  # noqa: E402
from tests.frames import Player  # noqa: E402
from tests.mtt_bots import DOUBLING_BLINDS, MttBot, choose_patiently, first_frames  # noqa: E402


def tournament_made(args, run_id: str, accounts: list[dict]) -> int:
    """The tournament, with every bot registered (the buy-ins through the ledger); its id."""
    # Django's modules are imported here: the settings (the cluster's database) are chosen at
    # run time, before django.setup(), as in bench/load.py.
    from django.utils import timezone

    from casino.accounts.models import User
    from holdem.services.multi_table import mtt_register, tournament_schedule

    tournament = tournament_schedule(
        name=f"Bench MTT {run_id}",
        starts_at=timezone.now() + timedelta(hours=1),  # brought forward once the bots listen
        buy_in=1_000,
        fee=100,
        seats=args.seats,
        starting_stack=args.stack,
        level_seconds=args.level_seconds,
        blind_schedule=DOUBLING_BLINDS,
        late_registration_levels=0,
        turn_seconds=20,
        time_bank_seconds=0,
    )
    users = {u.username: u for u in User.objects.filter(username__in=[a["name"] for a in accounts])}
    for account in accounts:
        mtt_register(tournament_id=tournament.pk, user=users[account["name"]])
    return tournament.pk


def tournament_now(tournament_id: int) -> tuple[str, bool]:
    # Django's modules after django.setup() (tournament_made says why).
    from django.db import close_old_connections

    from holdem.models import Tournament

    close_old_connections()
    status, in_step = Tournament.objects.filter(pk=tournament_id).values_list(
        "status", "hand_for_hand"
    )[0]
    return status, in_step


def start_now(tournament_id: int) -> None:
    # Django's modules after django.setup() (tournament_made says why).
    from django.utils import timezone

    from holdem.models import Tournament

    Tournament.objects.filter(pk=tournament_id).update(starts_at=timezone.now())


def counted(tournament_id: int) -> dict:
    """What the database says of the tournament once it is over."""
    # Django's modules after django.setup() (tournament_made says why).
    from django.db import connection

    from holdem.models import HandRecord, Table, Tournament

    connection.close()  # a fresh connection: the cluster's processes are gone
    tournament = Tournament.objects.get(pk=tournament_id)
    tables = Table.objects.filter(tournament_id=tournament_id).count()
    return {
        "status": tournament.status,
        "entrants": tournament.entrants,
        "hands": HandRecord.objects.filter(table__tournament_id=tournament_id).count(),
        "tables": tables,
        "breaks": tables - 1,  # every table but the final one broke
        "levels": tournament.level + 1,
        "rounds": tournament.hand_round,  # rounds of hand for hand played
        "seconds": (
            (tournament.finished_at - tournament.started_at).total_seconds()
            if tournament.finished_at and tournament.started_at
            else float("nan")
        ),
    }


async def play(args, tournament_id: int, accounts: list[dict], classify) -> dict:
    """The bots listen, the tournament starts, they play it to the end (or --max-seconds)."""
    urls = args.ports
    rng = random.Random(args.seed)
    bots = []
    for n, account in enumerate(accounts):
        port, cookie = urls[n % len(urls)], account["session"]

        async def open_tab(path, port=port, cookie=cookie, name=account["name"]):
            tab = Player(f"{name} {path}")
            return await tab.connect(port, path, cookie, first=first_frames(path), proxy=None)

        bot = MttBot(
            account["name"],
            open_tab,
            random.Random(rng.random()),
            choose=choose_patiently,
            think=parse_think(args.think),
            wait=60,
        )
        bots.append(await bot.open())
    print(f"mtt: {len(bots)} bots listening on ws/me/", flush=True)
    done = asyncio.Event()
    await asyncio.to_thread(start_now, tournament_id)
    began = datetime.now(UTC)
    window = CpuWindow(classify).start()
    tasks = [asyncio.create_task(bot.run(done)) for bot in bots]
    started = time.monotonic()
    in_step, last = 0.0, started
    status = "registering"
    try:
        while time.monotonic() - started < args.max_seconds:
            await asyncio.sleep(0.5)
            status, hand_for_hand = await asyncio.to_thread(tournament_now, tournament_id)
            now = time.monotonic()
            if hand_for_hand:
                in_step += now - last
            last = now
            if status == "finished":
                break
    finally:
        cpu = await asyncio.to_thread(window.stop)
        done.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        for bot in bots:
            await bot.close()
    return {
        "window": cpu,
        "began": began,
        "finished": status == "finished",
        "hand_for_hand_s": in_step,
        "failures": [repr(r) for r in results if isinstance(r, BaseException)],
        "moves": sum(len(b.moves) for b in bots),
        "actions": sum(b.actions for b in bots),
        "refused": sum(sum(b.refused.values()) for b in bots),
    }


def report(args, run: dict, counts: dict, chips_ok: bool, log_errors: int) -> None:
    window, hands = run["window"], counts["hands"]
    cpu, kinds = server_cpu(window)
    by_kind = ", ".join(
        f"{k} {v:.1f} s ({per(v * 1000, hands):.1f} ms/hand)" for k, v in kinds.items()
    )
    print(
        f"mtt: {counts['entrants']} entrants at {args.seats}-seat tables, {counts['tables']} tables "
        f"at the start, {'finished' if run['finished'] else 'NOT finished'} in "
        f"{counts['seconds']:.0f} s (window {window.elapsed:.0f} s) at level {counts['levels']}"
    )
    print(
        f"mtt: {hands} hands ({per(hands, window.elapsed / 60):.1f} a minute), "
        f"{run['actions']} actions, {run['moves']} players moved (each followed by its bot), "
        f"{counts['breaks']} tables broken, hand for hand {run['hand_for_hand_s']:.0f} s over "
        f"{counts['rounds']} rounds; acts refused {run['refused']}; bot failures "
        f"{run['failures'] or 'none'}; server log errors {log_errors}"
    )
    print(
        f"mtt: server CPU {cpu:.1f} s = {per(cpu * 1000, hands):.1f} ms per hand, "
        f"{per(cpu * 1000, run['actions']):.2f} ms per action ({by_kind}); machine busy "
        f"{window.machine_percent:.0f}% of one core ({window.cores} cores; load average "
        f"{window.load_before} before, {window.load_after} after)"
    )
    print(
        f"mtt: entrants={counts['entrants']} seats={args.seats} seconds={counts['seconds']:.0f} "
        f"hands={hands} moves={run['moves']} breaks={counts['breaks']} "
        f"hand_for_hand_s={run['hand_for_hand_s']:.0f} "
        f"cpu_ms_per_hand={per(cpu * 1000, hands):.1f} chips_ok={'yes' if chips_ok else 'no'}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--seats", type=int, default=9, help="seats per table")
    parser.add_argument("--stack", type=int, default=1_000, help="the starting stack")
    parser.add_argument("--level-seconds", type=int, default=30)
    parser.add_argument("--think", default="0.2-0.8", help="bot think time range, seconds")
    parser.add_argument("--max-seconds", type=float, default=1_200, help="give up after this")
    parser.add_argument("--ports", type=int, nargs="+", default=[8151, 8152])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="casino_mtt")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--run-dir", type=Path, default=ROOT / "artifacts" / "mtt")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    env = load.cluster_started(args)
    try:
        load.use_cluster_settings(env)
        run_id = str(int(time.time()))[-6:]
        accounts = bot_accounts(args.entrants, f"mtt{run_id}b")
        tournament_id = tournament_made(args, run_id, accounts)
        classify = load.classifier(args.run_dir, args.database, [])
        run = asyncio.run(play(args, tournament_id, accounts, classify))
    finally:
        load.cluster("stop", env)
    chips_ok, summary = load.audit()
    print(summary.splitlines()[-1] if chips_ok else summary)
    report(args, run, counted(tournament_id), chips_ok, load.server_log_errors(args.run_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
