"""The lobby websocket: the open rooms, then a `room` frame whenever one changes."""

import json

from channels.db import database_sync_to_async

from holdem.broadcast import LOBBY_GROUP
from holdem.selectors import rooms_for_lobby
from holdem.sockets import TrackedConsumer

MAX_FRAME_BYTES = 1024


class LobbyConsumer(TrackedConsumer):
    async def connect(self):
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close()
            return
        await self.open_tracked([LOBBY_GROUP])
        await self.send_rooms()
        self.start_beating()

    async def disconnect(self, code):
        await self.close_tracked()

    async def receive(self, text_data=None, bytes_data=None):
        if getattr(self, "revoked", True):
            return
        if len(text_data or bytes_data or "") > MAX_FRAME_BYTES:
            await self.close(code=4009)
            return
        try:
            frame = json.loads(text_data or "")
        except ValueError:
            frame = None
        kind = frame.get("type") if isinstance(frame, dict) else None
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "snapshot":
            await self.send_rooms()
        else:
            await self.send_json(
                {
                    "type": "error",
                    "code": "unknown_type",
                    "message": "the lobby understands 'ping' and 'snapshot'",
                }
            )

    async def rejoin_groups(self) -> None:
        """After the layer lost our groups, room changes may have been missed: send the list again."""
        await super().rejoin_groups()
        if getattr(self, "tracked", False):
            await self.send_rooms()

    async def send_rooms(self):
        rooms = await database_sync_to_async(rooms_for_lobby)()
        await self.send_json({"type": "lobby", "rooms": rooms})
