"""Sit & Go hands and arithmetic (RULES.md 8): antes, the dead button, the blind levels, the
payouts and prizes, and the places of the players who go out in one hand."""

import json
import random

import pytest

from holdem.engine import (
    HandOptions,
    SeatIn,
    apply_action,
    legal_actions,
    start_hand,
    state_from_json,
    state_to_json,
    view,
)
from holdem.engine.cards import new_deck, shuffle
from holdem.engine.options import HAND_OPTION_NAMES
from holdem.engine.positions import tournament_blinds
from holdem.engine.tournament import (
    DEFAULT_LEVELS,
    level_blinds,
    payout_percents,
    places_for_busts,
    prizes,
)

ANTE = HandOptions(small_blind=100, big_blind=200, ante=25)


def seats(stacks: dict[int, int]) -> list[SeatIn]:
    return [SeatIn(seat=seat, stack=stack) for seat, stack in stacks.items()]


def play_out(state, choose=lambda legal: "check" if "check" in legal.actions else "call"):
    """Act for every player until the hand is over; the events of every step."""
    events = []
    while (legal := legal_actions(state)) is not None:
        state, happened = apply_action(state, legal.seat, choose(legal))
        events += happened
    return state, events


# --- options -------------------------------------------------------------------------------


def test_the_ante_is_an_option_of_whole_chips_that_round_trips():
    """RULES.md 8: a level's ante is whole chips, 0 or more; it survives the engine's JSON."""
    assert HandOptions().ante == 0
    assert HandOptions.from_rules({"big_blind": 200, "ante": 25}).ante == 25
    for bad in (-1, 2.5, True, "25", None):
        with pytest.raises(ValueError, match="ante"):
            HandOptions(ante=bad)
        with pytest.raises(ValueError, match="ante"):
            HandOptions.from_rules({"big_blind": 200, "ante": bad})
    # Not a cash room's table option: the declarations of holdem/table_options.py stay as they are.
    assert "ante" not in HAND_OPTION_NAMES
    state, _ = start_hand(ANTE, seats({0: 500, 1: 500, 2: 500}), 0, new_deck())
    assert state_from_json(state_to_json(state)) == state
    assert json.loads(state_to_json(state))["options"]["ante"] == 25
    assert view(state)["ante"] == 25


# --- antes ---------------------------------------------------------------------------------


def test_antes_are_posted_by_everyone_before_the_blinds_as_dead_money():
    """RULES.md 8: every player dealt in posts the ante before the blinds; it goes to the pot and
    does not count toward the bet to match."""
    state, events = start_hand(ANTE, seats({0: 1000, 1: 1000, 2: 1000}), 0, new_deck())
    posts = [(e.seat, e.blind, e.amount) for e in events if e.kind == "blind_posted"]
    # Dealing order, left of the button, then the small and the big blind.
    assert posts == [
        (1, "ante", 25),
        (2, "ante", 25),
        (0, "ante", 25),
        (1, "small", 100),
        (2, "big", 200),
    ]
    assert events[0].ante == 25
    assert state.pot_total == 375 and state.bets == {0: 0, 1: 100, 2: 200}
    legal = legal_actions(state)
    assert legal.seat == 0 and legal.to_call == 200 and legal.current_bet == 200
    # The big blind, called by everyone, has the option and checks: nobody owes the ante again.
    state, _ = apply_action(state, 0, "call")
    state, _ = apply_action(state, 1, "call")
    assert legal_actions(state).seat == 2 and "check" in legal_actions(state).actions
    state, _ = apply_action(state, 2, "check")
    assert state.street == "flop" and state.pot_total == 675


def test_a_player_who_cannot_cover_the_ante_is_all_in_and_wins_only_what_they_matched():
    """RULES.md 8: a short stack puts in all it has for the ante and is all in; it is eligible
    for as much as it put in from each player (a side pot holds the rest)."""
    hand = ANTE
    deck = [
        "As", "Kd", "Qd", "Ah", "Kc", "Qc",  # seat 1, 2, 0 from the left of the button 0
        "2c", "2s", "7d", "9c", "3c", "Jh", "4c", "3h",
    ]  # fmt: skip
    state, events = start_hand(hand, seats({0: 900, 1: 10, 2: 900}), 0, deck + _rest(deck))
    ante_all_in = [e for e in events if e.kind == "blind_posted" and e.seat == 1]
    # All in from the ante: no small blind after it; the big blind to call stays 200.
    assert [(e.blind, e.amount, e.all_in) for e in ante_all_in] == [("ante", 10, True)]
    assert state.player(1).all_in and state.current_bet == 200
    assert legal_actions(state).seat == 0 and legal_actions(state).to_call == 200
    state, _ = play_out(state)
    pots = state.result.pots
    assert [(p.amount, p.eligible, p.winners) for p in pots] == [
        (30, (0, 1, 2), (1,)),
        (30 + 400, (0, 2), (2,)),
    ]
    assert state.result.final_stacks == {0: 675, 1: 30, 2: 1105}
    assert sum(state.result.final_stacks.values()) == 1810


def test_side_pots_from_antes_alone_when_every_stack_is_short():
    """RULES.md 8: players all in from their antes split into pots by what each put in."""
    options = HandOptions(small_blind=100, big_blind=200, ante=50)
    state, events = start_hand(options, seats({0: 20, 1: 35, 2: 50}), 0, new_deck())
    assert state.is_over  # nobody can bet: the board is run out at once
    assert [(p.amount, p.eligible) for p in state.result.pots] == [
        (60, (0, 1, 2)),
        (30, (1, 2)),
        (15, (2,)),
    ]
    assert sum(state.result.final_stacks.values()) == 105
    assert [e.blind for e in events if e.kind == "blind_posted"] == ["ante"] * 3


def test_a_big_blind_all_in_after_the_ante_still_needs_the_full_big_blind_called():
    """RULES.md 8 and 3: the ante comes first; the big blind posts what is left and is all in,
    and the others still call the full big blind."""
    state, events = start_hand(ANTE, seats({0: 1000, 1: 1000, 2: 125}), 0, new_deck())
    big = [e for e in events if e.kind == "blind_posted" and e.seat == 2]
    assert [(e.blind, e.amount, e.all_in) for e in big] == [("ante", 25, False), ("big", 100, True)]
    assert legal_actions(state).to_call == 200


def test_cash_hands_post_no_ante():
    """RULES.md 8: antes are a tournament's; a cash room's hand (ante 0) posts none."""
    _, events = start_hand(HandOptions(), seats({0: 100, 1: 100, 2: 100}), 0, new_deck())
    assert [e.blind for e in events if e.kind == "blind_posted"] == ["small", "big"]
    assert events[0].ante == 0


# --- the dead button -----------------------------------------------------------------------


def test_a_dead_small_blind_is_posted_by_nobody():
    """RULES.md 8: when last hand's big blind went out, the small blind is dead: nobody posts it;
    the first to act is left of the big blind, and after the flop the first left of the button."""
    options = HandOptions(small_blind=10, big_blind=20)
    state, events = start_hand(
        options, seats({0: 500, 1: 500, 3: 500}), 1, new_deck(), blinds=(None, 3)
    )
    assert [(e.seat, e.blind) for e in events if e.kind == "blind_posted"] == [(3, "big")]
    assert events[0].small_blind_seat is None and state.small_blind_seat is None
    assert state.big_blind_seat == 3 and state.pot_total == 20
    # Dealing starts left of the button: seat 3 gets the first card.
    hole_order = [e.seat for e in events if e.kind == "hole_cards"]
    assert hole_order == [3, 0, 1]
    assert legal_actions(state).seat == 0
    state, _ = apply_action(state, 0, "call")
    state, _ = apply_action(state, 1, "call")
    state, _ = apply_action(state, 3, "check")
    assert state.street == "flop" and legal_actions(state).seat == 3
    assert view(state)["small_blind_seat"] is None
    assert state_from_json(state_to_json(state)) == state


def test_the_button_may_be_a_seat_nobody_is_dealt_in():
    """RULES.md 8: after the small blind busts the button stays on its empty seat; the blinds are
    placed as given, and after the flop the first to act is the first player left of it."""
    options = HandOptions(small_blind=10, big_blind=20)
    state, _ = start_hand(
        options, seats({0: 500, 2: 500, 3: 500, 5: 500}), 1, new_deck(), blinds=(2, 3)
    )
    assert (state.button, state.small_blind_seat, state.big_blind_seat) == (1, 2, 3)
    assert legal_actions(state).seat == 5
    state, _ = play_out(state, lambda legal: "check" if "check" in legal.actions else "call")
    assert state.is_over


def test_the_first_to_act_after_the_flop_with_a_dead_button_is_left_of_the_button():
    """RULES.md 8: with the button on an empty seat after two busts, the small blind acts first
    after the flop, the big blind's left first before it."""
    options = HandOptions(small_blind=10, big_blind=20)
    state, _ = start_hand(options, seats({0: 500, 4: 500, 5: 500}), 3, new_deck(), blinds=(4, 5))
    assert legal_actions(state).seat == 0
    for seat in (0, 4):
        state, _ = apply_action(state, seat, "call")
    state, _ = apply_action(state, 5, "check")
    assert state.street == "flop" and legal_actions(state).seat == 4


def test_heads_up_with_blinds_given_the_button_posts_the_small_blind_and_acts_first():
    """RULES.md 8: with two players left the button posts the small blind, acts first before the
    flop and last on every later street."""
    options = HandOptions(small_blind=10, big_blind=20)
    state, events = start_hand(options, seats({2: 500, 6: 500}), 6, new_deck(), blinds=(6, 2))
    assert [(e.seat, e.blind) for e in events if e.kind == "blind_posted"] == [
        (6, "small"),
        (2, "big"),
    ]
    assert legal_actions(state).seat == 6
    state, _ = apply_action(state, 6, "call")
    state, _ = apply_action(state, 2, "check")
    assert state.street == "flop" and legal_actions(state).seat == 2
    state, _ = apply_action(state, 2, "check")
    assert legal_actions(state).seat == 6


@pytest.mark.parametrize(
    ("blinds", "message"),
    [
        ((None, 4), "big blind seat 4 is not dealt in"),
        ((4, 2), "small blind seat 4 is not dealt in"),
        ((2, 2), "cannot be the same seat"),
        ((2,), "need"),
        ("2,3", "need"),
        ((None, None), "big blind"),
    ],
)
def test_blinds_that_cannot_be_are_refused(blinds, message):
    """RULES.md 8: the given big blind is dealt in, the small blind dealt in or dead, not one."""
    with pytest.raises(ValueError, match=message):
        start_hand(HandOptions(), seats({0: 50, 2: 50, 3: 50}), 0, new_deck(), blinds=blinds)


def test_random_tournament_hands_conserve_chips_with_antes_and_dead_blinds():
    """RULES.md 8: whatever the antes, blinds and stacks, no chip appears or vanishes."""
    rng = random.Random(8)
    for _ in range(300):
        alive = sorted(rng.sample(range(9), rng.randint(2, 7)))
        stacks = {seat: rng.choice([1, 5, 20, 60, 200, 1500]) for seat in alive}
        button, small, big = tournament_blinds(
            (rng.randrange(9), rng.choice([None, *alive]), rng.choice(alive)), alive, rng
        )
        if small == big:
            continue
        options = HandOptions(small_blind=10, big_blind=20, ante=rng.choice([0, 5, 25]))
        state, _ = start_hand(
            options, seats(stacks), button, shuffle(new_deck(), rng), blinds=(small, big)
        )
        assert state.total_chips == sum(stacks.values())

        def choose(legal):
            return rng.choice([a for a in legal.actions if a not in ("bet", "raise")])

        state, _ = play_out(state, choose)
        assert sum(state.result.final_stacks.values()) == sum(stacks.values())


# --- tournament_blinds ---------------------------------------------------------------------


def test_the_first_tournament_hand_draws_the_button_and_places_the_blinds_after_it():
    """RULES.md 8: the first button is drawn at random; the blinds follow it (heads-up the
    button is the small blind)."""
    assert tournament_blinds(None, [0, 2, 5], random.Random(1)) in {
        (0, 2, 5),
        (2, 5, 0),
        (5, 0, 2),
    }
    button, small, big = tournament_blinds(None, [3, 7], random.Random(2))
    assert button == small and {small, big} == {3, 7}


def test_the_big_blind_moves_one_player_each_hand_with_no_bust():
    """RULES.md 8: the big blind moves to the next player, the small blind is last hand's big
    blind, the button last hand's small blind."""
    rng = random.Random(0)
    hand = (0, 1, 2)
    sequence = []
    for _ in range(4):
        hand = tournament_blinds(hand, [0, 1, 2, 3], rng)
        sequence.append(hand)
    assert sequence == [(1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2)]


def test_when_the_big_blind_busts_the_small_blind_is_dead_then_the_button_is_on_the_empty_seat():
    """RULES.md 8: last hand's big blind went out: nobody posts the small blind; the next hand
    the button lies on that player's empty seat. Nobody pays the big blind twice or escapes it."""
    rng = random.Random(0)
    first = tournament_blinds((0, 1, 2), [0, 1, 3, 4], rng)  # seat 2 (the big blind) is out
    assert first == (1, None, 3)
    second = tournament_blinds(first, [0, 1, 3, 4], rng)
    assert second == (2, 3, 4)  # the button on seat 2, where nobody sits
    assert tournament_blinds(second, [0, 1, 3, 4], rng) == (3, 4, 0)


def test_when_the_small_blind_busts_the_button_goes_onto_its_empty_seat():
    """RULES.md 8: last hand's small blind went out: the button is on their empty seat."""
    rng = random.Random(0)
    hand = tournament_blinds((0, 1, 2), [0, 2, 3, 4], rng)  # seat 1 (the small blind) is out
    assert hand == (1, 2, 3)
    assert tournament_blinds(hand, [0, 2, 3, 4], rng) == (2, 3, 4)


def test_after_two_busts_in_one_hand_the_button_and_small_blind_are_both_dead_seats():
    """RULES.md 8: the small and the big blind both out: the button goes onto the small blind's
    empty seat and the small blind is dead; the next hand the button is on the big blind's."""
    rng = random.Random(0)
    hand = tournament_blinds((0, 1, 2), [0, 3, 4], rng)
    assert hand == (1, None, 3)
    hand = tournament_blinds(hand, [0, 3, 4], rng)
    assert hand == (2, 3, 4)
    assert tournament_blinds(hand, [0, 3, 4], rng) == (3, 4, 0)


def test_a_dead_small_blind_on_seat_zero_puts_the_button_on_the_last_seat():
    """RULES.md 8: wrapping around, the dead small blind's seat is the table's last one."""
    rng = random.Random(0)
    hand = tournament_blinds((4, 5, 0), [1, 2, 3, 4], rng)  # seats 5 and 0 are out
    assert hand == (5, None, 1)
    assert tournament_blinds(hand, [1, 2, 3, 4], rng) == (0, 1, 2)
    assert tournament_blinds((4, None, 0), [0, 1, 2, 3], rng) == (4, 0, 1)  # nothing between


def test_down_to_two_players_the_button_posts_the_small_blind():
    """RULES.md 8: with two players left the big blind moves on and the other is button and
    small blind; heads-up hands then alternate."""
    rng = random.Random(0)
    hand = tournament_blinds((0, 1, 2), [0, 2], rng)
    assert hand == (2, 2, 0)
    hand = tournament_blinds(hand, [0, 2], rng)
    assert hand == (0, 0, 2)
    assert tournament_blinds(hand, [0, 2], rng) == (2, 2, 0)


def test_every_player_pays_the_big_blind_once_per_orbit_whatever_the_busts():
    """RULES.md 8: nobody pays the big blind twice running and nobody escapes it."""
    rng = random.Random(5)

    def strictly_between(seat, start, end):
        return 0 < (seat - start) % 10 < (end - start) % 10

    for _ in range(200):
        alive = list(range(rng.randint(3, 9)))
        hand = tournament_blinds(None, alive, rng)
        while len(alive) > 2:
            if rng.random() < 0.3:
                alive.remove(rng.choice(alive))
            previous_big = hand[2]
            hand = tournament_blinds(hand, alive, rng)
            button, small, big = hand
            assert big != previous_big and big in alive
            # The big blind skipped nobody still in.
            assert not [s for s in alive if strictly_between(s, previous_big, big)]
            if len(alive) > 2:
                assert small == (previous_big if previous_big in alive else None)
            else:
                assert button == small and small in alive


# --- levels, payouts, prizes, places -------------------------------------------------------


def test_the_default_levels_are_the_rules_and_double_after_the_last():
    """RULES.md 8: 10/20 ... 1,500/3,000 a400, then each level twice the one before."""
    assert len(DEFAULT_LEVELS) == 15
    assert level_blinds([], 0) == (10, 20, 0)
    assert level_blinds([], 6) == (100, 200, 25)
    assert level_blinds([], 14) == (1500, 3000, 400)
    assert level_blinds([], 15) == (3000, 6000, 800)
    assert level_blinds([], 17) == (12000, 24000, 3200)
    schedule = [[5, 10, 0], [10, 20, 5]]
    assert level_blinds(schedule, 1) == (10, 20, 5)
    assert level_blinds(schedule, 2) == (20, 40, 10)
    with pytest.raises(ValueError, match="level"):
        level_blinds([], -1)
    with pytest.raises(ValueError, match="blind_schedule"):
        level_blinds([[20, 10, 0]], 0)


def test_payout_percents_follow_the_number_of_entrants():
    """RULES.md 8: 100 for 2-3 entrants; 65/35 for 4-6; 50/30/20 for 7-10."""
    assert [payout_percents(n) for n in (2, 3)] == [(100,), (100,)]
    assert [payout_percents(n) for n in (4, 6)] == [(65, 35), (65, 35)]
    assert [payout_percents(n) for n in (7, 10)] == [(50, 30, 20), (50, 30, 20)]
    custom = [[9, [60, 40]], [2, [100]]]
    assert payout_percents(2, custom) == (100,) and payout_percents(5, custom) == (60, 40)
    assert payout_percents(4, []) == (65, 35)
    with pytest.raises(ValueError, match="no row"):
        payout_percents(10, custom)
    with pytest.raises(ValueError, match="add to 100"):
        payout_percents(3, [[3, [50, 40]]])


def test_prizes_are_whole_chips_and_the_remainder_goes_to_first_place():
    """RULES.md 8: prizes are whole chips; what is left over goes to first place."""
    assert prizes(6000, (65, 35)) == [3900, 2100]
    assert prizes(1001, (65, 35)) == [651, 350]
    assert prizes(997, (50, 30, 20)) == [499, 299, 199]
    assert prizes(1, (50, 30, 20)) == [1, 0, 0]
    for pool in range(0, 400, 7):
        assert sum(prizes(pool, (50, 30, 20))) == pool


def test_places_count_down_and_more_starting_chips_finish_higher():
    """RULES.md 8: players out in one hand take the highest places not yet given, counting
    down; the one who began the hand with more chips finishes higher."""
    paid = [3000, 1800, 1200, 0, 0, 0, 0, 0, 0]
    assert places_for_busts([(4, 900)], 9, paid, [5, 6, 7, 8, 0, 1, 2, 3, 4]) == [(4, 9, 0)]
    answer = places_for_busts([(1, 200), (2, 900)], 4, paid, [0, 1, 2, 3])
    assert answer == [(2, 3, 1200), (1, 4, 0)]


def test_players_out_with_equal_chips_share_their_places_prizes_odd_chip_left_of_button():
    """RULES.md 8: equal starting chips share the prizes of the places they take equally, an odd
    chip going to the first of them left of the button; each is given the best of those places."""
    paid = [501, 300, 200]
    # Seats 1 and 5 began with 300 each and take places 2 and 3: 500 shared, 250 each.
    answer = places_for_busts([(5, 300), (1, 300)], 3, paid, [2, 5, 0, 1])
    assert answer == [(5, 2, 250), (1, 2, 250)]
    # Three tie for places 1-3 (1,001 chips): 334 to the two first left of the button, 333.
    answer = places_for_busts([(0, 50), (1, 50), (2, 50)], 3, [501, 300, 200], [2, 0, 1])
    assert answer == [(2, 1, 334), (0, 1, 334), (1, 1, 333)]
    assert sum(prize for _, _, prize in answer) == 1001
    # A callable prize of place, and a tie below a higher finisher.
    answer = places_for_busts(
        [(3, 10), (4, 10), (6, 80)], 5, lambda place: {1: 65, 2: 35}.get(place, 0), [4, 6, 3]
    )
    assert answer == [(6, 3, 0), (4, 4, 0), (3, 4, 0)]


def test_places_refuse_more_players_out_than_places_left():
    """RULES.md 8: one place per player out."""
    with pytest.raises(ValueError, match="places"):
        places_for_busts([(0, 10), (1, 10)], 1, [100], [0, 1])
    assert places_for_busts([], 3, [100], [0]) == []


def _rest(cards):
    return [card for card in new_deck() if card not in cards]
