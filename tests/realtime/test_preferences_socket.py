"""The table settings over the sockets (casino/accounts/table_settings.py): a change made in one
page's settings dialog reaches every other page of the same player (ws/me/) and nobody else's,
the next snapshot carries it, and a bad change is an error frame that changes nothing. Muting
and unmuting a player reach the player's other pages the same way."""

import pytest
from asgiref.sync import async_to_sync

from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def answer_to(sock, frame):
    """The table socket's answer to a `preferences` frame: the settings in force, or an error."""
    mark = len(sock.frames)
    await sock.send(frame)
    return await sock.until(lambda f: f["type"] in ("preferences", "error"), start=mark)


def test_a_change_reaches_the_same_players_other_pages_and_nobody_elses(table_room, make_player):
    table = table_room()
    alice, bob = make_player("alice"), make_player("bob")
    url = f"/ws/table/{table.pk}/"

    async def scenario():
        desk = await open_socket(url, user=alice, name="alice desk")
        phone_me = await open_socket("/ws/me/", user=alice, name="alice phone ws/me")
        phone_table = await open_socket(url, user=alice, name="alice phone table")
        bob_me = await open_socket("/ws/me/", user=bob, name="bob ws/me")
        bob_table = await open_socket(url, user=bob, name="bob table")
        first = await desk.receive()
        assert first["preferences"]["fold_confirm"] is True
        assert first["preferences"]["bet_sizes_preflop"] == [2, 2.5, 3]
        for sock in (phone_me, phone_table, bob_me, bob_table):
            await sock.receive()

        change = {"type": "preferences", "bet_sizes_postflop": [40, 125], "fold_confirm": False}
        answer = await answer_to(desk, change)
        assert answer["type"] == "preferences"
        assert answer["preferences"]["bet_sizes_postflop"] == [40, 125]
        heard = await phone_me.until(lambda f: f["type"] == "preferences")
        assert heard["preferences"] == answer["preferences"]
        assert heard["preferences"]["fold_confirm"] is False
        # Nothing of it to anybody else, nor on the table's public stream.
        assert await bob_me.drain(timeout=0.3) == []
        assert [f for f in await bob_table.drain() if "preferences" in f] == []
        assert [f for f in await phone_table.drain() if f["type"] == "preferences"] == []

        # A page opened later (or reconnecting) gets them in its snapshot; bob's are his own.
        await phone_table.send({"type": "snapshot"})
        again = await phone_table.until(lambda f: f["type"] == "snapshot")
        assert again["preferences"]["bet_sizes_postflop"] == [40, 125]
        await bob_table.send({"type": "snapshot"})
        his = await bob_table.until(lambda f: f["type"] == "snapshot")
        assert his["preferences"]["fold_confirm"] is True
        for sock in (desk, phone_me, phone_table, bob_me, bob_table):
            await sock.close()

    async_to_sync(scenario)()


def test_a_bad_change_is_an_error_frame_and_changes_nothing(table_room, make_player):
    table = table_room()
    alice = make_player("alice")

    async def scenario():
        desk = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        phone = await open_socket("/ws/me/", user=alice)
        await desk.receive(), await phone.receive()
        for frame, code in [
            ({"bet_sizes_preflop": [2, 0.5]}, "bad_preferences"),
            ({"bet_sizes_postflop": list(range(10, 80, 10))}, "bad_preferences"),
            ({"deck": "rainbow"}, "bad_preferences"),
            ({"bet_sizes_postflop": ["33"]}, "bad_frame"),
            ({"bet_sizes_postflop": 33}, "bad_frame"),
            ({"fold_confirm": "off"}, "bad_frame"),
            ({"auto_top_up": True}, "bad_frame"),  # not this frame's to change
            ({"user_id": 1, "deck": "two_colour"}, "bad_frame"),  # nobody else's either
        ]:
            answer = await answer_to(desk, {"type": "preferences", **frame})
            assert answer["type"] == "error" and answer["code"] == code, (frame, answer)
        assert await phone.drain(timeout=0.3) == []
        await desk.send({"type": "snapshot"})
        snapshot = await desk.until(lambda f: f["type"] == "snapshot")
        assert snapshot["preferences"]["deck"] == "four_colour"
        assert snapshot["preferences"]["bet_sizes_preflop"] == [2, 2.5, 3]
        await desk.close(), await phone.close()

    async_to_sync(scenario)()


def test_muting_and_unmuting_reach_the_players_other_pages(table_room, make_player):
    table = table_room()
    alice, carol = make_player("alice"), make_player("carol")

    async def scenario():
        desk = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        phone = await open_socket("/ws/me/", user=alice)
        carol_me = await open_socket("/ws/me/", user=carol)
        for sock in (desk, phone, carol_me):
            await sock.receive()
        await desk.send({"type": "chat_mute", "user_id": carol.pk, "value": True})
        heard = await phone.until(lambda f: f["type"] == "chat_muted")
        assert heard["players"] == [{"user_id": carol.pk, "username": "carol"}]
        await desk.send({"type": "chat_mute", "user_id": carol.pk, "value": False})
        heard = await phone.until(lambda f: f["type"] == "chat_muted")
        assert heard == {"type": "chat_muted", "user_ids": [], "players": []}
        assert await carol_me.drain(timeout=0.3) == []  # carol is not told who muted her
        for sock in (desk, phone, carol_me):
            await sock.close()

    async_to_sync(scenario)()
