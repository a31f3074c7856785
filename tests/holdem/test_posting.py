"""RULES.md 2 [002]: posting buys a seat into the next hand, but never onto the button or into
the small blind; such a post waits for the button to pass, through the services."""

import pytest

from holdem.models import Seat, Table
from holdem.services import table_post, table_sit, table_sit_in, table_sit_out
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db


def fold_or_check(legal):
    return "fold" if "fold" in legal.actions else "check"


def between_hands_with_the_button_on(table, users, clock, button):
    """Play the first hand out, then put the button on `button` for the next one's move."""
    clock.advance(31)
    play_out(table, users, choose=fold_or_check)
    Table.objects.filter(pk=table.pk).update(button_seat=button)


def test_a_newcomer_who_posts_into_the_small_blind_waits_for_the_button_to_pass(
    seated, make_player, clock
):
    # RULES.md 2 [002]: players at 0, 3 and 6; the button moves from 6 to 0 and a poster at 1
    # would be the small blind.
    table, users = seated("nl50", seats=(0, 3, 6))
    between_hands_with_the_button_on(table, users, clock, 6)
    newcomer = make_player()
    table_sit(table_id=table.pk, user=newcomer, seat=1, buy_in=3_000)
    table_post(table_id=table.pk, user=newcomer)
    users[1] = newcomer

    clock.advance(31)
    state = current(table)
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (0, 3, 6)
    assert 1 not in state.seats  # before: dealt in as the small blind
    seat = Seat.objects.get(user=newcomer)
    assert seat.waiting_for_big_blind and seat.wants_to_post and seat.stack == 3_000

    play_out(table, users, choose=fold_or_check)
    clock.advance(31)
    state = current(table)
    # The button has passed the seat: the post is taken, a live big blind from behind it.
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (3, 6, 0)
    assert 1 in state.seats and state.player(1).bet == 100
    chips_everywhere()


def test_the_button_skips_a_poster_who_would_have_taken_it(seated, make_player, clock):
    # RULES.md 2 [002]: from 0 the button would reach a poster at 1; it goes to 3 instead and
    # the poster is dealt in under the gun with a live big blind.
    table, users = seated("nl50", seats=(0, 3, 6))
    between_hands_with_the_button_on(table, users, clock, 0)
    newcomer = make_player()
    table_sit(table_id=table.pk, user=newcomer, seat=1, buy_in=3_000)
    table_post(table_id=table.pk, user=newcomer)
    users[1] = newcomer

    clock.advance(31)
    state = current(table)
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (3, 6, 0)
    assert state.player(1).bet == 100 and state.player(1).committed == 100
    chips_everywhere()


def test_a_returning_player_who_posts_into_the_small_blind_waits_and_still_owes_the_blinds(
    seated, clock
):
    # RULES.md 2 [002] and [003]: back from sitting out with both blinds missed, the player at 1
    # posts; the next hand would put them in the small blind, so they wait, owing the blinds.
    table, users = seated("nl50", seats=(0, 1, 3, 6))
    clock.advance(31)
    table_sit_out(table_id=table.pk, user=users[1])
    play_out(table, users, choose=fold_or_check)
    for _ in range(4):
        clock.advance(31)
        play_out(table, users, choose=fold_or_check)
    seat = Seat.objects.get(user=users[1])
    assert seat.missed_small_blind and seat.missed_big_blind
    Table.objects.filter(pk=table.pk).update(button_seat=6)
    table_sit_in(table_id=table.pk, user=users[1])
    table_post(table_id=table.pk, user=users[1])

    clock.advance(31)
    state = current(table)
    assert (state.button, state.small_blind_seat) == (0, 3)
    assert 1 not in state.seats  # before: dealt in as the small blind, the debt wiped
    seat = Seat.objects.get(user=users[1])
    assert seat.missed_small_blind and seat.missed_big_blind and seat.wants_to_post

    play_out(table, users, choose=fold_or_check)
    clock.advance(31)
    state = current(table)
    assert state.button == 3 and 1 in state.seats
    # A live big blind plus the dead small blind, straight to the pot.
    assert state.player(1).bet == 100 and state.player(1).committed == 150
    chips_everywhere()


def test_a_heads_up_game_deals_a_poster_in_where_the_big_blind_falls(seated, make_player, clock):
    # Players at 0 and 5; the button moves from 0 to 5, so with a poster at 3 dealt in the small
    # blind is 0 and the poster, in the big blind, posts just that.
    table, users = seated("nl50", seats=(0, 5))
    between_hands_with_the_button_on(table, users, clock, 0)
    newcomer = make_player()
    table_sit(table_id=table.pk, user=newcomer, seat=3, buy_in=3_000)
    table_post(table_id=table.pk, user=newcomer)

    clock.advance(31)
    state = current(table)
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (5, 0, 3)
    assert state.player(3).committed == 100
    chips_everywhere()
