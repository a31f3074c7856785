"""What the test clients do with the table frames they receive, like the site's own client, and
the real socket that does it (`Player`: the live-site tests, bench/mtt.py). Pure: no Django."""

from holdem.realtime.delta import client_view
from tests.socket_client import ListeningSocket


def follow(table, you, frame):
    """The (table, you) a client holds after `frame`. An `event` frame is also given `table`,
    the whole public table after its changes, so a test can read it the way the client does."""
    table, you = client_view(table, you, frame)
    if frame.get("type") == "event" and table is not None:
        frame["table"] = table
    return table, you


def lobby_rooms(frames):
    """Room id -> the room as a lobby client holds it after `frames`: a `lobby` frame's page,
    with each `rooms` frame's changes added (docs/protocol.md, Lobby)."""
    rooms = {}
    for frame in frames:
        if frame.get("type") == "lobby":
            rooms = {room["id"]: room for room in frame["rooms"]}
        elif frame.get("type") == "rooms":
            for change in frame["rooms"]:
                rooms[change["id"]] = {**rooms.get(change["id"], {}), **change}
    return rooms


class Player(ListeningSocket):
    """A websocket tab that keeps reading: like static/js/table-app.js it tracks the table's `seq`
    and asks for a snapshot when a `heartbeat` (or an event) shows it missed something, and it
    keeps the table as the frames build it (each `event` frame is given the whole `table`)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.seq = None
        self.table = None
        self.you = None

    async def connect(
        self, port: int, path: str, cookie: str, origin: str | None = None, **options
    ):
        """The tab at `path` on the server at `port`; `options` go to `open_url` (`first`)."""
        return await self.open_url(
            f"ws://127.0.0.1:{port}{path}",
            origin=origin or f"http://127.0.0.1:{port}",
            cookie=f"sessionid={cookie}",
            **options,
        )

    async def on_frame(self, frame: dict) -> None:
        self.table, self.you = follow(self.table, self.you, frame)
        if frame["type"] == "snapshot":
            self.seq = frame["seq"]
        elif frame["type"] == "event":
            if self.seq is not None and frame["seq"] > self.seq + 1:
                await self.send({"type": "snapshot"})
            self.seq = max(self.seq or 0, frame["seq"])
        elif frame["type"] == "heartbeat" and self.seq is not None and frame["seq"] > self.seq:
            await self.send({"type": "snapshot"})
