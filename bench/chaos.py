"""A chaos soak on the cluster topology (bin/cluster): bots play T tables over real websockets
while a fault driver, at random intervals, kills and restarts the site's processes, freezes a
web server, restarts Redis empty and cuts PostgreSQL's connections. Then it checks that nothing
was lost. docs/reliability.md has the targets, the definitions and the recorded runs.

    .venv/bin/python bench/chaos.py --minutes 30                 # the soak of docs/reliability.md
    .venv/bin/python bench/chaos.py --minutes 4 --fault-interval 15 --seed 3   # a short one

What it runs: a Redis server of its own (--redis-port, started and stopped here: it is the one the
faults restart), and bin/cluster on a fresh database (--database) with that Redis: two Daphne
servers, --workers Celery workers and beat. The tables (--tables, 6 seats, 1-second countdowns,
20-second turns) and their bots' accounts are made as bench/load.py makes them. Each bot is one
browser tab that behaves as static/js/socket.js and table-app.js do: it reconnects with their
backoff when its socket closes (to either server, as a load balancer would send it, and to the
other at once when the first refuses the connection, as nginx passes it on), pings
every 10 s and reconnects after 25 s of silence, asks for a snapshot on a gap or when a
`heartbeat`/`pong` says the table moved on, and sends a refused (`unavailable`, `"retry": true`)
request again.

The faults, one at a time, each followed by a pause of --fault-interval x U(0.5, 1.5) seconds
(none in the last --quiet seconds, so the last one's recovery and the tables' state at the end
are seen):
    kill_web       kill -9 a Daphne server (the one holding more sockets); started again 1-3 s
                   later (a supervisor's restart)
    kill_worker    kill -9 a Celery worker with its pool; started again 1-3 s later
    kill_beat      kill -9 one of the two beats (the clock); started again 1-3 s later
    stop_web       SIGSTOP a Daphne server (the one holding more sockets) for 5-20 s, then SIGCONT
    redis_restart  kill -9 our Redis and start it again, empty (no persistence, as deployed)
    pg_cut         pg_terminate_backend on every connection to the run's database

Measured (a sampler reads every table's seq, hand count and seats 4 times a second):
    current again  a bot is current at a sample when its socket is open with a snapshot applied,
                   no snapshot it asked for is outstanding, and the seq it applied is at least
                   the table's seq in the database one second earlier (the server's own
                   "settled" seq, holdem/realtime/heartbeat.py). A fault's recovery is the
                   longest time any bot then stays behind, counted from the end of the fault
                   (the kill, the SIGCONT, Redis answering, the cut) over the behind-stretches
                   that overlap the fault or begin within 15 s of its end.
    stuck          a table with two or more seated players not sitting out whose hand count did
                   not advance for --stuck-seconds (60), at any point of the run or at its end.
    hands          hand records of the run's tables started in the run (dealt), and of those
                   the ones that ended (completed).
    unavailable    `error` frames with code `unavailable` the bots received.
    audit_chips    holdem.selectors.audit.audit_chips on the database once the cluster stopped.
    history        the hash chains of every ledger line and finished hand (manage.py
                   verify_chain) on that database too: ok, or BROKEN.
    answers        how long each request (act, sit, sit_in, post, snapshot) waited for its answer
                   (the slowest are the ones sent to a frozen server).

The last line is the summary:
    chaos: minutes=M faults=N (kill_web=.. ...) hands dealt=.. completed=.. unavailable=..
        max_recover=..s stuck_tables=.. audit_chips=ok|FAILED history=ok|BROKEN
        load=1m,5m,15m cores=C   (one line)

Every process it started (the cluster, its Redis) is stopped at the end, on Ctrl-C or failure
too; a frozen server is sent SIGCONT first.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

import psycopg  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus  # noqa: E402

from bench import load  # noqa: E402
from bench.bots import Bot, Figures, TableWatch, _origin_of, parse_think  # noqa: E402
from tests.socket_client import dial  # noqa: E402

FAULT_KINDS = ("kill_web", "kill_worker", "kill_beat", "stop_web", "redis_restart", "pg_cut")
SAMPLE_EVERY = 0.25  # seconds between the sampler's reads of the tables
SETTLED = 1.0  # a bot must have the seq the table had this long ago
CAUSED_WITHIN = 15.0  # a behind-stretch that begins this soon after a fault is the fault's
REQUESTS = ("act", "sit", "sit_in", "post", "snapshot")  # frames the server answers
ANSWERS = ("ok", "error", "snapshot")
# static/js/socket.js
FIRST_DELAY, MAX_DELAY, PING_EVERY, SILENCE_LIMIT = 0.5, 15.0, 10.0, 25.0


def loadavg() -> str:
    return ",".join(Path("/proc/loadavg").read_text().split()[:3])


# --- the bots --------------------------------------------------------------------------------------


class ChaosBot(Bot):
    """A bench/bots.py Bot that lives through faults as the site's client does."""

    def __init__(self, *, urls: list[str], **kwargs):
        super().__init__(base_url=urls[0], **kwargs)
        self.urls = urls
        self.url_index = 0
        self.opened = False  # this socket got its snapshot (the backoff starts over)
        self.current_socket = False  # open, with a snapshot applied
        self.snapshot_asked_at: float | None = None
        self.last_frame_at = time.monotonic()
        self.reconnects = 0
        self.asked_at: float | None = None  # a request on its way, awaiting its answer
        self.answers: list[tuple[float, str, float]] = []  # (sent, server, seconds to answer)

    def start_at(self, index: int) -> None:
        self.url_index = index % len(self.urls)
        self.base_url = self.urls[self.url_index]

    async def run(self, deadline: float) -> None:
        attempt = 0
        while time.monotonic() < deadline and not self.done:
            self.reset_view()
            try:
                await self.play(deadline)
                if self.refused and time.monotonic() < deadline:
                    # nginx passes a refused connection on to the next server at once
                    self.start_at(self.url_index + 1)
                    self.reset_view()
                    await self.play(deadline)
            except InvalidStatus as refused:
                self.figures.errors[f"handshake_{refused.response.status_code}"] += 1
            self.current_socket = False
            if time.monotonic() >= deadline or self.done:
                return
            if self.opened:
                attempt = 0
            attempt += 1
            delay = min(MAX_DELAY, FIRST_DELAY * 2 ** (attempt - 1)) * (
                0.75 + 0.5 * random.random()
            )
            await asyncio.sleep(min(delay, max(0.0, deadline - time.monotonic())))
            # Through a load balancer a new connection lands on either server.
            self.start_at(self.rng.randrange(len(self.urls)))
            self.reconnects += 1

    def reset_view(self) -> None:
        self.seq, self.snapshot_seq = None, -1
        self.missing.clear()
        self.resyncing, self.awaiting_action = False, False
        self.acted_seq, self.request_pending = -1, None
        self.snapshot_asked_at = None
        self.asked_at = None  # lost with its socket: not an answer
        self.opened = False
        self.refused = False  # the server was not there (connection refused)

    async def play(self, deadline: float) -> None:
        keepalive = None
        try:
            async with dial(
                self.ws_url,
                origin=_origin_of(self.base_url),
                cookie=f"sessionid={self.session_id}",
                proxy=None,
                open_timeout=10,
            ) as ws:
                self.ws = ws
                self.last_frame_at = time.monotonic()
                keepalive = asyncio.create_task(self.keep_alive(ws))
                while not self.done and (remaining := deadline - time.monotonic()) > 0:
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=remaining)
                    except TimeoutError:
                        break
                    self.last_frame_at = time.monotonic()
                    await self.on_frame(json.loads(text), time.perf_counter())
        except ConnectionClosed as closed:
            if time.monotonic() < deadline and not self.done:
                code = closed.rcvd.code if closed.rcvd else "abnormal"
                self.figures.errors[f"closed_{code}"] += 1
        except InvalidStatus:
            raise
        except ConnectionRefusedError:
            self.refused = True
            self.figures.errors["connect_refused"] += 1
        except (InvalidHandshake, OSError, TimeoutError) as failed:
            self.figures.errors[f"connect_{type(failed).__name__}"] += 1
        finally:
            self.current_socket = False
            self.missing.clear()
            self.watch.connected.discard(self)
            if keepalive is not None:
                keepalive.cancel()
            if self.decision is not None:
                self.decision.cancel()

    async def keep_alive(self, ws) -> None:
        """socket.js: a ping every 10 s; nothing heard for 25 s: the connection is dead."""
        while True:
            await asyncio.sleep(PING_EVERY)
            if time.monotonic() - self.last_frame_at > SILENCE_LIMIT:
                self.figures.errors["silent_socket_closed"] += 1
                await ws.close()
                return
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps({"type": "ping"}))

    async def ask_snapshot(self) -> None:
        self.resyncing = True
        self.snapshot_asked_at = time.monotonic()
        with contextlib.suppress(ConnectionClosed):
            await self.send({"type": "snapshot"})

    async def send(self, frame: dict) -> None:
        if frame.get("type") in REQUESTS and self.asked_at is None:
            self.asked_at = time.monotonic()
        if frame.get("type") == "snapshot":
            self.resyncing = True
            self.snapshot_asked_at = time.monotonic()
        await super().send(frame)

    async def on_frame(self, frame: dict, at: float) -> None:
        kind = frame.get("type")
        if kind in ANSWERS and self.asked_at is not None:
            self.answers.append((self.asked_at, self.base_url, time.monotonic() - self.asked_at))
            self.asked_at = None
        if kind == "snapshot":
            self.opened = self.current_socket = True
            self.snapshot_asked_at = None
        elif kind in ("heartbeat", "pong"):
            # table-app.js: the table's seq a second ago; behind it, an event was missed.
            seq = frame.get("seq")
            if self.seq is not None and isinstance(seq, int) and seq > self.seq:
                stale = (
                    self.snapshot_asked_at is None or time.monotonic() - self.snapshot_asked_at > 3
                )
                if stale:
                    await self.ask_snapshot()
            return
        elif kind == "error" and frame.get("retry"):
            # `unavailable`: nothing was applied; the site's client sends it again in a moment.
            self.figures.errors[frame.get("code", "error")] += 1
            self.acted_seq, self.awaiting_action, self.request_pending = -1, False, None
            asyncio.get_running_loop().call_later(1.0, self.retry_later)
            return
        await super().on_frame(frame, at)

    def retry_later(self) -> None:
        if self.ws is not None and self.current_socket:
            asyncio.get_running_loop().create_task(self.ask_snapshot())

    def behind(self, settled_seq: int | None) -> bool:
        if not self.current_socket or self.seq is None:
            return True
        if self.snapshot_asked_at is not None:
            return True
        return settled_seq is not None and self.seq < settled_seq


# --- the sampler: the tables as the database has them, and who is behind ---------------------------


@dataclass
class Fault:
    kind: str
    target: str
    started: float
    ended: float = 0.0
    recovery: float | None = None  # seconds; None: no bot was behind
    unrecovered: int = 0  # bots still behind at the end of the run
    behind: set = field(default_factory=set)  # the bots behind after it


@dataclass
class Watch:
    tables: list[int]
    bots: list[ChaosBot]
    database_url: str
    samples: list[tuple[float, dict[int, int]]] = field(default_factory=list)
    behind_since: dict[ChaosBot, float] = field(default_factory=dict)
    stretches: list[tuple[ChaosBot, float, float | None]] = field(default_factory=list)
    hands: dict[int, tuple[int, float]] = field(default_factory=dict)  # table -> (count, since)
    longest_stall: dict[int, float] = field(default_factory=dict)
    stuck: set = field(default_factory=set)
    sample_errors: int = 0

    def settled(self, now: float) -> dict[int, int]:
        seqs: dict[int, int] = {}
        for at, read in reversed(self.samples):
            if at <= now - SETTLED:
                seqs = read
                break
        return seqs

    async def run(self, until: float, stuck_seconds: float) -> None:
        connection = None
        while time.monotonic() < until:
            started = time.monotonic()
            try:
                if connection is None or connection.closed:
                    connection = await psycopg.AsyncConnection.connect(
                        self.database_url, autocommit=True, connect_timeout=3
                    )
                cursor = await connection.execute(
                    "SELECT id, seq, hands_played FROM holdem_table WHERE id = ANY(%s)",
                    (self.tables,),
                )
                rows = await cursor.fetchall()
                cursor = await connection.execute(
                    "SELECT table_id, count(*) FROM holdem_seat WHERE table_id = ANY(%s) "
                    "AND NOT sitting_out GROUP BY table_id",
                    (self.tables,),
                )
                playing = dict(await cursor.fetchall())
            except Exception:  # a cut connection, the database restarting: read again next time
                self.sample_errors += 1
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.close()
                connection = None
                await asyncio.sleep(SAMPLE_EVERY)
                continue
            now = time.monotonic()
            self.samples.append((now, {table: seq for table, seq, _ in rows}))
            self.samples = self.samples[-200:]
            for table, _, hands in rows:
                count, since = self.hands.get(table, (hands, now))
                if hands != count or playing.get(table, 0) < 2:
                    since = now
                self.hands[table] = (hands, since)
                stalled = now - since
                self.longest_stall[table] = max(self.longest_stall.get(table, 0.0), stalled)
                if stalled >= stuck_seconds:
                    self.stuck.add(table)
            settled = self.settled(now)
            for bot in self.bots:
                if bot.behind(settled.get(bot.table_id)):
                    self.behind_since.setdefault(bot, now)
                elif bot in self.behind_since:
                    self.stretches.append((bot, self.behind_since.pop(bot), now))
            await asyncio.sleep(max(0.0, SAMPLE_EVERY - (time.monotonic() - started)))
        if connection is not None:
            await connection.close()

    def finish(self) -> None:
        for bot, since in self.behind_since.items():
            self.stretches.append((bot, since, None))
        self.behind_since.clear()

    def behind_now(self) -> int:
        return len(self.behind_since)


def recoveries(faults: list[Fault], stretches, end: float) -> None:
    """Each fault's recovery: the longest any bot stayed behind after the fault's end, over the
    behind-stretches that overlap the fault or begin within CAUSED_WITHIN of its end."""
    for i, fault in enumerate(faults):
        next_start = faults[i + 1].started if i + 1 < len(faults) else end
        worst, unrecovered = None, set()
        for bot, start, stop in stretches:
            if start > fault.ended + CAUSED_WITHIN or start >= next_start:
                continue
            if stop is not None and stop <= fault.started:
                continue
            if stop is None:
                unrecovered.add(bot)
                stop = end
            took = max(0.0, stop - max(start, fault.ended))
            worst = took if worst is None else max(worst, took)
            fault.behind.add(bot)
        fault.recovery, fault.unrecovered = worst, len(unrecovered)


# --- the faults ------------------------------------------------------------------------------------


class Faults:
    def __init__(self, args, env: dict, rng: random.Random, bots: list[ChaosBot]):
        self.args, self.env, self.rng, self.bots = args, env, rng, bots
        self.done: list[Fault] = []
        self.stopped_pid: int | None = None
        self.bag: list[str] = []

    def pid_of(self, name: str) -> int:
        return int((self.args.run_dir / f"{name}.pid").read_text())

    async def cluster(self, *command: str) -> str:
        process = await asyncio.create_subprocess_exec(
            "bin/cluster",
            *command,
            cwd=ROOT,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await process.communicate()
        return out.decode().strip()

    def next_kind(self) -> str:
        if not self.bag:  # every kind once per round, in a random order
            self.bag = list(self.args.kinds)
            self.rng.shuffle(self.bag)
        return self.bag.pop()

    async def inject(self, kind: str) -> Fault:
        rng = self.rng
        if kind in ("kill_web", "stop_web"):
            # The server holding more of the bots' sockets (after a kill, the survivor holds them
            # all until the next): a fault on an idle server would test nothing.
            held = Counter(bot.base_url for bot in self.bots if bot.current_socket)
            port = max(self.args.ports, key=lambda p: (held[f"http://127.0.0.1:{p}"], rng.random()))
            target = f"web-{port}"
        elif kind == "kill_worker":
            target = f"worker-{rng.randint(1, self.args.workers)}"
        elif kind == "kill_beat":
            # One of bin/cluster's two beats: the one ticking (its standby takes over once the
            # lock runs out) or the standby (nothing stops).
            target = f"beat-{rng.randint(1, 2)}"
        elif kind == "redis_restart":
            target = f"redis:{self.args.redis_port}"
        else:
            target = f"postgres:{self.args.database}"
        fault = Fault(kind, target, time.monotonic())
        if kind.startswith("kill_"):
            await self.cluster("kill", target)
            fault.ended = fault.started  # the kill is the whole fault: the restart is recovery
            await asyncio.sleep(rng.uniform(1, 3))
            await self.cluster("respawn", target)
        elif kind == "stop_web":
            pid = self.pid_of(target)
            os.killpg(pid, signal.SIGSTOP)
            self.stopped_pid = pid
            await asyncio.sleep(rng.uniform(5, 20))
            os.killpg(pid, signal.SIGCONT)
            self.stopped_pid = None
            fault.ended = time.monotonic()
        elif kind == "redis_restart":
            redis_kill(self.args)
            await asyncio.sleep(0.5)
            redis_start(self.args)
            fault.ended = time.monotonic()
        else:
            cut = await asyncio.to_thread(pg_cut, self.args.database)
            fault.target += f" ({cut} connections)"
            fault.ended = time.monotonic()
        self.done.append(fault)
        return fault

    async def run(self, until: float) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.0) * self.args.fault_interval)
        while time.monotonic() < until:
            fault = await self.inject(self.next_kind())
            print(
                f"chaos: +{time.monotonic() - self.args.started:.0f}s {fault.kind} {fault.target}"
                f" ({fault.ended - fault.started:.1f}s)",
                flush=True,
            )
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.args.fault_interval)

    def release(self) -> None:
        """Never leave a server frozen."""
        if self.stopped_pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.stopped_pid, signal.SIGCONT)
            self.stopped_pid = None


def pg_cut(database: str) -> int:
    with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as connection:
        rows = connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (database,),
        ).fetchall()
    return len(rows)


def server_url() -> str:
    return (
        f"postgres://{os.environ.get('PGUSER', 'postgres')}@{os.environ.get('PGHOST', '127.0.0.1')}"
        f":{os.environ.get('PGPORT', '5432')}"
    )


# --- our Redis -------------------------------------------------------------------------------------


def redis_dir(args) -> Path:
    path = args.run_dir / "redis"
    path.mkdir(parents=True, exist_ok=True)
    return path


def redis_start(args) -> None:
    where = redis_dir(args)
    subprocess.run(
        [
            "redis-server",
            "--port",
            str(args.redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "yes",
            "--pidfile",
            str(where / "redis.pidfile"),
            "--logfile",
            str(where / "redis.log"),
            "--dir",
            str(where),
        ],
        check=True,
    )
    for _ in range(100):
        answer = subprocess.run(
            ["redis-cli", "-p", str(args.redis_port), "ping"], capture_output=True, text=True
        )
        if answer.stdout.strip() == "PONG":
            return
        time.sleep(0.05)
    raise SystemExit(f"chaos: our Redis on port {args.redis_port} did not answer")


def redis_kill(args) -> None:
    pidfile = redis_dir(args) / "redis.pidfile"
    if not pidfile.exists():
        return
    pid = int(pidfile.read_text())
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    pidfile.unlink(missing_ok=True)


def port_free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


# --- the run ---------------------------------------------------------------------------------------


async def soak(args, plan: list[dict], env: dict) -> dict:
    urls = [f"http://127.0.0.1:{port}" for port in args.ports]
    figures = Figures()
    rng = random.Random(args.seed)
    watches: dict[int, TableWatch] = {}
    bots = []
    for i, entry in enumerate(plan):
        watch = watches.setdefault(entry["table_id"], TableWatch(entry["table_id"], figures))
        bot = ChaosBot(
            urls=urls,
            name=entry["name"],
            session_id=entry["session"],
            table_id=entry["table_id"],
            watch=watch,
            figures=figures,
            think=parse_think(args.think),
            rng=random.Random(rng.random()),
            buy_in=entry["buy_in"],
            seat=entry["seat"],
        )
        bot.start_at(i)
        bots.append(bot)
    tables = list(watches)
    args.started = time.monotonic()
    end = args.started + args.minutes * 60
    faults = Faults(args, env, random.Random(args.seed + 1), bots)
    watch = Watch(tables, bots, env_database_url(args))
    tasks = [asyncio.create_task(bot.run(end)) for bot in bots]
    sampler = asyncio.create_task(watch.run(end, args.stuck_seconds))
    driver = asyncio.create_task(faults.run(end - args.quiet))

    async def progress():
        while True:
            await asyncio.sleep(args.progress)
            kinds = Counter(f.kind for f in faults.done)
            print(
                f"chaos: +{time.monotonic() - args.started:.0f}s faults={len(faults.done)} "
                f"{dict(kinds)} hands_ended_seen={figures.hands_ended} "
                f"unavailable={figures.errors['unavailable']} behind_now={watch.behind_now()} "
                f"stuck={sorted(watch.stuck)} load={loadavg()}",
                flush=True,
            )

    reporter = asyncio.create_task(progress())
    try:
        await driver
        await asyncio.gather(*tasks, sampler)
    finally:
        faults.release()
        for task in [reporter, driver, sampler, *tasks]:
            task.cancel()
        await asyncio.gather(reporter, driver, sampler, *tasks, return_exceptions=True)
    watch.finish()
    recoveries(faults.done, watch.stretches, end)
    return {
        "faults": faults.done,
        "figures": figures,
        "watch": watch,
        "tables": tables,
        "reconnects": sum(bot.reconnects for bot in bots),
        "bots": bots,
        "stretches": watch.stretches,
        "end": end,
    }


def env_database_url(args) -> str:
    return f"{server_url()}/{args.database}"


def hand_counts(tables: list[int], since) -> tuple[int, int]:
    from holdem.models import HandRecord  # after django.setup(), made for the cluster's database

    hands = HandRecord.objects.filter(table_id__in=tables, started_at__gte=since)
    return hands.count(), hands.exclude(ended_at=None).count()


def report(
    args, run: dict, dealt: int, completed: int, chips_ok: bool, summary: str, loads, history
) -> str:
    faults: list[Fault] = run["faults"]
    figures: Figures = run["figures"]
    watch: Watch = run["watch"]
    for fault in faults:
        took = "no bot behind" if fault.recovery is None else f"{fault.recovery:.1f}s"
        still = f", {fault.unrecovered} bots never current again" if fault.unrecovered else ""
        still += f" ({len(fault.behind)} bots behind)"
        print(
            f"chaos: at +{fault.started - args.started:.0f}s {fault.kind} {fault.target}: "
            f"clients current again after {took}{still}"
        )
    answers = [answer for bot in run["bots"] for answer in bot.answers]
    print(
        f"chaos: requests answered {len(answers)}, the slowest in "
        f"{max((w for _, _, w in answers), default=0):.1f}s"
    )
    baseline = [
        (stop or run["end"]) - start
        for _, start, stop in run["stretches"]
        if not any(f.started - 1 <= start <= f.ended + CAUSED_WITHIN for f in faults)
    ]
    print(
        f"chaos: behind-stretches away from faults (ordinary lag): {len(baseline)}, longest "
        f"{max(baseline, default=0):.1f}s; reconnects {run['reconnects']}; sampler misses "
        f"{watch.sample_errors}"
    )
    print(
        f"chaos: client errors {dict(figures.errors) or 'none'}; events lost (gaps the client "
        f"filled with a snapshot) {figures.lost_events}, reordered {figures.reordered}, "
        f"duplicated {figures.duplicates}; actions {figures.actions_sent}"
    )
    print(
        "chaos: longest stretch without a new hand per table: "
        + ", ".join(f"{t}={s:.0f}s" for t, s in sorted(watch.longest_stall.items()))
    )
    print(summary if not chips_ok else summary.splitlines()[-1])
    history_ok, history_summary = history
    print(history_summary if not history_ok else history_summary.splitlines()[-1])
    kinds = Counter(f.kind for f in faults)
    recovered = [f.recovery for f in faults if f.recovery is not None]
    never = sum(f.unrecovered for f in faults)
    worst = f"{max(recovered):.1f}s" if recovered else "0.0s"
    if never:
        worst += f" (+{never} never)"
    line = (
        f"chaos: minutes={args.minutes:g} tables={len(run['tables'])} faults={len(faults)} ("
        + " ".join(f"{k}={kinds[k]}" for k in args.kinds)
        + f") hands dealt={dealt} completed={completed} unavailable={figures.errors['unavailable']}"
        f" max_recover={worst} stuck_tables={len(watch.stuck)}"
        f" audit_chips={'ok' if chips_ok else 'FAILED'}"
        f" history={'ok' if history_ok else 'BROKEN'} load={loads[0]}..{loads[1]}"
        f" cores={os.cpu_count()} seed={args.seed}"
    )
    print(line)
    return line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--fault-interval", type=float, default=20, help="mean seconds between faults"
    )
    parser.add_argument("--kinds", nargs="+", choices=FAULT_KINDS, default=list(FAULT_KINDS))
    parser.add_argument("--quiet", type=float, default=45, help="no fault in the last S seconds")
    parser.add_argument("--stuck-seconds", type=float, default=60)
    parser.add_argument("--think", default="0.2-1.0", help="bots' think time range, seconds")
    parser.add_argument("--ports", type=int, nargs=2, default=[8301, 8302])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="casino_chaos_cluster")
    parser.add_argument("--redis-port", type=int, default=6391)
    parser.add_argument("--run-dir", type=Path, default=ROOT / "artifacts" / "chaos-cluster")
    parser.add_argument("--progress", type=float, default=60, help="seconds between progress lines")
    parser.add_argument("--summary-file", type=Path, help="append the summary line to this file")
    args = parser.parse_args(argv)
    args.seed = args.seed if args.seed is not None else random.randrange(10_000)
    args.run_dir = args.run_dir.resolve()
    args.run_dir.mkdir(parents=True, exist_ok=True)
    args.redis_url = f"redis://127.0.0.1:{args.redis_port}/0"
    args.server_env = []
    args.started = time.monotonic()

    def stop_on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_on_term)
    env = load.cluster_env(args)
    load.cluster("stop", env)
    redis_kill(args)
    if not port_free(args.redis_port):
        raise SystemExit(f"chaos: port {args.redis_port} is taken; --redis-port names a free one")
    for log in args.run_dir.glob("*.log"):
        log.unlink()
    loads = [loadavg(), None]
    faults_run = None
    try:
        redis_start(args)
        print(load.cluster("start", env).strip(), flush=True)
        load.use_cluster_settings(env)
        from django.utils import timezone  # after django.setup(), as the line above sets it

        run_id = uuid.uuid4().hex[:6]
        plan = load.prepare(args.tables, run_id, args.seed)
        since = timezone.now()
        print(
            f"chaos: {args.tables} tables, {len(plan)} bots, {args.minutes:g} min, a fault every "
            f"~{args.fault_interval:g}s, seed {args.seed}, load {loads[0]}",
            flush=True,
        )
        faults_run = asyncio.run(soak(args, plan, env))
        loads[1] = loadavg()
    finally:
        for pidfile in args.run_dir.glob("*.pid"):  # nothing stays frozen, whatever happened
            with contextlib.suppress(ValueError, OSError):
                os.killpg(int(pidfile.read_text()), signal.SIGCONT)
        with contextlib.suppress(Exception, SystemExit):
            load.cluster("stop", env)
        redis_kill(args)
    chips_ok, summary = load.audit()
    history = load.history_audit()
    dealt, completed = hand_counts(faults_run["tables"], since)
    line = report(args, faults_run, dealt, completed, chips_ok, summary, loads, history)
    if args.summary_file:
        with args.summary_file.open("a") as out:
            out.write(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} {line}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
