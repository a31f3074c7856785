"""The "watching" count: signed-in users at a table without a seat, on the table and in the lobby,
through real sockets."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync

from tests.conftest import service_missing
from tests.frames import lobby_rooms
from tests.realtime.conftest import open_socket

NODE_REPLAY = Path(__file__).with_name("replay_frames.mjs")

pytestmark = pytest.mark.django_db(transaction=True)


def run(coroutine_function, *args):
    return async_to_sync(coroutine_function)(*args)


async def settle(*sockets):
    for sock in sockets:
        await sock.drain(timeout=0.3)


def room_in_lobby(lobby, table_id):
    """The room as the lobby socket last heard of it."""
    return lobby_rooms(lobby.frames).get(table_id)


def page_count(sock) -> int:
    """The count the table page shows: the socket's frames since its snapshot, through the
    browser's own module (static/js/table-delta.js), as tests/realtime/test_delta.py does."""
    if shutil.which("node") is None:
        service_missing("node is not installed (bin/services installs it)")
    start = max(i for i, f in enumerate(sock.frames) if f["type"] == "snapshot")
    wire = [
        {k: v for k, v in f.items() if not (f["type"] == "event" and k == "table")}
        for f in sock.frames[start:]
    ]
    done = subprocess.run(
        ["node", str(NODE_REPLAY)],
        input=json.dumps(wire),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(done.stdout)[0]["spectators"]


async def lobby_count(table_id, user):
    """What a lobby opened now shows for the room."""
    sock = await open_socket("/ws/lobby/", user=user, name="fresh lobby")
    snapshot = await sock.receive()
    await sock.close()
    return next(r for r in snapshot["rooms"] if r["id"] == table_id)["spectators"]


def test_two_seated_players_and_nobody_else_are_zero_watching(table_room, make_player):
    table = table_room()
    alice, bob, lou = make_player("alice"), make_player("bob"), make_player("lou")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=lou, name="lou (lobby)")
        await lobby.receive()
        # Alice sits before Bob comes: Bob watches for a moment, then sits too.
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="alice")
        await a.receive()
        assert (await a.request({"type": "sit", "seat": 0, "buy_in": 3000}))["type"] == "ok"
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob, name="bob")
        await b.receive()
        await settle(a, lobby)
        assert a.table["spectators"] == 1, "bob watches"
        assert (await b.request({"type": "sit", "seat": 1, "buy_in": 3000}))["type"] == "ok"
        await settle(a, b, lobby)
        assert a.table["spectators"] == 0, "alice's table page"
        assert b.table["spectators"] == 0, "bob's table page"
        assert page_count(a) == page_count(b) == 0, "the browser's module"
        assert room_in_lobby(lobby, table.pk)["spectators"] == 0, "the open lobby"
        assert await lobby_count(table.pk, lou) == 0, "a lobby opened now"
        # A second tab of a seated player is not somebody watching either.
        a2 = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="alice, 2nd tab")
        assert (await a2.receive())["table"]["spectators"] == 0
        # A fresh page of a seated player (the snapshot) says the same.
        b2 = await open_socket(f"/ws/table/{table.pk}/", user=bob, name="bob, reload")
        assert (await b2.receive())["table"]["spectators"] == 0
        for sock in (a, b, a2, b2, lobby):
            await sock.close()

    run(scenario)


def test_a_spectator_is_counted_until_they_take_a_seat_and_again_when_they_stand(
    table_room, make_player
):
    table = table_room()
    alice, bob, carol, lou = (make_player(n) for n in ("alice", "bob", "carol", "lou"))

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=lou, name="lou (lobby)")
        await lobby.receive()
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="alice")
        await a.receive()
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob, name="bob")
        await b.receive()
        assert (await a.request({"type": "sit", "seat": 0, "buy_in": 3000}))["type"] == "ok"
        assert (await b.request({"type": "sit", "seat": 1, "buy_in": 3000}))["type"] == "ok"
        c = await open_socket(f"/ws/table/{table.pk}/", user=carol, name="carol")
        assert (await c.receive())["table"]["spectators"] == 1, "carol's own page counts her"
        await settle(a, b, c, lobby)
        assert a.table["spectators"] == b.table["spectators"] == 1
        assert room_in_lobby(lobby, table.pk)["spectators"] == 1
        assert await lobby_count(table.pk, lou) == 1

        assert (await c.request({"type": "sit", "seat": 2, "buy_in": 3000}))["type"] == "ok"
        await settle(a, b, c, lobby)
        for sock in (a, b, c):
            assert page_count(sock) == 0, f"{sock.name}'s page: carol sits now"
            assert sock.table["spectators"] == 0, f"{sock.name}: carol sits now"
        assert room_in_lobby(lobby, table.pk)["spectators"] == 0, "the open lobby"
        assert await lobby_count(table.pk, lou) == 0, "a lobby opened now"
        c2 = await open_socket(f"/ws/table/{table.pk}/", user=carol, name="carol, reload")
        assert (await c2.receive())["table"]["spectators"] == 0
        await c2.close()

        assert (await c.request({"type": "leave"}))["type"] == "ok"
        await settle(a, b, c, lobby)
        for sock in (a, b, c):
            assert sock.table["spectators"] == 1, f"{sock.name}: carol stood up and watches"
        assert room_in_lobby(lobby, table.pk)["spectators"] == 1
        await c.close()
        await settle(a, b, lobby)
        for sock in (a, b):
            assert sock.table["spectators"] == 0, f"{sock.name}: carol has gone"
        assert room_in_lobby(lobby, table.pk)["spectators"] == 0
        for sock in (a, b, lobby):
            await sock.close()

    run(scenario)
