"""Where the button and blinds fall (RULES.md 3): the engine's one placement, used by start_hand
and, before a hand, by the tables (who waits for the big blind, who misses a blind)."""

import random

import pytest

from holdem import engine
from holdem.engine.cards import new_deck
from holdem.engine.positions import blind_seats, next_button, posts_allowed


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


# --- RULES.md 2 [002]: posting is not a way onto the button or into the small blind -----------


def test_a_post_that_would_land_in_the_small_blind_waits():
    # Button 0 among the players 0, 3, 6: a poster at seat 1 would be the small blind.
    assert posts_allowed([0, 3, 6], [1], 0) == []
    assert posts_allowed([0, 3, 6], [4], 0) == [4]  # between the small and the big blind
    assert posts_allowed([0, 3, 6], [8], 0) == [8]  # behind the button: the button passed them


def test_every_post_between_the_button_and_the_small_blind_waits():
    # Two posters side by side left of the button: each would be the small blind once the
    # other waits, so both wait; the one past the small blind posts.
    assert posts_allowed([0, 5, 8], [1, 2, 6], 0) == [6]
    assert posts_allowed([2, 5], [8, 0, 3], 5) == [3]  # (clockwise wraps around)


def test_a_post_on_the_button_itself_waits():
    # (The tables place the button among the players who are not posting; the rule holds even
    # for a button given on a poster's seat.)
    assert posts_allowed([0, 6], [3], 3) == []


def test_heads_up_a_poster_between_the_two_players_posts_the_big_blind_from_its_seat():
    # Button 5 of the players 0 and 5: with the poster at 3 dealt in, 0 is the small blind
    # and the poster is the big blind, a position posting may take.
    assert posts_allowed([0, 5], [3], 5) == [3]
    assert blind_seats([0, 3, 5], 5) == (0, 3)
    assert posts_allowed([0, 5], [3], 0) == []  # from button 0 the poster would be the small blind


def test_posts_allowed_never_seats_a_poster_on_the_button_or_in_the_small_blind_and_holds_back_no_one_else():
    rng = random.Random(11)
    for _ in range(2000):
        seats = rng.sample(range(10), rng.randint(3, 10))
        split = rng.randint(2, len(seats) - 1)
        players, posting = seats[:split], seats[split:]
        button = next_button(rng.choice([None, *range(10)]), players, rng)
        allowed = posts_allowed(players, posting, button)
        small, _ = blind_seats([*players, *allowed], button)
        assert small not in posting and button not in posting, (players, posting, button)
        for seat in set(posting) - set(allowed):
            # Held back only because dealt in it would sit in the small blind.
            assert blind_seats([*players, *allowed, seat], button)[0] == seat


def test_a_post_held_back_is_dealt_in_at_the_next_hand_once_the_button_has_passed():
    rng = random.Random(5)
    for _ in range(2000):
        seats = rng.sample(range(10), rng.randint(3, 10))
        split = rng.randint(2, len(seats) - 1)
        players, posting = seats[:split], seats[split:]
        button = next_button(rng.choice([None, *range(10)]), players, rng)
        held_back = set(posting) - set(posts_allowed(players, posting, button))
        following = next_button(button, players, rng)
        assert held_back <= set(posts_allowed(players, posting, following))


def test_posts_allowed_refuses_a_seat_both_playing_and_posting_or_fewer_than_two_players():
    with pytest.raises(ValueError, match="both"):
        posts_allowed([0, 3], [3], 0)
    with pytest.raises(ValueError, match="at least two"):
        posts_allowed([0], [3], 0)
