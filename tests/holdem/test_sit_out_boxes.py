"""RULES.md 2, the sit-out boxes: "sit out next hand" lets the player finish the hand they are in
and deals them no further hand; "sit out at the next big blind" plays on until the hand in which
they would post the big blind and sits them out before it is dealt. Both are cleared when the
player sits back in; neither exists at a tournament's table (RULES.md 8)."""

import pytest

from casino.accounts.selectors import wallet_balance
from casino.errors import DomainError
from holdem.models import Seat, SitGoTemplate, Table
from holdem.selectors.player_view import viewer_part
from holdem.services import (
    table_sit_in,
    table_sit_out_next_big_blind,
    table_sit_out_next_hand,
)
from holdem.services.tournaments import sit_and_go_open, tournament_register
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db


def fold_or_check(legal):
    return "fold" if "fold" in legal.actions else "check"


def first_button_after(table, seat):
    """The first hand's button goes to the first player after `seat` (RULES.md 3: it moves
    clockwise from the last one), instead of being drawn."""
    Table.objects.filter(pk=table.pk).update(button_seat=seat)


def seat_of(user):
    return Seat.objects.get(user=user)


def test_sit_out_next_hand_finishes_the_hand_then_deals_the_player_no_more(seated, clock):
    # RULES.md 2: ticked mid-hand, the player plays that hand to its end, then sits out.
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    assert 1 in current(table).seats
    table_sit_out_next_hand(table_id=table.pk, user=users[1], value=True)
    seat = seat_of(users[1])
    assert seat.in_hand and not seat.sitting_out and seat.sit_out_next_hand
    table.refresh_from_db()
    assert viewer_part(table, users[1])["sit_out_next_hand"] is True
    assert viewer_part(table, users[0])["sit_out_next_hand"] is False  # their own box only

    play_out(table, users, choose=fold_or_check)
    seat = seat_of(users[1])
    assert seat.sitting_out and seat.sit_out_next_hand  # out once the hand is over, still ticked
    for _ in range(3):
        clock.advance(31)
        assert 1 not in current(table).seats
        play_out(table, users, choose=fold_or_check)
    chips_everywhere()


def test_sit_out_next_hand_ticked_between_hands_sits_out_at_once(seated):
    # RULES.md 2: not dealt in, the next hand is the coming one.
    table, users = seated("nl50", seats=(0, 1, 2))
    table_sit_out_next_hand(table_id=table.pk, user=users[2], value=True)
    seat = seat_of(users[2])
    assert seat.sitting_out and seat.sit_out_next_hand
    table.refresh_from_db()
    assert next(s for s in table.seat_set.all() if s.number == 2).sitting_out


def test_unticking_before_the_hand_ends_keeps_the_player_in(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    table_sit_out_next_hand(table_id=table.pk, user=users[0], value=True)
    table_sit_out_next_hand(table_id=table.pk, user=users[0], value=False)
    play_out(table, users, choose=fold_or_check)
    seat = seat_of(users[0])
    assert not seat.sitting_out and not seat.sit_out_next_hand
    clock.advance(31)
    assert 0 in current(table).seats


def test_sitting_in_clears_both_boxes_and_unticking_while_out_is_sitting_in(seated):
    # RULES.md 2: coming back, by the button or by unticking a box, clears both boxes.
    table, users = seated("nl50", seats=(0, 1, 2))
    table_sit_out_next_big_blind(table_id=table.pk, user=users[1], value=True)
    table_sit_out_next_hand(table_id=table.pk, user=users[1], value=True)
    table_sit_in(table_id=table.pk, user=users[1])
    seat = seat_of(users[1])
    assert not seat.sitting_out
    assert not seat.sit_out_next_hand and not seat.sit_out_next_big_blind

    table_sit_out_next_hand(table_id=table.pk, user=users[1], value=True)
    table_sit_out_next_big_blind(table_id=table.pk, user=users[1], value=True)
    assert seat_of(users[1]).sitting_out
    table_sit_out_next_big_blind(table_id=table.pk, user=users[1], value=False)
    seat = seat_of(users[1])
    assert not seat.sitting_out
    assert not seat.sit_out_next_hand and not seat.sit_out_next_big_blind


def test_sit_out_at_the_big_blind_plays_on_as_the_button_moves_then_skips_the_big_blind(
    seated, clock
):
    # RULES.md 2: players at 0, 2, 4, 6; the first button on 0 (blinds 2 and 4). The player at
    # 6 plays that hand; the button moves to 2, which would make 6 the big blind: they are sat
    # out before the deal and the hand is dealt as if the seat were empty (big blind on 0).
    table, users = seated("nl50", seats=(0, 2, 4, 6))
    first_button_after(table, 6)
    table_sit_out_next_big_blind(table_id=table.pk, user=users[6], value=True)
    stack = seat_of(users[6]).stack
    clock.advance(31)
    state = current(table)
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (0, 2, 4)
    assert 6 in state.seats
    play_out(table, users, choose=fold_or_check)
    assert not seat_of(users[6]).sitting_out
    stack = seat_of(users[6]).stack

    clock.advance(31)
    state = current(table)
    assert 6 not in state.seats
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (2, 4, 0)
    seat = seat_of(users[6])
    assert seat.sitting_out and seat.sit_out_next_big_blind and seat.stack == stack
    # RULES.md 2 [003]: the big blind passed the seat while it sat out; it is owed on return.
    assert seat.missed_big_blind
    play_out(table, users, choose=fold_or_check)

    table_sit_in(table_id=table.pk, user=users[6])
    seat = seat_of(users[6])
    assert not seat.sit_out_next_big_blind and seat.waiting_for_big_blind
    chips_everywhere()


def test_sit_out_at_the_big_blind_heads_up_deals_no_hand(seated, clock):
    # RULES.md 2: heads-up the button posts the small blind; the player at 1 would be the big
    # blind of the first hand, sits out before it, and one player is left: nothing is dealt.
    table, users = seated("nl50", seats=(0, 1))
    first_button_after(table, 1)
    table_sit_out_next_big_blind(table_id=table.pk, user=users[1], value=True)
    balances = {n: wallet_balance(user=u) for n, u in users.items()}
    clock.advance(31)
    assert current(table) is None
    assert seat_of(users[1]).sitting_out
    assert {n: seat_of(u).stack for n, u in users.items()} == {0: 5_000, 1: 5_000}
    assert {n: wallet_balance(user=u) for n, u in users.items()} == balances
    chips_everywhere()


def test_sit_out_at_the_big_blind_heads_up_plays_the_button_then_sits_out(seated, clock):
    # RULES.md 2: the player on the button (the small blind) plays; the button moves to the
    # other seat and makes them the big blind, so they sit out and no hand is dealt.
    table, users = seated("nl50", seats=(0, 1))
    first_button_after(table, 1)  # the button on 0
    table_sit_out_next_big_blind(table_id=table.pk, user=users[0], value=True)
    clock.advance(31)
    state = current(table)
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (0, 0, 1)
    play_out(table, users, choose=fold_or_check)
    clock.advance(31)
    assert current(table) is None
    assert seat_of(users[0]).sitting_out
    chips_everywhere()


def test_a_box_needs_a_seat_here(seated, make_player):
    table, _ = seated("nl50", seats=(0, 1))
    outsider = make_player()
    for box in (table_sit_out_next_hand, table_sit_out_next_big_blind):
        with pytest.raises(DomainError) as refused:
            box(table_id=table.pk, user=outsider, value=True)
        assert refused.value.code == "not_seated"
    assert not Seat.objects.filter(user=outsider).exists()


def test_no_sit_out_boxes_at_a_tournaments_table(make_player):
    # RULES.md 8: at a tournament's table everyone is dealt in, away or not.
    template = SitGoTemplate.objects.create(
        name="Boxes", seats=2, buy_in=1_000, fee=100, starting_stack=500, level_seconds=180
    )
    tournament = sit_and_go_open(template)
    players = [make_player() for _ in range(2)]
    for player in players:
        tournament_register(tournament_id=tournament.pk, user=player)
    tournament.refresh_from_db()
    for box in (table_sit_out_next_hand, table_sit_out_next_big_blind):
        with pytest.raises(DomainError) as refused:
            box(table_id=tournament.table.pk, user=players[0], value=True)
        assert refused.value.code == "tournament_table"
        assert "tournament" in refused.value.message
        seat = seat_of(players[0])
        assert not seat.sit_out_next_hand and not seat.sit_out_next_big_blind
        assert not seat.sitting_out
    chips_everywhere()
