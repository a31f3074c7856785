"""The user's own websocket, ws/me/, opened by the header of every page (static/js/user-socket.js).

It carries what concerns the user wherever they are, as typed frames (docs/protocol.md): for now
`wallet`, the balance with its version, first as a snapshot and then after every change.
"""

from typing import Any

from casino.accounts.selectors import wallet_now
from holdem.realtime.broadcast import user_socket_group
from holdem.realtime.sockets import SnapshotConsumer


class UserConsumer(SnapshotConsumer):
    def snapshot_groups(self) -> list[str]:
        return [user_socket_group(self.user.pk)]

    def snapshot_now(self) -> dict[str, Any]:
        """The wallet, whose version (its last ledger entry) lets a page drop an older frame."""
        return {"type": "wallet", **wallet_now(user=self.user)}
