"""The lobby websocket: one page of the open rooms under the player's filter, and the Sit & Gos
(a `lobby` frame), then at most one `rooms` frame a second with what changed on that page
(lobby/relay.py). A `lobby_view` frame changes the filter or the page."""

from typing import Any

from casino.errors import DomainError
from holdem.realtime.sockets import SnapshotConsumer
from holdem.selectors.lobby_page import DEFAULT_VIEW, LobbyView, lobby_view
from lobby.relay import lobby_relay


class LobbyConsumer(SnapshotConsumer):
    understood_by = "the lobby"
    own_frames = ("lobby_view",)
    view: LobbyView = DEFAULT_VIEW

    def snapshot_groups(self) -> list[str]:
        # Not the lobby group: the process's relay is in it once, for all its lobby sockets.
        return []

    def snapshot_now(self) -> dict[str, Any]:
        """Nothing to read in the connect's trip to the database thread: the relay reads the
        page on a thread of its own (lobby/relay.py), and sends it with `send_first`."""
        return {}

    async def send_first(self, snapshot: dict[str, Any]) -> None:
        await self.send_snapshot()

    async def send_snapshot(self) -> None:
        await lobby_relay().watch(self, self.view)

    async def receive_own(self, frame: dict[str, Any]) -> None:
        """`lobby_view`: another filter or page; a bad field is refused and nothing changes."""
        try:
            view = lobby_view({k: v for k, v in frame.items() if k != "type"})
        except DomainError as error:
            refused = {"type": "error", "code": error.code, "message": error.message}
            await self.send_json({**refused, "fields": error.fields})
            return
        self.view = view
        await self.send_snapshot()

    async def close_tracked(self) -> None:
        await lobby_relay().unwatch(self)
        await super().close_tracked()

    async def rejoin_groups(self) -> None:
        """After the layer lost our groups the relay joins the lobby's again and reads its pages
        again; this socket is sent its page (SnapshotConsumer)."""
        if getattr(self, "tracked", False):
            await lobby_relay().rejoin()
        await super().rejoin_groups()
