"""What every websocket of the site does besides its own frames: it is counted (presence, at most
MAX_SOCKETS_PER_USER per user), it beats with its process, and it closes when its session ends.

Close codes: holdem/realtime/close_codes.py (docs/protocol.md).
"""

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from casino import metrics
from casino.accounts.exclusions import exclusion_refusal
from casino.accounts.selectors import FROZEN_MESSAGE, account_is_frozen
from casino.accounts.sessions import session_is_valid, session_tag
from holdem.realtime.broadcast import user_group
from holdem.realtime.close_codes import CloseCode
from holdem.realtime.delta import encode
from holdem.realtime.heartbeat import PROCESS_KEY, heartbeat
from holdem.services.presence import (
    OpenedAt,
    OpenSocket,
    connection_close,
    connection_open_reading,
)

# A server whose database thread is this far behind takes no new sockets (BusyGate).
BUSY_SECONDS = 1.0

# A table event that arrives ahead of the one before it waits this long for it (table_message).
REORDER_WAIT_SECONDS = 0.25


class BusyGate:
    """ASGI middleware, outermost: while this server's database thread is more than BUSY_SECONDS
    behind, a websocket handshake is refused before anything is spent on it (no session read,
    no channel on the layer, no snapshot queued behind the table actions). The client tries
    again, backing off (static/js/socket.js); the sockets already open keep playing.
    docs/decisions.md, Performance."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and heartbeat().database_behind() > BUSY_SECONDS:
            metrics.busy_refused()  # metrics:
            await receive()  # the client's websocket.connect
            await send({"type": "websocket.close"})
            return None
        return await self.app(scope, receive, send)


class TrackedConsumer(AsyncWebsocketConsumer):
    table_id: int | None = None
    max_frame_bytes: int  # a frame over this closes the socket (docs/protocol.md): set by each kind

    async def dispatch(self, message):
        """Run the handler for `message`, without the trip to the database thread that Channels
        makes before every handler to close stale connections: every database call of these
        consumers goes through `database_sync_to_async`, which does that itself, on that thread.
        Channels' trip was one per message, so one per socket for every broadcast frame, queued
        on the same single thread as the table actions (docs/performance.md)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def open_tracked[Read](
        self, groups: list[str], read: Callable[[OpenedAt | None], Read]
    ) -> Read | None:
        """Join `groups` and the user's own, accept, and count this socket; `read` (its first
        snapshot) runs in the same trip to the database thread as the count, and what it
        returns is returned. None: the socket was refused (a frozen account), nothing counted.

        One trip, not one for the count and one or two for the snapshot: in a reconnect storm
        every trip of every arriving socket queues behind the table actions on that one thread
        (docs/performance.md, "Reconnect storm")."""
        self.groups_joined = [*groups, user_group(self.user.pk)]
        self.tracked = False
        self.revoked = False
        self.last_seq = 0
        self.seq_known = False  # a snapshot has told this socket where the table is
        self.held: dict[int, str] = {}  # events that came ahead of their predecessor, by seq
        self.hold_timer: asyncio.TimerHandle | None = None
        session = self.scope.get("session")
        self.session_key = session.session_key if session is not None else None
        await self.rejoin_groups()
        await self.accept()
        if await self.frozen_revoked():
            return None  # refused before it is counted: nothing to count, nobody to evict
        evicted, seen = await database_sync_to_async(connection_open_reading)(
            process_key=PROCESS_KEY,
            channel_name=self.channel_name,
            user=self.user,
            table_id=self.table_id,
            read=read,
        )
        # (Not passed in: on a busy server the database thread runs the open seconds later,
        # and the process's beat in it must carry that time, not this one.)
        self.opened_at = timezone.now()
        self.tracked = True
        metrics.socket_opened(self)  # metrics:
        heartbeat().count(self)  # counted again after a stall (holdem/realtime/heartbeat.py)
        for channel in evicted:
            await self.channel_layer.send(channel, {"type": "connection.evict"})
        return seen

    def start_beating(self) -> None:
        """Join the process heartbeat; after the first frame (a snapshot), so that frame comes first."""
        if self.tracked:
            heartbeat().add(self)

    def open_socket(self) -> OpenSocket:
        """This socket as presence counts it."""
        return OpenSocket(
            channel_name=self.channel_name,
            user=self.user,
            table_id=self.table_id,
            opened_at=self.opened_at,
        )

    async def close_tracked(self) -> None:
        if not getattr(self, "tracked", False):
            return
        self.tracked = False
        metrics.socket_closed(self)  # metrics:
        heartbeat().discard(self)
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        await database_sync_to_async(connection_close)(
            channel_name=self.channel_name, user=self.user, table_id=self.table_id
        )

    async def rejoin_groups(self) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def auth_check(self, event) -> None:
        """Sign-out, password change or deactivation of this user (casino/accounts/sessions.py),
        staff froze the account (docs/integrity.md), or the player took a break (docs/rules.md
        10: every session is signed out; the socket says until when)."""
        excluded = await database_sync_to_async(exclusion_refusal)(user_id=self.user.pk)
        if excluded is not None:
            await self.revoke(CloseCode.SIGNED_OUT, excluded.message)
        elif event.get("ended_session") == session_tag(
            self.session_key
        ) or not await database_sync_to_async(session_is_valid)(
            session_key=self.session_key, user_id=self.user.pk
        ):
            await self.revoke(CloseCode.SIGNED_OUT, "you signed out; sign in again to play")
        elif await database_sync_to_async(account_is_frozen)(user_id=self.user.pk):
            await self.revoke(CloseCode.SIGNED_OUT, FROZEN_MESSAGE)

    async def connection_evict(self, event) -> None:
        await self.revoke(
            CloseCode.TOO_MANY_SOCKETS,
            "too many open connections; this one, the oldest, was closed",
        )

    async def disconnect(self, code):
        await self.close_tracked()

    async def frame_refused(self, text_data: str | None, bytes_data: bytes | None) -> bool:
        """Whether a frame that came in is not to be read: the socket was revoked (signed out or
        evicted: nothing more is accepted on it), or the frame is over `max_frame_bytes`, which
        closes the socket."""
        if getattr(self, "revoked", True):
            return True
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > self.max_frame_bytes:
            await self.close(code=CloseCode.TOO_BIG)
            return True
        return False

    async def frozen_revoked(self) -> bool:
        """A frozen account (docs/integrity.md) opening a socket is told so and closed, as the
        freeze closed the sockets it had open; whether it is frozen comes with the user row the
        handshake read."""
        if getattr(self.user, "frozen_at", None) is None:
            return False
        await self.revoke(CloseCode.SIGNED_OUT, FROZEN_MESSAGE)
        return True

    async def revoke(self, code: int, message: str) -> None:
        """Refuse every later frame, say why, and close."""
        if self.revoked:
            return
        self.revoked = True
        await self.send_json({"type": "error", "code": "closed", "message": message})
        await self.close(code=code)
        await self.close_tracked()  # counted as gone now, not when the client acknowledges

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        """Send a frame; one for a client that has already gone is dropped. Daphne raises when a
        websocket closed before its `websocket.disconnect` reached this consumer (a tab closed
        while its table is busy): raised here, it ended the consumer before its disconnect ran,
        so the socket stayed counted as open (tests/realtime/test_closed_socket.py)."""
        # The disconnect is on its way, and closes this socket as usual.
        with contextlib.suppress(Disconnected):
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def send_json(self, payload: dict) -> None:
        await self.send(text_data=encode(payload))

    async def table_message(self, event) -> None:
        """A frame from the services through the channel layer, encoded there once
        (holdem/realtime/broadcast.py): forwarded as it is, a table event in seq order (held briefly when
        it comes ahead of the one before it)."""
        if self.user.pk in event.get("skip", ()):
            return  # this user gets the same change, with their own part, in their own group
        metrics.frame_delivered(event)  # metrics:
        seq = event.get("seq")
        if seq is None:
            await self.send(text_data=event["text"])
            return
        if self.seq_known and seq > self.last_seq + 1:
            # Consecutive events of a table may be committed by different processes (a server,
            # a Celery worker), each publishing after its own commit: the later one can come
            # first. It waits for the one before it, briefly; past the wait it goes as it is,
            # and the client sees the gap and asks for a snapshot (a lost broadcast).
            self.held[seq] = event["text"]
            if self.hold_timer is None:
                self.hold_timer = asyncio.get_running_loop().call_later(
                    REORDER_WAIT_SECONDS, lambda: asyncio.ensure_future(self.release_held())
                )
            return
        self.last_seq = max(self.last_seq, seq)
        await self.send(text_data=event["text"])
        while self.last_seq + 1 in self.held:
            self.last_seq += 1
            await self.send(text_data=self.held.pop(self.last_seq))
        if not self.held and self.hold_timer is not None:
            self.hold_timer.cancel()
            self.hold_timer = None

    async def release_held(self) -> None:
        """The wait is over: send what was held, in seq order, gap and all."""
        self.hold_timer = None
        held, self.held = sorted(self.held.items()), {}
        if held:
            self.last_seq = max(self.last_seq, held[-1][0])
        for _, text in held:
            await self.send(text_data=text)


class SnapshotConsumer(TrackedConsumer):
    """A signed-in user's read-only socket: subscribe to `snapshot_groups()`, then a snapshot
    (`send_snapshot`), then frames; it answers 'ping' and 'snapshot' and nothing else (style.md 6).
    The lobby's socket and the user's own socket (ws/me/) are the two."""

    max_frame_bytes = 1024
    understood_by = "this socket"  # the error frame's words for who refused an unknown frame
    own_frames: tuple[str, ...] = ()  # frame types beside 'ping' and 'snapshot' (receive_own)

    def snapshot_groups(self) -> list[str]:
        raise NotImplementedError

    def snapshot_now(self) -> dict[str, Any]:
        """The snapshot frame, read on the database thread."""
        raise NotImplementedError

    async def send_snapshot(self) -> None:
        await self.send_json(await database_sync_to_async(self.snapshot_now)())

    async def connect(self):
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close()
            return
        # Subscribed before the snapshot: a change committed in between comes as a frame.
        snapshot = await self.open_tracked(
            self.snapshot_groups(), lambda table: self.snapshot_now()
        )
        if snapshot is None:
            return
        await self.send_first(snapshot)
        self.start_beating()

    async def send_first(self, snapshot: dict[str, Any]) -> None:
        """The first frame: the snapshot read with the count."""
        await self.send_json(snapshot)

    async def receive(self, text_data=None, bytes_data=None):
        if await self.frame_refused(text_data, bytes_data):
            return
        try:
            frame = json.loads(text_data or "")
        except ValueError:
            frame = None
        kind = frame.get("type") if isinstance(frame, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "snapshot":
            await self.send_snapshot()
        elif isinstance(frame, dict) and kind in self.own_frames:
            await self.receive_own(frame)
        else:
            names = [f"'{name}'" for name in ("ping", "snapshot", *self.own_frames)]
            message = f"{self.understood_by} understands {', '.join(names[:-1])} and {names[-1]}"
            await self.send_json({"type": "error", "code": "unknown_type", "message": message})

    async def receive_own(self, frame: dict[str, Any]) -> None:
        """A frame of one of the `own_frames` types, which this kind of socket adds."""
        raise NotImplementedError

    async def rejoin_groups(self) -> None:
        """After the layer lost our groups a change may have been missed: send the snapshot again."""
        await super().rejoin_groups()
        if getattr(self, "tracked", False):
            await self.send_snapshot()
