"""RULES.md section 5's outcomes in the engine: a turn timer running out (apply_timeout) and a
disconnect with or without all-in protection (apply_disconnect), uncalled bets and forfeits."""

from tests.engine.conftest import (
    DRY_BOARD,
    PAIRS,
    act,
    assert_chips_conserved,
    check_down,
    deal,
    engine,
    nl,
    play,
    pots_of,
    seat_view,
)

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
