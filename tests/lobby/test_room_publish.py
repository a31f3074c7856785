"""A room created, changed or closed in the admin reaches the open lobbies and the table pages'
room switchers at once, over their sockets: the room service publishes after commit."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.urls import reverse

from holdem.models import Table
from holdem.realtime.delta import decode
from tests.frames import lobby_rooms
from tests.holdem.test_admin import form_data, input_names
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def room_frame(name):
    return lambda f: f["type"] == "room" and f["room"]["name"] == name


def in_lobby(lobby, name):
    """The room named `name` as the lobby socket now shows it (None: not on its page)."""
    return next((r for r in lobby_rooms(lobby.frames).values() if r["name"] == name), None)


def lobby_has(lobby, name, test=lambda room: True):
    """A predicate for `until`: the lobby's page shows the room, and `test` holds for it."""
    return lambda f: (room := in_lobby(lobby, name)) is not None and test(room)


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
        made = (await table.until(room_frame("Night owls")))["room"]
        # The lobby's relay reads its page again: the new room comes within its range.
        await lobby.until(lobby_has(lobby, "Night owls"))
        for room in (made, in_lobby(lobby, "Night owls")):
            assert room["status"] == "open" and room["taken"] == 0 and room["min_buy_in"] == 200

        made = await database_sync_to_async(Table.objects.get)(name="Night owls")
        inside = await open_socket(f"/ws/table/{made.pk}/", user=carol, name="carol at the room")
        await inside.receive()
        url = reverse("admin:holdem_table_change", args=[made.pk])
        shown = input_names((await get(url)).content.decode())
        data = form_data(name="Night owls", min_buy_in=300, small_blind=10, big_blind=20)
        response = await post(url, {k: v for k, v in data.items() if k in shown})
        assert response.status_code == 302
        changed = await table.until(
            lambda f: room_frame("Night owls")(f) and f["room"]["min_buy_in"] == 300
        )
        assert changed["room"]["stakes"] == "10/20"
        await lobby.until(lobby_has(lobby, "Night owls", lambda r: r["min_buy_in"] == 300))
        assert in_lobby(lobby, "Night owls")["stakes"] == "10/20"
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
        closed = await table.until(room_frame("Night owls"))
        assert closed["room"]["status"] == "closed"
        # A closed room leaves the lobby's page: the page is read again without it.
        await lobby.until(lambda f: f["type"] == "lobby" and in_lobby(lobby, "Night owls") is None)
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
        await lobby.until(lobby_has(lobby, "Friday PL"))
        made = in_lobby(lobby, "Friday PL")
        assert made["stakes"] == "50/100" and made["structure"] == "pot_limit"
        await lobby.close()

    async_to_sync(scenario)()
