"""A socket lives only as long as its session and a user holds at most MAX_SOCKETS_PER_USER sockets."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from casino.accounts.services import account_freeze
from holdem.models import Connection, Seat
from holdem.realtime.close_codes import CloseCode
from holdem.services.presence import MAX_SOCKETS_PER_USER
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def closed_with(sock, timeout=5):
    """Read until the server closes the socket; returns (close code, frames before it)."""
    frames = []
    while True:
        message = await sock.communicator.receive_output(timeout=timeout)
        if message["type"] == "websocket.close":
            return message.get("code"), frames
        frames.append(message)


def test_signing_out_closes_that_sessions_sockets_and_no_other(table_room, make_player):
    table = table_room()
    alice = make_player("alice")
    laptop, phone = signed_in(alice), signed_in(alice)

    async def scenario():
        on_laptop = await open_socket(
            f"/ws/table/{table.pk}/", cookie=laptop.cookies["sessionid"].value
        )
        lobby_on_laptop = await open_socket("/ws/lobby/", cookie=laptop.cookies["sessionid"].value)
        on_phone = await open_socket(
            f"/ws/table/{table.pk}/", cookie=phone.cookies["sessionid"].value
        )
        for sock in (on_laptop, lobby_on_laptop, on_phone):
            await sock.receive()
        response = await database_sync_to_async(laptop.post)("/accounts/logout/")
        assert response.status_code == 302
        for sock in (on_laptop, lobby_on_laptop):
            code, _frames = await closed_with(sock)
            assert code == CloseCode.SIGNED_OUT
        # The phone's session is still signed in: its socket goes on.
        assert (await on_phone.request({"type": "ping"}))["type"] == "pong"
        await on_phone.close()

    async_to_sync(scenario)()


def test_a_frame_sent_after_sign_out_is_not_applied(table_room, make_player):
    table = table_room()
    alice = make_player("alice")
    browser = signed_in(alice)

    async def scenario():
        sock = await open_socket(
            f"/ws/table/{table.pk}/", cookie=browser.cookies["sessionid"].value
        )
        await sock.receive()
        await database_sync_to_async(browser.post)("/accounts/logout/")
        await sock.send({"type": "sit", "seat": 0, "buy_in": 2000})
        code, frames = await closed_with(sock)
        assert code == CloseCode.SIGNED_OUT
        assert all('"ok"' not in m.get("text", "") for m in frames)

    async_to_sync(scenario)()
    assert not Seat.objects.filter(user=alice).exists()


@pytest.mark.parametrize("change", ["password", "deactivate"])
def test_a_password_change_or_deactivation_closes_every_socket_of_the_user(
    table_room, make_player, change
):
    table = table_room()
    alice = make_player("alice")

    async def scenario():
        sock = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        lobby = await open_socket("/ws/lobby/", user=alice)
        await sock.receive()
        await lobby.receive()

        def apply():
            if change == "password":
                alice.set_password("a-brand-new-secret-42")
            else:
                alice.is_active = False
            alice.save()

        await database_sync_to_async(apply)()
        for each in (sock, lobby):
            code, _ = await closed_with(each)
            assert code == CloseCode.SIGNED_OUT

    async_to_sync(scenario)()


def test_freezing_an_account_closes_its_sockets_saying_so_and_no_one_elses(table_room, make_player):
    table = table_room()
    alice, bob, staffer = make_player("alice"), make_player("bob"), make_player("staffer")

    async def scenario():
        sock = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        lobby = await open_socket("/ws/lobby/", user=alice)
        others = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        for each in (sock, lobby, others):
            await each.receive()
        await database_sync_to_async(account_freeze)(
            user=alice, reason="dumped chips", actor=staffer
        )
        for each in (sock, lobby):
            code, frames = await closed_with(each)
            assert code == CloseCode.SIGNED_OUT
            assert "frozen" in frames[-1]["text"] and "dumped" not in frames[-1]["text"]
        assert (await others.request({"type": "ping"}))["type"] == "pong"
        await others.close()

    async_to_sync(scenario)()


def test_a_frozen_account_opening_a_socket_is_told_so_and_closed(table_room, make_player):
    table = table_room()
    alice, staffer = make_player("alice"), make_player("staffer")
    account_freeze(user=alice, reason="collusion", actor=staffer)

    async def scenario():
        for path in (f"/ws/table/{table.pk}/", "/ws/lobby/"):
            sock = await open_socket(path, user=alice)
            code, frames = await closed_with(sock)
            assert code == CloseCode.SIGNED_OUT
            assert [f["text"] for f in frames if "frozen" in f["text"]], frames
            assert not any('"snapshot"' in f["text"] for f in frames)
        # Never counted: refused before its count, so it neither shows as watching nor closes
        # an older socket of the same user as one too many.
        counted = database_sync_to_async(Connection.objects.filter(user=alice).exists)
        assert not await counted()

    async_to_sync(scenario)()


def test_a_seventh_socket_is_fine_but_the_oldest_beyond_five_is_closed(table_room, make_player):
    table = table_room()
    alice, bob = make_player("alice"), make_player("bob")

    async def scenario():
        opened = []
        for n in range(MAX_SOCKETS_PER_USER):
            sock = await open_socket(
                f"/ws/table/{table.pk}/" if n % 2 else "/ws/lobby/", user=alice, name=f"tab {n}"
            )
            await sock.receive()
            opened.append(sock)
        others = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        await others.receive()
        newest = await open_socket(f"/ws/table/{table.pk}/", user=alice, name="tab 5")
        await newest.receive()
        code, frames = await closed_with(opened[0])
        assert code == CloseCode.TOO_MANY_SOCKETS
        assert "too many" in frames[-1]["text"]
        for sock in [*opened[1:], newest, others]:
            assert (await sock.request({"type": "ping"}))["type"] == "pong"
        assert (
            await database_sync_to_async(Connection.objects.filter(user=alice).count)()
            == MAX_SOCKETS_PER_USER
        )
        for sock in [*opened[1:], newest, others]:
            await sock.close()
        await asyncio.sleep(0)

    async_to_sync(scenario)()
    assert not Connection.objects.exists()
