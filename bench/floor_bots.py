"""The floor's bots (bench/floor.py starts them, one process per share of the tables, each as
`python bench/floor_bots.py` with its plan on stdin): six sockets a table, one seat acting at a
time after its think time, the next when its frame arrives. Each process writes one line on
stdout when its sockets are open, reads the run's times, and writes its figures when done.
bench/load.py's bots use its loop_lag and wait_until.
"""

import asyncio
import json
import random
import secrets
import sys
import time
from collections import Counter

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

SEATS = 6


class Table:
    """Six sockets of one table; one seat acts at a time, the next when its frame arrives."""

    def __init__(self, name: str, urls: list[str], plan: dict, rng: random.Random, result: dict):
        self.name = name
        self.urls = urls
        self.plan = plan
        self.think = plan["think"]
        self.rng = rng
        self.result = result
        self.sockets: list = [None] * SEATS
        self.readers: list[asyncio.Task] = []
        self.pending: dict[str, list] = {}  # action_id -> [seat, sent, delivered, measured]
        self.seq = 0
        self.playing = False
        self.acting: asyncio.Task | None = None
        self.progress = time.monotonic()

    async def open(self, seat: int) -> None:
        try:
            ws = await connect(self.urls[seat], proxy=None, open_timeout=30, max_size=2**22)
        except Exception as failed:  # refused, timed out: counted, the table will not play
            self.result["errors"][f"connect_{type(failed).__name__}"] += 1
            return
        self.sockets[seat] = ws
        self.readers.append(asyncio.create_task(self.read(seat, ws)))

    async def read(self, seat: int, ws) -> None:
        try:
            async for text in ws:
                self.on_frame(seat, text, time.monotonic())
        except ConnectionClosed as closed:
            if self.playing:
                code = closed.rcvd.code if closed.rcvd else "abnormal"
                self.result["errors"][f"closed_{code}"] += 1
        self.sockets[seat] = None

    def on_frame(self, seat: int, text: str, at: float) -> None:
        event = json.loads(text)
        self.progress = at
        entry = self.pending.get(event["action_id"])
        if entry is not None:
            entry[2] += 1
            measured = entry[3]
            if measured:
                self.result["frames_delivered"] += 1
            if seat == entry[0] and measured:
                self.result["echo"].append(at - entry[1])
            if entry[2] == SEATS:
                del self.pending[event["action_id"]]
                if measured:
                    self.result["all"].append(at - entry[1])
        if seat == (event["seat"] + 1) % SEATS:
            self.turn(seat)

    def turn(self, seat: int) -> None:
        if self.playing and (self.acting is None or self.acting.done()):
            self.acting = asyncio.create_task(self.act(seat))

    async def act(self, seat: int) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        ws = self.sockets[seat]
        if not self.playing or ws is None:
            return
        self.seq += 1
        action_id = secrets.token_hex(8)
        sent = time.monotonic()
        measured = self.plan["measure_at"] <= sent < self.plan["end_at"]
        self.pending[action_id] = [seat, sent, 0, measured]
        if measured:
            self.result["actions"] += 1
            self.result["frames_expected"] += SEATS
        self.progress = sent
        frame = {
            "type": "act",
            "action": "call",
            "seat": seat,
            "seq": self.seq,
            "action_id": action_id,
            "size": self.plan["frame_bytes"],
        }
        try:
            await ws.send(json.dumps(frame))
        except Exception:
            self.result["errors"]["send_failed"] += 1

    async def watch(self) -> None:
        """A table whose frame was lost would wait for ever: after 5 s of silence past the
        longest think, the next seat acts again (counted as a stall)."""
        while self.playing:
            await asyncio.sleep(1)
            if self.playing and time.monotonic() - self.progress > 5 + self.think[1]:
                self.result["stalls"] += 1
                self.progress = time.monotonic()
                self.turn(self.rng.randrange(SEATS))


async def loop_lag(lags: list, plan: dict) -> None:
    """How late this process's event loop runs during the window: the bots' share of latency."""
    while time.monotonic() < plan["end_at"]:
        started = time.monotonic()
        await asyncio.sleep(0.05)
        if plan["measure_at"] <= started:
            lags.append(time.monotonic() - started - 0.05)


async def wait_until(moment: float) -> None:
    await asyncio.sleep(max(0.0, moment - time.monotonic()))


async def bots(plan: dict) -> dict:
    result = {
        "actions": 0,
        "echo": [],
        "all": [],
        "frames_expected": 0,
        "frames_delivered": 0,
        "stalls": 0,
        "errors": Counter(),
        "lag": [],
        "connected": 0,
        "sockets": 0,
    }
    plan["think"] = tuple(plan["think"])
    rng = random.Random(plan["seed"])
    tables = [
        Table(name, urls, plan, random.Random(rng.random()), result)
        for name, urls in plan["tables"]
    ]
    opening = []
    for table in tables:  # sockets open at a steady rate
        for seat in range(SEATS):
            opening.append(asyncio.create_task(table.open(seat)))
            await asyncio.sleep(1 / plan["connect_rate"])
    await asyncio.gather(*opening)
    result["sockets"] = len(opening)
    # Every socket is open (or failed): say so, and wait for the times of the run.
    sys.stdout.write(json.dumps({"open": sum(1 for t in tables for ws in t.sockets if ws)}) + "\n")
    sys.stdout.flush()
    times = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    plan.update(json.loads(times))
    await wait_until(plan["play_at"])
    lag_task = asyncio.create_task(loop_lag(result["lag"], plan))
    watchers = []
    for table in tables:
        if all(table.sockets):
            table.playing = True
            table.progress = time.monotonic()
            table.turn(0)
            watchers.append(asyncio.create_task(table.watch()))
        else:
            result["errors"]["table_not_complete"] += 1
    await wait_until(plan["end_at"])
    result["connected"] = sum(1 for t in tables for ws in t.sockets if ws is not None)
    for table in tables:  # no new acts; the frames of the window's acts may still come
        table.playing = False
    give_up = time.monotonic() + 10
    while time.monotonic() < give_up and any(
        entry[3] for table in tables for entry in table.pending.values()
    ):
        await asyncio.sleep(0.1)
    await asyncio.gather(
        *(ws.close() for table in tables for ws in table.sockets if ws is not None),
        return_exceptions=True,
    )
    readers = [task for table in tables for task in table.readers]
    await asyncio.gather(lag_task, *watchers, *readers, return_exceptions=True)
    result["lost_echoes"] = sum(1 for t in tables for e in t.pending.values() if e[3] and e[2] == 0)
    return result


def bots_worker() -> int:
    plan = json.loads(sys.stdin.readline())
    result = asyncio.run(bots(plan))
    result["errors"] = dict(result["errors"])
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(bots_worker())
