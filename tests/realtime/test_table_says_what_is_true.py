"""What the table's frames say between hands, as every socket builds it: a seat held
for the waiting list shows as held to everyone, with its end; an offer that lapses with nobody
else in line says the seat is simply free; and a finished hand's winner does not stay on a
table that is left waiting for players once the time to show or muck is over."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from holdem.models import Seat
from holdem.services import table_leave, table_sit
from holdem.services.waiting import waiting_join
from tests.holdem.test_fixed_decks import rigged
from tests.realtime.conftest import fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_seat_held_for_the_waiting_list_shows_held_to_everyone_until_it_lapses(
    table_room, make_player
):
    full = table_room(seats=2)
    alice, bob, carol, dave = (make_player(name) for name in ("alice", "bob", "carol", "dave"))
    for number, user in ((0, alice), (1, bob)):
        table_sit(table_id=full.pk, user=user, seat=number, buy_in=2_000)
    waiting_join(table_id=full.pk, user=carol)

    async def scenario():
        watcher = await open_socket(f"/ws/table/{full.pk}/", user=dave, name="dave watching")
        seated = await open_socket(f"/ws/table/{full.pk}/", user=bob, name="bob seated")
        waiting = await open_socket("/ws/lobby/", user=carol, name="carol lobby")
        for sock in (watcher, seated, waiting):
            await sock.receive()
        await database_sync_to_async(table_leave)(table_id=full.pk, user=alice)
        offer = await waiting.until(lambda f: f["type"] == "waiting")
        for sock in (watcher, seated):
            await sock.until(lambda f: f["type"] == "event" and f["event"]["kind"] == "left")
            row = sock.table["seats"][0]
            assert row["occupied"] is False
            assert row["reserved_until"] == offer["offer"]["expires_at"]
        # A sit there is still refused, with words, and changes nothing.
        refused = await watcher.request({"type": "sit", "seat": 0, "buy_in": 2_000})
        assert refused["type"] == "error" and refused["code"] == "seat_reserved"

        # Nobody else is in line: when the time runs out the seat is free, and says so.
        await fire_clock(31)
        gone = await waiting.until(lambda f: f["type"] == "waiting")
        assert (gone["reason"], gone["passed_on"]) == ("lapsed", False)
        for sock in (watcher, seated):
            await sock.until(
                lambda f, sock=sock: (
                    f["type"] == "event" and "reserved_until" not in sock.table["seats"][0]
                )
            )
            assert sock.table["seats"][0] == {"number": 0, "occupied": False}
        assert (await watcher.request({"type": "sit", "seat": 0, "buy_in": 2_000}))["type"] == "ok"
        for sock in (watcher, seated, waiting):
            await sock.close()

    async_to_sync(scenario)()


def test_an_offer_passed_on_to_the_next_in_line_says_so(table_room, make_player):
    full = table_room(seats=2)
    alice, bob, carol, erin = (make_player(name) for name in ("alice", "bob", "carol", "erin"))
    for number, user in ((0, alice), (1, bob)):
        table_sit(table_id=full.pk, user=user, seat=number, buy_in=2_000)
    waiting_join(table_id=full.pk, user=carol)
    waiting_join(table_id=full.pk, user=erin)

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=carol, name="carol lobby")
        await lobby.receive()
        await database_sync_to_async(table_leave)(table_id=full.pk, user=alice)
        await lobby.until(lambda f: f["type"] == "waiting" and f["offer"])
        await fire_clock(31)
        gone = await lobby.until(lambda f: f["type"] == "waiting" and f["place"] is None)
        assert (gone["reason"], gone["passed_on"]) == ("lapsed", True)
        await lobby.close()

    async_to_sync(scenario)()


def test_the_last_winner_leaves_the_felt_once_the_time_to_show_is_over_and_nobody_can_play(
    table_room, make_player, monkeypatch
):
    # Heads-up, button on seat 0: seat 1 (big blind) holds aces, seat 0 seven-deuce and is asked
    # to show or muck.
    monkeypatch.setattr("holdem.services.game_kinds.next_button", lambda previous, dealt, rng: 0)
    deck = rigged([["Ah", "Ad"], ["7c", "2d"]], ["As", "Kd", "9h", "4c", "3s"])
    monkeypatch.setattr("holdem.services.hand_start.hand_deck", lambda: list(deck))
    table = table_room()
    loser, newbie, carol = make_player("loser"), make_player("newbie"), make_player("carol")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=loser, name="loser")
        b = await open_socket(f"/ws/table/{table.pk}/", user=newbie, name="newbie")
        c = await open_socket(f"/ws/table/{table.pk}/", user=carol, name="carol watching")
        for sock in (a, b, c):
            await sock.receive()
        await a.request({"type": "sit", "seat": 0, "buy_in": 3000})
        await b.request({"type": "sit", "seat": 1, "buy_in": 3000})
        await database_sync_to_async(Seat.objects.filter(user=loser).update)(auto_muck=False)
        await fire_clock(31)
        # The loser will sit out from the next hand on: nothing comes after this one.
        assert (await a.request({"type": "sit_out"}))["type"] == "ok"
        socks = {0: a, 1: b}
        for n in range(20):
            seen = (await c.request({"type": "snapshot"}))["table"]
            if seen["hand"] is None:
                break
            actor = seen["hand"]["to_act"]
            legal = (await socks[actor].request({"type": "snapshot"}))["you"]["legal"]
            move = "check" if "check" in legal["actions"] else "call"
            await socks[actor].request({"type": "act", "action": move, "action_id": f"m{n}"})
        last = seen["last_hand"]
        assert last["winners"] == [1] and last["undecided"] == [0]  # "newbie wins with ..."
        assert seen["countdown"] is None

        # The time to choose runs out (by the real clock: the felt reads it too) and the sweep
        # mucks the loser's hand.
        await asyncio.sleep(8.2)
        await fire_clock(1)
        await c.until(lambda f: f["type"] == "event" and f["event"]["kind"] == "hand_mucked")
        assert c.table["last_hand"] is None
        assert all("net" not in s and s.get("state") != "winner" for s in c.table["seats"])
        fresh = await c.request({"type": "snapshot"})
        assert fresh["table"]["last_hand"] is None
        for sock in (a, b, c):
            await sock.close()

    async_to_sync(scenario)()
