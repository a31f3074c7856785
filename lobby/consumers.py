"""The lobby websocket: the open rooms and Sit & Gos, then a `room` or `sit_and_go` frame whenever
one changes."""

from channels.db import database_sync_to_async

from holdem.realtime.broadcast import LOBBY_GROUP
from holdem.realtime.sockets import SnapshotConsumer
from holdem.selectors.lobby import rooms_for_lobby
from holdem.selectors.tournaments import sit_and_gos_for_lobby


class LobbyConsumer(SnapshotConsumer):
    understood_by = "the lobby"

    def snapshot_groups(self) -> list[str]:
        return [LOBBY_GROUP]

    async def send_snapshot(self) -> None:
        rooms = await database_sync_to_async(rooms_for_lobby)()
        sit_and_gos = await database_sync_to_async(sit_and_gos_for_lobby)()
        await self.send_json({"type": "lobby", "rooms": rooms, "sit_and_gos": sit_and_gos})
