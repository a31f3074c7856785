"""The user's own websocket, ws/me/, opened by the header of every page (static/js/user-socket.js).

It carries what concerns the user wherever they are, as typed frames (docs/protocol.md): for now
`wallet`, the balance with its version, first as a snapshot and then after every change.
"""

import json

from channels.db import database_sync_to_async

from casino.accounts.selectors import wallet_now
from holdem.broadcast import user_socket_group
from holdem.sockets import TrackedConsumer

MAX_FRAME_BYTES = 1024


class UserConsumer(TrackedConsumer):
    async def connect(self):
        self.user = self.scope.get("user")
        if self.user is None or not self.user.is_authenticated:
            await self.close()
            return
        # Subscribe, then snapshot (style.md 6): a change committed in between comes as a frame
        # with a higher version, never lost.
        await self.open_tracked([user_socket_group(self.user.pk)])
        await self.send_wallet()
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
            await self.send_wallet()
        else:
            await self.send_json(
                {
                    "type": "error",
                    "code": "unknown_type",
                    "message": "this socket understands 'ping' and 'snapshot'",
                }
            )

    async def rejoin_groups(self) -> None:
        """After the layer lost our groups, a change may have been missed: send the wallet again."""
        await super().rejoin_groups()
        if getattr(self, "tracked", False):
            await self.send_wallet()

    async def send_wallet(self):
        wallet = await database_sync_to_async(wallet_now)(user=self.user)
        await self.send_json({"type": "wallet", **wallet})
