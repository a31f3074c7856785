"""A frame for a socket whose client has just gone is dropped, and the socket still closes as
usual: counted as gone, out of the heartbeat (holdem/realtime/sockets.py).

Daphne raises autobahn's `Disconnected` when the application sends on a websocket whose close
has happened but whose `websocket.disconnect` has not reached the consumer yet (a tab closed
while the table is busy). Before, that exception ended the consumer in the middle of a broadcast:
its disconnect never ran, so the player stayed "connected" at the table for as long as the
server lived, and each one was an ERROR in the log (found at 500 tables).
"""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async

from holdem.models import Connection
from holdem.realtime.broadcast import frame_message, send_now, table_group
from holdem.realtime.heartbeat import heartbeat
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


class LikeDaphne:
    """An application behind a `send` that, once the peer is gone, raises as Daphne's websocket
    protocol does."""

    def __init__(self):
        self.peer_gone = False
        self.sent_after = 0
        self.inner = None

    def wrap(self, application):
        self.inner = application
        return self

    async def __call__(self, scope, receive, send):
        async def guarded_send(message):
            if self.peer_gone and message["type"] == "websocket.send":
                self.sent_after += 1
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        return await self.inner(scope, receive, guarded_send)


def test_a_broadcast_racing_a_closed_tab_is_dropped_and_the_socket_is_counted_gone(
    table_room, make_player
):
    table = table_room()
    alice = make_player("alice")
    app = LikeDaphne()

    async def scenario():
        sock = await open_socket(f"/ws/table/{table.pk}/", user=alice, wrap=app.wrap)
        assert (await sock.receive())["type"] == "snapshot"
        assert await database_sync_to_async(Connection.objects.filter(user=alice).count)() == 1
        assert len(heartbeat().sockets) == 1

        app.peer_gone = True  # the tab closed; Daphne has not told the consumer yet
        await database_sync_to_async(send_now)(
            [(table_group(table.pk), frame_message({"type": "spectators", "count": 3}))]
        )
        for _ in range(50):
            if app.sent_after:
                break
            await asyncio.sleep(0.02)
        assert app.sent_after == 1  # the frame was tried, and dropped
        await sock.communicator.send_input({"type": "websocket.disconnect", "code": 1001})
        await sock.communicator.wait(timeout=3)  # the consumer ended without an exception
        assert await database_sync_to_async(Connection.objects.filter(user=alice).count)() == 0
        assert len(heartbeat().sockets) == 0

    async_to_sync(scenario)()
