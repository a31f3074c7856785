"""A websocket handshake does not queue behind the table actions: under load the one
database thread of a server is busy with them, and a handshake that waited there timed out
(docs/performance.md: 407 of 3,000 at 500 tables). Signing the socket in and finding the room
happen on other threads; the socket is still refused without a session or an open room."""

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from holdem.realtime.heartbeat import Heartbeat
from tests.realtime.conftest import open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_handshake_is_answered_while_the_database_thread_is_busy(table_room, make_player):
    table = table_room()
    alice = make_player()
    cookie = session_cookie(alice)

    async def scenario():
        busy = asyncio.ensure_future(database_sync_to_async(time.sleep)(2.5))
        await asyncio.sleep(0.05)  # a long table action holds the database thread
        started = time.monotonic()
        sockets = []
        for path in (f"/ws/table/{table.pk}/", "/ws/lobby/"):
            socket = await open_socket(path, cookie=cookie)
            assert hasattr(socket, "frames"), f"{path} refused: {socket}"
            sockets.append(socket)
        refused = await open_socket(f"/ws/table/{table.pk}/")  # still: no session, no socket
        assert not hasattr(refused, "frames")
        missing = await open_socket("/ws/table/999999/", cookie=cookie)
        assert not hasattr(missing, "frames")
        assert time.monotonic() - started < 2.0, "the handshakes waited for the table action"
        await busy
        for socket in sockets:  # then each gets its snapshot, as ever
            assert (await socket.receive())["type"] in ("snapshot", "lobby")
            await socket.close()

    async_to_sync(scenario)()


def test_a_server_far_behind_takes_no_new_sockets_and_keeps_the_open_ones(
    table_room, make_player, monkeypatch
):
    """Under more load than it can serve, a server refuses new handshakes (the client tries
    again, backing off) rather than queueing their snapshots behind every table's actions."""
    table = table_room()
    cookie = session_cookie(make_player())
    behind = {"seconds": 0.0}
    monkeypatch.setattr(Heartbeat, "database_behind", lambda self: behind["seconds"])

    async def scenario():
        playing = await open_socket(f"/ws/table/{table.pk}/", cookie=cookie)
        assert (await playing.receive())["type"] == "snapshot"
        behind["seconds"] = 5.0
        for path in (f"/ws/table/{table.pk}/", "/ws/lobby/"):
            refused = await open_socket(path, cookie=cookie)
            assert not hasattr(refused, "frames"), f"{path} taken while the server is behind"
        pong = await playing.request({"type": "ping"})
        assert pong["type"] == "pong", "the open socket goes on"
        behind["seconds"] = 0.2
        again = await open_socket("/ws/lobby/", cookie=cookie)
        assert hasattr(again, "frames")
        await again.close()
        await playing.close()

    async_to_sync(scenario)()


def test_a_server_that_was_behind_when_its_last_socket_closed_takes_sockets_again(
    table_room, make_player
):
    """The busy gate reads the heartbeat's last measure of the database thread, and the heartbeat
    beats only while the process holds sockets. A server whose last beat found the thread queued
    past the limit, and whose sockets then all went (their clients backing off, a deploy), kept
    that measure for good: it refused every handshake, so no socket came to beat again, and it
    stayed empty until restarted."""
    table = table_room()
    cookie = session_cookie(make_player())

    async def scenario():
        playing = await open_socket(f"/ws/table/{table.pk}/", cookie=cookie)
        assert (await playing.receive())["type"] == "snapshot"
        # A long stretch of work on the database thread: the next beat waits behind it, and
        # the last socket goes meanwhile, so no calmer beat follows to replace the measure.
        busy = asyncio.ensure_future(database_sync_to_async(time.sleep)(2.0))
        await asyncio.sleep(1.2)  # a beat is queued behind the work
        await playing.close()
        await busy
        await asyncio.sleep(2.0)  # that beat ran, found no socket left, and the heartbeat stopped
        again = await open_socket(f"/ws/table/{table.pk}/", cookie=cookie)
        assert hasattr(again, "frames"), f"refused as busy with an idle database thread: {again}"
        assert (await again.receive())["type"] == "snapshot"
        await again.close()

    async_to_sync(scenario)()
