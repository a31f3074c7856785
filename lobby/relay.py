"""The lobby relay: in each web process, one member of the lobby group for all the lobby sockets
the process holds, and at most one frame a second to each of them.

The services tell the lobby group of every change of a room or a tournament (`room`,
`waiting_room`, `sit_and_go` and `tournament` frames, holdem/services/notify.py and others), after
every hand. Sent to every lobby
socket, a socket's traffic grew with the number of rooms. The relay hears them instead, keeps the
latest of each room for the current second, and once a second sends each view (a filter and a
page, lobby_page.LobbyView) one `rooms` frame with the changes to the rooms on that page, encoded
once for all the sockets watching it. A room that leaves the page, or one that comes into its
range, has the page read again (`lobby` frame). The two tournament lists (the Sit & Gos and the
scheduled tournaments, the first PAGE_SIZE of each) ride the same frames: a change of one of
theirs, the latest of the second, whole. docs/decisions.md, Lobby.

The guarantees of every socket hold: the relay is in the group before a page is read, a page read
(cached a moment: lobby_page.rooms_page) is followed by the changes heard since it began, and
after the layer lost its groups every page is read again.
"""

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from typing import Any, Protocol

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connections

from holdem.realtime.broadcast import LOBBY_GROUP
from holdem.realtime.delta import encode
from holdem.selectors.lobby_page import (
    PAGE_SIZE,
    LobbyView,
    lobby_page_frame,
    room_matches,
    rooms_page,
    sit_and_gos_page,
    tournaments_page,
)

log = logging.getLogger(__name__)

# How often each lobby socket hears of the changes (at most one frame each time).
FLUSH_SECONDS = 1.0
# A page in use is read again this often: the figures and the totals, which the changes do not
# carry, stay this fresh.
REFRESH_SECONDS = 30.0
# A page whose rooms are no longer the ones its view lists is read again at most this often; in
# between, its sockets get the changes of the rooms it shows (the client's filter hides those
# that left it). At 30,000 rooms a filtered page's read takes about a second.
STALE_READ_SECONDS = 3.0
# How long the relay remembers the changes it sent: a page read (cached up to
# CASINO_LOBBY_CACHE_SECONDS) is brought up to date with those heard since it began.
HISTORY_SECONDS = 5.0


def _read_alone(read: Any, *args: Any) -> Any:
    try:
        return read(*args)
    finally:
        connections.close_all()  # this worker thread's own


async def read_apart(read: Any, *args: Any) -> Any:
    """Run a page read on a worker thread with a connection of its own, not on the thread that
    runs the table actions of this process (database_sync_to_async's): a lobby's reads never
    queue behind a hand, nor a hand behind them."""
    return await sync_to_async(_read_alone, thread_sensitive=False)(read, *args)


class LobbySocket(Protocol):
    async def send(self, text_data: str | None = None) -> None: ...


Changes = dict[int, dict[str, Any]]
# The frame a service sends the lobby group for a change of a tournament, and the key of its
# list in the `lobby` and `rooms` frames.
LIST_OF_FRAME = {"sit_and_go": "sit_and_gos", "tournament": "tournaments"}


def merge_into(into: Changes, changes: Changes) -> None:
    for key, change in changes.items():
        into[key] = {**into.get(key, {}), **change}


class PageState:
    """One view's page as the sockets watching it were last told it."""

    def __init__(self, view: LobbyView):
        self.view = view
        self.sockets: set[LobbySocket] = set()  # told the page: they hear its changes
        self.watchers: set[LobbySocket] = set()  # those, and the ones waiting for the page
        self.page: dict[str, Any] | None = None  # rooms_page's answer, its rooms kept current
        self.rows: dict[int, dict[str, Any]] = {}
        self.stale = False  # the page's rooms are no longer the ones the view lists
        self.loading: asyncio.Future | None = None

    def load(self, page: dict[str, Any]) -> None:
        self.page = page
        self.rows = {room["id"]: room for room in page["rooms"]}
        self.stale = False

    def in_range(self, room_id: int) -> bool:
        """Whether a room that the view lists would fall on this page (the site's order: by id)."""
        assert self.page is not None
        ids = list(self.rows)
        after_first = self.page["page"] == 1 or not ids or room_id > ids[0]
        before_last = len(ids) < PAGE_SIZE or room_id < ids[-1]
        return after_first and before_last

    def apply(self, changes: Changes) -> list[dict[str, Any]]:
        """Take the rooms' changes in; returns those to send (the page's rooms that changed) and
        sets `stale` when a room leaves the page or one comes into its range."""
        sent = []
        for room_id, change in changes.items():
            row = self.rows.get(room_id)
            if row is not None:
                new = {**row, **change}
                if not room_matches(new, self.view):
                    self.stale = True  # sent too, until the page is read again
                if new != row:
                    self.rows[room_id] = new
                    sent.append({"id": room_id, **change})
            elif (
                "structure" in change and room_matches(change, self.view) and self.in_range(room_id)
            ):
                self.stale = True
        return sent

    def snapshot(self, lists: dict[str, "TournamentList"]) -> dict[str, Any]:
        assert self.page is not None
        page = {**self.page, "rooms": list(self.rows.values())}
        sit_and_gos, tournaments = lists["sit_and_gos"].listed, lists["tournaments"].listed
        assert sit_and_gos is not None and tournaments is not None
        return lobby_page_frame(self.view, page, sit_and_gos, tournaments)


class TournamentList:
    """One of the lobby's tournament lists (`key`: "sit_and_gos" or "tournaments") as the relay
    holds it: the list as read (`read`, bounded to PAGE_SIZE) with the changes sent since, and
    the changes heard this second."""

    def __init__(self, key: str, read: Any):
        self.key = key
        self.read = read
        self.listed: dict[str, Any] | None = None  # the read's answer, kept current
        self.stale = False
        self.changes: Changes = {}  # heard this second, not yet sent


class LobbyRelay:
    """The lobby relay of one event loop (one per Daphne process)."""

    def __init__(self) -> None:
        self.pages: dict[LobbyView, PageState] = {}
        self.watching: dict[LobbySocket, PageState] = {}
        self.rooms: Changes = {}  # heard this second, not yet sent
        self.lists = {
            "sit_and_gos": TournamentList("sit_and_gos", sit_and_gos_page),
            "tournaments": TournamentList("tournaments", tournaments_page),
        }
        # (sent at, rooms, each list's changes) of the last HISTORY_SECONDS
        self.history: deque[tuple[float, Changes, dict[str, Changes]]] = deque()
        self.covered_from = 0.0  # every change heard since is in `history` or not yet sent
        self.channel: str | None = None
        self.tasks: list[asyncio.Task] = []
        self.starting = asyncio.Lock()
        self.rejoined_at = 0.0
        self.frames_sent = 0

    # ----- the sockets -----

    async def watch(self, socket: LobbySocket, view: LobbyView) -> None:
        """Send `socket` the view's page (a `lobby` frame), then its changes."""
        await self.start()
        self.unwatch_now(socket)
        state = self.pages.get(view)
        if state is None:
            state = self.pages[view] = PageState(view)
        # Counted as watching before the page is read: the relay stays up for it.
        self.watching[socket] = state
        state.watchers.add(socket)
        if state.page is None:
            await self.load(state)
        if state.page is None:
            raise RuntimeError("the lobby's page could not be read")
        for listed in self.lists.values():
            if listed.listed is None:
                await self.load_list(listed)
        if self.watching.get(socket) is not state:
            return  # gone, or another view asked for, while the page was read
        text = encode(state.snapshot(self.lists))
        state.sockets.add(socket)  # from here on, the page's changes; nothing awaited between
        await socket.send(text_data=text)

    def unwatch_now(self, socket: LobbySocket) -> None:
        state = self.watching.pop(socket, None)
        if state is not None:
            state.sockets.discard(socket)
            state.watchers.discard(socket)
            if not state.watchers and self.pages.get(state.view) is state:
                del self.pages[state.view]

    async def unwatch(self, socket: LobbySocket) -> None:
        self.unwatch_now(socket)
        if not self.watching:
            await self.stop()

    async def rejoin(self) -> None:
        """The layer may have lost the group (heartbeat.py): join it again and read every page
        again, since changes may have been missed. Once for all the sockets that ask at once."""
        if self.channel is None or time.monotonic() - self.rejoined_at < 1.0:
            return
        self.rejoined_at = time.monotonic()
        layer = get_channel_layer()
        assert layer is not None
        await layer.group_add(LOBBY_GROUP, self.channel)
        self.covered_from = time.time()
        self.history.clear()
        for state in self.pages.values():
            state.stale = True
        for listed in self.lists.values():
            listed.stale = True

    # ----- reading pages -----

    async def load(self, state: PageState, not_before: float | None = None) -> None:
        """Read the view's page (shared by every socket that asks while it is read), brought up
        to date with the changes heard since the read began."""
        if state.loading is not None:
            await asyncio.shield(state.loading)
            return
        state.loading = asyncio.get_running_loop().create_future()
        try:
            floor = max(self.covered_from, not_before or 0.0)
            page = await read_apart(rooms_page, state.view, floor)
            state.load(page)
            state.apply(self.heard_since(page["read_at"])[0])
        finally:
            state.loading.set_result(None)
            state.loading = None

    async def load_list(self, listed: TournamentList, not_before: float | None = None) -> None:
        """Read a tournament list, brought up to date with the changes heard since the read
        began."""
        floor = max(self.covered_from, not_before or 0.0)
        read = await read_apart(listed.read, floor)
        known = {t["id"]: t for t in read[listed.key]}
        for key, change in self.heard_since(read["read_at"])[1][listed.key].items():
            if key in known:
                known[key] = {**known[key], **change}
        read[listed.key] = list(known.values())
        listed.listed = read
        listed.stale = False

    def heard_since(self, read_at: float) -> tuple[Changes, dict[str, Changes]]:
        """The changes sent since `read_at`, and those not sent yet: a read that began at
        `read_at` may be missing them. (Sent again to a page that has them: harmless, since
        a change carries the room's fields as they now are.) The rooms', and each list's."""
        rooms: Changes = {}
        lists: dict[str, Changes] = {key: {} for key in self.lists}
        for sent_at, batch, changed in self.history:
            if sent_at >= read_at:
                merge_into(rooms, batch)
                for key, changes in changed.items():
                    merge_into(lists[key], changes)
        return rooms, lists

    # ----- hearing the changes -----

    async def start(self) -> None:
        async with self.starting:
            if self.channel is not None:
                return
            layer = get_channel_layer()
            assert layer is not None
            channel = await layer.new_channel()
            await layer.group_add(LOBBY_GROUP, channel)
            self.channel = channel
            self.covered_from = time.time()
            loop = asyncio.get_running_loop()
            self.tasks = [loop.create_task(self.hear()), loop.create_task(self.run())]

    async def stop(self) -> None:
        # Forgotten before the first await: a socket that comes meanwhile starts afresh.
        channel, self.channel = self.channel, None
        tasks, self.tasks = self.tasks, []
        self.pages.clear()
        self.rooms.clear()
        for listed in self.lists.values():
            listed.changes.clear()
            listed.listed = None
        self.history.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        layer = get_channel_layer()
        if channel is not None and layer is not None:
            with contextlib.suppress(Exception):
                await layer.group_discard(LOBBY_GROUP, channel)

    async def hear(self) -> None:
        layer = get_channel_layer()
        assert layer is not None and self.channel is not None
        while True:
            try:
                message = await layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # a Redis outage: try again (the heartbeat rejoins after one)
                log.exception("the lobby relay could not read the channel layer")
                await asyncio.sleep(1)
                continue
            self.take(message)

    def take(self, message: dict[str, Any]) -> None:
        """One change, kept until the next send; a later one of the same room adds to it."""
        text = message.get("text")
        if message.get("type") != "table.message" or not isinstance(text, str):
            return
        frame = json.loads(text)
        kind = frame.get("type")
        if kind == "room":
            merge_into(self.rooms, {frame["room"]["id"]: frame["room"]})
        elif kind == "waiting_room":
            change = {"waiting": frame["waiting"], "reserved": frame["reserved"]}
            merge_into(self.rooms, {frame["table_id"]: change})
        elif kind in LIST_OF_FRAME:
            # A Sit & Go (`sit_and_go`) or a scheduled tournament (`tournament`), whole.
            item = frame[kind]
            merge_into(self.lists[LIST_OF_FRAME[kind]].changes, {item["id"]: item})

    # ----- sending them, once a second -----

    async def run(self) -> None:
        while True:
            try:
                await self.flush()
            except Exception:
                log.exception("the lobby relay's send failed")
            # Counted from the end of a send, which may have read pages again: a socket sent to
            # late in one send and early in the next still hears at most once a second.
            await asyncio.sleep(FLUSH_SECONDS)

    async def flush(self) -> None:
        """Send each page's sockets the changes heard since the last time: one frame each."""
        now = time.time()
        rooms, self.rooms = self.rooms, {}
        changed = {}
        for key, listed in self.lists.items():
            changed[key], listed.changes = listed.changes, {}
        self.history.append((now, rooms, changed))
        while self.history and self.history[0][0] < now - HISTORY_SECONDS:
            self.covered_from = self.history.popleft()[0]
        lists_sent = {}
        for key, listed in self.lists.items():
            sent = await self.list_changed(listed, changed[key], now)
            if sent:
                lists_sent[key] = sent
        for state in list(self.pages.values()):
            if state.page is None or state.loading is not None or not state.sockets:
                continue
            try:
                frame = await self.page_changed(state, rooms, now)
            except Exception:  # the database, for a moment: this page tries again next time
                log.exception("the lobby relay could not read a page again")
                state.stale = True
                continue
            if frame is None:
                if not lists_sent or state.view.kind == "cash":
                    continue
                frame = {"type": "rooms", "rooms": []}
            if frame["type"] == "rooms" and state.view.kind != "cash":
                frame.update(lists_sent)
            text = encode(frame)
            for socket in list(state.sockets):
                await socket.send(text_data=text)
                self.frames_sent += 1

    async def list_changed(
        self, tournaments: TournamentList, changes: Changes, now: float
    ) -> list[dict[str, Any]]:
        """A tournament list's changes to send: those of the list's tournaments, and new ones
        while the list has room (PAGE_SIZE); all of it again, read anew, after a lost layer or
        every REFRESH_SECONDS."""
        listed, key = tournaments.listed, tournaments.key
        if listed is None:
            return []
        if tournaments.stale or now - listed["read_at"] > REFRESH_SECONDS:
            before = {t["id"]: t for t in listed[key]}
            try:
                await self.load_list(tournaments, not_before=now)
            except Exception:
                log.exception("the lobby relay could not read the %s list again", key)
                tournaments.stale = True
                return []
            assert tournaments.listed is not None
            return [t for t in tournaments.listed[key] if before.get(t["id"]) != t]
        known = {t["id"]: t for t in listed[key]}
        sent = []
        for tournament_id, change in changes.items():
            if tournament_id in known or len(known) < PAGE_SIZE:
                known[tournament_id] = {**known.get(tournament_id, {}), **change}
                sent.append(known[tournament_id])
        listed[key] = list(known.values())
        return sent

    async def page_changed(
        self, state: PageState, rooms: Changes, now: float
    ) -> dict[str, Any] | None:
        """The frame for `state`'s sockets: the changed rooms of the page (`rooms`), the page read
        again (`lobby`) when its rooms are no longer the ones listed, or nothing."""
        assert state.page is not None
        sent = state.apply(rooms)
        age = now - state.page["read_at"]
        if age <= REFRESH_SECONDS and (not state.stale or age < STALE_READ_SECONDS):
            return {"type": "rooms", "rooms": sent} if sent else None
        before = state.page, dict(state.rows)
        await self.load(state, not_before=now)
        old_page, old_rows = before
        if (
            list(state.rows) != list(old_rows)
            or state.page["page"] != old_page["page"]
            or state.page["pages"] != old_page["pages"]
        ):
            return state.snapshot(self.lists)
        changed = [row for key, row in state.rows.items() if old_rows[key] != row]
        frame: dict[str, Any] = {"type": "rooms", "rooms": changed}
        if state.page["totals"] != old_page["totals"]:
            frame["totals"] = state.page["totals"]
        if state.page["stakes"] != old_page["stakes"]:
            frame["stakes"] = state.page["stakes"]
        return frame if len(frame) > 2 or changed else None


_relays: dict[asyncio.AbstractEventLoop, LobbyRelay] = {}


def lobby_relay() -> LobbyRelay:
    """The relay of the running event loop (Daphne has one; tests may run several)."""
    loop = asyncio.get_running_loop()
    relay = _relays.get(loop)
    if relay is None:
        for old in [other for other in _relays if other.is_closed()]:
            del _relays[old]
        relay = _relays[loop] = LobbyRelay()
    return relay
