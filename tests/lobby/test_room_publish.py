"""A room created, changed or closed in the admin reaches the open lobbies and the table pages'
room switchers at once, over their sockets: the room service publishes after commit."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.urls import reverse

from holdem.models import Table
from holdem.realtime.delta import decode
from tests.holdem.test_admin import form_data, input_names
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def room_frame(name):
    return lambda f: f["type"] == "room" and f["room"]["name"] == name


def test_rooms_made_changed_and_closed_in_the_admin_reach_lobby_and_table_sockets(
    admin_client, table_room, make_player
):
    here = table_room()
    carol, dave = make_player("carol"), make_player("dave")
    post = database_sync_to_async(admin_client.post)
    get = database_sync_to_async(admin_client.get)

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=carol, name="carol lobby")
        table = await open_socket(f"/ws/table/{here.pk}/", user=dave, name="dave table")
        for sock in (lobby, table):
            await sock.receive()  # the room list, or the snapshot

        response = await post(reverse("admin:holdem_table_add"), form_data(name="Night owls"))
        assert response.status_code == 302
        for sock in (lobby, table):
            made = await sock.until(room_frame("Night owls"))
            assert made["room"]["status"] == "open" and made["room"]["taken"] == 0
            assert made["room"]["min_buy_in"] == 200

        made = await database_sync_to_async(Table.objects.get)(name="Night owls")
        inside = await open_socket(f"/ws/table/{made.pk}/", user=carol, name="carol at the room")
        await inside.receive()
        url = reverse("admin:holdem_table_change", args=[made.pk])
        shown = input_names((await get(url)).content.decode())
        data = form_data(name="Night owls", min_buy_in=300, small_blind=10, big_blind=20)
        response = await post(url, {k: v for k, v in data.items() if k in shown})
        assert response.status_code == 302
        for sock in (lobby, table):
            # (The lobby heard of carol watching the room first: a room frame of its own.)
            changed = await sock.until(
                lambda f: room_frame("Night owls")(f) and f["room"]["min_buy_in"] == 300
            )
            assert changed["room"]["stakes"] == "10/20"
        # A page open at that room sees its new rules at once too.
        changed = await inside.until(
            lambda f: f["type"] == "event" and f["event"]["kind"] == "options_changed"
        )
        assert inside.table["stakes"] == "10/20", inside.frames[-1]
        assert inside.table["options"]["min_buy_in"] == 300, inside.frames[-1]
        # The rules dialog's words come with the options they follow from; the record of what
        # was sent, rewritten by every event, does not keep them.
        assert changed["changes"]["rules"] == inside.table["rules"]
        assert any("300" in line["text"] for line in inside.table["rules"]), inside.table["rules"]
        sent = decode((await database_sync_to_async(Table.objects.get)(pk=made.pk)).sent_view)
        assert "rules" not in sent["table"] and sent["table"]["options"]["min_buy_in"] == 300

        response = await post(
            reverse("admin:holdem_table_changelist"),
            {"action": "close_rooms", "_selected_action": [made.pk]},
        )
        assert response.status_code == 302
        for sock in (lobby, table):
            closed = await sock.until(room_frame("Night owls"))
            assert closed["room"]["status"] == "closed"
        for sock in (lobby, table, inside):
            await sock.close()

    async_to_sync(scenario)()


def test_a_room_made_from_a_preset_in_the_admin_reaches_the_lobby(admin_client, make_player):
    carol = make_player("carol")
    post = database_sync_to_async(admin_client.post)

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=carol, name="carol lobby")
        await lobby.receive()
        response = await post(
            reverse("admin:holdem_table_from_preset"), {"name": "Friday PL", "preset": "pl50"}
        )
        assert response.status_code == 302
        made = await lobby.until(room_frame("Friday PL"))
        assert made["room"]["stakes"] == "50/100" and made["room"]["structure"] == "pot_limit"
        await lobby.close()

    async_to_sync(scenario)()
