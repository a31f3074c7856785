"""Bad input never hurts: each bad frame gets an error with a code, and nothing changes."""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from casino.accounts.models import LedgerEntry
from tests.realtime.conftest import fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def world(table):
    """Everything a bad frame must leave alone: the table row, seats, ledger."""
    from holdem.models import Seat, Table

    row = Table.objects.get(pk=table.pk)
    seats = sorted(Seat.objects.filter(table=table).values_list("number", "stack", "in_hand"))
    return row.hand_state, row.seq, seats, LedgerEntry.objects.count()


BAD_FRAMES = [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_frame"),
    ('"act"', "bad_frame"),
    ('{"kind": "act"}', "bad_frame"),
    ('{"type": 5}', "bad_frame"),
    ('{"type": "explode"}', "unknown_type"),
    ('{"type": "act"}', "bad_frame"),
    ('{"type": "act", "action": "call", "user_id": 1}', "bad_frame"),
    ('{"type": "sit", "seat": 2, "buy_in": 3000, "user": "bob"}', "bad_frame"),
    ('{"type": "act", "action": "raise", "amount": "600"}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": 600.5}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": 600.0}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": true}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": NaN}', "bad_json"),
    ('{"type": "act", "action": "raise", "amount": Infinity}', "bad_json"),
    ('{"type": "act", "action": "raise", "amount": -5}', "bad_amount"),
    ('{"type": "act", "action": "raise", "amount": 1000000000000000000000000}', "bad_amount"),
    ('{"type": "act", "action": ["call"]}', "bad_frame"),
    ('{"type": "act", "action": "call", "action_id": 7}', "bad_frame"),
    ('{"type": "sit", "seat": "2", "buy_in": 3000}', "bad_frame"),
    ('{"type": "sit", "seat": 2, "buy_in": 2999.9}', "bad_amount"),
    ('{"type": "sit", "seat": 2, "buy_in": "3000"}', "bad_amount"),
    ('{"type": "sit", "seat": 2, "buy_in": true}', "bad_amount"),
    ('{"type": "sit", "seat": true, "buy_in": 3000}', "bad_frame"),
    ('{"type": "sit", "seat": 0, "buy_in": 3000}', "seat_taken"),
    ('{"type": "switch", "table_id": "x"}', "bad_frame"),
    ('{"type": "auto_muck", "value": "yes"}', "bad_frame"),
    ('{"type": "card_back", "value": "<script>"}', "bad_card_back"),
    ('{"type": "top_up", "amount": "500"}', "bad_amount"),
    ('{"type": "top_up", "amount": -500}', "bad_amount"),
    ('{"type": "top_up"}', "bad_frame"),
    ('{"type": "top_up", "amount": 500}', "not_seated"),  # carol watches
    ('{"type": "pre_action", "value": "fold"}', "no_pre_action"),
    ('{"type": "pre_action", "value": 1}', "bad_frame"),
    ('{"type": "chat", "text": 5}', "bad_frame"),
    ('{"type": "chat", "text": " "}', "chat_empty"),
    ('{"type": "chat", "text": "a\\u0000b"}', "chat_bad_text"),
    ('{"type": "chat_mute", "user_id": "x", "value": true}', "bad_frame"),
]


def test_every_bad_frame_gets_an_error_and_changes_nothing(table_room, make_player):
    table = table_room()
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        c = await open_socket(f"/ws/table/{table.pk}/", user=carol)
        for sock in (a, b, c):
            await sock.receive()
        await a.request({"type": "sit", "seat": 0, "buy_in": 3000})
        await b.request({"type": "sit", "seat": 3, "buy_in": 3000})
        await fire_clock(31)
        await a.drain(), await b.drain(), await c.drain()
        before = await database_sync_to_async(world)(table)
        snapshot = await a.request({"type": "snapshot"})
        actor = snapshot["table"]["hand"]["to_act"]
        mover, waiter = (a, b) if actor == 0 else (b, a)
        for text, code in BAD_FRAMES:
            await asyncio.sleep(0.06)  # stay under the flood limit (20 frames a second)
            answer = await c.request(text)
            assert answer["type"] == "error" and answer["code"] == code, (text, answer)
            assert answer["message"] and len(answer["message"]) < 200
        # Acting out of turn, or at a table you don't sit at.
        answer = await waiter.request({"type": "act", "action": "fold", "action_id": "nope"})
        assert answer["code"] == "not_your_turn" and answer["action_id"] == "nope"
        answer = await c.request({"type": "act", "action": "call", "action_id": "spectator"})
        assert answer["code"] == "not_in_hand"
        answer = await mover.request(
            {"type": "act", "action": "raise", "amount": 101, "action_id": "small"}
        )
        assert answer["type"] == "error" and "minimum raise is to 200" in answer["message"]
        assert await database_sync_to_async(world)(table) == before
        # The connection and the table still work.
        assert (await c.request({"type": "ping"}))["type"] == "pong"
        assert (await mover.request({"type": "act", "action": "call", "action_id": "good"}))[
            "type"
        ] == "ok"
        for sock in (a, b, c):
            await sock.close()

    async_to_sync(scenario)()


def test_an_oversized_frame_closes_the_connection_and_nothing_else(table_room, make_player):
    table = table_room()
    alice = make_player()

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        await a.receive()
        await a.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
        closed = await a.communicator.receive_output(timeout=3)
        assert closed == {"type": "websocket.close", "code": 4009}
        again = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        assert (await again.receive())["type"] == "snapshot"
        await again.close()

    async_to_sync(scenario)()


def test_flooding_is_cut_off(table_room, make_player):
    table = table_room()
    alice = make_player()

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        await a.receive()
        for _ in range(30):
            await a.send({"type": "ping"})
        outputs = []
        while True:
            message = await a.communicator.receive_output(timeout=3)
            outputs.append(message)
            if message["type"] == "websocket.close":
                break
        assert outputs[-1]["code"] == 4029
        texts = [json.loads(m["text"]) for m in outputs if m["type"] == "websocket.send"]
        assert texts[-1]["code"] == "rate_limited"
        assert sum(1 for t in texts if t["type"] == "pong") == 20

    async_to_sync(scenario)()


def test_a_repeated_action_id_is_answered_not_applied_twice(table_room, make_player):
    table = table_room()
    alice, bob = make_player(), make_player()

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        await a.receive(), await b.receive()
        await a.request({"type": "sit", "seat": 0, "buy_in": 3000})
        await b.request({"type": "sit", "seat": 1, "buy_in": 3000})
        await fire_clock(31)
        snapshot = await a.request({"type": "snapshot"})
        mover = a if snapshot["table"]["hand"]["to_act"] == 0 else b
        first = await mover.request({"type": "act", "action": "call", "action_id": "same"})
        second = await mover.request({"type": "act", "action": "call", "action_id": "same"})
        assert (first["repeated"], second["repeated"]) == (False, True)
        from holdem.models import HandAction

        assert (
            await database_sync_to_async(HandAction.objects.filter(client_action_id="same").count)()
            == 1
        )
        await a.close(), await b.close()

    async_to_sync(scenario)()
