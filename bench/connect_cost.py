"""What one websocket's connect costs a server, in one process, no network: the site's ASGI
application (busy gate, origin check, session, consumer) with the pub/sub channel layer on Redis,
N sockets opened one after another, each until its first frame (the snapshot), kept open as a
reconnect storm's are. Prints the CPU per connect of this process (every thread: the event
loop, the database thread, the handshake's pool) and of its PostgreSQL backends, and the
wall time per connect. Asserts nothing.

    .venv/bin/python bench/connect_cost.py --sockets 300                # table, ws/me/, lobby in turn
    .venv/bin/python bench/connect_cost.py --sockets 300 --kinds seat   # only seated players' tables

Kinds: `seat` (a seated player's table socket), `watch` (a user without a seat watching a
table), `me` (ws/me/), `lobby`. Uses its own database (casino_connectcost, made afresh and
migrated on every run) on DATABASE_URL's server; the CPU figures hold even on a machine others are busy on,
where bench/load.py's --storm figures do not (docs/performance.md, "Reconnect storm").
"""

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench.django_setup import setup_django  # noqa: E402

DATABASE = "casino_connectcost"
SEATS = 6
ORIGIN = b"http://127.0.0.1"


# Django's modules are imported inside the functions below: they load only once setup_django
# (bench/django_setup.py) has pointed the settings at the benchmark's own database.
def session_of(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def new_user(name: str):
    from casino.accounts.models import LedgerKind, User
    from casino.accounts.services import account_open, wallet_adjust

    user = User(username=name)
    user.set_unusable_password()  # no password hashing
    user.save()
    account_open(user=user)
    wallet_adjust(user=user, amount=10**6, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="bench")
    return user


def prepare(sockets: int, kinds: list[str]) -> list[tuple[str, str]]:
    """(path, session key) for each socket, kinds in turn; a seated player's table socket and
    ws/me/ are of the same players, a watcher's and the lobby's of users without a seat."""
    from holdem.services import room_create, table_sit

    stamp = f"{int(time.time() * 1000) % 10**9}"
    tables = max(1, sockets // (SEATS * len(kinds)) + 1)
    players = []
    for t in range(tables):
        table = room_create(name=f"connect cost {stamp} {t}", preset="nl50", time_bank_seconds=0)
        for seat in range(SEATS):
            user = new_user(f"cc{stamp}t{t}s{seat}")
            table_sit(table_id=table.pk, user=user, seat=seat, buy_in=5_000)
            players.append((table.pk, session_of(user)))
    plan = []
    for i in range(sockets):
        kind = kinds[i % len(kinds)]
        table_id, session = players[(i // len(kinds)) % len(players)]
        if kind == "seat":
            plan.append((f"/ws/table/{table_id}/", session))
        elif kind == "me":
            plan.append(("/ws/me/", session))
        elif kind == "watch":
            plan.append((f"/ws/table/{table_id}/", session_of(new_user(f"cc{stamp}w{i}"))))
        elif kind == "lobby":
            plan.append(("/ws/lobby/", session_of(new_user(f"cc{stamp}l{i}"))))
        else:
            raise SystemExit(f"--kinds: unknown kind {kind!r} (seat, watch, me, lobby)")
    return plan


def backend_pids() -> list[int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [DATABASE],
        )
        return [row[0] for row in cursor.fetchall()]


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def storm(plan: list[tuple[str, str]], warm: int) -> dict:
    from channels.testing import WebsocketCommunicator

    from casino.asgi import application

    opened = []
    waits = []
    first_frames = []

    async def one(path: str, session: str) -> None:
        headers = [(b"host", b"127.0.0.1"), (b"origin", ORIGIN)]
        headers.append((b"cookie", f"sessionid={session}".encode()))
        communicator = WebsocketCommunicator(application, path, headers=headers)
        started = time.perf_counter()
        connected, code = await communicator.connect(timeout=30)
        if not connected:
            raise SystemExit(f"{path} refused ({code})")
        first_frames.append(await communicator.receive_from(timeout=30))
        waits.append(time.perf_counter() - started)
        opened.append(communicator)

    for path, session in plan[:warm]:  # the process's first sockets: imports, prepared statements
        await one(path, session)
    waits.clear()
    await asyncio.to_thread(lambda: None)
    pids = await asyncio.to_thread(backend_pids)
    backends_before = {pid: cpu_seconds(pid) for pid in pids}
    cpu_before, wall_before = time.process_time(), time.perf_counter()
    for path, session in plan[warm:]:
        await one(path, session)
    cpu = time.process_time() - cpu_before
    wall = time.perf_counter() - wall_before
    pids = await asyncio.to_thread(backend_pids)
    backends = sum(cpu_seconds(pid) - backends_before.get(pid, 0.0) for pid in pids)
    for communicator in opened:
        await communicator.disconnect()
    return {
        "sockets": len(plan) - warm,
        "cpu": cpu,
        "wall": wall,
        "postgres": backends,
        "waits": waits,
        "frame_bytes": sum(len(f) for f in first_frames) / max(1, len(first_frames)),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=300)
    parser.add_argument("--warm", type=int, default=20, help="sockets opened before measuring")
    parser.add_argument("--kinds", default="seat,me,watch,lobby")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--profile", action="store_true", help="and the top of a cProfile")
    args = parser.parse_args(argv)
    # Fresh each run: the lobby's snapshot lists every room, and earlier runs' rooms would make
    # it bigger run after run.
    setup_django(DATABASE, args.redis_url, fresh=True)
    kinds = [kind.strip() for kind in args.kinds.split(",") if kind.strip()]
    plan = prepare(args.sockets + args.warm, kinds)
    if args.profile:
        profiler = cProfile.Profile()
        result = profiler.runcall(asyncio.run, storm(plan, args.warm))
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    else:
        result = asyncio.run(storm(plan, args.warm))
    n = result["sockets"]
    waits = sorted(result["waits"])
    print(
        f"connect_cost: kinds={args.kinds} sockets={n} process_cpu_ms_per_connect="
        f"{result['cpu'] / n * 1000:.2f} postgres_cpu_ms_per_connect="
        f"{result['postgres'] / n * 1000:.2f} wall_ms_per_connect={result['wall'] / n * 1000:.2f} "
        f"p50_ms={waits[len(waits) // 2] * 1000:.1f} first_frame_bytes={result['frame_bytes']:.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
