"""The lobby websocket: the open rooms and Sit & Gos, then a `room` or `sit_and_go` frame whenever
one changes."""

from typing import Any

from holdem.realtime.broadcast import LOBBY_GROUP
from holdem.realtime.sockets import SnapshotConsumer
from holdem.selectors.lobby import rooms_for_lobby
from holdem.selectors.tournaments import sit_and_gos_for_lobby


class LobbyConsumer(SnapshotConsumer):
    understood_by = "the lobby"

    def snapshot_groups(self) -> list[str]:
        return [LOBBY_GROUP]

    def snapshot_now(self) -> dict[str, Any]:
        return {"type": "lobby", "rooms": rooms_for_lobby(), "sit_and_gos": sit_and_gos_for_lobby()}
