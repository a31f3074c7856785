"""Sitting down, standing up, sitting out, posting, one room at a time (RULES.md 2)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.errors import DomainError
from holdem.models import HandAction, ProtectionUse, Seat, Table
from holdem.services import (
    table_leave,
    table_post,
    table_sit,
    table_sit_in,
    table_sit_out,
)
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db


def books(user):
    user.wallet.refresh_from_db()
    return (
        user.wallet.balance,
        LedgerEntry.objects.filter(user=user).count(),
        Seat.objects.filter(user=user).count(),
    )


def test_sitting_down_moves_the_buy_in_from_wallet_to_seat_through_the_ledger(room, make_player):
    # RULES.md 2: the chips move from the wallet to the seat.
    table, alice = room("nl50"), make_player()
    seat = table_sit(table_id=table.pk, user=alice, seat=4, buy_in=2_500)
    assert seat.stack == 2_500
    entry = LedgerEntry.objects.filter(user=alice).first()
    assert (entry.kind, entry.amount, entry.table_id) == (LedgerKind.BUY_IN, -2_500, table.pk)
    assert books(alice)[0] == 7_500
    chips_everywhere()


@pytest.mark.parametrize(
    "seat, buy_in, code",
    [
        (0, 1_999, "buy_in_too_small"),
        (0, 20_001, "buy_in_too_large"),
        (9, 3_000, "bad_seat"),  # a 9-seat room has seats 0..8
        (-1, 3_000, "bad_seat"),
        # Wrong JSON types (2.5, "3000", true) never reach the service: tests/realtime/test_bad_input.py
    ],
)
def test_bad_sit_requests_are_refused_and_change_nothing(room, make_player, seat, buy_in, code):
    table, alice = room("nl50"), make_player()
    before = books(alice)
    with pytest.raises(DomainError) as refused:
        table_sit(table_id=table.pk, user=alice, seat=seat, buy_in=buy_in)
    assert refused.value.code == code
    assert books(alice) == before


def test_buy_in_above_the_wallet_is_refused(room, make_player):
    table, alice = room("nl50", max_buy_in=50_000), make_player()
    with pytest.raises(DomainError, match="you have 10,000 chips") as refused:
        table_sit(table_id=table.pk, user=alice, seat=0, buy_in=10_001)
    assert refused.value.code == "insufficient_chips"
    assert books(alice) == (10_000, 1, 0)


def test_a_taken_seat_and_a_second_seat_are_refused(room, make_player):
    table, alice, bob = room("nl50"), make_player(), make_player()
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=3_000)
    with pytest.raises(DomainError, match="seat 1 is taken"):
        table_sit(table_id=table.pk, user=bob, seat=0, buy_in=3_000)
    with pytest.raises(DomainError) as refused:
        table_sit(table_id=table.pk, user=alice, seat=1, buy_in=3_000)
    assert refused.value.code == "already_seated"
    other = room("pl50")
    with pytest.raises(DomainError) as refused:  # RULES.md 2: one room at a time
        table_sit(table_id=other.pk, user=alice, seat=1, buy_in=3_000)
    assert refused.value.code == "seated_elsewhere"
    assert books(bob) == (10_000, 1, 0)


def test_whole_balance_rooms_take_the_whole_wallet(room, make_player):
    # RULES.md 7 Classic: buy-in is the whole balance.
    table, alice = room("classic"), make_player()
    seat = table_sit(table_id=table.pk, user=alice, seat=2, buy_in=None)
    assert seat.stack == 10_000 and books(alice)[0] == 0


def test_second_player_starts_a_30_second_countdown_and_a_full_table_10(seated, make_player, clock):
    # RULES.md 2: 30 s, or 10 s when every seat is filled.
    table, _users = seated("nl50", seats=(0,))
    assert table.next_hand_at is None
    table_sit(table_id=table.pk, user=make_player(), seat=1, buy_in=3_000)
    table.refresh_from_db()
    assert timedelta(seconds=29) < table.next_hand_at - timezone.now() <= timedelta(seconds=30)


def test_a_full_table_counts_down_10_seconds(room, make_player, clock):
    table = room("nl50", seats=3)
    for number in range(3):
        table_sit(table_id=table.pk, user=make_player(), seat=number, buy_in=3_000)
    table.refresh_from_db()
    assert timedelta(seconds=9) < table.next_hand_at - timezone.now() <= timedelta(seconds=10)


def test_leaving_returns_the_chips_but_not_while_dealt_in(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2), buy_in=4_000)
    clock.advance(31)
    state = current(table)
    assert state is not None
    with pytest.raises(DomainError) as refused:  # RULES.md 2: dealt in, cannot get up
        table_leave(table_id=table.pk, user=users[0])
    assert refused.value.code == "in_hand"
    play_out(table, users, choose=lambda legal: "fold" if "fold" in legal.actions else "check")
    balance_before = books(users[0])[0]
    stack = Seat.objects.get(user=users[0]).stack
    assert table_leave(table_id=table.pk, user=users[0]) == stack
    assert books(users[0])[0] == balance_before + stack
    assert LedgerEntry.objects.filter(user=users[0]).first().kind == LedgerKind.CASH_OUT
    chips_everywhere()


def test_sitting_down_during_a_hand_waits_for_the_next_game(seated, make_player, clock):
    # RULES.md 2: seated mid-game -> waiting for next game, dealt in at the next one (next_hand rooms).
    table, users = seated("classic", seats=(0, 1))
    clock.advance(31)
    carol = make_player()
    table_sit(table_id=table.pk, user=carol, seat=4, buy_in=None)
    assert 4 not in current(table).seats
    # A waiting player may get up at any time.
    table_leave(table_id=table.pk, user=carol)
    table_sit(table_id=table.pk, user=carol, seat=4, buy_in=None)
    users[4] = carol
    play_out(table, users, choose=lambda legal: "call" if "call" in legal.actions else "check")
    clock.advance(31)
    assert 4 in current(table).seats
    chips_everywhere()


def test_a_new_player_in_a_wait_or_post_room_waits_for_the_big_blind_or_posts(
    seated, make_player, clock
):
    table, users = seated("nl50", seats=(0, 2, 4))
    clock.advance(31)
    dave = make_player()
    table_sit(table_id=table.pk, user=dave, seat=6, buy_in=3_000)
    assert Seat.objects.get(user=dave).waiting_for_big_blind
    users[6] = dave
    fold_all = lambda legal: "fold" if "fold" in legal.actions else "check"  # noqa: E731
    dealt_hands = 0
    for _ in range(4):
        play_out(table, users, choose=fold_all)
        clock.advance(31)
        state = current(table)
        if 6 in state.seats:
            assert state.big_blind_seat == 6  # dealt in when the big blind reaches the seat
            dealt_hands += 1
            break
    assert dealt_hands == 1
    chips_everywhere()


def test_posting_deals_a_waiting_player_in_at_the_next_hand_with_a_live_big_blind(
    seated, make_player, clock
):
    table, users = seated("nl50", seats=(0, 2, 4))
    clock.advance(31)
    dave = make_player()
    table_sit(table_id=table.pk, user=dave, seat=6, buy_in=3_000)
    table_post(table_id=table.pk, user=dave)
    users[6] = dave
    play_out(table, users, choose=lambda legal: "fold" if "fold" in legal.actions else "check")
    # The button moves from 4 to 0: seat 6 is past the blinds (a post into the small blind
    # would wait, RULES.md 2 [002]: tests/holdem/test_posting.py).
    Table.objects.filter(pk=table.pk).update(button_seat=4)
    clock.advance(31)
    state = current(table)
    assert 6 in state.seats and 6 not in (state.small_blind_seat, state.big_blind_seat)
    assert state.player(6).bet == 100  # RULES.md 2: a live big blind


def test_post_is_refused_when_not_waiting(seated):
    table, users = seated("classic", seats=(0, 1))
    with pytest.raises(DomainError) as refused:
        table_post(table_id=table.pk, user=users[0])
    assert refused.value.code == "no_posting"


def test_sitting_out_skips_the_player_and_missed_blinds_are_owed(seated, clock):
    # RULES.md 2: a sitting-out player is skipped; missed blinds are posted on return.
    table, users = seated("nl50", seats=(0, 2, 4, 6))
    table_sit_out(table_id=table.pk, user=users[6])
    fold_all = lambda legal: "fold" if "fold" in legal.actions else "check"  # noqa: E731
    for _ in range(4):
        clock.advance(31)
        assert 6 not in current(table).seats
        play_out(table, users, choose=fold_all)
    seat = Seat.objects.get(user=users[6])
    assert seat.missed_big_blind and seat.missed_small_blind
    table_sit_in(table_id=table.pk, user=users[6])
    table_post(table_id=table.pk, user=users[6])
    Table.objects.filter(pk=table.pk).update(button_seat=4)  # (so the post is past the blinds)
    clock.advance(31)
    state = current(table)
    player = state.player(6)
    assert 6 not in (state.small_blind_seat, state.big_blind_seat)
    # live big blind plus a dead small blind straight to the pot
    assert player.bet == 100 and player.committed == 150
    chips_everywhere()


def test_sit_out_and_sit_in_are_refused_when_they_make_no_sense(seated):
    table, users = seated("nl50", seats=(0, 1))
    with pytest.raises(DomainError, match="not sitting out"):
        table_sit_in(table_id=table.pk, user=users[0])
    table_sit_out(table_id=table.pk, user=users[0])
    with pytest.raises(DomainError, match="already sitting out"):
        table_sit_out(table_id=table.pk, user=users[0])


def test_presence_marks_disconnected_players(seated, sockets, clock):
    table, users = seated("nl50", seats=(0, 1))
    first = sockets.open(table, users[0])
    second = sockets.open(table, users[0])  # a second tab
    sockets.close(first, table, users[0])
    assert not Seat.objects.get(user=users[0]).disconnected  # one tab is still open
    sockets.close(second, table, users[0])
    assert not Seat.objects.get(user=users[0]).disconnected  # RULES.md 5: 20 s of grace
    clock.advance(19)
    assert not Seat.objects.get(user=users[0]).disconnected
    clock.advance(2)
    assert Seat.objects.get(user=users[0]).disconnected
    sockets.open(table, users[0])
    seat = Seat.objects.get(user=users[0])
    assert not seat.disconnected and seat.connection_lost_at is None


def test_a_reload_within_the_grace_period_changes_nothing(seated, sockets, clock):
    # RULES.md 5: "A disconnection counts after a grace period (default 20 s): a reload changes nothing."
    table, users = seated("fl20", seats=(0, 1, 2), buy_in=1_000)
    tabs = {number: sockets.open(table, user) for number, user in users.items()}
    clock.advance(31)
    sockets.close(tabs[1], table, users[1])
    clock.advance(15)
    sockets.open(table, users[1])  # the reloaded page
    clock.advance(30)
    seat = Seat.objects.get(user=users[1])
    assert not seat.disconnected and seat.connection_lost_at is None
    assert not ProtectionUse.objects.exists()
    assert not HandAction.objects.filter(source="disconnect").exists()
