"""RULES.md section 3, the raising rules bullet by bullet (min_raise, raise_cap, calling all
in, the end of a round), against docs/engine-api.md. test_rules_betting.py has the rest."""

import pytest

from tests.engine.conftest import (
    FL_STACKS,
    FOUR_DEEP,
    SIX_DEEP,
    act,
    assert_chips_conserved,
    check_down,
    deal,
    engine,
    fixed_limit,
    limped_flop,
    nl,
    play,
    refused,
    seat_view,
)

# --- RULES.md 3: "min_raise=full (the Poker TDA rules): the smallest bet is the big blind ...;
# a raise must add at least the largest bet or raise increment of this round. An all-in that
# adds less is allowed, but it does not reopen raising to a player who already acted, unless
# the all-ins since that player acted add up to at least a full raise. The smallest raise-to
# is therefore current bet + that increment, or all in." -----------------------------------------


def test_min_raise_full_smallest_bet_after_the_flop_is_the_big_blind():
    state = limped_flop()
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
    state = act(limped_flop(), 1, "bet", to=300)
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
    state = play(state, [(3, "raise", 200), (4, "all_in"), (0, "all_in"), (1, "fold"), (2, "call")])
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
    state = play(state, [(3, "raise", 200), (4, "all_in"), (0, "all_in"), (1, "fold"), (2, "call")])
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
    refused(
        state,
        legal.seat,
        "raise",
        to=legal.current_bet + 100,
        code="raise_capped",
        message=f"raising is capped after {cap} raise",
    )


def test_raise_cap_three_allows_a_bet_and_three_raises_after_the_flop():
    state = limped_flop(nl(raise_cap=3))
    state = play(state, [(1, "bet", 100), (2, "raise", 200), (3, "raise", 300), (0, "raise", 400)])
    legal = engine.legal_actions(state)
    assert legal.seat == 1 and legal.can_raise is False
    assert "raise" not in legal.actions
    refused(
        state, 1, "raise", to=500, code="raise_capped", message="raising is capped after 3 raises"
    )
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
    state = limped_flop()
    state = play(state, [(1, "check"), (2, "check"), (3, "check")])
    assert state.street == "flop" and state.to_act == 0
    state = act(state, 0, "check")
    assert state.street == "turn"


def test_a_raise_gives_players_who_already_called_another_turn():
    state = limped_flop()
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
    state = act(limped_flop(), 1, "check")
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
    refused(
        state, 0, "raise", to=500, code="raise_capped", message="raising is capped after 3 raises"
    )


def test_checking_when_facing_a_bet_is_refused():
    state, _ = deal(nl(), FOUR_DEEP, 0)
    refused(state, 3, "check")
    state = act(limped_flop(), 1, "bet", to=200)
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
    state = limped_flop()
    refused(state, 1, "bet", to=amount)


def test_a_bet_amount_of_true_is_not_one_chip():
    # min_raise=any after the flop: if True were read as 1 it could look like a bet.
    state = limped_flop(nl(min_raise="any"))
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
    state = act(limped_flop(), 1, "bet", to=300)
    before = engine.state_to_json(state)
    for seat, action, to in [
        (2, "raise", 301),
        (2, "raise", 10**9),
        (3, "call", None),
        (2, "bet", 600),
        (2, "check", None),
    ]:
        refused(state, seat, action, to=to)
    assert engine.state_to_json(state) == before
    assert act(state, 2, "call").committed[2] == 400
