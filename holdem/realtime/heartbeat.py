"""The web process's heartbeat: once a second, for all the sockets this process holds.

One beat costs one database write (this process is alive: its connections count, see
holdem/services/presence.py), one read (the sequence number of each table watched here) and one
Redis read (has the channel layer lost our groups?). With it, sockets that missed a broadcast are
told the table moved on (`heartbeat` frames: the client asks for a snapshot), and sockets whose
groups vanished with a Redis flush or restart join them again; and after a silence long enough for
the clock's sweep to take this process for dead (a stall), its sockets count again.
docs/decisions.md, "Presence".
"""

import asyncio
import logging
import time
import uuid
from datetime import timedelta

import redis
import redis.asyncio
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from casino import metrics
from casino.redis_shards import async_client, endpoint
from holdem.db import rows
from holdem.models import PROCESS_EXPIRY_SECONDS
from holdem.services.presence import (
    PROCESS_BEAT_SECONDS,
    connections_restore,
    process_beat,
)

log = logging.getLogger(__name__)

# This process, for as long as it lives (a restart is a new process: its old sockets expire).
PROCESS_KEY = uuid.uuid4().hex
# channels-redis forgets a group member after a day; joining again well before that keeps it.
REJOIN_EVERY_SECONDS = 600
# Beats this far apart may have let the sweep take this process for dead: half the expiry, for
# a clock (Celery's machine) a little ahead of ours.
SILENCE_SECONDS = PROCESS_EXPIRY_SECONDS / 2
# A shard that does not answer the marker check within this is an error of this beat.
MARKER_TIMEOUT_SECONDS = 2


class Heartbeat:
    """The sockets of one event loop (one per Daphne process) and the task that beats for them."""

    def __init__(self):
        self.sockets = set()
        # Every socket presence counts here, beating or not yet (its first frame still on its way).
        self.counted = set()
        # When the last beat reached the database (its clock): a silence after it is a stall.
        self.beaten_at = None
        self.task = None
        # Table seqs read at the last beat, a second ago: an event that old which a socket has
        # not seen was lost, not in flight.
        self.settled_seqs: dict[int, int] = {}
        # One client per shard of the channel layer: a restart or flush of any of them lost the
        # groups that hash to it (casino/redis_shards.py).
        self.shards: list[redis.asyncio.Redis] | None = None
        self.marker = f"casino:layer:{PROCESS_KEY}"
        self.joined_at = time.monotonic()
        # The database thread's queue, as the beats find it (database_behind).
        self.asked_at: float | None = None
        self.database_wait = 0.0

    def add(self, socket) -> None:
        self.sockets.add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def count(self, socket) -> None:
        self.counted.add(socket)

    def discard(self, socket) -> None:
        self.sockets.discard(socket)
        self.counted.discard(socket)

    def settled_seq(self, table_id: int) -> int | None:
        return self.settled_seqs.get(table_id)

    async def run(self) -> None:
        while self.sockets:
            started = time.monotonic()
            try:
                await self.beat()
            except Exception:  # a database or Redis outage must not stop the heartbeat for good
                log.exception("web process heartbeat failed")
            await asyncio.sleep(max(0.05, PROCESS_BEAT_SECONDS - (time.monotonic() - started)))
        # No socket is left to wait on the database thread, and no beat will measure it again
        # until one comes: a last measure kept from a busy moment would have the busy gate
        # refuse that socket, and every one after it, for good.
        self.database_wait = 0.0
        self.asked_at = None
        for client in self.shards or ():
            await client.aclose()
        self.shards = None

    def database_behind(self) -> float:
        """How long a call waits for this process's database thread, in seconds: the last beat's
        wait, or the wait of the beat still queued if it is longer."""
        if self.asked_at is None:
            return self.database_wait
        return max(self.database_wait, time.monotonic() - self.asked_at)

    async def beat(self) -> None:
        table_ids = {s.table_id for s in self.sockets if s.table_id is not None}
        # Taken here, on the event loop: a socket closing after this queues its close behind the
        # beat on the database thread, so a socket counted again is never one already gone.
        counted = list(self.counted)
        self.asked_at = asked = time.monotonic()

        def beat_now():
            self.database_wait = time.monotonic() - asked
            self.asked_at = None
            now = timezone.now()
            process_beat(process_key=PROCESS_KEY, now=now)
            if self.beaten_at is None or now - self.beaten_at > timedelta(seconds=SILENCE_SECONDS):
                held = [socket.open_socket() for socket in counted]
                connections_restore(process_key=PROCESS_KEY, sockets=held, now=now)
            self.beaten_at = now
            return rows.table_seqs(table_ids)

        seqs = await database_sync_to_async(beat_now)()
        if await self.layer_lost() or time.monotonic() - self.joined_at > REJOIN_EVERY_SECONDS:
            self.joined_at = time.monotonic()
            for socket in list(self.sockets):
                await socket.rejoin_groups()
        for socket in list(self.sockets):
            settled = self.settled_seqs.get(socket.table_id)
            if settled is not None and socket.last_seq < settled:
                metrics.resync_hinted()  # metrics:
                await socket.send_json({"type": "heartbeat", "seq": settled})
        self.settled_seqs = seqs

    async def layer_lost(self) -> bool:
        """True once after a shard of the channel layer lost our marker key (flushed or
        restarted): the groups that hash to it went with it. Every shard is asked each beat."""
        if not settings.CHANNEL_LAYER_URLS:
            return False
        if self.shards is None:
            self.shards = [
                async_client(endpoint(url), MARKER_TIMEOUT_SECONDS)
                for url in settings.CHANNEL_LAYER_URLS
            ]
            for client in self.shards:
                await client.set(self.marker, "1")
            return False
        lost = False
        for index, client in enumerate(self.shards):
            try:
                if await client.exists(self.marker):
                    continue
                await client.set(self.marker, "1")
            except redis.RedisError as error:
                # Down now: its groups are judged when it answers again (the marker is gone
                # after a restart); the other shards' sockets keep their beat meanwhile.
                log.warning("shard %d of the channel layer did not answer: %s", index, error)
                continue
            log.warning(
                "shard %d of the channel layer lost this process's groups (Redis flushed or "
                "restarted); joining again",
                index,
            )
            lost = True
        if lost:
            metrics.groups_rejoined(len(self.sockets))  # metrics:
        return lost


_heartbeats: dict[asyncio.AbstractEventLoop, Heartbeat] = {}


def heartbeat() -> Heartbeat:
    """The heartbeat of the running event loop (Daphne has one; tests may run several)."""
    loop = asyncio.get_running_loop()
    beat = _heartbeats.get(loop)
    if beat is None:
        for old in [other for other in _heartbeats if other.is_closed()]:
            del _heartbeats[old]
        beat = _heartbeats[loop] = Heartbeat()
    return beat
