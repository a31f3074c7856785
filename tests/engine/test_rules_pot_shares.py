"""RULES.md section 4, who gets which chips: side pots and who is eligible, equal hands and odd
chips, rake, net profit. Hands played through the engine with rigged decks; chips conserved."""

import pytest

from tests.engine.conftest import (
    DRY_BOARD,
    PAIRS,
    assert_chips_conserved,
    check_down,
    deal,
    engine,
    nl,
    play,
    pots_of,
)

# --- RULES.md 4: "Every player can win from each other player at most what they put in
# themselves: side pots, one per all-in level, each with its own eligible players. The worked
# example in [000] (players 1-4 put 500, player 5 all in 400, player 6 all in 200; pots 1,200 /
# 1,000 / 400) is a test case, in all three of its winner orders." ---------------------------------

WORKED_STACKS = {1: 2_000, 2: 2_000, 3: 2_000, 4: 2_000, 5: 400, 6: 200}


def _worked_example(ranks):
    """Players 1-6 in seats 1-6, button 4 (blinds 5 and 6), `ranks` seat -> pocket pair rank."""
    holes = {seat: PAIRS[rank] for seat, rank in ranks.items()}
    state, _ = deal(nl(), WORKED_STACKS, 4, holes=holes, board=DRY_BOARD)
    # Preflop order 1 2 3 4 5 6: player 1 makes it 500, 2-4 call, 5 and 6 call all in.
    state = play(
        state, [(1, "raise", 500), (2, "call"), (3, "call"), (4, "call"), (5, "call"), (6, "call")]
    )
    assert state.committed == {1: 500, 2: 500, 3: 500, 4: 500, 5: 400, 6: 200}
    # [003]: the pot is split to show the all-in levels; the view lists the pots as they stand.
    assert state.street == "flop"
    assert [(pot["amount"], set(pot["eligible"])) for pot in engine.view(state, None)["pots"]] == [
        (1_200, {1, 2, 3, 4, 5, 6}),
        (1_000, {1, 2, 3, 4, 5}),
        (400, {1, 2, 3, 4}),
    ]
    state = check_down(state)  # players 1-4 check the flop, turn and river
    assert state.is_over
    assert pots_of(state) == [
        (1_200, {1, 2, 3, 4, 5, 6}),
        (1_000, {1, 2, 3, 4, 5}),
        (400, {1, 2, 3, 4}),
    ]
    assert_chips_conserved(state, WORKED_STACKS)
    return state


def _won(state):
    return {seat: chips for seat, chips in state.result.payouts.items() if chips}


def test_worked_example_player_1_best_wins_all_2600():
    state = _worked_example({1: "A", 2: "K", 3: "Q", 4: "T", 5: "8", 6: "6"})
    assert _won(state) == {1: 2_600}
    assert [set(pot.winners) for pot in state.result.pots] == [{1}, {1}, {1}]
    # RULES.md 4: "The winner's seat shows the net profit (won minus put in)"
    assert state.result.net == {1: 2_100, 2: -500, 3: -500, 4: -500, 5: -400, 6: -200}


def test_worked_example_player_5_best_wins_2200_and_the_best_of_1_to_4_takes_400():
    state = _worked_example({5: "A", 2: "K", 1: "Q", 3: "T", 4: "8", 6: "6"})
    assert _won(state) == {5: 2_200, 2: 400}
    assert [dict(pot.shares) for pot in state.result.pots] == [{5: 1_200}, {5: 1_000}, {2: 400}]
    assert state.result.net == {1: -500, 2: -100, 3: -500, 4: -500, 5: 1_800, 6: -200}
    # Player 2's hand wins a pot, so it is revealed even though a better hand was shown.
    assert {2, 5} <= set(state.result.shown)


def test_worked_example_player_6_best_wins_1200_then_5_wins_1000_then_best_of_1_to_4_400():
    state = _worked_example({6: "A", 5: "K", 3: "Q", 1: "T", 2: "8", 4: "6"})
    assert _won(state) == {6: 1_200, 5: 1_000, 3: 400}
    assert [dict(pot.shares) for pot in state.result.pots] == [{6: 1_200}, {5: 1_000}, {3: 400}]
    assert state.result.net == {1: -500, 2: -500, 3: -100, 4: -500, 5: 600, 6: 1_000}
    assert {3, 5, 6} <= set(state.result.shown)


def test_an_all_in_player_wins_from_each_other_player_at_most_what_they_put_in():
    # Heads-up: the short stack (300) has the best hand against a 5,000 bet.
    stacks = {0: 10_000, 1: 300}
    holes = {0: PAIRS["K"], 1: PAIRS["A"]}
    state, _ = deal(nl(), stacks, 0, holes=holes, board=DRY_BOARD)
    state = play(state, [(0, "raise", 5_000), (1, "call")])
    assert state.is_over
    assert state.result.final_stacks == {0: 9_700, 1: 600}
    assert_chips_conserved(state, stacks)


# --- RULES.md 4: "Equal hands split the pot. Each pot (main and every side pot) is split on its
# own; the odd chips of a pot that does not divide evenly all go to the first of its winners
# clockwise from the button. Pots are never merged before splitting." ------------------------------


@pytest.mark.parametrize(
    ("button", "small", "big", "first_to_act", "odd_chip_seat"), [(0, 1, 2, 0, 2), (1, 2, 0, 1, 0)]
)
def test_odd_chip_goes_to_the_first_winner_clockwise_from_the_button(
    button, small, big, first_to_act, odd_chip_seat
):
    # Blinds 25/50; the small blind folds its 25, the other two tie: pot 125 = 63 + 62.
    stacks = {0: 1_000, 1: 1_000, 2: 1_000}
    holes = {button: ("Ac", "Kd"), big: ("Ad", "Kc"), small: PAIRS["3"]}
    state, _ = deal(nl(small_blind=25, big_blind=50), stacks, button, holes=holes, board=DRY_BOARD)
    state = play(state, [(first_to_act, "call"), (small, "fold"), (big, "check")])
    state = check_down(state)
    pot = state.result.pots[0]
    assert pot.amount == 125 and set(pot.winners) == {button, big}
    other = button if odd_chip_seat == big else big
    assert dict(pot.shares) == {odd_chip_seat: 63, other: 62}
    assert_chips_conserved(state, stacks)


def test_each_pot_is_split_on_its_own_with_its_own_odd_chip():
    # Seats 0-4, button 0, blinds 5/10, min_raise=any. Put in: seat 1 (small blind) 5 and folds,
    # seat 2 (big blind) 100 all in, seat 3 133 and folds, seats 4 and 0 200 each with equal
    # hands. Main pot 5 + 4 x 100 = 405 for seats 2, 4, 0; side pot 33 + 2 x 100 = 233 for 4, 0.
    # Per pot the odd chip goes to seat 4 (first winner left of the button): 203 + 117 = 320 and
    # 202 + 116 = 318. Merging (638 / 2 = 319 each) or paying the button/lowest seat would differ.
    stacks = {0: 1_000, 1: 1_000, 2: 100, 3: 1_000, 4: 1_000}
    holes = {4: ("Ac", "Kd"), 0: ("Ad", "Kc"), 2: ("Qh", "Th"), 3: PAIRS["3"], 1: PAIRS["5"]}
    state, _ = deal(
        nl(small_blind=5, big_blind=10, min_raise="any"), stacks, 0, holes=holes, board=DRY_BOARD
    )
    state = play(
        state,
        [
            (3, "raise", 33),
            (4, "call"),
            (0, "call"),
            (1, "fold"),
            (2, "all_in"),
            (3, "raise", 133),
            (4, "call"),
            (0, "call"),
        ],
    )
    assert state.street == "flop"
    state = play(state, [(3, "check"), (4, "bet", 67), (0, "call"), (3, "fold")])
    state = check_down(state)
    assert state.committed == {0: 200, 1: 5, 2: 100, 3: 133, 4: 200}
    assert pots_of(state) == [(405, {0, 2, 4}), (233, {0, 4})]
    assert [dict(pot.shares) for pot in state.result.pots] == [{4: 203, 0: 202}, {4: 117, 0: 116}]
    assert state.result.final_stacks[4] == 1_120
    assert state.result.final_stacks[0] == 1_118
    assert_chips_conserved(state, stacks)


def test_all_odd_chips_of_a_pot_go_to_the_first_winner_clockwise_from_the_button():
    # Seats 0-3, button 0, blinds 20/40: the small blind folds its 20, the other three play the
    # board's straight. Pot 3 x 40 + 20 = 140 = 3 x 46 + 2: both odd chips go to seat 2, the
    # first winner left of the button (not one each to seats 2 and 3).
    stacks = dict.fromkeys(range(4), 1000)
    holes = {0: ("2d", "2h"), 1: ("Qd", "Qh"), 2: ("3d", "3h"), 3: ("Kd", "Kh")}
    state, _ = deal(
        nl(small_blind=20, big_blind=40),
        stacks,
        0,
        holes=holes,
        board=("5c", "6d", "7h", "8s", "9c"),
    )
    state = play(state, [(3, "call"), (0, "call"), (1, "fold"), (2, "check")])
    state = check_down(state)
    pot = state.result.pots[0]
    assert pot.amount == 140 and set(pot.winners) == {0, 2, 3}
    assert dict(pot.shares) == {2: 48, 3: 46, 0: 46}
    assert_chips_conserved(state, stacks)


# --- RULES.md 4: "Rake (if set) is taken from each pot that saw a flop, up to the cap, and is
# recorded." (docs/engine-api.md: rounded down, per pot; the cap is for the whole hand) ---------

RAKE_STACKS = {0: 10_000, 1: 10_000, 2: 410}


def _two_pot_hand(options):
    # Seats 0-2, button 0. Everyone puts in 100 preflop; on the flop seat 1 bets 310, seat 2
    # calls all in (410 in all), seat 0 calls; on the turn seat 1 bets 115 and seat 0 calls.
    # Main pot 3 x 410 = 1,230 (seats 0-2); side pot 2 x 115 = 230 (seats 0, 1).
    holes = {2: PAIRS["A"], 0: PAIRS["K"], 1: PAIRS["Q"]}
    state, _ = deal(options, RAKE_STACKS, 0, holes=holes, board=DRY_BOARD)
    state = play(
        state,
        [
            (0, "call"),
            (1, "call"),
            (2, "check"),
            (1, "bet", 310),
            (2, "call"),
            (0, "call"),
            (1, "bet", 115),
            (0, "call"),
        ],
    )
    state = check_down(state)
    assert pots_of(state) == [(1_230, {0, 1, 2}), (230, {0, 1})]
    assert_chips_conserved(state, RAKE_STACKS)
    return state


def test_rake_is_taken_from_each_pot_that_saw_a_flop_rounded_down_per_pot():
    # 5% of 1,230 = 61.5 -> 61; 5% of 230 = 11.5 -> 11; total 72 (5% of the sum would be 73).
    state = _two_pot_hand(nl(rake_percent=5))
    result = state.result
    assert [pot.rake for pot in result.pots] == [61, 11]
    assert result.rake == 72
    assert [dict(pot.shares) for pot in result.pots] == [{2: 1_169}, {0: 219}]
    assert result.final_stacks == {0: 9_694, 1: 9_475, 2: 1_169}


def test_rake_stops_at_the_cap_for_the_whole_hand():
    state = _two_pot_hand(nl(rake_percent=5, rake_cap=50))
    result = state.result
    assert result.rake == 50
    assert sum(pot.rake for pot in result.pots) == 50
    for pot in result.pots:
        assert sum(pot.shares.values()) + pot.rake == pot.amount


def test_a_fractional_rake_percent_is_rounded_down():
    # 2.5% of 1,230 = 30.75 -> 30; of 230 = 5.75 -> 5.
    state = _two_pot_hand(nl(rake_percent=2.5))
    assert [pot.rake for pot in state.result.pots] == [30, 5]
    assert state.result.rake == 35


def test_no_flop_no_drop():
    stacks = dict.fromkeys(range(4), 10000)
    moves = [(3, "raise", 300), (0, "call"), (1, "fold"), (2, "fold")]
    # Called: the pot of 300 + 300 + 50 + 100 = 750 sees the flop; 10% of it is raked.
    called, _ = deal(nl(rake_percent=10), stacks, 0)
    called = check_down(play(called, moves))
    assert called.result.rake == 75
    assert_chips_conserved(called, stacks)
    # Not called: the hand ends before the flop and nothing is raked.
    folded, _ = deal(nl(rake_percent=10), stacks, 0)
    folded = play(folded, [*moves[:1], (0, "fold"), (1, "fold"), (2, "fold")])
    assert folded.is_over and list(folded.board) == []
    assert folded.result.rake == 0
    assert all(pot.rake == 0 for pot in folded.result.pots)
    assert folded.result.final_stacks[3] == 10_150
    assert_chips_conserved(folded, stacks)


def test_an_uncontested_pot_that_saw_the_flop_is_raked_but_not_the_returned_bet():
    # Four limp (pot 400); on the flop seat 1 bets 500 and everyone folds: 500 comes back,
    # 5% of 400 = 20 is raked, seat 1 gets 380.
    stacks = dict.fromkeys(range(4), 10000)
    state, _ = deal(nl(rake_percent=5), stacks, 0)
    state = play(
        state,
        [
            (3, "call"),
            (0, "call"),
            (1, "call"),
            (2, "check"),
            (1, "bet", 500),
            (2, "fold"),
            (3, "fold"),
            (0, "fold"),
        ],
    )
    assert state.is_over
    assert state.result.returned == {1: 500}
    assert state.result.rake == 20
    assert state.result.final_stacks[1] == 10_280
    assert_chips_conserved(state, stacks)


def test_an_all_in_run_out_saw_the_flop_and_is_raked():
    stacks = {0: 1_000, 1: 1_000}
    state, _ = deal(
        nl(rake_percent=5), stacks, 0, holes={0: PAIRS["A"], 1: PAIRS["K"]}, board=DRY_BOARD
    )
    state = play(state, [(0, "all_in"), (1, "call")])
    assert state.is_over
    assert state.result.rake == 100  # 5% of 2,000
    assert state.result.final_stacks == {0: 1_900, 1: 0}
    assert_chips_conserved(state, stacks)


# --- RULES.md 4: "The winner's seat shows the net profit (won minus put in)." ---------------------


def test_net_profit_is_won_minus_put_in():
    stacks = {0: 10_000, 1: 10_000, 2: 10_000}
    holes = {1: PAIRS["A"], 2: PAIRS["K"], 0: PAIRS["Q"]}
    state, _ = deal(nl(), stacks, 0, holes=holes, board=DRY_BOARD)
    state = play(
        state,
        [(0, "raise", 300), (1, "call"), (2, "call"), (1, "bet", 500), (2, "call"), (0, "fold")],
    )
    state = check_down(state)
    # Put in: seat 0 300, seats 1 and 2 800 each; seat 1 wins 1,900.
    assert state.result.payouts[1] == 1_900
    assert state.result.net == {0: -300, 1: 1_100, 2: -800}
    view = engine.view(state, None)
    assert view["result"] is not None
    assert_chips_conserved(state, stacks)
