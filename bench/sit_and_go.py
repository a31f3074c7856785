"""Sit & Gos of bots against a live cluster (bin/cluster, as bench/load.py starts it), beside a
cash-table run of the same size: N tables of 6 bots for S seconds, then N x 6 bots playing
Sit & Gos for S seconds. Prints how many Sit & Gos finished per minute, hands per minute and the
server's CPU per hand and per action in each run, and the ratio. Asserts nothing
(docs/performance.md, "Sit & Go", has a run and how to read it).

    .venv/bin/python bench/sit_and_go.py --sit-and-gos 4 --seconds 120

The Sit & Go bots do what a player does (RULES.md 8): open the lobby's socket, register over
HTTP in the Sit & Go taking entries (POST /lobby/sit-and-go/<id>/register/, with the CSRF
token), wait on the lobby socket for it to start, play its table's socket with random legal
actions (bench/bots.py), and once out (or the winner, stood up at the end) go back to the lobby
and register again. One template serves them all, so one Sit & Go takes entries at a time and a
fresh one opens as each fills. Its figures are quick ones so that several finish in a couple of
minutes: starting stack --stack (300), levels of --level-seconds (20), the default RULES.md 8
blinds. The cash bots play nl50 rooms with 1-second countdowns (bench/load.py's `prepare`).
The cash run comes first: its rooms are closed at its end, so nothing of it runs into the
Sit & Go window.

Server CPU (bench/procstat.py): the Daphne servers, Celery workers and beat, the PostgreSQL
backends of the run's database and PostgreSQL's shared processes, and redis-server, over each
run's window (which begins as the bots open their first sockets, so the Sit & Go window holds
the registrations and the 10 s before each first hand). The bots run in this process and are
not counted. Hands: the hand records that ended inside the window. The last lines:

    sit_and_go: cash tables=N bots=B seconds=S hands_per_min=.. cpu_ms_per_hand=.. cpu_ms_per_action=..
    sit_and_go: sit&go  count=N bots=B seconds=S finished=F finished_per_min=.. hands_per_min=..
        cpu_ms_per_hand=.. cpu_ms_per_action=..
    sit_and_go: ratio sit&go/cash cpu_per_hand=..x cpu_per_action=..x hands_per_min=..x
"""

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench import load  # noqa: E402
from bench.bots import Bot, Figures, TableWatch, parse_think  # noqa: E402
from bench.procstat import CpuWindow  # noqa: E402
from tests.socket_client import ListeningSocket  # noqa: E402

SEATS = 6
GRACE = 8  # seconds the cash bots play on after their window, for the closing rooms' last hands


# --- accounts ----------------------------------------------------------------------------------


def bot_accounts(count: int, prefix: str) -> list[dict]:
    """`count` bot accounts with a bankroll and a signed-in session (as bench/load.py makes)."""
    # Django's modules are imported inside the functions that use them, here and below: the
    # settings (the database the command line names) are chosen at run time, before
    # django.setup(), as in bench/load.py.
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from casino.accounts.models import LedgerKind, User
    from casino.accounts.services import account_open, wallet_adjust

    made = []
    for n in range(count):
        user = User(username=f"{prefix}{n}")
        user.set_unusable_password()
        user.save()
        account_open(user=user)
        wallet_adjust(
            user=user,
            amount=load.BANKROLL,
            kind=LedgerKind.ADMIN_ADJUSTMENT,
            reason="bench bankroll",
        )
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        made.append({"name": user.username, "session": session.session_key})
    return made


def sit_and_go_template(run_id: str, args) -> str:
    """The bench's template, with one Sit & Go of it taking entries; returns its name."""
    from holdem.models import SitGoTemplate
    from holdem.services.tournaments import sit_and_gos_keep_open

    template = SitGoTemplate.objects.create(
        name=f"Bench Sit & Go {run_id}",
        seats=SEATS,
        buy_in=1_000,
        fee=100,
        starting_stack=args.stack,
        level_seconds=args.level_seconds,
        turn_seconds=20,
        time_bank_seconds=0,
    )
    sit_and_gos_keep_open()
    return template.name


# --- the Sit & Go player -------------------------------------------------------------------------


class LobbyTab(ListeningSocket):
    """The lobby page's socket: the Sit & Gos as its frames list them."""

    def __init__(self, name: str):
        super().__init__(name)
        self.sit_and_gos: dict[int, dict] = {}
        self.failure = TimeoutError

    async def on_frame(self, frame: dict) -> None:
        # The page (`lobby`), or the lobby relay's changes of the second (`rooms`).
        if frame.get("type") in ("lobby", "rooms"):
            for listed in frame.get("sit_and_gos") or ():
                self.sit_and_gos[listed["id"]] = listed

    def taking_entries(self, name: str) -> dict | None:
        open_ones = [
            s
            for s in self.sit_and_gos.values()
            if s["name"] == name and s["status"] == "registering"
        ]
        return min(open_ones, key=lambda s: s["id"]) if open_ones else None


def register(base_url: str, session: str, tournament_id: int) -> tuple[int, dict]:
    """POST the lobby's register endpoint as the page does: session cookie, CSRF cookie and
    header, Origin. Returns (HTTP status, JSON answer)."""
    csrf = secrets.token_hex(16)
    request = urllib.request.Request(
        f"{base_url}/lobby/sit-and-go/{tournament_id}/register/",
        method="POST",
        data=b"",
        headers={
            "Cookie": f"sessionid={session}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "Origin": base_url,
            "Accept": "application/json",
        },
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        try:
            return refused.code, json.loads(refused.read())
        except ValueError:
            return refused.code, {}


class TournamentBot(Bot):
    """A player at a Sit & Go's table: plays until stood up (out, or the winner at the end)."""

    seated = False

    async def decide(self, seq: int) -> None:
        if self.you.get("seat") is None:
            if self.seated or self.table.get("status") != "open":
                self.done = True  # out of the tournament (or it is over): back to the lobby
            return  # a tournament's seats are drawn: nothing to sit down in
        self.seated = True
        await super().decide(seq)


class SitAndGoPlayer:
    """One bot: the lobby, a registration, the tournament's table, again until the deadline."""

    def __init__(self, account: dict, base_url: str, name: str, figures: Figures, think, rng):
        self.account, self.base_url, self.template_name = account, base_url, name
        self.figures, self.think, self.rng = figures, think, rng
        self.tournaments = 0

    @property
    def cookie(self) -> str:
        return f"sessionid={self.account['session']}"

    async def run(self, deadline: float) -> None:
        while time.monotonic() < deadline - 1:
            table_id = await self.enter(deadline)
            if table_id is None:
                return
            self.tournaments += 1
            bot = TournamentBot(
                name=self.account["name"],
                base_url=self.base_url,
                session_id=self.account["session"],
                table_id=table_id,
                watch=TableWatch(table_id, self.figures),
                figures=self.figures,
                think=self.think,
                rng=random.Random(self.rng.random()),
            )
            await bot.run(deadline)

    async def enter(self, deadline: float) -> int | None:
        """Register from the lobby and wait there for the start: the table's id (None if the
        deadline came first)."""
        ws_url = "ws://" + self.base_url.split("://", 1)[1] + "/ws/lobby/"
        lobby = LobbyTab(f"lobby {self.account['name']}")
        await lobby.open_url(
            ws_url, origin=self.base_url, cookie=self.cookie, proxy=None, timeout=30
        )
        try:
            tournament_id = None
            while tournament_id is None:
                if time.monotonic() >= deadline:
                    return None
                listed = lobby.taking_entries(self.template_name)
                if listed is None:
                    await self.next_lobby_frame(lobby, deadline)
                    continue
                status, answer = await asyncio.to_thread(
                    register, self.base_url, self.account["session"], listed["id"]
                )
                if status == 200:
                    tournament_id = listed["id"]
                    if answer["sit_and_go"].get("table_id"):  # the last seat: it started
                        return answer["sit_and_go"]["table_id"]
                    break
                code = (answer.get("error") or {}).get("code", f"http_{status}")
                if code in ("tournament_full", "tournament_started"):
                    listed["status"] = "taken"  # another bot was quicker: the next one opens
                    continue
                self.figures.errors[f"register_{code}"] += 1
                await asyncio.sleep(1)
            while time.monotonic() < deadline:
                started = lobby.sit_and_gos.get(tournament_id) or {}
                if started.get("table_id"):
                    return started["table_id"]
                await self.next_lobby_frame(lobby, deadline)
            return None
        finally:
            await lobby.close()

    async def next_lobby_frame(self, lobby: LobbyTab, deadline: float) -> None:
        """Wait for the next change of a Sit & Go (at most 5 s, and not past the deadline)."""
        with contextlib.suppress(TimeoutError):
            await lobby.until(
                lambda f: f.get("type") == "rooms" and bool(f.get("sit_and_gos")),
                timeout=max(0.1, min(5.0, deadline - time.monotonic())),
                start=len(lobby.frames),
            )


# --- the two runs ------------------------------------------------------------------------------


def counted(kind: str, started: datetime, ended: datetime, template_name: str = "") -> dict:
    """What the database says of a window: hands ended in it at tables of `kind`, and the
    Sit & Gos of the template started and finished in it."""
    from django.db import connection

    from holdem.models import HandRecord, Tournament, TournamentStatus

    connection.close()  # called from a fresh thread each time
    hands = HandRecord.objects.filter(
        table__kind=kind, ended_at__gte=started, ended_at__lt=ended
    ).count()
    figures = {"hands": hands}
    if template_name:
        mine = Tournament.objects.filter(template__name=template_name)
        done = mine.filter(
            status=TournamentStatus.FINISHED, finished_at__gte=started, finished_at__lt=ended
        )
        lengths = [
            (t.finished_at - t.started_at).total_seconds()
            for t in done
            if t.started_at is not None and t.finished_at is not None
        ]
        hands_of = [
            HandRecord.objects.filter(table_id=t.table_id).count() for t in done if t.table_id
        ]
        figures.update(
            started=mine.filter(started_at__gte=started, started_at__lt=ended).count(),
            finished=len(lengths),
            mean_seconds=sum(lengths) / len(lengths) if lengths else float("nan"),
            mean_hands=sum(hands_of) / len(hands_of) if hands_of else float("nan"),
        )
    return figures


def close_rooms(table_ids: list[int]) -> None:
    from django.db import connection

    from holdem.services.rooms import room_close

    connection.close()
    for table_id in table_ids:
        room_close(table_id=table_id)


async def measured(classify, seconds: float, figures: Figures, start_bots) -> dict:
    """Start the bots (`start_bots()` returns their tasks), measure the server for `seconds`
    from then, and return the window with its wall-clock ends and the actions sent in it."""
    began = datetime.now(UTC)
    window = CpuWindow(classify).start()
    actions = figures.actions_sent
    tasks = start_bots()
    await asyncio.sleep(seconds)
    cpu = await asyncio.to_thread(window.stop)
    return {
        "window": cpu,
        "began": began,
        "ended": datetime.now(UTC),
        "actions": figures.actions_sent - actions,
        "tasks": tasks,
    }


async def cash_run(args, classify, plan: list[dict], urls: list[str]) -> dict:
    figures = Figures()
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
    deadline = time.monotonic() + args.seconds + GRACE
    run = await measured(
        classify,
        args.seconds,
        figures,
        lambda: [asyncio.create_task(bot.run(deadline)) for bot in bots],
    )
    # The rooms close: the hands in play finish (the bots play them out), no new one starts.
    await asyncio.to_thread(close_rooms, list(watches))
    await asyncio.gather(*run["tasks"], return_exceptions=True)
    run["figures"] = figures
    return run


async def sit_and_go_run(args, classify, accounts: list[dict], urls: list[str], name: str) -> dict:
    figures = Figures()
    rng = random.Random(args.seed + 1)
    players = [
        SitAndGoPlayer(
            account,
            urls[i % len(urls)],
            name,
            figures,
            parse_think(args.think),
            random.Random(rng.random()),
        )
        for i, account in enumerate(accounts)
    ]
    deadline = time.monotonic() + args.seconds
    run = await measured(
        classify,
        args.seconds,
        figures,
        lambda: [asyncio.create_task(player.run(deadline)) for player in players],
    )
    results = await asyncio.gather(*run["tasks"], return_exceptions=True)
    for failed in (r for r in results if isinstance(r, BaseException)):
        figures.errors[f"bot_{type(failed).__name__}"] += 1
    run["figures"] = figures
    run["entered"] = sum(p.tournaments for p in players)
    return run


def server_cpu(window) -> tuple[float, dict[str, float]]:
    """The server's CPU seconds over the window, in all and by kind (bench/load.py's kinds)."""
    kinds = dict.fromkeys(load.SERVER_KINDS, 0.0)
    for group, usage in window.groups.items():
        kind = load.kind_of(group)
        if kind is not None:
            kinds[kind] += usage.cpu
    return sum(kinds.values()), kinds


def per(value: float, count: float) -> float:
    return value / count if count else float("nan")


def report(args, cash: dict, sng: dict) -> None:
    lines = []
    rows = {}
    for label, run in (("cash", cash), ("sit&go", sng)):
        window, counts = run["window"], run["counts"]
        cpu, kinds = server_cpu(window)
        minutes = window.elapsed / 60
        rows[label] = {
            "hands_per_min": per(counts["hands"], minutes),
            "cpu_ms_per_hand": per(cpu * 1000, counts["hands"]),
            "cpu_ms_per_action": per(cpu * 1000, run["actions"]),
        }
        by_kind = ", ".join(f"{k} {v / window.elapsed * 100:.0f}%" for k, v in kinds.items())
        lines.append(
            f"sit_and_go: {label}: {window.elapsed:.0f} s, {counts['hands']} hands, "
            f"{run['actions']} actions, server CPU {cpu:.1f} s ({cpu / window.elapsed * 100:.0f}% "
            f"of one core: {by_kind}); machine busy {window.machine_percent:.0f}% of one core "
            f"({window.cores} cores); client errors {dict(run['figures'].errors) or 'none'}"
        )
    counts = sng["counts"]
    lines.append(
        f"sit_and_go: sit&go: {counts['started']} started and {counts['finished']} finished in "
        f"the window ({sng['entered']} entries played), a finished one lasted "
        f"{counts['mean_seconds']:.0f} s and {counts['mean_hands']:.1f} hands on average"
    )
    cash_row, sng_row = rows["cash"], rows["sit&go"]
    lines.append(
        f"sit_and_go: cash tables={args.sit_and_gos} bots={args.sit_and_gos * SEATS} "
        f"seconds={cash['window'].elapsed:.0f} hands_per_min={cash_row['hands_per_min']:.1f} "
        f"cpu_ms_per_hand={cash_row['cpu_ms_per_hand']:.1f} "
        f"cpu_ms_per_action={cash_row['cpu_ms_per_action']:.2f}"
    )
    lines.append(
        f"sit_and_go: sit&go count={args.sit_and_gos} bots={args.sit_and_gos * SEATS} "
        f"seconds={sng['window'].elapsed:.0f} finished={counts['finished']} "
        f"finished_per_min={per(counts['finished'], sng['window'].elapsed / 60):.2f} "
        f"hands_per_min={sng_row['hands_per_min']:.1f} "
        f"cpu_ms_per_hand={sng_row['cpu_ms_per_hand']:.1f} "
        f"cpu_ms_per_action={sng_row['cpu_ms_per_action']:.2f}"
    )
    lines.append(
        f"sit_and_go: ratio sit&go/cash "
        f"cpu_per_hand={per(sng_row['cpu_ms_per_hand'], cash_row['cpu_ms_per_hand']):.2f}x "
        f"cpu_per_action={per(sng_row['cpu_ms_per_action'], cash_row['cpu_ms_per_action']):.2f}x "
        f"hands_per_min={per(sng_row['hands_per_min'], cash_row['hands_per_min']):.2f}x"
    )
    print("\n".join(lines))


async def both_runs(args, classify, plan, accounts, urls, name) -> tuple[dict, dict]:
    cash = await cash_run(args, classify, plan, urls)
    cash["counts"] = await asyncio.to_thread(counted, "cash", cash["began"], cash["ended"])
    print(f"sit_and_go: cash run done ({cash['counts']['hands']} hands)", flush=True)
    sng = await sit_and_go_run(args, classify, accounts, urls, name)
    sng["counts"] = await asyncio.to_thread(counted, "sit_and_go", sng["began"], sng["ended"], name)
    return cash, sng


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sit-and-gos", type=int, default=4, help="Sit & Gos of 6 bots at once")
    parser.add_argument("--seconds", type=float, default=120, help="each run's measured time")
    parser.add_argument("--think", default="0.1-0.6", help="bot think time range, seconds")
    parser.add_argument("--stack", type=int, default=300, help="the Sit & Go's starting stack")
    parser.add_argument("--level-seconds", type=int, default=20, help="the Sit & Go's levels")
    parser.add_argument("--ports", type=int, nargs="+", default=[8141, 8142])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="casino_sng")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--run-dir", type=Path, default=ROOT / "artifacts" / "sit_and_go")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="leave the cluster running afterwards")
    args = parser.parse_args(argv)
    env = load.cluster_started(args)
    try:
        load.use_cluster_settings(env)
        run_id = str(int(time.time()))[-6:]
        plan = load.prepare(args.sit_and_gos, run_id, args.seed)
        accounts = bot_accounts(args.sit_and_gos * SEATS, f"sng{run_id}b")
        name = sit_and_go_template(run_id, args)
        urls = [f"http://127.0.0.1:{port}" for port in args.ports]
        classify = load.classifier(args.run_dir, args.database, [])
        print(
            f"sit_and_go: {len(plan)} cash bots at {args.sit_and_gos} tables, then "
            f"{len(accounts)} Sit & Go bots; {args.seconds:.0f} s each; think {args.think} s",
            flush=True,
        )
        cash, sng = asyncio.run(both_runs(args, classify, plan, accounts, urls, name))
    finally:
        if not args.keep:
            load.cluster("stop", env)
    chips_ok, summary = (
        load.audit() if not args.keep else (True, "audit skipped (--keep: cluster still running)")
    )
    print(summary.splitlines()[-1] if chips_ok else summary)
    print(f"sit_and_go: server log errors {load.server_log_errors(args.run_dir)}")
    report(args, cash, sng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
