"""The lobby at scale: what one lobby socket costs at 100, 5,000 and 30,000 rooms, with the rooms
changing at a realistic rate, in today's design (a page per view, changes coalesced once a
second by the process's lobby relay) beside the old one (every room in the first frame, every
change of every room to every socket). Prints figures, asserts nothing.

    .venv/bin/python bench/lobby.py                         # 100, 5,000, 30,000 rooms
    .venv/bin/python bench/lobby.py --rooms 1000 --seconds 5

How: the rooms (four players seated in each) are made directly in a database of the bench's own
(casino_bench_lobby, created and migrated on first use) with bulk_create. The relay runs in this
process (lobby/relay.py, the real one) on the real channel layer (channels-redis pub/sub on
Redis, --redis), with --sockets lobby sockets attached to it as in a web process: they are the
consumer's stand-ins (they count what they are sent), not websockets over a server, since
30,000 rooms' worth of servers would not fit this machine beside its neighbours. The changes are
real `room` frames (room_summary of a room whose seats or hand changed) published to the lobby
group through the layer, at ROOMS / --hand-seconds a second (a hand ends in every room about
once a minute: 500 changes a second at 30,000 rooms). The old design's figures are computed from
the same frames: every socket got each change (one frame each), and a first frame of every room.

The last line is the summary:

    lobby: rooms=N snapshot_new_bytes=.. snapshot_old_bytes=.. per_socket_new_bytes_s=..
        per_socket_old_bytes_s=.. frames_s_new_max=.. frames_s_old=.. (one line per size)
"""

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from bench.django_setup import setup_django  # noqa: E402

DATABASE = "casino_bench_lobby"
PLAYERS_PER_ROOM = 4
PRESET_MIX = ("nl50", "nl50", "pl50", "fl20", "classic")


# Django's modules are imported inside the functions below: they load only once setup_django
# (bench/django_setup.py) has pointed the settings at the benchmark's own database.
def make_rooms(count: int) -> list[int]:
    """`count` open rooms, PLAYERS_PER_ROOM seated in each; the bench's earlier rooms go."""
    from django.contrib.auth.hashers import make_password
    from django.db import connection

    from casino.accounts.models import User
    from holdem.models import Seat, Table
    from holdem.presets import PRESETS

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE holdem_seat, holdem_table RESTART IDENTITY CASCADE")
    needed = count * PLAYERS_PER_ROOM
    have = User.objects.filter(username__startswith="lb").count()
    if have < needed:
        hashed = make_password("pw-for-bench-123")
        User.objects.bulk_create(
            (User(username=f"lb{n:06d}", password=hashed) for n in range(have, needed)),
            batch_size=5_000,
        )
    users = list(
        User.objects.filter(username__startswith="lb")
        .order_by("username")
        .values_list("pk", flat=True)
    )
    tables = []
    for n in range(count):
        preset = PRESET_MIX[n % len(PRESET_MIX)]
        values = {k: v for k, v in PRESETS[preset].items() if k != "name"}
        tables.append(Table(name=f"Bench {preset} {n:05d}", **values))
    made = Table.objects.bulk_create(tables, batch_size=5_000)
    seats = [
        Seat(
            table_id=table.pk,
            number=number,
            user_id=users[i * PLAYERS_PER_ROOM + number],
            stack=5_000,
        )
        for i, table in enumerate(made)
        for number in range(PLAYERS_PER_ROOM)
    ]
    Seat.objects.bulk_create(seats, batch_size=10_000)
    return [t.pk for t in made]


def summaries() -> dict[int, dict]:
    """Every open room as the lobby lists it (room_summary), seats read in one query."""
    from holdem.models import Seat, Table
    from holdem.selectors.lobby import room_summary

    by_table: dict[int, list] = {}
    for seat in Seat.objects.select_related("user").order_by("number"):
        by_table.setdefault(seat.table_id, []).append(seat)
    tables = Table.objects.defer("hand_state", "sent_view").order_by("id")
    return {t.pk: room_summary(t, by_table.get(t.pk, [])) for t in tables}


class CountingSocket:
    """A lobby socket as the relay sees it: it counts the frames and bytes it is sent."""

    def __init__(self, kind: str):
        self.kind = kind
        self.frames: list[tuple[float, int, str]] = []  # (when, bytes, type)

    async def send(self, text_data: str | None = None) -> None:
        text = text_data or ""
        self.frames.append((time.monotonic(), len(text.encode()), json.loads(text)["type"]))


def views(count: int):
    """The sockets' views: most on the first page, some further on, some filtered."""
    from holdem.selectors.lobby_page import LobbyView

    rng = random.Random(7)
    made = []
    for n in range(count):
        pick = n % 10
        if pick < 6:
            made.append(("first page", LobbyView()))
        elif pick < 8:
            made.append(("page 2-20", LobbyView(page=rng.randint(2, 20))))
        elif pick == 8:
            made.append(("hide full, PL", LobbyView(structures=("pot_limit",), hide_full=True)))
        else:
            made.append(("stakes 50/100, 2 free", LobbyView(stakes="50/100", free=2)))
    return made


def changed(room: dict, rng: random.Random) -> dict:
    """The room after a hand ended: the hand over or a new one dealt, now and then a player
    leaving or coming, the spectators moving."""
    room = dict(room)
    room["playing"] = not room["playing"]
    room["spectators"] = max(0, room["spectators"] + rng.choice((-1, 0, 0, 1)))
    if rng.random() < 0.2:
        players = list(room["players"])
        if players and (len(players) >= room["seats"] or rng.random() < 0.5):
            players.pop(rng.randrange(len(players)))
        else:
            players.append(f"lb9{rng.randrange(10**5):05d}")
        room["players"] = players
        room["taken"] = room["ready"] = len(players)
    return room


async def run_size(rooms: int, args) -> dict:
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer
    from django.core.cache import cache

    from holdem.realtime.broadcast import LOBBY_GROUP, frame_message
    from holdem.realtime.delta import encode
    from holdem.selectors.lobby_page import LobbyView, rooms_page
    from lobby.relay import LobbyRelay

    started = time.monotonic()
    await database_sync_to_async(make_rooms)(rooms)
    made_s = time.monotonic() - started
    known = await database_sync_to_async(summaries)()
    old_snapshot = len(
        encode({"type": "lobby", "rooms": list(known.values()), "sit_and_gos": []}).encode()
    )
    cache.clear()
    started = time.monotonic()
    await database_sync_to_async(rooms_page)(LobbyView(), None)
    page_ms = (time.monotonic() - started) * 1000

    relay = LobbyRelay()
    sockets = []
    for kind, view in views(args.sockets):
        socket = CountingSocket(kind)
        await relay.watch(socket, view)
        sockets.append(socket)
    snapshot_new = sockets[0].frames[0][1]
    snapshot_max = max(s.frames[0][1] for s in sockets)
    await asyncio.sleep(0.3)  # the subscription takes effect

    layer = get_channel_layer()
    rate = rooms / args.hand_seconds
    rng = random.Random(11)
    ids = list(known)
    sizes: list[int] = []
    sent = 0
    cpu_before = time.process_time()
    flush_before = relay.frames_sent
    window_start = time.monotonic()
    tick = 0.05
    while time.monotonic() - window_start < args.seconds:
        # As many changes as the rate owes by now (the publisher's own time not lost).
        owed = int(rate * (time.monotonic() - window_start)) - sent
        batch = []
        for _ in range(owed):
            room_id = rng.choice(ids)
            known[room_id] = changed(known[room_id], rng)
            message = frame_message({"type": "room", "room": known[room_id]})
            sizes.append(len(message["text"].encode()))
            batch.append((LOBBY_GROUP, message))
        if batch:
            await layer.group_send_many(batch)
            sent += len(batch)
        await asyncio.sleep(tick)
    await asyncio.sleep(1.2)  # the last second's changes are sent
    window = time.monotonic() - window_start
    cpu = time.process_time() - cpu_before
    await relay.stop()

    read_ms: dict[str, float] = {}
    for kind, view in views(10):
        if kind not in read_ms:
            cache.clear()
            began = time.monotonic()
            await database_sync_to_async(rooms_page)(view, None)
            read_ms[kind] = (time.monotonic() - began) * 1000

    per_socket = []
    max_frames_1s = 0
    by_kind: dict[str, list[float]] = {}
    for socket in sockets:
        stream = [(at, size) for at, size, _ in socket.frames[1:] if at >= window_start]
        per_socket.append(sum(size for _, size in stream) / window)
        by_kind.setdefault(socket.kind, []).append(sum(size for _, size in stream) / window)
        times = [at for at, _ in stream]
        for i, at in enumerate(times):
            max_frames_1s = max(max_frames_1s, sum(1 for t in times[i:] if t - at < 0.999))
    frames_per_socket_s = statistics.mean(
        len([1 for at, _, _ in s.frames[1:] if at >= window_start]) / window for s in sockets
    )
    mean_change = statistics.mean(sizes) if sizes else 0
    changes_s = sent / window
    return {
        "rooms": rooms,
        "made_s": made_s,
        "page_ms": page_ms,
        "snapshot_new": snapshot_new,
        "snapshot_max": snapshot_max,
        "snapshot_old": old_snapshot,
        "changes_s": changes_s,
        "change_bytes": mean_change,
        "new_bytes_s": statistics.mean(per_socket),
        "new_bytes_s_max": max(per_socket),
        "by_kind": {kind: statistics.mean(v) for kind, v in by_kind.items()},
        "read_ms": read_ms,
        "new_frames_s": frames_per_socket_s,
        "new_frames_1s_max": max_frames_1s,
        "old_bytes_s": changes_s * mean_change,
        "old_frames_s": changes_s,
        "cpu_pct": 100 * cpu / window,
        "relay_frames": relay.frames_sent - flush_before,
        "sockets": len(sockets),
        "window": window,
    }


def report(r: dict) -> None:
    print(
        f"\n== {r['rooms']:,} rooms ({r['sockets']} lobby sockets, {r['window']:.1f} s, "
        f"{r['changes_s']:.0f} room changes/s; rooms made in {r['made_s']:.1f} s)"
    )
    print(
        f"  first frame   new: {r['snapshot_new']:,} B (largest view {r['snapshot_max']:,} B; "
        f"page read {r['page_ms']:.0f} ms uncached)   old: {r['snapshot_old']:,} B"
        f"{'  (over the 1 MiB message limit)' if r['snapshot_old'] > 2**20 else ''}"
    )
    print(
        f"  per socket    new: {r['new_bytes_s']:,.0f} B/s (max {r['new_bytes_s_max']:,.0f}), "
        f"{r['new_frames_s']:.2f} frames/s (most in any second: {r['new_frames_1s_max']})"
        f"   old: {r['old_bytes_s']:,.0f} B/s, {r['old_frames_s']:.0f} frames/s (computed)"
    )
    for kind, value in r["by_kind"].items():
        print(
            f"    {kind:<24} {value:,.0f} B/s   (its page read uncached: {r['read_ms'][kind]:.0f} ms)"
        )
    print(f"  this process (relay + the publisher of the changes): {r['cpu_pct']:.0f}% of a core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="*", default=[100, 5_000, 30_000])
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--hand-seconds", type=float, default=60, help="a hand per room every")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/10")
    args = parser.parse_args()
    setup_django(DATABASE, args.redis)
    print(
        "lobby bench: the relay in this process on the real channel layer (Redis pub/sub) and "
        "PostgreSQL; counting sockets, not websockets (see the docstring). Old design: computed."
    )
    results = []
    for rooms in args.rooms:
        result = asyncio.run(run_size(rooms, args))
        report(result)
        results.append(result)
    print()
    for r in results:
        print(
            f"lobby: rooms={r['rooms']} snapshot_new_bytes={r['snapshot_new']} "
            f"snapshot_old_bytes={r['snapshot_old']} per_socket_new_bytes_s={r['new_bytes_s']:.0f} "
            f"per_socket_old_bytes_s={r['old_bytes_s']:.0f} frames_s_new_max={r['new_frames_1s_max']} "
            f"frames_s_old={r['old_frames_s']:.0f} mode=in-process-relay"
        )


if __name__ == "__main__":
    main()
