"""The table websocket end to end: handshake rules, playing a hand, spectators, reconnects."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from holdem.models import Seat
from tests.realtime.conftest import fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def run(coroutine_function, *args):
    return async_to_sync(coroutine_function)(*args)


def test_anonymous_and_foreign_origin_connections_are_refused(table_room, make_player):
    table = table_room()
    alice = make_player()

    async def scenario():
        assert not isinstance(await open_socket(f"/ws/table/{table.pk}/"), object.__class__) or True
        anonymous = await open_socket(f"/ws/table/{table.pk}/")
        assert not hasattr(anonymous, "frames"), "anonymous spectators must sign in"
        foreign = await open_socket(
            f"/ws/table/{table.pk}/", user=alice, origin=b"http://evil.example"
        )
        assert not hasattr(foreign, "frames"), "another origin is refused"
        missing = await open_socket("/ws/table/999999/", user=alice)
        assert not hasattr(missing, "frames")
        lobby = await open_socket("/ws/lobby/")
        assert not hasattr(lobby, "frames")
        ok = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        snapshot = await ok.receive()
        assert snapshot["type"] == "snapshot" and snapshot["you"]["username"] == alice.username
        await ok.close()

    run(scenario)


def test_two_players_play_a_hand_over_sockets_while_a_spectator_watches(table_room, make_player):
    table = table_room()
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="alice")
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob, name="bob")
        c = await open_socket(f"/ws/table/{table.pk}/", user=carol, name="carol (spectator)")
        for sock in (a, b, c):
            assert (await sock.receive())["type"] == "snapshot"
        assert (await a.request({"type": "sit", "seat": 0, "buy_in": 3000}))["type"] == "ok"
        assert (await b.request({"type": "sit", "seat": 4, "buy_in": 3000}))["type"] == "ok"
        await fire_clock(31)
        sockets = {0: a, 4: b}
        holes = {}
        for seat, sock in sockets.items():
            you = await sock.until(lambda f: f.get("you") and f["you"]["hole"])
            holes[seat] = you["you"]["hole"]
        assert len(holes[0]) == 2 and holes[0] != holes[4]
        # Check or call down to showdown, always the player the server says is to act.
        last_table = None
        for _ in range(40):
            snap_a = await a.request({"type": "snapshot"})
            last_table = snap_a["table"]
            if last_table["hand"] is None:
                break
            actor = last_table["hand"]["to_act"]
            sock = sockets[actor]
            snap = await sock.request({"type": "snapshot"})
            legal = snap["you"]["legal"]
            move = "check" if "check" in legal["actions"] else "call"
            answer = await sock.request(
                {"type": "act", "action": move, "action_id": f"{actor}-{_}"}
            )
            assert answer["type"] == "ok", answer
        result = last_table["last_hand"]
        assert result is not None and len(result["board"]) == 5
        assert sum(result["net"].values()) == -result["rake"]
        # The spectator saw every public event and never a hole card before the showdown.
        await c.drain()
        for frame in c.frames:
            table_part = frame.get("table") or {}
            if table_part.get("hand"):
                assert all("hole" not in s for s in table_part["hand"]["seats"])
                assert all("hole" not in s for s in table_part["seats"])
            assert frame.get("you", {}).get("hole") in (None, [])
        # Both hands were shown at showdown (nobody folded), so now the spectator can see them.
        shown = result["shown"]
        for seat, cards in shown.items():
            assert cards == holes[int(seat)]
        for sock in (a, b, c):
            await sock.close()

    run(scenario)


def test_reconnecting_restores_the_players_cards_and_clears_disconnected(table_room, make_player):
    table = table_room()
    alice, bob = make_player("alice"), make_player("bob")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        await a.receive(), await b.receive()
        await a.request({"type": "sit", "seat": 1, "buy_in": 2500})
        await b.request({"type": "sit", "seat": 2, "buy_in": 2500})
        await fire_clock(31)
        hole = (await a.until(lambda f: f.get("you") and f["you"]["hole"]))["you"]["hole"]
        await a.close()
        seat = await database_sync_to_async(Seat.objects.get)(user=alice)
        assert not seat.disconnected and seat.connection_lost_at  # RULES.md 5: the grace period
        await fire_clock(21)  # past the 20-second grace without coming back
        seat = await database_sync_to_async(Seat.objects.get)(user=alice)
        assert seat.disconnected  # RULES.md 5: the seat shows disconnected
        seen = await b.until(
            lambda f: f["type"] == "event" and f["event"]["kind"] == "disconnected"
        )
        assert (
            next(s for s in seen["table"]["seats"] if s["number"] == 1)["state"] == "disconnected"
        )
        again = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        snapshot = await again.receive()
        assert snapshot["you"]["hole"] == hole  # RULES.md 5: full view restored
        seat = await database_sync_to_async(Seat.objects.get)(user=alice)
        assert not seat.disconnected
        await again.close(), await b.close()

    run(scenario)


def test_two_tabs_are_one_player(table_room, make_player):
    table = table_room()
    alice, bob = make_player("alice"), make_player("bob")

    async def scenario():
        tab1 = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        tab2 = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        for sock in (tab1, tab2, b):
            await sock.receive()
        await tab1.request({"type": "sit", "seat": 0, "buy_in": 2000})
        answer = await tab2.request({"type": "sit", "seat": 1, "buy_in": 2000})
        assert answer["code"] == "already_seated"
        await b.request({"type": "sit", "seat": 5, "buy_in": 2000})
        await fire_clock(31)
        h1 = (await tab1.until(lambda f: f.get("you") and f["you"]["hole"]))["you"]["hole"]
        h2 = (await tab2.until(lambda f: f.get("you") and f["you"]["hole"]))["you"]["hole"]
        assert h1 == h2
        await tab1.close()  # one tab closes: still connected through the other
        seat = await database_sync_to_async(Seat.objects.get)(user=alice)
        assert not seat.disconnected
        await tab2.close(), await b.close()

    run(scenario)


def test_switching_rooms_is_refused_while_dealt_in_and_gives_up_the_seat_otherwise(
    table_room, make_player
):
    table, other = table_room(), table_room("pl50")
    alice, bob = make_player("alice"), make_player("bob")

    async def scenario():
        a = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        b = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        await a.receive(), await b.receive()
        await a.request({"type": "sit", "seat": 0, "buy_in": 2000})
        await b.request({"type": "sit", "seat": 1, "buy_in": 2000})
        await fire_clock(31)
        refused = await a.request({"type": "switch", "table_id": other.pk})
        assert refused["type"] == "error" and refused["code"] == "in_hand"  # RULES.md 2
        # Fold out of the hand; once it is over the switch works and returns the chips.
        for _ in range(3):
            snap = await a.request({"type": "snapshot"})
            if snap["table"]["hand"] is None:
                break
            actor = snap["table"]["hand"]["to_act"]
            sock = a if actor == 0 else b
            await sock.request({"type": "act", "action": "fold", "action_id": f"f{_}"})
        switched = await a.request({"type": "switch", "table_id": other.pk})
        assert switched == {"type": "switched", "table_id": other.pk, "url": f"/tables/{other.pk}/"}
        assert not await database_sync_to_async(Seat.objects.filter(user=alice).exists)()
        await a.close(), await b.close()

    run(scenario)
    from holdem.selectors.audit import audit_chips

    assert audit_chips().ok
