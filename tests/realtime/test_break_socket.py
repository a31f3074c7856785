"""A break closes the player's sockets (rules.md 11): each says until when and closes as signed
out, on every device; a seated player's seat is given up with the chips back in the wallet; the
other players' sockets go on."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from casino.accounts.selectors import wallet_balance
from holdem.models import Seat
from holdem.realtime.close_codes import CloseCode
from holdem.selectors.audit import audit_chips
from holdem.services import table_sit
from holdem.services.breaks import play_exclusion_take
from tests.realtime.conftest import open_socket
from tests.realtime.test_session_sockets import closed_with, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_taking_a_break_closes_every_socket_of_the_player_saying_until_when(
    table_room, make_player
):
    table = table_room()
    alice, bob = make_player("alice"), make_player("bob")
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=3_000)
    wallet = wallet_balance(user=alice)
    laptop, phone = signed_in(alice), signed_in(alice)

    async def scenario():
        at_table = await open_socket(
            f"/ws/table/{table.pk}/", cookie=laptop.cookies["sessionid"].value
        )
        lobby = await open_socket("/ws/lobby/", cookie=phone.cookies["sessionid"].value)
        others = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        for each in (at_table, lobby, others):
            await each.receive()
        await database_sync_to_async(play_exclusion_take)(user=alice, kind="break", length="7d")
        for each in (at_table, lobby):
            code, frames = await closed_with(each)
            assert code == CloseCode.SIGNED_OUT
            assert "You took a break until " in frames[-1]["text"]
        assert (await others.request({"type": "ping"}))["type"] == "pong"
        # A new socket with the old session is refused: that session is signed out.
        again = await open_socket(
            f"/ws/table/{table.pk}/", cookie=laptop.cookies["sessionid"].value
        )
        assert isinstance(again, int), "the handshake of a signed-out session is refused"
        await others.close()

    async_to_sync(scenario)()
    assert not Seat.objects.filter(user=alice).exists()
    assert wallet_balance(user=alice) == wallet + 3_000
    assert audit_chips().ok
