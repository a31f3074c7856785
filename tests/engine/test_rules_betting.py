"""RULES.md section 3 (the deal and the betting), bullet by bullet, against docs/engine-api.md.

Each test cites the bullet it checks; amounts are worked out by hand in the comments.
"""

import random
import secrets

import pytest

from tests.engine.conftest import (
    ALL_CARDS,
    FL_STACKS,
    FOUR_DEEP,
    SIX_DEEP,
    act,
    assert_chips_conserved,
    cards_in,
    check_down,
    deal,
    engine,
    fixed_limit,
    hole_of,
    limped_flop,
    nl,
    play,
    refused,
    rigged_deck,
    seat_view,
)

# --- RULES.md 3: "One 52-card deck, shuffled before every hand by Fisher-Yates from a
# cryptographically secure generator (secrets)..." ------------------------------------------------


class RandrangeOnly:
    """A generator that offers nothing but randrange, and records every call."""

    def __init__(self, seed):
        self._random = random.Random(seed)
        self.calls = 0

    def randrange(self, *args):
        self.calls += 1
        return self._random.randrange(*args)


def test_new_deck_is_the_52_distinct_cards_in_a_fixed_order():
    # RULES.md 3: "One 52-card deck"
    deck = engine.new_deck()
    assert len(deck) == 52
    assert sorted(deck) == sorted(ALL_CARDS)
    assert engine.new_deck() == deck


def test_shuffle_returns_a_new_permutation_and_leaves_the_input_alone():
    # RULES.md 3: "shuffled before every hand by Fisher-Yates"
    deck = engine.new_deck()
    original = list(deck)
    shuffled = engine.shuffle(deck, random.Random(7))
    assert deck == original
    assert shuffled is not deck
    assert sorted(shuffled) == sorted(original)
    assert shuffled != original


def test_shuffle_is_driven_only_by_the_passed_generator_and_is_repeatable():
    # RULES.md 3 / style.md 1: the shuffle takes a generator passed in, driven by rng.randrange.
    spy = RandrangeOnly(11)
    shuffled = engine.shuffle(engine.new_deck(), spy)
    assert 51 <= spy.calls <= 52  # Fisher-Yates draws once per position
    assert shuffled == engine.shuffle(engine.new_deck(), RandrangeOnly(11))
    assert shuffled != engine.shuffle(engine.new_deck(), RandrangeOnly(12))


def test_shuffle_accepts_the_cryptographically_secure_generator():
    # RULES.md 3: "from a cryptographically secure generator (secrets)"
    shuffled = engine.shuffle(engine.new_deck(), secrets.SystemRandom())
    assert sorted(shuffled) == sorted(ALL_CARDS)


def test_shuffle_can_leave_a_card_in_place_and_spreads_cards_over_every_position():
    # RULES.md 3: Fisher-Yates gives every permutation; the off-by-one variant (Sattolo's
    # algorithm, randrange(i) instead of randrange(i + 1)) never leaves a card where it was.
    rng = random.Random(2024)
    deck = engine.new_deck()
    stayed_on_top = 0
    positions_of_first_card = [0] * 52
    for _ in range(2600):
        shuffled = engine.shuffle(deck, rng)
        stayed_on_top += shuffled[0] == deck[0]
        positions_of_first_card[shuffled.index(deck[0])] += 1
    assert 20 <= stayed_on_top <= 90  # expected 50
    assert min(positions_of_first_card) >= 20 and max(positions_of_first_card) <= 90


# --- RULES.md 3: "Dynamic blinds: big blind = dynamic_blind_percent of the smallest stack among
# the players dealt in, rounded down to an even number of chips and at least 2; small blind =
# half of it." -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stacks", "percent", "blinds"),
    [
        ([5000, 8000, 12000], 10, (250, 500)),
        ([12000, 8000, 5000], 10, (250, 500)),  # the smallest stack, wherever it sits
        ([1234, 5000], 10, (61, 122)),  # 123.4 -> 123 -> even 122
        ([1999, 3000], 10, (99, 198)),  # 199.9 -> 198
        ([40, 3000], 10, (2, 4)),
        ([5000, 9000], 1, (25, 50)),  # the worked example of [000] at 1%
    ],
)
def test_dynamic_big_blind_is_the_percent_of_the_smallest_stack_rounded_down_to_even(
    stacks, percent, blinds
):
    assert tuple(engine.dynamic_blinds(stacks, percent)) == blinds


@pytest.mark.parametrize("smallest", [1, 5, 15, 25, 39])
def test_dynamic_big_blind_is_at_least_two_chips(smallest):
    # RULES.md 3: "rounded down to an even number of chips and at least 2"
    assert tuple(engine.dynamic_blinds([smallest, 10_000], 10)) == (1, 2)


# --- RULES.md 3: "Small blind left of the button, big blind left of it. Heads-up: the button
# posts the small blind and acts first before the flop, last after it." -------------------------


@pytest.mark.parametrize(
    ("seats", "button", "small", "big", "first"),
    [
        ([0, 1, 2, 3, 4, 5], 0, 1, 2, 3),
        ([0, 1, 2, 3, 4, 5], 4, 5, 0, 1),
        ([2, 5, 7, 9], 7, 9, 2, 5),  # clockwise wraps past seat 9
        ([1, 4, 7], 5, 7, 1, 4),  # a dead button: blinds are the next dealt seats clockwise
        ([0, 3, 6], 6, 0, 3, 6),  # three-handed the button is first to act
    ],
)
def test_small_blind_sits_left_of_the_button_and_big_blind_left_of_it(
    seats, button, small, big, first
):
    state, _ = deal(nl(), dict.fromkeys(seats, 10000), button)
    assert state.button == button
    assert state.small_blind_seat == small
    assert state.big_blind_seat == big
    assert state.committed[small] == 50 and state.committed[big] == 100
    assert state.stacks[small] == 9_950 and state.stacks[big] == 9_900
    assert all(state.committed[seat] == 0 for seat in seats if seat not in (small, big))
    # RULES.md 3: "Pre-flop the first to act is left of the big blind"
    assert state.to_act == first
    assert engine.legal_actions(state).seat == first


@pytest.mark.parametrize(("button", "other"), [(8, 3), (3, 8)])
def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop(button, other):
    state, _ = deal(nl(), {3: 10_000, 8: 10_000}, button)
    assert state.small_blind_seat == button
    assert state.big_blind_seat == other
    assert state.committed == {button: 50, other: 100}
    assert state.to_act == button
    legal = engine.legal_actions(state)
    assert legal.to_call == 50


@pytest.mark.parametrize(("button", "other"), [(8, 3), (3, 8)])
def test_heads_up_the_button_acts_last_after_the_flop(button, other):
    state, _ = deal(nl(), {3: 10_000, 8: 10_000}, button)
    state = play(state, [(button, "call"), (other, "check")])
    for street in ("flop", "turn", "river"):
        assert state.street == street
        assert state.to_act == other
        state = act(state, other, "check")
        assert state.to_act == button
        state = act(state, button, "check")
    assert state.is_over


def test_heads_up_with_a_dead_button_the_next_dealt_seat_is_the_button():
    # docs/engine-api.md: "when the button is not a dealt seat, the first dealt seat after it is
    # treated as the button" -- seat 8 here: it posts the small blind and acts first.
    state, _ = deal(nl(), {3: 10_000, 8: 10_000}, 5)
    assert state.small_blind_seat == 8 and state.big_blind_seat == 3
    assert state.to_act == 8
    state = play(state, [(8, "call"), (3, "check")])
    assert state.street == "flop" and state.to_act == 3


# --- RULES.md 3: "A player whose stack is smaller than a blind posts what they have and is
# all in." ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("short_seat", "stack"), [(1, 30), (2, 60), (2, 100)])
def test_a_blind_bigger_than_the_stack_posts_what_it_has_and_is_all_in(short_seat, stack):
    stacks = {**FOUR_DEEP, short_seat: stack}
    state, _ = deal(nl(), stacks, 0)
    assert state.committed[short_seat] == stack
    assert state.stacks[short_seat] == 0
    assert seat_view(engine.view(state, None), short_seat)["all_in"] is True
    assert_chips_conserved(state, stacks)
    # The all-in blind is never asked to act again.
    for _ in range(40):
        if state.is_over:
            break
        legal = engine.legal_actions(state)
        assert legal.seat != short_seat
        state = act(state, legal.seat, "check" if "check" in legal.actions else "call")
    assert state.is_over
    assert_chips_conserved(state, stacks)


# --- RULES.md 3: "Two hole cards each, one at a time clockwise; flop (3), turn (1), river (1),
# each preceded by a burn card; a betting round before the flop and after each of the three
# deals." (docs/engine-api.md: dealing starts left of the button.) ------------------------------

KNOWN_DECK = random.Random(99).sample(ALL_CARDS, 52)


def test_hole_cards_are_dealt_one_at_a_time_clockwise_from_left_of_the_button():
    # Seats 0 2 5 7, button 5: dealing order 7, 0, 2, 5, then again.
    state, events = deal(nl(), {0: 5000, 2: 5000, 5: 5000, 7: 5000}, 5, deck=KNOWN_DECK)
    d = KNOWN_DECK
    expected = {7: {d[0], d[4]}, 0: {d[1], d[5]}, 2: {d[2], d[6]}, 5: {d[3], d[7]}}
    for seat, hole in expected.items():
        assert hole_of(state, seat) == hole
    private = [event for event in events if event.kind == "hole_cards"]
    assert {event.private_to for event in private} == set(expected)
    for event in private:
        assert cards_in(event.as_dict()) == expected[event.private_to]


def test_with_a_dead_button_dealing_starts_at_the_first_dealt_seat_left_of_it():
    # Seats 1 4 7, button on empty seat 5: dealing order 7, 1, 4.
    state, _ = deal(nl(), {1: 5000, 4: 5000, 7: 5000}, 5, deck=KNOWN_DECK)
    d = KNOWN_DECK
    assert hole_of(state, 7) == {d[0], d[3]}
    assert hole_of(state, 1) == {d[1], d[4]}
    assert hole_of(state, 4) == {d[2], d[5]}


def test_heads_up_the_big_blind_is_dealt_the_first_card():
    # Heads-up the button is the small blind; dealing starts left of it, with the big blind.
    state, _ = deal(nl(), {3: 5000, 8: 5000}, 8, deck=KNOWN_DECK)
    d = KNOWN_DECK
    assert hole_of(state, 3) == {d[0], d[2]}
    assert hole_of(state, 8) == {d[1], d[3]}


def test_a_card_is_burned_before_the_flop_the_turn_and_the_river():
    state, _ = deal(nl(), FOUR_DEEP, 0, deck=KNOWN_DECK)
    d = KNOWN_DECK  # 8 hole cards: d[0..7]; burn d[8], flop d[9..11], burn d[12], turn d[13] ...
    assert list(state.board) == []
    state = play(state, [(3, "call"), (0, "call"), (1, "call"), (2, "check")])
    assert state.street == "flop" and list(state.board) == d[9:12]
    state = play(state, [(1, "check"), (2, "check"), (3, "check"), (0, "check")])
    assert state.street == "turn" and list(state.board) == [*d[9:12], d[13]]
    state = play(state, [(1, "check"), (2, "check"), (3, "check"), (0, "check")])
    assert state.street == "river" and list(state.board) == [*d[9:12], d[13], d[15]]
    state = play(state, [(1, "check"), (2, "check"), (3, "check"), (0, "check")])
    assert state.is_over
    assert list(state.board) == [*d[9:12], d[13], d[15]]


def test_the_rigged_deck_builder_follows_the_same_dealing_order():
    # The builder the other tests rely on, checked against the engine once.
    deck = rigged_deck(
        {1: ("As", "Kd"), 3: ("7c", "7d")},
        ("2h", "3h", "4h", "5s", "9c"),
        button=3,
        seats=[1, 3, 6],
    )
    state, _ = deal(nl(), {1: 5000, 3: 5000, 6: 5000}, 3, deck=deck)
    assert hole_of(state, 1) == {"As", "Kd"}
    assert hole_of(state, 3) == {"7c", "7d"}
    state = check_down(state)
    assert list(state.board) == ["2h", "3h", "4h", "5s", "9c"]


def test_there_is_a_betting_round_before_the_flop_and_after_each_deal():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    for street, board_size in (("preflop", 0), ("flop", 3), ("turn", 4), ("river", 5)):
        assert state.street == street
        assert len(state.board) == board_size
        assert engine.legal_actions(state) is not None
        while state.street == street and not state.is_over:
            legal = engine.legal_actions(state)
            state = act(state, legal.seat, "check" if "check" in legal.actions else "call")
    assert state.is_over and len(state.board) == 5


# --- RULES.md 3: "Pre-flop the first to act is left of the big blind; after, the first active
# player left of the button. Big-blind option: if nobody raised, the big blind may still
# raise." -----------------------------------------------------------------------------------------


def test_after_the_flop_the_first_active_player_left_of_the_button_acts_first():
    state, _ = deal(nl(), SIX_DEEP, 0)
    # The small blind (seat 1) folds, so the big blind (seat 2) opens the flop.
    state = play(
        state, [(3, "call"), (4, "call"), (5, "call"), (0, "call"), (1, "fold"), (2, "check")]
    )
    assert state.street == "flop"
    assert state.to_act == 2


def test_after_the_flop_the_order_skips_folded_players_on_the_way_round():
    state, _ = deal(nl(), SIX_DEEP, 0)
    state = play(
        state, [(3, "fold"), (4, "call"), (5, "call"), (0, "call"), (1, "call"), (2, "check")]
    )
    state = play(state, [(1, "check"), (2, "check"), (4, "check"), (5, "check"), (0, "check")])
    assert state.street == "turn" and state.to_act == 1


def test_big_blind_may_check_or_raise_when_nobody_raised():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    state = play(state, [(3, "call"), (0, "call"), (1, "call")])
    legal = engine.legal_actions(state)
    assert legal.seat == 2
    assert legal.to_call == 0
    assert "check" in legal.actions and "raise" in legal.actions
    assert "call" not in legal.actions
    assert legal.can_raise is True
    assert legal.min_to == 200
    checked = act(state, 2, "check")
    assert checked.street == "flop"


def test_heads_up_the_big_blind_has_the_option_when_the_button_completes():
    state, _ = deal(nl(), {3: 10_000, 8: 10_000}, 8)
    state = act(state, 8, "call")
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.to_call == 0
    assert "check" in legal.actions and "raise" in legal.actions and legal.min_to == 200
    state = act(state, 3, "raise", to=300)
    legal = engine.legal_actions(state)
    assert (legal.seat, legal.to_call, legal.min_to) == (8, 200, 500)


def test_big_blind_option_raise_reopens_the_betting_for_the_limpers():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    state = play(state, [(3, "call"), (0, "call"), (1, "call"), (2, "raise", 300)])
    assert state.street == "preflop"
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.to_call == 200
    state = play(state, [(3, "call"), (0, "fold"), (1, "call")])
    assert state.street == "flop"
    assert state.committed == {0: 100, 1: 300, 2: 300, 3: 300}


# --- RULES.md 3: "Actions: fold, check (nothing to call), call, bet (nothing to call yet),
# raise, all in." ---------------------------------------------------------------------------------


def test_with_nothing_to_call_a_player_may_check_or_bet_but_not_call_or_raise():
    state = limped_flop()
    legal = engine.legal_actions(state)
    assert legal.seat == 1 and legal.to_call == 0 and legal.current_bet == 0
    assert {"check", "bet", "all_in"} <= set(legal.actions)
    assert "call" not in legal.actions and "raise" not in legal.actions
    refused(state, 1, "call")
    refused(state, 1, "raise", to=200)


def test_facing_a_bet_a_player_may_fold_call_or_raise_but_not_check_or_bet():
    state = act(limped_flop(), 1, "bet", to=300)
    legal = engine.legal_actions(state)
    assert legal.seat == 2 and legal.to_call == 300 and legal.current_bet == 300
    assert {"fold", "call", "raise", "all_in"} <= set(legal.actions)
    assert "check" not in legal.actions and "bet" not in legal.actions
    refused(state, 2, "check")
    refused(state, 2, "bet", to=600)


def test_each_action_moves_exactly_the_chips_it_names():
    state = limped_flop()
    state = act(state, 1, "check")
    assert state.committed[1] == 100 and state.stacks[1] == 9_900
    state = act(state, 2, "bet", to=300)
    assert state.committed[2] == 400 and state.stacks[2] == 9_600
    state = act(state, 3, "raise", to=900)
    assert state.committed[3] == 1_000 and state.stacks[3] == 9_000
    state = act(state, 0, "call")
    assert state.committed[0] == 1_000 and state.stacks[0] == 9_000
    state = act(state, 1, "fold")
    assert seat_view(engine.view(state, None), 1)["folded"] is True
    assert state.committed[1] == 100 and state.stacks[1] == 9_900
    state = act(state, 2, "all_in")
    assert state.stacks[2] == 0 and state.committed[2] == 10_000
    assert seat_view(engine.view(state, None), 2)["all_in"] is True
    assert_chips_conserved(state, FOUR_DEEP)


def test_a_folded_player_is_never_asked_to_act_again():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    state = act(state, 3, "fold")
    for _ in range(40):
        if state.is_over:
            break
        assert state.to_act != 3
        legal = engine.legal_actions(state)
        state = act(state, legal.seat, "check" if "check" in legal.actions else "call")
    assert state.is_over


# RULES.md 3: "No limit: bet or raise up to the whole stack."


def test_no_limit_allows_a_raise_of_the_whole_stack_and_no_more():
    stacks = {0: 10_000, 1: 10_000, 2: 10_000, 3: 2_500}
    state, _ = deal(nl(), stacks, 0)
    legal = engine.legal_actions(state)
    assert legal.seat == 3
    assert legal.max_to == legal.all_in_to == 2_500
    refused(state, 3, "raise", to=2_501)
    state = act(state, 3, "raise", to=2_500)
    assert state.stacks[3] == 0
    legal = engine.legal_actions(state)
    assert legal.max_to == legal.all_in_to == 10_000


def test_no_limit_bet_after_the_flop_may_be_the_whole_stack():
    state = limped_flop()
    legal = engine.legal_actions(state)
    assert legal.max_to == legal.all_in_to == 9_900
    refused(state, 1, "bet", to=9_901)
    state = act(state, 1, "bet", to=9_900)
    assert state.stacks[1] == 0


# RULES.md 3: "Pot limit: at most current bet + pot + the amount to call, all bets on the table
# counted in the pot."


def test_pot_limit_first_to_act_with_blinds_50_100_may_raise_to_350():
    state, _ = deal(nl(structure="pot_limit"), FOUR_DEEP, 0)
    legal = engine.legal_actions(state)
    assert legal.seat == 3
    assert legal.pot == 150
    assert legal.min_to == 200
    assert legal.max_to == 350  # 100 bet + 150 pot + 100 to call
    refused(state, 3, "raise", to=351)
    state = act(state, 3, "raise", to=350)
    assert state.committed[3] == 350


def test_pot_limit_maximum_after_pot_sized_raises():
    state, _ = deal(nl(structure="pot_limit"), FOUR_DEEP, 0)
    state = act(state, 3, "raise", to=350)
    legal = engine.legal_actions(state)
    # Button: bet 350, pot 50 + 100 + 350 = 500, to call 350 -> 1,200.
    assert (legal.seat, legal.pot, legal.to_call, legal.max_to) == (0, 500, 350, 1_200)
    assert legal.min_to == 600
    state = act(state, 0, "call")
    legal = engine.legal_actions(state)
    # Small blind: bet 350, pot 850, to call 300 -> 1,500.
    assert (legal.seat, legal.pot, legal.to_call, legal.max_to) == (1, 850, 300, 1_500)
    refused(state, 1, "raise", to=1_501)
    state = act(state, 1, "raise", to=1_500)
    legal = engine.legal_actions(state)
    # Big blind: bet 1,500, pot 2,300, to call 1,400 -> 5,200; min raise adds 1,150.
    assert (legal.seat, legal.pot, legal.to_call, legal.max_to) == (2, 2_300, 1_400, 5_200)
    assert legal.min_to == 2_650
    state = act(state, 2, "fold")
    legal = engine.legal_actions(state)
    assert (legal.seat, legal.to_call, legal.max_to) == (3, 1_150, 4_950)
    state = play(state, [(3, "call"), (0, "call")])
    # Flop: pot 3 x 1,500 + 100 = 4,600; an opening bet is at most the pot.
    assert state.street == "flop"
    legal = engine.legal_actions(state)
    assert (legal.seat, legal.pot, legal.min_to, legal.max_to) == (1, 4_600, 100, 4_600)
    refused(state, 1, "bet", to=4_601)
    state = act(state, 1, "bet", to=1_000)
    legal = engine.legal_actions(state)
    # Facing 1,000 into 4,600: 1,000 + 5,600 + 1,000 = 7,600.
    assert (legal.seat, legal.to_call, legal.max_to) == (3, 1_000, 7_600)


def test_pot_limit_maximum_is_capped_by_the_stack():
    stacks = {**FOUR_DEEP, 3: 300}
    state, _ = deal(nl(structure="pot_limit"), stacks, 0)
    legal = engine.legal_actions(state)
    assert legal.all_in_to == 300
    assert legal.max_to == 300


def test_pot_limit_counts_a_dead_small_blind_in_the_pot():
    # RULES.md 3 "all bets on the table counted in the pot" and 2: the dead small blind goes
    # straight to the pot. Pot 50 + 100 + 150 = 300: UTG may raise to 100 + 300 + 100 = 500.
    state, _ = deal(nl(structure="pot_limit"), SIX_DEEP, 0, posts={4: "big_and_dead_small"})
    legal = engine.legal_actions(state)
    assert (legal.seat, legal.pot, legal.max_to) == (3, 300, 500)


# RULES.md 3: "Fixed limit: bets and raises are exactly the small bet in the first two rounds
# and the big bet in the last two."


def test_fixed_limit_bets_and_raises_are_exactly_the_small_bet_then_the_big_bet():
    state, _ = deal(fixed_limit(), FL_STACKS, 0)
    legal = engine.legal_actions(state)
    assert (legal.seat, legal.min_to, legal.max_to) == (3, 40, 40)
    refused(state, 3, "raise", to=60)
    refused(state, 3, "raise", to=39)
    state = act(state, 3, "raise", to=40)
    legal = engine.legal_actions(state)
    assert (legal.min_to, legal.max_to) == (60, 60)
    state = play(state, [(0, "call"), (1, "call"), (2, "call")])
    # Flop: the small bet.
    legal = engine.legal_actions(state)
    assert state.street == "flop"
    assert (legal.seat, legal.min_to, legal.max_to) == (1, 20, 20)
    refused(state, 1, "bet", to=40)
    state = act(state, 1, "bet", to=20)
    assert (engine.legal_actions(state).min_to, engine.legal_actions(state).max_to) == (40, 40)
    state = play(state, [(2, "call"), (3, "call"), (0, "call")])
    # Turn and river: the big bet.
    for street in ("turn", "river"):
        assert state.street == street
        legal = engine.legal_actions(state)
        assert (legal.seat, legal.min_to, legal.max_to) == (1, 40, 40)
        refused(state, 1, "bet", to=20)
        refused(state, 1, "bet", to=80)
        state = act(state, 1, "bet", to=40)
        legal = engine.legal_actions(state)
        assert (legal.seat, legal.min_to, legal.max_to) == (2, 80, 80)
        refused(state, 2, "raise", to=120)
        state = play(state, [(2, "raise", 80), (3, "call"), (0, "call"), (1, "call")])
    assert state.is_over
    assert_chips_conserved(state, FL_STACKS)
