"""holdem/positions.py mirrors where the engine puts the blinds; this keeps the two in step."""

import random

from holdem import engine
from holdem.engine.cards import new_deck
from holdem.positions import blind_seats, next_button


def test_blind_seats_agree_with_the_engine_for_random_tables_and_buttons():
    rng = random.Random(3)
    for _ in range(500):
        dealt = sorted(rng.sample(range(10), rng.randint(2, 10)))
        button = rng.choice(range(10)) if rng.random() < 0.3 else rng.choice(dealt)
        options = engine.HandOptions(structure="no_limit", small_blind=1, big_blind=2)
        state, _ = engine.start_hand(
            options, [engine.SeatIn(seat=s, stack=100) for s in dealt], button, new_deck()
        )
        assert blind_seats(dealt, button) == (state.small_blind_seat, state.big_blind_seat), (
            dealt,
            button,
        )


def test_the_button_moves_to_the_next_player_dealt_in():
    # RULES.md 3: the first button is drawn at random, then it moves one seat clockwise.
    rng = random.Random(1)
    assert next_button(None, [2, 5, 7], rng) in (2, 5, 7)
    assert next_button(5, [2, 5, 7], rng) == 7
    assert next_button(7, [2, 5, 7], rng) == 2
    assert next_button(3, [2, 5, 7], rng) == 5  # the old button's player left
