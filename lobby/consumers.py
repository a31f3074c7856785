"""The lobby websocket: the open rooms, then a `room` frame whenever one changes."""
import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from holdem.broadcast import LOBBY_GROUP

MAX_FRAME_BYTES = 1024


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()
            return
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send_rooms()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if len(text_data or bytes_data or "") > MAX_FRAME_BYTES:
            await self.close(code=4009)
            return
        try:
            frame = json.loads(text_data or "")
        except ValueError:
            frame = None
        kind = frame.get("type") if isinstance(frame, dict) else None
        if kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
        elif kind == "snapshot":
            await self.send_rooms()
        else:
            await self.send(text_data=json.dumps(
                {"type": "error", "code": "unknown_type", "message": "the lobby understands 'ping' and 'snapshot'"}
            ))

    async def send_rooms(self):
        from holdem.selectors import rooms_for_lobby

        rooms = await database_sync_to_async(rooms_for_lobby)()
        await self.send(text_data=json.dumps({"type": "lobby", "rooms": rooms}))

    async def table_message(self, event):
        await self.send(text_data=json.dumps(event["message"]))
