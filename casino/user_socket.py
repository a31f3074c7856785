"""The user's own websocket, ws/me/, opened by the header of every page (static/js/user-socket.js).

It carries what concerns the user wherever they are, as typed frames (docs/protocol.md): for now
`wallet`, the balance with its version, first as a snapshot and then after every change.
"""

from channels.db import database_sync_to_async

from casino.accounts.selectors import wallet_now
from holdem.realtime.broadcast import user_socket_group
from holdem.realtime.sockets import SnapshotConsumer


class UserConsumer(SnapshotConsumer):
    def snapshot_groups(self) -> list[str]:
        return [user_socket_group(self.user.pk)]

    async def send_snapshot(self) -> None:
        """The wallet, whose version (its last ledger entry) lets a page drop an older frame."""
        wallet = await database_sync_to_async(wallet_now)(user=self.user)
        await self.send_json({"type": "wallet", **wallet})
