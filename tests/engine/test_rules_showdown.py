"""RULES.md section 4, the showdown: which hand wins (best five of seven, rankings, ties) and
which hands are shown or mucked, including an uncontested winner's choice to show."""

import pytest

from tests.engine.conftest import (
    DRY_BOARD,
    PAIRS,
    assert_chips_conserved,
    cards_in,
    check_down,
    deal,
    engine,
    nl,
    play,
    refused,
    seat_view,
)

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
