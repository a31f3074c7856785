"""Closing one's own account (RULES.md 10): refused while still playing, for good once done (no
sign-in, sessions and sockets ended), the name freed, the chips left in the books, and the
history kept under the anonymous name only."""

import json
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from casino.accounts.models import LedgerEntry, User
from casino.accounts.selectors import wallet_balance
from casino.errors import DomainError
from holdem.history.pokerstars import pokerstars_text
from holdem.models import HandRecord, Seat, TournamentEntry, WaitingEntry
from holdem.realtime.close_codes import CloseCode
from holdem.selectors.chains import chains_audit
from holdem.selectors.closed_names import hand_as_shown
from holdem.selectors.snapshot import previous_hand_for
from holdem.services import table_leave, table_sit, wallet_refill
from holdem.services.account_close import account_close
from holdem.services.tournaments import tournament_register
from holdem.services.waiting import waiting_join
from tests.holdem.conftest import chips_everywhere, play_out
from tests.holdem.test_sit_and_go import play_to_the_end
from tests.realtime.conftest import open_socket
from tests.realtime.test_session_sockets import closed_with

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-123"  # make_player's


def account_as_it_was(user) -> tuple:
    row = User.objects.get(pk=user.pk)
    return (
        row.username,
        row.email,
        row.is_active,
        row.has_usable_password(),
        row.closed_at,
        wallet_balance(user=user),
        LedgerEntry.objects.filter(user=user).count(),
    )


def close_by_page(client, user, *, password=PASSWORD, confirm=True):
    client.force_login(user)
    data = {"password": password}
    if confirm:
        data["confirm"] = "yes"
    return client.post(reverse("close_account"), data)


def test_closing_frees_the_name_and_signs_the_account_out_for_good(client, make_player, room):
    """RULES.md 10: the name is freed, the e-mail deleted, the password stops working, every
    session ends; the chips stay in the wallet and its ledger, and the books still balance."""
    alice = make_player("alice")
    User.objects.filter(pk=alice.pk).update(email="alice@example.com")
    # She waits for a seat at a full room: closing takes her off the list.
    full = room("nl50", seats=2)
    for number in (0, 1):
        table_sit(table_id=full.pk, user=make_player(), seat=number, buy_in=5_000)
    waiting_join(table_id=full.pk, user=alice)
    other_browser = Client()
    other_browser.force_login(alice)
    balance, lines = wallet_balance(user=alice), LedgerEntry.objects.filter(user=alice).count()

    client.force_login(alice)
    form = client.get(reverse("close_account"))
    assert form.status_code == 200 and "Close my account" in form.content.decode()
    response = close_by_page(client, alice)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert "Your account is closed" in client.get(reverse("home")).content.decode()

    row = User.objects.get(pk=alice.pk)
    assert row.username == f"closed-{alice.pk}"
    assert row.email == "" and not row.has_usable_password() and not row.is_active
    assert row.closed_at is not None
    assert not WaitingEntry.objects.filter(user=alice).exists()
    # Chips untouched: the wallet, its lines, the books, the chains.
    assert wallet_balance(user=alice) == balance
    assert LedgerEntry.objects.filter(user=alice).count() == lines
    chips_everywhere()
    assert chains_audit().ok
    # Signed out everywhere, and no way back in: not with the old name, not with the new one.
    for browser in (client, other_browser):
        assert browser.get(reverse("profile")).status_code == 302
    for name in ("alice", f"closed-{alice.pk}"):
        refused = Client().post(reverse("login"), {"username": name, "password": PASSWORD})
        assert refused.status_code == 200
        assert "correct username and password" in refused.content.decode()


def test_a_new_player_may_sign_up_with_a_closed_accounts_name(client, make_player):
    alice = make_player("alice")
    account_close(user=alice, password=PASSWORD, confirmed=True)
    response = Client().post(
        reverse("signup"),
        {"username": "alice", "password1": "river-card-42x", "password2": "river-card-42x"},
    )
    assert response.status_code == 302
    newcomer = User.objects.get(username="alice")
    assert newcomer.pk != alice.pk and newcomer.closed_at is None
    assert wallet_balance(user=newcomer) == 10_000


def test_nobody_may_sign_up_under_a_closed_accounts_kind_of_name(client):
    response = client.post(
        reverse("signup"),
        {"username": "Closed-7", "password1": "river-card-42x", "password2": "river-card-42x"},
    )
    assert response.status_code == 200
    assert "are reserved" in response.content.decode()
    assert not User.objects.filter(username__iexact="closed-7").exists()


def test_closing_is_refused_while_seated_and_changes_nothing(client, seated):
    """RULES.md 10: not while sitting at a table."""
    table, users = seated("nl50", seats=(0, 1))
    alice = users[0]
    before = account_as_it_was(alice)
    response = close_by_page(client, alice)
    assert response.status_code == 200
    html = response.content.decode()
    assert "leave the table before you close your account" in html
    assert table.name in html
    assert account_as_it_was(alice) == before
    assert Seat.objects.filter(user=alice).exists()
    # Once she has left, she may.
    table_leave(table_id=table.pk, user=alice)
    assert close_by_page(client, alice).status_code == 302


def test_closing_is_refused_while_in_a_tournament_not_finished(
    client, sit_and_go, make_player, clock
):
    """RULES.md 10: not while registered in a tournament, nor while still playing one; once
    the player's part in it is over, closing is allowed."""
    tournament = sit_and_go(seats=2, starting_stack=300, level_seconds=60)
    alice, bob = make_player("alice"), make_player("bob")
    tournament_register(tournament_id=tournament.pk, user=alice)
    before = account_as_it_was(alice)
    response = close_by_page(client, alice)
    assert "which has not finished" in response.content.decode()
    assert account_as_it_was(alice) == before
    tournament_register(tournament_id=tournament.pk, user=bob)  # it starts
    with pytest.raises(DomainError) as refused:
        account_close(user=alice, password=PASSWORD, confirmed=True)
    assert refused.value.code in ("in_tournament", "seated")
    assert account_as_it_was(alice) == before
    play_to_the_end(tournament, clock)
    assert TournamentEntry.objects.get(user=alice).place in (1, 2)
    account_close(user=alice, password=PASSWORD, confirmed=True)
    chips_everywhere()


@pytest.mark.parametrize(
    ("password", "confirm", "words"),
    [
        ("wrong-password-1", True, "That is not your password"),
        ("", True, "That is not your password"),
        (PASSWORD, False, "Tick the box to confirm"),
    ],
)
def test_a_wrong_password_or_no_confirmation_changes_nothing(
    client, make_player, password, confirm, words
):
    alice = make_player("alice")
    before = account_as_it_was(alice)
    response = close_by_page(client, alice, password=password, confirm=confirm)
    assert response.status_code == 200 and words in response.content.decode()
    assert account_as_it_was(alice) == before
    assert client.get(reverse("profile")).status_code == 200  # still signed in


def test_a_closed_account_is_refused_a_seat_an_entry_and_free_chips(make_player, room, sit_and_go):
    """The services ask under the wallet lock, which closing takes too: a frame in flight
    when the account closes is refused, not played."""
    alice = make_player("alice")
    table, tournament = room("nl50"), sit_and_go(seats=3)
    account_close(user=alice, password=PASSWORD, confirmed=True)
    alice.refresh_from_db()
    for attempt in (
        lambda: table_sit(table_id=table.pk, user=alice, seat=0, buy_in=2_000),
        lambda: tournament_register(tournament_id=tournament.pk, user=alice),
        lambda: wallet_refill(user=alice),
    ):
        with pytest.raises(DomainError) as refused:
            attempt()
        assert refused.value.code == "account_closed"
    with pytest.raises(DomainError) as again:
        account_close(user=alice, password=PASSWORD, confirmed=True)
    assert again.value.code == "wrong_password"  # the password no longer works at all


def test_the_old_name_appears_nowhere_in_the_hands_it_played(seated, clock, admin_client):
    """RULES.md 10: the other players' history shows the closed account as closed-<id>, on the
    hand page, its JSON, its PokerStars text, the hand list, the table's previous hand and the
    leaderboard; the stored record, which the table's hash chain covers, is not rewritten."""
    table, users = seated("nl50", seats=(0, 1))
    alice, bob = users[0], users[1]
    User.objects.filter(pk=alice.pk).update(username="alicethepro")
    clock.advance(31)
    play_out(table, users)
    record = HandRecord.objects.get(table=table)
    stored = json.dumps(record.players)
    assert "alicethepro" in stored  # the record as dealt
    table_leave(table_id=table.pk, user=alice)
    account_close(user=alice, password=PASSWORD, confirmed=True)
    anonymous = f"closed-{alice.pk}"

    browser = Client()  # admin_client is the `client` fixture, signed in as staff
    browser.force_login(bob)
    pages = {
        "hand page": browser.get(reverse("hand_detail", args=[record.pk])),
        "hand JSON": browser.get(reverse("hand_json", args=[record.pk])),
        "PokerStars text": browser.get(reverse("hand_download", args=[record.pk])),
        "hand list": browser.get(reverse("hand_list")),
        "leaderboard": browser.get(reverse("leaderboard")),
        "table page": browser.get(reverse("table", args=[table.pk])),
        "staff's hand page": admin_client.get(
            reverse("admin:holdem_handrecord_change", args=[record.pk])
        ),
    }
    for what, response in pages.items():
        assert response.status_code == 200, what
        text = response.content.decode()
        assert "alicethepro" not in text, what
    for what in ("hand page", "hand JSON", "PokerStars text", "hand list", "staff's hand page"):
        assert anonymous in pages[what].content.decode(), what
    assert re.search(rf"Seat \d+: {anonymous} \(", pages["PokerStars text"].content.decode())
    table.refresh_from_db()
    previous = previous_hand_for(table, bob)
    assert "alicethepro" not in json.dumps(previous) and anonymous in json.dumps(previous)
    # The stored hand is as it was dealt: its hash chain holds.
    record.refresh_from_db()
    assert json.dumps(record.players) == stored
    assert chains_audit().ok
    assert "alicethepro" in pokerstars_text(record)  # the stored record itself still names her
    # A page's copy of the hand cannot be saved by mistake.
    shown = hand_as_shown(record)
    assert anonymous in pokerstars_text(shown)
    with pytest.raises(TypeError):
        shown.save()


def test_staff_see_when_an_account_was_closed(admin_client, make_player):
    alice = make_player("alice")
    account_close(user=alice, password=PASSWORD, confirmed=True)
    page = admin_client.get(reverse("admin:accounts_user_change", args=[alice.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Closed by the player" in html and "Closed at" in html
    listed = admin_client.get(reverse("admin:accounts_user_changelist") + "?closed=yes")
    assert f"closed-{alice.pk}" in listed.content.decode()
    still_open = admin_client.get(reverse("admin:accounts_user_changelist") + "?closed=no")
    assert f"closed-{alice.pk}" not in still_open.content.decode()


@pytest.mark.django_db(transaction=True)
def test_closing_closes_the_accounts_open_sockets(table_room, make_player):
    table = table_room()
    alice, bob = make_player("alice"), make_player("bob")

    async def scenario():
        sock = await open_socket(f"/ws/table/{table.pk}/", user=alice)
        lobby = await open_socket("/ws/lobby/", user=alice)
        others = await open_socket(f"/ws/table/{table.pk}/", user=bob)
        for each in (sock, lobby, others):
            await each.receive()
        await database_sync_to_async(account_close)(user=alice, password=PASSWORD, confirmed=True)
        for each in (sock, lobby):
            code, _frames = await closed_with(each)
            assert code == CloseCode.SIGNED_OUT
        assert (await others.request({"type": "ping"}))["type"] == "pong"
        await others.close()

    async_to_sync(scenario)()
