"""The waiting list's notices over the sockets: a seat offered reaches the player on the lobby and
on a table page they have open (their own group), nobody else; the lobby hears that a seat is
held; when the time runs out (the clock's sweep) the player hears it went to the next in line."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from holdem.services import table_leave, table_sit
from holdem.services.waiting import waiting_join
from tests.frames import lobby_rooms
from tests.realtime.conftest import fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_offer_reaches_only_its_player_on_every_page_and_lapses_on_the_sweep(
    table_room, make_player
):
    full, elsewhere = table_room(seats=2), table_room()
    alice, bob, carol, dave = (make_player(name) for name in ("alice", "bob", "carol", "dave"))
    for number, user in ((0, alice), (1, bob)):
        table_sit(table_id=full.pk, user=user, seat=number, buy_in=2_000)
    waiting_join(table_id=full.pk, user=carol)

    def full_room(frame, reserved):
        return any(r["id"] == full.pk and r.get("reserved") == reserved for r in frame["rooms"])

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=carol, name="carol lobby")
        table = await open_socket(f"/ws/table/{elsewhere.pk}/", user=carol, name="carol table")
        other = await open_socket("/ws/lobby/", user=dave, name="dave lobby")
        for sock in (lobby, table, other):
            await sock.receive()  # the room list, or the snapshot
        await database_sync_to_async(table_leave)(table_id=full.pk, user=alice)

        for sock in (lobby, table):
            offer = await sock.until(lambda f: f["type"] == "waiting")
            assert offer["table_id"] == full.pk and offer["place"] == 1
            assert offer["offer"]["seat"] == 0 and offer["offer"]["seconds"] == 30
        # The lobby's relay passes the line's change on with the room's next `rooms` frame.
        await other.until(lambda f: f["type"] == "rooms" and full_room(f, reserved=1))
        assert lobby_rooms(other.frames)[full.pk]["waiting"] == 1
        await other.drain()
        assert not [f for f in other.frames if f["type"] == "waiting"]  # carol's alone

        await fire_clock(31)
        for sock in (lobby, table):
            gone = await sock.until(lambda f: f["type"] == "waiting")
            assert (gone["place"], gone["reason"], gone["offer"]) == (None, "lapsed", None)
        await other.until(lambda f: f["type"] == "rooms" and full_room(f, reserved=0))
        for sock in (lobby, table, other):
            await sock.close()

    async_to_sync(scenario)()
