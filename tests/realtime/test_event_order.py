"""A table's events reach each socket in seq order even when they leave different processes out
of order (holdem/realtime/sockets.py): an event that arrives ahead of the one before it waits, briefly,
for that one.

Consecutive events of a table can be committed by different processes (a Daphne server, a Celery
worker starting a hand or timing a turn out); each publishes after its own commit, so the later
one can reach Redis first. Before, the socket forwarded it at once, and every client at the table
saw a gap and asked for a snapshot (6 such events in 40 s at 500 tables).
"""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from holdem.realtime.broadcast import frame_message, send_now, table_group
from holdem.realtime.sockets import REORDER_WAIT_SECONDS
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def event(seq: int) -> dict:
    return {"type": "event", "seq": seq, "event": {"kind": "chat_test"}, "changes": {}}


async def publish(table_id: int, *seqs: int) -> None:
    """Each seq as its own commit's broadcast, in the order given (as two processes might)."""
    for seq in seqs:
        await database_sync_to_async(send_now)([(table_group(table_id), frame_message(event(seq)))])


def test_an_event_overtaken_by_the_next_one_still_arrives_first(table_room, make_player):
    table = table_room()
    alice = make_player("alice")

    async def scenario():
        sock = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        seq = (await sock.receive())["seq"]
        await publish(table.pk, seq + 2, seq + 1, seq + 3)
        got = [(await sock.receive())["seq"] for _ in range(3)]
        await sock.close()
        return seq, got

    seq, got = async_to_sync(scenario)()
    assert got == [seq + 1, seq + 2, seq + 3]


def test_an_event_whose_predecessor_never_comes_is_sent_after_the_wait(table_room, make_player):
    """A lost broadcast stays a gap the client sees (it asks for a snapshot): nothing is held
    for longer than the wait."""
    table = table_room()
    alice = make_player("alice")

    async def scenario():
        sock = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        seq = (await sock.receive())["seq"]
        started = asyncio.get_running_loop().time()
        await publish(table.pk, seq + 2)
        frame = await sock.receive(timeout=3)
        waited = asyncio.get_running_loop().time() - started
        await publish(table.pk, seq + 3)  # the stream goes on in order from there
        after = await sock.receive()
        await sock.close()
        return seq, frame["seq"], waited, after["seq"]

    seq, held, waited, after = async_to_sync(scenario)()
    assert held == seq + 2
    assert REORDER_WAIT_SECONDS * 0.8 <= waited < REORDER_WAIT_SECONDS + 1.5
    assert after == seq + 3
