"""RULES.md section 4 (pots and showdown) and section 5's timer outcomes, against the engine.

Hands are played through start_hand/apply_action with rigged decks; every test checks that
no chip is created or lost.
"""

import pytest

from tests.engine.conftest import (
    act,
    assert_chips_conserved,
    cards_in,
    check_down,
    deal,
    engine,
    hand_options,
    play,
    refused,
    seat_view,
)

# A board no pocket pair below can improve to more than one pair (no straight, no flush draw
# completes): pocket pairs rank by their own rank.
DRY_BOARD = ("2c", "7d", "9h", "Js", "4s")
PAIRS = {
    "A": ("Ac", "Ad"),
    "K": ("Kc", "Kd"),
    "Q": ("Qc", "Qd"),
    "T": ("Tc", "Td"),
    "8": ("8c", "8d"),
    "6": ("6c", "6d"),
    "5": ("5c", "5d"),
    "3": ("3c", "3d"),
}


def nl(**overrides):
    return hand_options(**overrides)


def pots_of(state):
    return [(pot.amount, set(pot.eligible)) for pot in state.result.pots]


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


# --- RULES.md 4: "Best five of seven cards; any combination of hole and board cards, the board
# may play." and "ties are broken by the ranks of the five cards only, never by unused cards" ---


def _heads_up_check_down(holes, board, stacks=None):
    stacks = stacks or {0: 1_000, 1: 1_000}
    state, _ = deal(nl(), stacks, 0, holes=holes, board=board)
    state = check_down(state)  # each puts in the big blind: pot 200
    assert_chips_conserved(state, stacks)
    return state


def test_when_the_board_is_everyones_best_hand_the_pot_is_split():
    # The board is a 5-to-9 straight; neither player's cards improve it.
    state = _heads_up_check_down({0: ("2d", "2h"), 1: ("Kd", "Qh")}, ("5c", "6d", "7h", "8s", "9c"))
    assert set(state.result.pots[0].winners) == {0, 1}
    assert state.result.final_stacks == {0: 1_000, 1: 1_000}


def test_a_hand_may_use_a_single_hole_card():
    # Four hearts on board: one heart in the hand makes a flush, beating trip aces.
    state = _heads_up_check_down({0: ("Qh", "4s"), 1: ("As", "Ad")}, ("Ah", "Kh", "7h", "2h", "3d"))
    assert state.result.final_stacks == {0: 1_100, 1: 900}
    assert state.result.best[0]["category"] == "flush"


def test_unused_cards_never_break_a_tie():
    # Both play A K Q J 8; the 2 and the 4 do not count.
    state = _heads_up_check_down({0: ("Jc", "2d"), 1: ("Jd", "4c")}, ("Ah", "Kd", "Qc", "8s", "3h"))
    assert state.result.final_stacks == {0: 1_000, 1: 1_000}


# RULES.md 4: "Rankings: straight flush (royal is the highest), four of a kind, ... Ace is high,
# or low in 5-4-3-2-A; no wrap-around" -- as it decides a showdown (the evaluator has its own
# tests).
@pytest.mark.parametrize(
    ("winner_hole", "loser_hole", "board", "category"),
    [
        (("Qh", "Kh"), ("9s", "9d"), ("9h", "Th", "Jh", "9c", "2s"), "straight flush"),
        (("Ad", "5s"), ("Kd", "Ks"), ("2c", "3d", "4h", "Kc", "Qd"), "straight"),  # the wheel
        (("6s", "5d"), ("Ad", "5s"), ("2c", "3d", "4h", "Kc", "Qd"), "straight"),
        (("7d", "5s"), ("3d", "4h"), ("Qc", "Kd", "Ah", "2s", "7c"), "one pair"),  # Q-K-A-2-3
    ],
)
def test_the_better_ranked_hand_wins_the_showdown(winner_hole, loser_hole, board, category):
    state = _heads_up_check_down({0: winner_hole, 1: loser_hole}, board)
    assert state.result.final_stacks == {0: 1_100, 1: 900}
    assert state.result.best[0]["category"] == category


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


# --- RULES.md 4: "Showdown order: the last aggressor of the final round shows first, else the
# first active player left of the button. With auto_muck a losing hand that is beaten by a hand
# already shown is not revealed. Folded hands are never revealed. A player who wins uncontested
# may choose to show." -----------------------------------------------------------------------------

SHOWDOWN_STACKS = {1: 5_000, 2: 5_000, 3: 5_000}


def _to_the_river(holes, auto_muck=None):
    # Seats 1-3, button 3: blinds 1 and 2, preflop order 3 1 2, afterwards 1 2 3.
    state, _ = deal(nl(), SHOWDOWN_STACKS, 3, holes=holes, board=DRY_BOARD, auto_muck=auto_muck)
    state = play(state, [(3, "call"), (1, "call"), (2, "check")])
    for _ in ("flop", "turn"):
        state = play(state, [(1, "check"), (2, "check"), (3, "check")])
    assert state.street == "river"
    return state


def test_the_last_aggressor_shows_first_and_beaten_hands_are_mucked():
    # Seat 2 bets the river with the best hand: it shows first and the others, beaten by a hand
    # already shown, are mucked. (Starting with seat 1 would reveal seat 1's kings.)
    holes = {2: PAIRS["A"], 1: PAIRS["K"], 3: PAIRS["8"]}
    state = _to_the_river(holes)
    state = play(state, [(1, "check"), (2, "bet", 100), (3, "call"), (1, "call")])
    assert state.is_over
    assert set(state.result.shown) == {2}
    assert set(state.result.shown[2]) == set(PAIRS["A"])
    spectator = engine.view(state, None)
    assert cards_in(spectator) & (set(PAIRS["K"]) | set(PAIRS["8"])) == set()
    assert_chips_conserved(state, SHOWDOWN_STACKS)


def test_without_a_river_bet_the_first_active_player_left_of_the_button_shows_first():
    holes = {1: PAIRS["A"], 2: PAIRS["K"], 3: PAIRS["8"]}
    state = check_down(_to_the_river(holes))
    assert set(state.result.shown) == {1}
    assert_chips_conserved(state, SHOWDOWN_STACKS)


def test_each_hand_that_beats_every_hand_shown_so_far_is_revealed():
    # Order 1, 2, 3 with hands getting better each time: all three must show.
    holes = {1: PAIRS["8"], 2: PAIRS["K"], 3: PAIRS["A"]}
    state = check_down(_to_the_river(holes))
    assert set(state.result.shown) == {1, 2, 3}
    assert_chips_conserved(state, SHOWDOWN_STACKS)


def test_without_auto_muck_a_beaten_hand_is_offered_show_or_muck():
    # RULES.md 4: "without it the player is offered Show or Muck (muck when time runs out)".
    holes = {2: PAIRS["A"], 1: PAIRS["K"], 3: PAIRS["8"]}
    state = _to_the_river(holes, auto_muck={1: False, 3: False})
    state = play(state, [(1, "check"), (2, "bet", 100), (3, "call"), (1, "call")])
    assert set(state.result.shown) == {2} and set(state.result.undecided) == {1, 3}
    shown, _ = engine.show_hand(state, 1)
    assert set(shown.result.shown[1]) == set(PAIRS["K"])
    mixed = _to_the_river(holes, auto_muck={1: False})
    mixed = play(mixed, [(1, "check"), (2, "bet", 100), (3, "call"), (1, "call")])
    assert (
        set(mixed.result.shown) == {2}
        and mixed.result.undecided == (1,)
        and mixed.result.mucked == (3,)
    )


def test_folded_hands_are_never_revealed():
    holes = {2: PAIRS["A"], 1: PAIRS["K"], 3: PAIRS["8"]}
    state = _to_the_river(holes, auto_muck={1: False, 3: False})
    state = play(state, [(1, "check"), (2, "bet", 100), (3, "fold"), (1, "call")])
    assert state.is_over
    assert 3 not in state.result.shown
    for viewer in (None, 1, 2):
        assert cards_in(engine.view(state, viewer)) & set(PAIRS["8"]) == set()
    assert_chips_conserved(state, SHOWDOWN_STACKS)


def _uncontested():
    stacks = dict.fromkeys(range(4), 10000)
    state, _ = deal(nl(), stacks, 0, holes={3: PAIRS["A"]})
    state = play(state, [(3, "raise", 300), (0, "fold"), (1, "fold"), (2, "fold")])
    assert state.is_over and state.result.uncontested
    return state, stacks


def test_an_uncontested_winner_is_not_shown_unless_they_choose_to_show():
    state, stacks = _uncontested()
    assert state.result.shown == {}
    assert cards_in(engine.view(state, None)) == set()
    shown, events = engine.show_hand(state, 3)
    assert set(shown.result.shown) == {3}
    assert set(shown.result.shown[3]) == set(PAIRS["A"])
    assert any(event.kind == "hand_shown" for event in events)
    assert cards_in(engine.view(shown, None)) == set(PAIRS["A"])
    player_view = engine.view(shown, 1)
    own = set(seat_view(player_view, 1).get("hole") or ())
    assert cards_in(player_view) - own == set(PAIRS["A"])
    assert shown.result.final_stacks == state.result.final_stacks
    assert_chips_conserved(shown, stacks)


def test_only_the_uncontested_winner_may_show_and_only_after_the_hand():
    state, _ = _uncontested()
    refused(state, 0, "show", call=lambda: engine.show_hand(state, 0))
    refused(state, 2, "show", call=lambda: engine.show_hand(state, 2))
    running, _ = deal(nl(), dict.fromkeys(range(4), 10000), 0)
    refused(running, 3, "show", call=lambda: engine.show_hand(running, 3))
    showdown = check_down(running)
    assert not showdown.result.uncontested
    winner = next(seat for seat, chips in showdown.result.payouts.items() if chips)
    refused(showdown, winner, "show", call=lambda: engine.show_hand(showdown, winner))


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


# --- RULES.md 5: "Each turn lasts turn_seconds. When it runs out: check if nothing is owed, else
# fold." (apply_timeout) ---------------------------------------------------------------------------

FOUR = dict.fromkeys(range(4), 10000)


def _limped_flop():
    state, _ = deal(nl(), FOUR, 0)
    return play(state, [(3, "call"), (0, "call"), (1, "call"), (2, "check")])


def test_a_timeout_checks_when_nothing_is_owed():
    state = _limped_flop()
    state, _ = engine.apply_timeout(state, 1)
    assert seat_view(engine.view(state, None), 1)["folded"] is False
    assert state.to_act == 2 and state.street == "flop"
    assert state.committed[1] == 100
    assert_chips_conserved(state, FOUR)


def test_a_timeout_of_the_big_blind_with_the_option_checks():
    state, _ = deal(nl(), FOUR, 0)
    state = play(state, [(3, "call"), (0, "call"), (1, "call")])
    state, _ = engine.apply_timeout(state, 2)
    assert state.street == "flop"
    assert seat_view(engine.view(state, None), 2)["folded"] is False


def test_a_timeout_folds_when_a_bet_is_owed():
    state = act(_limped_flop(), 1, "bet", to=300)
    state, _ = engine.apply_timeout(state, 2)
    assert seat_view(engine.view(state, None), 2)["folded"] is True
    assert state.committed[2] == 100 and state.to_act == 3
    assert_chips_conserved(state, FOUR)


def test_a_timeout_for_a_seat_that_is_not_to_act_never_acts_for_it():
    state = _limped_flop()
    before = engine.state_to_json(state)
    try:
        after, _ = engine.apply_timeout(state, 3)
    except engine.IllegalAction:
        after = state
    assert engine.state_to_json(after) == before
    assert engine.state_to_json(state) == before


# --- RULES.md 5: "disconnect=all_in_protection: a player who disconnects while in a hand is
# treated as all in for what they have already put in (side pot rules apply)"; otherwise folded.
# (apply_disconnect with protect=True / protect=False) ---------------------------------------------

THREE = {0: 10_000, 1: 10_000, 2: 10_000}


def _three_handed_flop(holes):
    # Seats 0-2, button 0: everyone puts in 100; flop order 1 2 0.
    state, _ = deal(nl(), THREE, 0, holes=holes, board=DRY_BOARD)
    return play(state, [(0, "call"), (1, "call"), (2, "check")])


def test_a_protected_player_stays_in_for_what_they_put_in_and_side_pots_apply():
    state = _three_handed_flop({1: PAIRS["A"], 2: PAIRS["K"], 0: PAIRS["Q"]})
    state, _ = engine.apply_disconnect(state, 1, protect=True)
    assert seat_view(engine.view(state, None), 1)["protected"] is True
    assert state.to_act == 2
    state = play(state, [(2, "bet", 500), (0, "call")])
    for _ in range(20):
        if state.is_over:
            break
        assert state.to_act != 1
        state = act(state, state.to_act, "check")
    assert state.is_over
    assert pots_of(state) == [(300, {0, 1, 2}), (1_000, {0, 2})]
    assert state.result.final_stacks == {0: 9_400, 1: 10_200, 2: 10_400}
    assert 1 in state.result.shown
    assert_chips_conserved(state, THREE)


def test_protection_may_start_while_another_player_is_to_act():
    state = _three_handed_flop({0: PAIRS["A"], 1: PAIRS["K"], 2: PAIRS["Q"]})
    assert state.to_act == 1
    state, _ = engine.apply_disconnect(state, 0, protect=True)
    assert state.to_act == 1
    state = play(state, [(1, "bet", 500), (2, "call")])
    state = check_down(state)
    assert pots_of(state) == [(300, {0, 1, 2}), (1_000, {1, 2})]
    assert state.result.final_stacks == {0: 10_200, 1: 10_400, 2: 9_400}
    assert_chips_conserved(state, THREE)


def test_a_protected_player_facing_a_raise_is_all_in_for_what_they_had_put_in():
    # Seat 0 raises to 300, the small blind folds, the big blind (100 in) disconnects: it stays
    # in for 100; nobody else can bet, so the board is dealt out and 200 goes back to seat 0.
    holes = {2: PAIRS["A"], 0: PAIRS["K"]}
    state, _ = deal(nl(), THREE, 0, holes=holes, board=DRY_BOARD)
    state = play(state, [(0, "raise", 300), (1, "fold")])
    state, _ = engine.apply_disconnect(state, 2, protect=True)
    assert state.is_over and len(state.board) == 5
    assert state.result.final_stacks == {0: 9_900, 1: 9_950, 2: 10_150}
    assert_chips_conserved(state, THREE)


def test_heads_up_protection_runs_the_board_out_and_returns_the_uncalled_bet():
    stacks = {3: 10_000, 8: 10_000}
    state, _ = deal(nl(), stacks, 8, holes={3: PAIRS["A"], 8: PAIRS["K"]}, board=DRY_BOARD)
    state = play(state, [(8, "call"), (3, "check"), (3, "check"), (8, "bet", 300)])
    state, _ = engine.apply_disconnect(state, 3, protect=True)
    assert state.is_over and len(state.board) == 5
    assert state.result.final_stacks == {3: 10_100, 8: 9_900}
    assert_chips_conserved(state, stacks)


def test_disconnect_without_protection_folds_at_once_even_out_of_turn():
    state, _ = deal(nl(), FOUR, 0)
    assert state.to_act == 3
    state, _ = engine.apply_disconnect(state, 0, protect=False)
    assert seat_view(engine.view(state, None), 0)["folded"] is True
    assert state.to_act == 3
    state = play(state, [(3, "call"), (1, "call"), (2, "check")])
    assert state.street == "flop"
    state = check_down(state)
    assert 0 not in state.result.shown
    assert state.result.net[0] == 0
    assert_chips_conserved(state, FOUR)


def test_disconnect_without_protection_of_the_last_opponent_ends_the_hand():
    stacks = {3: 10_000, 8: 10_000}
    state, _ = deal(nl(), stacks, 8)
    assert state.to_act == 8
    state, _ = engine.apply_disconnect(state, 3, protect=False)
    assert state.is_over and state.result.uncontested
    assert state.result.final_stacks == {3: 9_900, 8: 10_100}
    assert_chips_conserved(state, stacks)


def test_a_player_who_disconnects_without_protection_forfeits_all_they_put_in():
    # The big blind folds out of turn; the others fold to the small blind, who wins the 150.
    # RULES.md 3: only "the uncalled part of a bet" of the player left is returned; a folded
    # player forfeits their bets [003].
    state, _ = deal(nl(), FOUR, 0)
    state, _ = engine.apply_disconnect(state, 2, protect=False)
    state = play(state, [(3, "fold"), (0, "fold")])
    assert state.is_over and state.result.uncontested
    assert state.result.final_stacks == {0: 10_000, 1: 10_100, 2: 9_900, 3: 10_000}
    assert 2 not in state.result.returned
    assert_chips_conserved(state, FOUR)


def test_the_last_player_left_wins_chips_put_in_only_by_players_who_folded():
    # Both blinds disconnect and fold before anyone acts; UTG folds too. The button, who has put
    # nothing in, is the only player left: RULES.md 3 "the pot is theirs at once" (150 chips).
    state, _ = deal(nl(), FOUR, 0)
    state, _ = engine.apply_disconnect(state, 1, protect=False)
    state, _ = engine.apply_disconnect(state, 2, protect=False)
    state = act(state, 3, "fold")
    assert state.is_over and state.result.uncontested
    assert state.result.final_stacks == {0: 10_150, 1: 9_950, 2: 9_900, 3: 10_000}
    assert_chips_conserved(state, FOUR)


def test_chips_of_folded_players_go_to_the_players_still_in_even_if_they_put_in_nothing():
    # Both blinds fold out of turn; UTG, with nothing put in, disconnects under all-in
    # protection, so only the button can still bet: the board is dealt out (RULES.md 3). The
    # 150 chips of the folded blinds are forfeit [003] and go to the players still in.
    holes = {0: PAIRS["A"], 3: PAIRS["K"]}
    state, _ = deal(nl(), FOUR, 0, holes=holes, board=DRY_BOARD)
    state, _ = engine.apply_disconnect(state, 1, protect=False)
    state, _ = engine.apply_disconnect(state, 2, protect=False)
    state, _ = engine.apply_disconnect(state, 3, protect=True)
    assert state.is_over
    final = state.result.final_stacks
    assert (final[1], final[2]) == (9_950, 9_900)
    assert final[0] + final[3] == 20_150
    assert_chips_conserved(state, FOUR)
