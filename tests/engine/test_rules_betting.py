"""RULES.md section 3 (the deal and the betting), bullet by bullet, against docs/engine-api.md.

Each test cites the bullet it checks; amounts are worked out by hand in the comments.
"""
import random
import secrets

import pytest

from tests.engine.conftest import (
    ALL_CARDS, act, assert_chips_conserved, cards_in, check_down, deal, engine,
    hand_options, hole_of, play, refused, rigged_deck, seat_view,
)

# Six seats 0..5, button 0: small blind 1, big blind 2; preflop order 3 4 5 0 1 2,
# after the flop 1 2 3 4 5 0.
SIX_DEEP = {seat: 10_000 for seat in range(6)}
FOUR_DEEP = {seat: 10_000 for seat in range(4)}


def nl(**overrides):
    return hand_options(**overrides)


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
    # RULES.md 3 / STYLE.md 1: the shuffle takes a generator passed in, driven by rng.randrange.
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
        stacks, percent, blinds):
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
        seats, button, small, big, first):
    state, _ = deal(nl(), {seat: 10_000 for seat in seats}, button)
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
    assert state.street == "turn" and list(state.board) == d[9:12] + [d[13]]
    state = play(state, [(1, "check"), (2, "check"), (3, "check"), (0, "check")])
    assert state.street == "river" and list(state.board) == d[9:12] + [d[13], d[15]]
    state = play(state, [(1, "check"), (2, "check"), (3, "check"), (0, "check")])
    assert state.is_over
    assert list(state.board) == d[9:12] + [d[13], d[15]]


def test_the_rigged_deck_builder_follows_the_same_dealing_order():
    # The builder the other tests rely on, checked against the engine once.
    deck = rigged_deck({1: ("As", "Kd"), 3: ("7c", "7d")}, ("2h", "3h", "4h", "5s", "9c"),
                       button=3, seats=[1, 3, 6])
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
    state = play(state, [(3, "call"), (4, "call"), (5, "call"), (0, "call"), (1, "fold"),
                         (2, "check")])
    assert state.street == "flop"
    assert state.to_act == 2


def test_after_the_flop_the_order_skips_folded_players_on_the_way_round():
    state, _ = deal(nl(), SIX_DEEP, 0)
    state = play(state, [(3, "fold"), (4, "call"), (5, "call"), (0, "call"), (1, "call"),
                         (2, "check")])
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

def _limped_flop(options=None, stacks=FOUR_DEEP):
    state, _ = deal(options or nl(), stacks, 0)
    return play(state, [(3, "call"), (0, "call"), (1, "call"), (2, "check")])


def test_with_nothing_to_call_a_player_may_check_or_bet_but_not_call_or_raise():
    state = _limped_flop()
    legal = engine.legal_actions(state)
    assert legal.seat == 1 and legal.to_call == 0 and legal.current_bet == 0
    assert {"check", "bet", "all_in"} <= set(legal.actions)
    assert "call" not in legal.actions and "raise" not in legal.actions
    refused(state, 1, "call")
    refused(state, 1, "raise", to=200)


def test_facing_a_bet_a_player_may_fold_call_or_raise_but_not_check_or_bet():
    state = act(_limped_flop(), 1, "bet", to=300)
    legal = engine.legal_actions(state)
    assert legal.seat == 2 and legal.to_call == 300 and legal.current_bet == 300
    assert {"fold", "call", "raise", "all_in"} <= set(legal.actions)
    assert "check" not in legal.actions and "bet" not in legal.actions
    refused(state, 2, "check")
    refused(state, 2, "bet", to=600)


def test_each_action_moves_exactly_the_chips_it_names():
    state = _limped_flop()
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
    state = _limped_flop()
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

def fixed_limit(**overrides):
    return hand_options(structure="fixed_limit", small_blind=10, big_blind=20, small_bet=20,
                        big_bet=40, **overrides)


FL_STACKS = {seat: 1_000 for seat in range(4)}


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


# --- RULES.md 3: "min_raise=full (the Poker TDA rules): the smallest bet is the big blind ...;
# a raise must add at least the largest bet or raise increment of this round. An all-in that
# adds less is allowed, but it does not reopen raising to a player who already acted, unless
# the all-ins since that player acted add up to at least a full raise. The smallest raise-to
# is therefore current bet + that increment, or all in." -----------------------------------------

def test_min_raise_full_smallest_bet_after_the_flop_is_the_big_blind():
    state = _limped_flop()
    legal = engine.legal_actions(state)
    assert legal.min_to == 100
    refused(state, 1, "bet", to=99)
    assert act(state, 1, "bet", to=100).committed[1] == 200


def test_min_raise_full_smallest_raise_before_the_flop_is_to_twice_the_big_blind():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    assert engine.legal_actions(state).min_to == 200
    refused(state, 3, "raise", to=199, code="below_min_raise", message="minimum raise is to 200")
    assert act(state, 3, "raise", to=200).committed[3] == 200


def test_min_raise_full_a_raise_must_add_the_largest_increment_of_the_round():
    state, _ = deal(nl(), SIX_DEEP, 0)
    state = act(state, 3, "raise", to=350)  # adds 250
    assert engine.legal_actions(state).min_to == 600
    refused(state, 4, "raise", to=599, code="below_min_raise", message="minimum raise is to 600")
    state = act(state, 4, "raise", to=1_000)  # adds 650
    assert engine.legal_actions(state).min_to == 1_650


def test_min_raise_full_after_a_flop_bet_the_raise_adds_at_least_that_bet():
    state = act(_limped_flop(), 1, "bet", to=300)
    assert engine.legal_actions(state).min_to == 600
    refused(state, 2, "raise", to=599)
    state = act(state, 2, "raise", to=600)
    assert engine.legal_actions(state).min_to == 900


def test_a_short_all_in_does_not_lower_the_minimum_raise():
    stacks = {**SIX_DEEP, 4: 500}
    state, _ = deal(nl(), stacks, 0)
    state = act(state, 3, "raise", to=400)  # adds 300
    state = act(state, 4, "all_in")  # to 500, adds only 100
    legal = engine.legal_actions(state)
    assert legal.seat == 5 and legal.current_bet == 500
    assert legal.min_to == 800  # 500 + the largest increment, 300


def _short_all_in_after_a_raise():
    # Seats 0..3, button 0: UTG 3 raises to 300 (adds 200); the button, 400 chips, goes all in
    # to 400 (adds 100, less than a full raise); the small blind folds.
    stacks = {0: 400, 1: 10_000, 2: 10_000, 3: 10_000}
    state, _ = deal(nl(), stacks, 0)
    return play(state, [(3, "raise", 300), (0, "all_in"), (1, "fold")])


def test_short_all_in_does_not_reopen_raising():
    state = _short_all_in_after_a_raise()
    state = act(state, 2, "call")
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.to_call == 100
    assert legal.can_raise is False
    assert "raise" not in legal.actions and "all_in" not in legal.actions
    assert {"call", "fold"} <= set(legal.actions)
    assert legal.raise_closed_reason
    refused(state, 3, "raise", to=700)
    refused(state, 3, "all_in")
    state = act(state, 3, "call")
    assert state.street == "flop"


def test_short_all_in_still_lets_a_player_who_has_not_acted_raise():
    state = _short_all_in_after_a_raise()
    legal = engine.legal_actions(state)
    assert legal.seat == 2  # the big blind has not acted yet (posting is not acting)
    assert legal.can_raise is True and "raise" in legal.actions
    assert legal.min_to == 600  # 400 + the largest increment, 200
    state = act(state, 2, "raise", to=600)
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.can_raise is True  # a full raise reopens


def test_short_all_ins_adding_up_to_a_full_raise_reopen_raising():
    # Seats 0..4, button 0: preflop order 3 4 0 1 2. UTG raises to 200 (adds 100); seat 4 all in
    # to 250 (adds 50), the button all in to 300 (adds 50): together a full raise of 100. The
    # big blind calls, so a raise could still be called.
    stacks = {0: 300, 1: 10_000, 2: 10_000, 3: 10_000, 4: 250}
    state, _ = deal(nl(), stacks, 0)
    state = play(state, [(3, "raise", 200), (4, "all_in"), (0, "all_in"), (1, "fold"),
                         (2, "call")])
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.to_call == 100
    assert legal.can_raise is True and "raise" in legal.actions
    assert legal.min_to == 400
    state = act(state, 3, "raise", to=400)
    assert engine.legal_actions(state).seat == 2
    assert_chips_conserved(state, stacks)


def test_short_all_ins_adding_up_to_less_than_a_full_raise_do_not_reopen():
    stacks = {0: 260, 1: 10_000, 2: 10_000, 3: 10_000, 4: 250}
    state, _ = deal(nl(), stacks, 0)
    state = play(state, [(3, "raise", 200), (4, "all_in"), (0, "all_in"), (1, "fold"),
                         (2, "call")])
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.to_call == 60
    assert legal.can_raise is False and "raise" not in legal.actions
    assert legal.raise_closed_reason
    refused(state, 3, "raise", to=400)


# --- RULES.md 3: "min_raise=any: any increment of 1 chip or more" ---------------------------------

def test_min_raise_any_accepts_a_one_chip_raise():
    state, _ = deal(nl(min_raise="any"), SIX_DEEP, 0)
    assert engine.legal_actions(state).min_to == 101
    state = act(state, 3, "raise", to=101)
    assert engine.legal_actions(state).min_to == 102
    state = act(state, 4, "raise", to=102)
    assert state.committed[4] == 102
    refused(state, 5, "raise", to=102)


def test_min_raise_any_every_raise_reopens_raising():
    # The same spot as test_short_all_in_does_not_reopen_raising, with min_raise=any.
    stacks = {0: 301, 1: 10_000, 2: 10_000, 3: 10_000}
    state, _ = deal(nl(min_raise="any"), stacks, 0)
    state = play(state, [(3, "raise", 300), (0, "all_in"), (1, "fold"), (2, "call")])
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.to_call == 1
    assert legal.can_raise is True and "raise" in legal.actions
    assert legal.min_to == 302


# --- RULES.md 3: "raise_cap=N: after N raises in a round players may only call or fold; going
# all in is then allowed only if it does not exceed the current bet. The round's first bet is
# not a raise (before the flop the big blind is that bet), so a cap of 3 means at most four bets
# a round. An all-in that raises by less than a full raise still counts as a raise." -----------

@pytest.mark.parametrize("cap", [1, 2, 3, 4])
def test_raise_cap_allows_exactly_n_raises_before_the_flop_counting_the_big_blind_as_the_bet(cap):
    state, _ = deal(nl(raise_cap=cap), SIX_DEEP, 0)
    raisers = [3, 4, 5, 0, 1, 2]
    for number in range(cap):
        legal = engine.legal_actions(state)
        assert legal.can_raise is True and "raise" in legal.actions
        state = act(state, raisers[number], "raise", to=200 + 100 * number)
    legal = engine.legal_actions(state)
    assert legal.seat == raisers[cap]
    assert legal.can_raise is False
    assert "raise" not in legal.actions and "all_in" not in legal.actions
    assert {"call", "fold"} <= set(legal.actions)
    assert f"capped after {cap} raise" in legal.raise_closed_reason
    refused(state, legal.seat, "raise", to=legal.current_bet + 100, code="raise_capped",
            message=f"raising is capped after {cap} raise")


def test_raise_cap_three_allows_a_bet_and_three_raises_after_the_flop():
    state = _limped_flop(nl(raise_cap=3))
    state = play(state, [(1, "bet", 100), (2, "raise", 200), (3, "raise", 300),
                         (0, "raise", 400)])
    legal = engine.legal_actions(state)
    assert legal.seat == 1 and legal.can_raise is False
    assert "raise" not in legal.actions
    refused(state, 1, "raise", to=500, code="raise_capped",
            message="raising is capped after 3 raises")
    state = play(state, [(1, "call"), (2, "call"), (3, "call")])
    assert state.street == "turn"


def test_the_big_blind_option_raise_counts_toward_the_cap():
    state, _ = deal(nl(raise_cap=1), FOUR_DEEP, 0)
    state = play(state, [(3, "call"), (0, "call"), (1, "call"), (2, "raise", 300)])
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.can_raise is False
    refused(state, 3, "raise", to=500, code="raise_capped")


def test_after_the_cap_all_in_is_allowed_only_up_to_the_current_bet():
    # Cap 3 reached at 400. Seat 0 has exactly 400 and the big blind 350 in all: both may go
    # all in; the deep small blind may not.
    stacks = {0: 400, 1: 10_000, 2: 350, 3: 10_000, 4: 10_000, 5: 10_000}
    state, _ = deal(nl(raise_cap=3), stacks, 0)
    state = play(state, [(3, "raise", 200), (4, "raise", 300), (5, "raise", 400)])
    legal = engine.legal_actions(state)
    assert legal.seat == 0 and "all_in" in legal.actions
    state = act(state, 0, "all_in")
    assert state.stacks[0] == 0 and state.committed[0] == 400
    legal = engine.legal_actions(state)
    assert legal.seat == 1 and "all_in" not in legal.actions
    refused(state, 1, "all_in")
    state = act(state, 1, "call")
    legal = engine.legal_actions(state)
    assert legal.seat == 2 and "all_in" in legal.actions
    state = act(state, 2, "all_in")
    assert state.committed[2] == 350
    state = play(state, [(3, "call"), (4, "call")])
    assert state.street == "flop"
    assert_chips_conserved(state, stacks)


def test_a_short_all_in_raise_counts_toward_the_cap():
    # Cap 2: UTG raises to 200 (raise 1), seat 4 all in to 250 (a short raise: raise 2). The
    # button has not acted, so only the cap can stop it from raising.
    stacks = {0: 10_000, 1: 10_000, 2: 10_000, 3: 10_000, 4: 250}
    capped, _ = deal(nl(raise_cap=2), stacks, 0)
    capped = play(capped, [(3, "raise", 200), (4, "all_in")])
    legal = engine.legal_actions(capped)
    assert legal.seat == 0 and legal.can_raise is False
    refused(capped, 0, "raise", to=400, code="raise_capped")
    # With a cap of 3 the same button may raise, to 250 + 100.
    open_, _ = deal(nl(raise_cap=3), stacks, 0)
    open_ = play(open_, [(3, "raise", 200), (4, "all_in")])
    legal = engine.legal_actions(open_)
    assert legal.can_raise is True and legal.min_to == 350


def test_fixed_limit_cap_of_three_means_four_bets_before_the_flop():
    state, _ = deal(fixed_limit(raise_cap=3), FL_STACKS, 0)
    state = play(state, [(3, "raise", 40), (0, "raise", 60), (1, "raise", 80)])
    legal = engine.legal_actions(state)
    assert legal.seat == 2 and legal.can_raise is False
    refused(state, 2, "raise", to=100, code="raise_capped")
    state = play(state, [(2, "call"), (3, "call"), (0, "call")])
    assert state.street == "flop" and all(c == 80 for c in state.committed.values())


# --- RULES.md 3: "If the current bet is more than a player's chips, they may call all in or
# fold." ------------------------------------------------------------------------------------------

def test_a_player_facing_more_than_their_stack_may_call_all_in_or_fold():
    stacks = {0: 10_000, 1: 1_000}
    holes = {0: ("7c", "2d"), 1: ("Ah", "Ad")}
    state, _ = deal(nl(), stacks, 0, holes=holes, board=("Ks", "9h", "5c", "3d", "Jc"))
    state = play(state, [(0, "call"), (1, "check"), (1, "check"), (0, "bet", 2_000)])
    legal = engine.legal_actions(state)
    assert legal.seat == 1
    assert legal.to_call == 900  # capped at the stack
    assert {"call", "fold"} <= set(legal.actions)
    assert "raise" not in legal.actions and legal.can_raise is False
    state = act(state, 1, "call")
    assert state.committed[1] == 1_000  # the whole stack went in
    assert state.is_over  # nobody can bet any more: the board is dealt out
    assert len(state.board) == 5
    # Seat 1 wins 1,000 from seat 0, no more; the 1,100 seat 0 bet above that goes back.
    assert state.result.final_stacks == {0: 9_000, 1: 2_000}
    assert state.result.net == {0: -1_000, 1: 1_000}
    assert_chips_conserved(state, stacks)


# --- RULES.md 3: "A round ends when every active player has acted and all who are not all in
# have matched the highest bet, or when only one player is left. If only one player is left the
# pot is theirs at once: no more cards, no showdown, and any uncalled part of a bet is
# returned." ---------------------------------------------------------------------------------------

def test_round_does_not_end_before_everyone_has_acted_even_when_bets_match():
    state = _limped_flop()
    state = play(state, [(1, "check"), (2, "check"), (3, "check")])
    assert state.street == "flop" and state.to_act == 0
    state = act(state, 0, "check")
    assert state.street == "turn"


def test_a_raise_gives_players_who_already_called_another_turn():
    state = _limped_flop()
    state = play(state, [(1, "bet", 100), (2, "call"), (3, "raise", 400), (0, "call")])
    assert state.street == "flop" and state.to_act == 1
    state = play(state, [(1, "call"), (2, "call")])
    assert state.street == "turn"
    assert all(chips == 500 for chips in state.committed.values())


def test_when_everyone_folds_the_last_player_wins_at_once_with_no_more_cards():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    state = play(state, [(3, "fold"), (0, "fold"), (1, "fold")])
    assert state.is_over
    assert list(state.board) == []
    assert engine.legal_actions(state) is None and state.to_act is None
    result = state.result
    assert result.uncontested is True
    assert result.shown == {}
    assert result.net == {0: 0, 1: -50, 2: 50, 3: 0}
    assert_chips_conserved(state, FOUR_DEEP)


def test_the_uncalled_part_of_a_bet_is_returned_when_everyone_folds():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    state = play(state, [(3, "raise", 300), (0, "fold"), (1, "fold")])
    state, events = engine.apply_action(state, 2, "fold")
    assert state.is_over and list(state.board) == []
    # The big blind's 100 called 100 of the raise; the other 200 was never called.
    assert state.result.returned == {3: 200}
    assert any(event.kind == "uncalled_returned" for event in events)
    assert state.result.net == {0: 0, 1: -50, 2: -100, 3: 150}
    assert sum(pot.amount for pot in state.result.pots) == 250
    assert_chips_conserved(state, FOUR_DEEP)


def test_an_uncalled_bet_after_the_flop_is_returned_and_the_hand_ends_there():
    state = act(_limped_flop(), 1, "check")
    state = play(state, [(2, "bet", 700), (3, "fold"), (0, "fold"), (1, "fold")])
    assert state.is_over and len(state.board) == 3
    assert state.result.returned == {2: 700}
    assert state.result.final_stacks[2] == 10_300
    assert_chips_conserved(state, FOUR_DEEP)


# --- RULES.md 3: "When at most one player can still bet, no more betting happens: the board is
# dealt out and the hand goes to showdown." --------------------------------------------------------

def test_when_everyone_but_one_is_all_in_the_board_is_dealt_out():
    stacks = {0: 10_000, 1: 800, 2: 500}
    state, _ = deal(nl(), stacks, 0)
    # Three-handed the button acts first: seat 0 calls, the blinds go all in, seat 0 calls.
    state = play(state, [(0, "call"), (1, "all_in"), (2, "all_in"), (0, "call")])
    assert state.is_over
    assert len(state.board) == 5
    assert engine.legal_actions(state) is None
    assert state.result.uncontested is False
    assert_chips_conserved(state, stacks)


def test_an_all_in_player_is_skipped_while_the_others_keep_betting():
    stacks = {0: 10_000, 1: 500, 2: 10_000}
    state, _ = deal(nl(), stacks, 0)
    state = play(state, [(0, "call"), (1, "all_in"), (2, "call"), (0, "call")])
    assert state.street == "flop"
    assert state.to_act == 2  # seat 1 is all in
    state = play(state, [(2, "bet", 1_000), (0, "call")])
    assert state.street == "turn" and state.to_act == 2
    state = check_down(state)
    assert_chips_conserved(state, stacks)


def test_heads_up_all_in_and_call_runs_the_board_out_at_once():
    stacks = {3: 2_000, 8: 5_000}
    state, _ = deal(nl(), stacks, 8)
    state = play(state, [(8, "raise", 300), (3, "all_in"), (8, "call")])
    assert state.is_over and len(state.board) == 5
    assert_chips_conserved(state, stacks)


# --- RULES.md 2 (entry) as the engine sees it: SeatIn.post = "big" is a live big blind; with
# "big_and_dead_small" a dead small blind goes straight to the pot, not to the player's bet. -----

def test_a_live_big_blind_post_counts_as_the_players_bet():
    state, _ = deal(nl(), SIX_DEEP, 0, posts={4: "big"})
    assert state.committed == {0: 0, 1: 50, 2: 100, 3: 0, 4: 100, 5: 0}
    assert seat_view(engine.view(state, None), 4)["bet"] == 100
    legal = engine.legal_actions(state)
    assert (legal.seat, legal.current_bet, legal.to_call, legal.pot) == (3, 100, 100, 250)
    state = act(state, 3, "call")
    legal = engine.legal_actions(state)
    # The poster has matched the bet: it may check, or raise (it is live).
    assert legal.seat == 4 and legal.to_call == 0
    assert "check" in legal.actions and legal.can_raise is True and legal.min_to == 200
    state = play(state, [(4, "check"), (5, "call"), (0, "call"), (1, "call"), (2, "check")])
    assert state.street == "flop"
    assert all(chips == 100 for chips in state.committed.values())


def test_a_live_post_first_to_act_may_check_and_does_not_act_again_when_nobody_raises():
    state, _ = deal(nl(), SIX_DEEP, 0, posts={3: "big"})
    legal = engine.legal_actions(state)
    assert legal.seat == 3 and legal.to_call == 0 and "check" in legal.actions
    state = play(state, [(3, "check"), (4, "call"), (5, "call"), (0, "call"), (1, "call")])
    assert engine.legal_actions(state).seat == 2  # the big blind's option comes last
    state = act(state, 2, "check")
    assert state.street == "flop" and state.to_act == 1


def test_a_dead_small_blind_post_goes_to_the_pot_not_the_players_bet():
    state, _ = deal(nl(), SIX_DEEP, 0, posts={4: "big_and_dead_small"})
    assert state.committed[4] == 150 and state.stacks[4] == 9_850
    assert seat_view(engine.view(state, None), 4)["bet"] == 100
    legal = engine.legal_actions(state)
    assert (legal.seat, legal.current_bet, legal.to_call, legal.pot) == (3, 100, 100, 300)
    state = act(state, 3, "call")
    assert engine.legal_actions(state).to_call == 0
    state = play(state, [(4, "check"), (5, "call"), (0, "call"), (1, "call"), (2, "check")])
    assert state.street == "flop"
    assert state.committed[4] == 150
    assert sum(state.committed.values()) == 650
    state = check_down(state)
    assert_chips_conserved(state, SIX_DEEP)


# --- Refusals: docs/engine-api.md "Every refusal raises IllegalAction(code, message) ... The
# state is never changed by a refused action." -----------------------------------------------------

def test_acting_out_of_turn_is_refused_naming_the_seat_to_act():
    state, _ = deal(nl(), SIX_DEEP, 0)
    refused(state, 5, "call", code="not_your_turn", message="it is seat 3's turn")
    refused(state, 2, "check", code="not_your_turn", message="it is seat 3's turn")
    refused(state, 1, "fold", code="not_your_turn")


def test_a_seat_not_dealt_in_cannot_act():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    refused(state, 7, "call")


def test_raising_below_the_minimum_is_refused_with_the_minimum_named():
    state, _ = deal(nl(), SIX_DEEP, 0)
    state = act(state, 3, "raise", to=250)  # adds 150
    refused(state, 4, "raise", to=399, code="below_min_raise", message="minimum raise is to 400")
    refused(state, 4, "raise", to=250)
    assert act(state, 4, "raise", to=400).committed[4] == 400


def test_raising_after_the_cap_is_refused():
    state, _ = deal(nl(raise_cap=3), SIX_DEEP, 0)
    state = play(state, [(3, "raise", 200), (4, "raise", 300), (5, "raise", 400)])
    refused(state, 0, "raise", to=500, code="raise_capped",
            message="raising is capped after 3 raises")


def test_checking_when_facing_a_bet_is_refused():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    refused(state, 3, "check")
    state = act(_limped_flop(), 1, "bet", to=200)
    refused(state, 2, "check")


@pytest.mark.parametrize("amount", [250.5, 300.0, True, "300", None, [300]])
def test_a_raise_amount_must_be_a_whole_number_of_chips(amount):
    state, _ = deal(nl(), FOUR_DEEP, 0)
    if amount is None:  # missing
        refused(state, 3, "raise", code="bad_amount")
    else:
        refused(state, 3, "raise", to=amount, code="bad_amount")


@pytest.mark.parametrize("amount", [-300, 0, -1])
def test_a_negative_or_zero_bet_is_refused(amount):
    state = _limped_flop()
    refused(state, 1, "bet", to=amount)


def test_a_bet_amount_of_true_is_not_one_chip():
    # min_raise=any after the flop: if True were read as 1 it could look like a bet.
    state = _limped_flop(nl(min_raise="any"))
    refused(state, 1, "bet", to=True, code="bad_amount")


def test_an_unknown_action_is_refused():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    refused(state, 3, "dance", code="unknown_action")
    refused(state, 3, "", code="unknown_action")


def test_no_action_is_accepted_once_the_hand_is_over():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    state = play(state, [(3, "fold"), (0, "fold"), (1, "fold")])
    assert state.is_over
    refused(state, 2, "check", code="hand_over")
    refused(state, 2, "fold", code="hand_over")


def test_a_refused_action_does_not_change_the_state_even_mid_hand():
    state = act(_limped_flop(), 1, "bet", to=300)
    before = engine.state_to_json(state)
    for seat, action, to in [(2, "raise", 301), (2, "raise", 10**9), (3, "call", None),
                             (2, "bet", 600), (2, "check", None)]:
        refused(state, seat, action, to=to)
    assert engine.state_to_json(state) == before
    assert act(state, 2, "call").committed[2] == 400
