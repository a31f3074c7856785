"""Where the button and blinds fall (RULES.md 3): the engine's one placement, used by start_hand
and, before a hand, by the tables (who waits for the big blind, who misses a blind)."""

import random

import pytest

from holdem import engine
from holdem.engine.cards import new_deck
from holdem.engine.positions import blind_seats, next_button


def spelled_out_blind_seats(dealt, button):
    """RULES.md 3 read literally (the tables' own copy of the rule until the engine exported it):
    the small blind is the first dealt seat clockwise after the button, heads-up the button
    itself when it is dealt in; the big blind is the next dealt seat clockwise."""

    def clockwise_after(seat):
        return min((s for s in dealt if s > seat), default=min(dealt))

    small = button if len(dealt) == 2 and button in dealt else clockwise_after(button)
    return small, clockwise_after(small)


def test_blind_seats_follow_the_rule_and_agree_with_the_hands_the_engine_deals():
    rng = random.Random(3)
    options = engine.HandOptions(structure="no_limit", small_blind=1, big_blind=2)
    for _ in range(500):
        dealt = rng.sample(range(10), rng.randint(2, 10))  # in any order
        button = rng.choice(range(10)) if rng.random() < 0.3 else rng.choice(dealt)
        state, _ = engine.start_hand(
            options, [engine.SeatIn(seat=s, stack=100) for s in dealt], button, new_deck()
        )
        expected = spelled_out_blind_seats(dealt, button)
        assert blind_seats(dealt, button) == expected, (dealt, button)
        assert (state.small_blind_seat, state.big_blind_seat) == expected, (dealt, button)


def test_heads_up_the_button_posts_the_small_blind_unless_it_is_dead():
    assert blind_seats([3, 7], 3) == (3, 7)
    assert blind_seats([3, 7], 7) == (7, 3)
    assert blind_seats([3, 7], 5) == (7, 3)  # dead button: the next dealt seat plays it
    assert blind_seats([3, 7], 9) == (3, 7)  # (wrapping around)


def test_blinds_need_two_players():
    with pytest.raises(ValueError, match="at least two"):
        blind_seats([4], 4)


def test_the_button_moves_to_the_next_player_dealt_in():
    # RULES.md 3: the first button is drawn at random, then it moves one seat clockwise.
    rng = random.Random(1)
    assert next_button(None, [2, 5, 7], rng) in (2, 5, 7)
    assert next_button(5, [2, 5, 7], rng) == 7
    assert next_button(7, [2, 5, 7], rng) == 2
    assert next_button(3, [2, 5, 7], rng) == 5  # the old button's player left
    assert next_button(5, [7, 2, 5], rng) == 7  # seats in any order


def test_the_first_button_is_drawn_evenly_from_the_seats_dealt_in():
    rng = random.Random(2)
    draws = [next_button(None, [8, 1, 4], rng) for _ in range(3000)]
    assert {seat: draws.count(seat) for seat in (1, 4, 8)} == pytest.approx(
        {1: 1000, 4: 1000, 8: 1000}, abs=120
    )


def test_the_engine_exports_the_placement():
    assert engine.blind_seats is blind_seats and engine.next_button is next_button
