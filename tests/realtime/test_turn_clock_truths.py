"""What the table says about a turn that ran out, over the sockets: a player sat out
for being idle is told so after the check or fold that timed out, not before it; and a player who
leaves and sits down again keeps the time bank they had (RULES.md 2: for 30 minutes, as debts)."""

import asyncio
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone

from holdem.models import Departure
from tests.realtime.conftest import countdown_left, fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def seconds_past(epoch_ms: int) -> float:
    """How far to move the clock from now to be one second past `epoch_ms`."""
    return (epoch_ms - time.time() * 1000) / 1000 + 1


async def answer_turn(sock, n):
    """The player to act checks, or calls, over their own socket."""
    legal = (await sock.request({"type": "snapshot"}))["you"]["legal"]
    move = "check" if "check" in legal["actions"] else "call"
    answer = await sock.request({"type": "act", "action": move, "action_id": f"move-{n}"})
    assert answer["type"] == "ok", answer


def test_an_idle_player_s_timed_out_turn_comes_before_the_word_that_they_sit_out(
    table_room, make_player
):
    table = table_room()
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="alice")
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob, name="bob")
        c = await open_socket(f"/ws/table/{table.pk}/", user=carol, name="carol (spectator)")
        for sock in (a, b, c):
            await sock.receive()
        await a.request({"type": "sit", "seat": 0, "buy_in": 3000})
        await b.request({"type": "sit", "seat": 1, "buy_in": 3000})
        await fire_clock(31)
        for n in range(40):
            seen = (await c.request({"type": "snapshot"}))["table"]
            if seen["seats"][0]["sitting_out"]:
                break
            if seen["hand"] is None:
                await fire_clock(await countdown_left(table.pk))
            elif seen["hand"]["to_act"] == 0:
                await fire_clock(seconds_past(seen["turn"]["deadline"]))  # alice does nothing
            else:
                await answer_turn(b, n)
        else:
            raise AssertionError("alice was never sat out")
        await c.drain()
        events = [f for f in c.frames if f["type"] == "event"]
        sat_out = next(
            f["seq"]
            for f in events
            if f["event"]["kind"] == "sitting_out" and f["event"]["seat"] == 0
        )
        timed_out = [
            f["seq"]
            for f in events
            for e in f["event"]["engine"]
            if e["kind"] == "action" and e["seat"] == 0 and e.get("reason") == "timeout"
        ]
        assert len(timed_out) == 2
        # "alice checks (time ran out)", then "alice sits out": the action, then what follows.
        assert timed_out[-1] < sat_out
        for sock in (a, b, c):
            await sock.close()

    async_to_sync(scenario)()


def test_leaving_and_sitting_down_again_keeps_the_time_bank_for_30_minutes(table_room, make_player):
    table = table_room(time_bank_seconds=30)
    alice, bob = make_player("alice"), make_player("bob")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="alice")
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob, name="bob")
        for sock in (a, b):
            await sock.receive()
        await a.request({"type": "sit", "seat": 0, "buy_in": 3000})
        await b.request({"type": "sit", "seat": 1, "buy_in": 3000})
        await fire_clock(31)
        spent = False
        for n in range(40):
            # Bob's socket watches, so alice's stays under the frame rate limit (20 a second).
            seen = (await b.request({"type": "snapshot"}))["table"]
            if seen["hand"] is None:
                if spent:
                    break
                await fire_clock(await countdown_left(table.pk))
            elif seen["hand"]["to_act"] == 0 and not spent:
                # The turn clock runs out, then the whole bank: alice's bank is spent.
                await fire_clock(seconds_past(seen["turn"]["deadline"]))
                seen = (await b.request({"type": "snapshot"}))["table"]
                await fire_clock(seconds_past(seen["turn"]["deadline"]))
                spent = True
            else:
                await answer_turn(a if seen["hand"]["to_act"] == 0 else b, n)
        seen = (await b.request({"type": "snapshot"}))["table"]
        assert seen["seats"][0]["time_bank"] == 0

        await asyncio.sleep(1)  # a new second for alice's frames
        assert (await a.request({"type": "leave"}))["type"] == "ok"
        again = await a.request({"type": "snapshot"})
        buy_in = again["you"]["buy_in"]["min"]
        sat = await a.request({"type": "sit", "seat": 0, "buy_in": buy_in})
        assert sat["type"] == "ok", sat
        seen = (await a.request({"type": "snapshot"}))["table"]
        assert seen["seats"][0]["time_bank"] == 0  # not a fresh 30 s for standing up

        # More than 30 minutes after leaving, the table has forgotten: a full bank.
        assert (await a.request({"type": "leave"}))["type"] == "ok"
        await database_sync_to_async(
            Departure.objects.filter(user=alice, table_id=table.pk).update
        )(left_at=timezone.now() - timedelta(minutes=31))
        buy_in = (await a.request({"type": "snapshot"}))["you"]["buy_in"]["min"]
        assert (await a.request({"type": "sit", "seat": 0, "buy_in": buy_in}))["type"] == "ok"
        seen = (await a.request({"type": "snapshot"}))["table"]
        assert seen["seats"][0]["time_bank"] == 30
        for sock in (a, b):
            await sock.close()

    async_to_sync(scenario)()
