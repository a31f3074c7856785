"""The user's own socket (ws/me/, casino/user_socket.py): the wallet as a snapshot on connect,
then a `wallet` frame after each committed change, to that user alone; nothing for a change
rolled back; refused to a visitor who is not signed in or comes from another site."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import transaction

from casino.accounts.models import LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from holdem.services import table_sit, table_top_up
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def adjust(user, amount, reason="admin correction"):
    return wallet_adjust(user=user, amount=amount, kind=LedgerKind.ADMIN_ADJUSTMENT, reason=reason)


def test_the_wallet_comes_first_then_every_committed_change_to_its_owner_alone(make_player):
    alice, bob = make_player("alice"), make_player("bob")

    def rolled_back():
        with transaction.atomic():
            adjust(alice, -5_000)
            transaction.set_rollback(True)

    async def scenario():
        mine = await open_socket("/ws/me/", user=alice, name="alice me")
        second_tab = await open_socket("/ws/me/", user=alice, name="alice other tab")
        other = await open_socket("/ws/me/", user=bob, name="bob me")
        first = await mine.receive()
        assert first["type"] == "wallet" and first["balance"] == 10_000
        assert (await second_tab.receive())["balance"] == 10_000
        await other.receive()

        entry = await database_sync_to_async(adjust)(alice, -100)
        for sock in (mine, second_tab):
            frame = await sock.receive()
            assert frame == {"type": "wallet", "balance": 9_900, "version": entry.pk}
            assert frame["version"] > first["version"]

        await database_sync_to_async(rolled_back)()
        assert await mine.drain(timeout=0.3) == []  # never committed: never told
        assert await other.drain(timeout=0.1) == []  # bob hears nothing of alice's wallet

        # A snapshot asked for again says the same as the last frame.
        await mine.send({"type": "snapshot"})
        again = await mine.receive()
        assert again == {"type": "wallet", "balance": 9_900, "version": entry.pk}
        for sock in (mine, second_tab, other):
            await sock.close()

    async_to_sync(scenario)()


def test_a_buy_in_and_a_top_up_at_a_table_reach_the_wallet_socket(table_room, make_player):
    table = table_room()
    carol = make_player("carol")

    async def scenario():
        mine = await open_socket("/ws/me/", user=carol, name="carol me")
        await mine.receive()
        await database_sync_to_async(table_sit)(table_id=table.pk, user=carol, seat=0, buy_in=2_000)
        assert (await mine.until(lambda f: f["type"] == "wallet"))["balance"] == 8_000
        await database_sync_to_async(table_top_up)(table_id=table.pk, user=carol, amount=500)
        assert (await mine.until(lambda f: f["type"] == "wallet"))["balance"] == 7_500
        assert await database_sync_to_async(wallet_balance)(user=carol) == 7_500
        await mine.close()

    async_to_sync(scenario)()


def test_bad_frames_get_an_error_and_change_nothing(make_player):
    dave = make_player("dave")

    async def scenario():
        mine = await open_socket("/ws/me/", user=dave, name="dave me")
        await mine.receive()
        for bad in ("not json", '{"type": "wallet", "balance": 1000000}', "[]"):
            await mine.send(bad)
            answer = await mine.receive()
            assert answer["type"] == "error" and answer["code"] == "unknown_type"
        assert (await mine.request({"type": "ping"}))["type"] == "pong"
        await mine.close()
        assert await database_sync_to_async(wallet_balance)(user=dave) == 10_000

    async_to_sync(scenario)()


def test_refused_without_a_session_or_from_another_site(make_player):
    erin = make_player("erin")

    async def scenario():
        anonymous = await open_socket("/ws/me/", name="anonymous")
        assert isinstance(anonymous, int)  # closed before it was accepted
        elsewhere = await open_socket(
            "/ws/me/", user=erin, origin=b"http://127.0.0.1:9999", name="other site"
        )
        assert isinstance(elsewhere, int)  # the handshake was refused (Daphne answers 403)

    async_to_sync(scenario)()
