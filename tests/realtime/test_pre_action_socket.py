"""Pre-action boxes over the table socket (docs/protocol.md, `pre_action`): only their owner hears
of them, a reload keeps them, and the table sees the action only when the turn comes."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from holdem import preactions
from holdem.models import Table
from holdem.selectors.game_state import current_state
from tests.realtime.conftest import fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def acting_order(table_id):
    state = current_state(Table.objects.get(pk=table_id))
    seats = [p.seat for p in state.players]
    return seats[state.actor :] + seats[: state.actor], state


def test_a_pre_action_reaches_its_owner_only_survives_a_reload_and_acts_on_its_turn(
    table_room, make_player
):
    table = table_room("nl50")
    users = {seat: make_player(f"pre{seat}") for seat in (0, 1, 2)}
    watcher = make_player("prewatch")

    async def scenario():
        sockets = {
            seat: await open_socket(f"/ws/table/{table.pk}/", user=u, name=f"pre{seat}")
            for seat, u in users.items()
        }
        spectator = await open_socket(f"/ws/table/{table.pk}/", user=watcher, name="watcher")
        for sock in [*sockets.values(), spectator]:
            await sock.receive()
        for seat, sock in sockets.items():
            assert (await sock.request({"type": "sit", "seat": seat, "buy_in": 3000}))[
                "type"
            ] == "ok"
        await fire_clock(31)
        for sock in [*sockets.values(), spectator]:
            await sock.drain(0.1)
        (first, second, third), state = await database_sync_to_async(acting_order)(table.pk)
        owed = preactions.owed(state, second)

        # Bad values: a coded error, nothing changes, nobody else hears anything.
        for frame, code in [
            ({"type": "pre_action", "value": 5}, "bad_frame"),
            ({"type": "pre_action", "value": "call", "amount": "100"}, "bad_amount"),
            ({"type": "pre_action", "value": "call", "amount": owed + 1}, "stale_pre_action"),
            ({"type": "pre_action", "value": "raise"}, "bad_pre_action"),
            ({"type": "pre_action", "value": "fold", "seat": first}, "bad_frame"),
        ]:
            answer = await sockets[second].request(frame)
            assert (answer["type"], answer.get("code")) == ("error", code), (frame, answer)
        answer = await sockets[first].request({"type": "pre_action", "value": "fold"})
        assert answer.get("code") == "your_turn"
        assert sockets[second].you["pre_action"] is None

        answer = await sockets[second].request(
            {"type": "pre_action", "value": "call", "amount": owed}
        )
        assert answer["type"] == "ok", answer
        await sockets[second].drain(0.1)
        assert sockets[second].you["pre_action"] == {"value": "call", "amount": owed}
        # Nobody else, spectator included, received anything at all.
        for sock in (sockets[first], sockets[third], spectator):
            assert await sock.drain(0.1) == [], sock.name

        # A reload keeps the box ticked.
        await sockets[second].close()
        sockets[second] = await open_socket(f"/ws/table/{table.pk}/", user=users[second])
        snapshot = await sockets[second].receive()
        assert snapshot["you"]["pre_action"] == {"value": "call", "amount": owed}

        # The first player calls: the second player's call follows at once, seen by everyone.
        answer = await sockets[first].request({"type": "act", "action": "call"})
        assert answer["type"] == "ok", answer
        for sock in [*sockets.values(), spectator]:
            await sock.drain(0.1)
        hand = spectator.table["hand"]
        assert hand["to_act"] == third
        bets = {s["seat"]: s["bet"] for s in hand["seats"]}
        assert bets[second] == bets[first] == hand["current_bet"]
        assert sockets[second].you["pre_action"] is None
        for sock in [*sockets.values(), spectator]:
            await sock.close()

    async_to_sync(scenario)()
