"""The sit-out boxes and the auto top-up setting over the table socket (RULES.md 2): a box ticked
in one tab shows in the player's every tab and in a reload, and in nobody else's frames; a bad
frame is refused with a code and changes nothing."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from casino.accounts.preferences import preferences_for
from holdem.models import Seat
from tests.realtime.conftest import fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def boxes(user):
    seat = Seat.objects.get(user=user)
    return seat.sit_out_next_hand, seat.sit_out_next_big_blind, seat.sitting_out


def auto_top_up_row(user):
    row = preferences_for(user)
    return row.auto_top_up, row.top_up_below_percent, row.top_up_to_bb


def test_the_boxes_reach_only_their_owner_on_every_tab_and_survive_a_reload(
    table_room, make_player
):
    table = table_room("nl50")
    users = {seat: make_player(f"box{seat}") for seat in (0, 1, 2)}
    watcher = make_player("boxwatch")
    path = f"/ws/table/{table.pk}/"

    async def scenario():
        sockets = {s: await open_socket(path, user=u, name=f"box{s}") for s, u in users.items()}
        spectator = await open_socket(path, user=watcher, name="watcher")
        for sock in [*sockets.values(), spectator]:
            await sock.receive()
        for seat, sock in sockets.items():
            assert (await sock.request({"type": "sit", "seat": seat, "buy_in": 3000}))[
                "type"
            ] == "ok"
        await fire_clock(31)  # a hand: everyone is dealt in
        second_tab = await open_socket(path, user=users[1], name="box1-again")
        assert (await second_tab.receive())["you"]["sit_out_next_hand"] is False
        for sock in [*sockets.values(), spectator]:
            await sock.drain(0.1)

        # Bad frames: a code, and nothing changes.
        for frame, code in [
            ({"type": "sit_out_next_hand", "value": "yes"}, "bad_frame"),
            ({"type": "sit_out_next_big_blind"}, "bad_frame"),
            ({"type": "sit_out_next_hand", "value": True, "seat": 0}, "bad_frame"),
        ]:
            answer = await sockets[1].request(frame)
            assert (answer["type"], answer.get("code")) == ("error", code), (frame, answer)
        spectator_box = await spectator.request({"type": "sit_out_next_hand", "value": True})
        assert spectator_box.get("code") == "not_seated"
        assert await database_sync_to_async(boxes)(users[1]) == (False, False, False)

        for box in ("sit_out_next_hand", "sit_out_next_big_blind"):
            answer = await sockets[1].request({"type": box, "value": True})
            assert answer["type"] == "ok", answer
            await sockets[1].drain(0.1)
            assert sockets[1].you[box] is True
            frames = await second_tab.drain(0.1)
            assert frames and frames[-1]["you"][box] is True  # the other tab's box follows
            # Nobody else, spectator included, hears of it: the player is still in the hand.
            for sock in (sockets[0], sockets[2], spectator):
                assert await sock.drain(0.1) == [], sock.name
        assert await database_sync_to_async(boxes)(users[1]) == (True, True, False)

        await second_tab.close()
        reload = await open_socket(path, user=users[1], name="box1-reload")
        you = (await reload.receive())["you"]
        assert (you["sit_out_next_hand"], you["sit_out_next_big_blind"]) == (True, True)
        others = await sockets[0].request({"type": "snapshot"})
        assert "sit_out_next_hand" in others["you"] and others["you"]["sit_out_next_hand"] is False
        for sock in [*sockets.values(), spectator, reload]:
            await sock.close()

    async_to_sync(scenario)()


def test_the_auto_top_up_setting_is_saved_by_frame_and_told_to_the_players_other_tabs(
    table_room, make_player
):
    table = table_room("nl50")
    alice, bob = make_player("auto-alice"), make_player("auto-bob")
    path = f"/ws/table/{table.pk}/"

    async def scenario():
        tab = await open_socket(path, user=alice, name="alice")
        other_tab = await open_socket(path, user=alice, name="alice-2")
        bobs = await open_socket(path, user=bob, name="bob")
        for sock in (tab, other_tab, bobs):
            snapshot = await sock.receive()
            assert snapshot["auto_top_up"] == {
                "enabled": False,
                "below_percent": 50,
                "to_big_blinds": None,
            }
        for frame, code in [
            ({"type": "auto_top_up", "enabled": True, "below_percent": 0}, "bad_top_up_threshold"),
            (
                {"type": "auto_top_up", "enabled": True, "below_percent": 50, "to_big_blinds": 5},
                "bad_top_up_target",
            ),
            ({"type": "auto_top_up", "enabled": "on", "below_percent": 50}, "bad_frame"),
            ({"type": "auto_top_up", "enabled": True}, "bad_frame"),
        ]:
            answer = await tab.request(frame)
            assert (answer["type"], answer.get("code")) == ("error", code), (frame, answer)
        assert await database_sync_to_async(auto_top_up_row)(alice) == (False, 50, None)

        frame = {"type": "auto_top_up", "enabled": True, "below_percent": 60, "to_big_blinds": 80}
        assert (await tab.request(frame))["type"] == "ok"
        told = [f for f in await other_tab.drain(0.2) if f["type"] == "auto_top_up"]
        assert told == [
            {
                "type": "auto_top_up",
                "settings": {"enabled": True, "below_percent": 60, "to_big_blinds": 80},
            }
        ]
        assert [f for f in await bobs.drain(0.1) if f["type"] == "auto_top_up"] == []
        assert await database_sync_to_async(auto_top_up_row)(alice) == (True, 60, 80)
        for sock in (tab, other_tab, bobs):
            await sock.close()

    async_to_sync(scenario)()
