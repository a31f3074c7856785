"""Our engine and pokerkit (an independent implementation) agree on random hands: whose turn it
is, the bet and raise bounds, and the final stacks.

Where RULES.md chose differently the hand is skipped, not compared: pokerkit lets a short big
blind lower the bet to call, counts the big blind as no increment (so a short all-in over it
reopens raising), caps fixed limit at four completions not counting the big blind, and gives
odd chips by its own order rather than to the first winner left of the button.
"""

import random

import pytest

from holdem.engine import HandOptions, SeatIn, apply_action, legal_actions, start_hand
from holdem.engine.cards import new_deck, shuffle

pokerkit = pytest.importorskip("pokerkit")
from pokerkit import Automation, FixedLimitTexasHoldem, Mode, NoLimitTexasHoldem  # noqa: E402
from pokerkit.games import (  # noqa: E402
    PotLimitPokerMixin,
    TexasHoldemMixin,
    UnfixedLimitHoldem,
)


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """pokerkit has no pot-limit hold'em class; its parts make one."""

    create_state = classmethod(NoLimitTexasHoldem.create_state.__func__)


AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _pokerkit_state(structure, stacks, ante=0):
    if structure == "fixed_limit":
        return FixedLimitTexasHoldem.create_state(
            AUTOMATIONS, True, ante, (1, 2), 2, 4, stacks, len(stacks), mode=Mode.CASH_GAME
        )
    game = NoLimitTexasHoldem if structure == "no_limit" else PotLimitTexasHoldem
    return game.create_state(
        AUTOMATIONS, True, ante, (1, 2), 2, stacks, len(stacks), mode=Mode.CASH_GAME
    )


def play_both(rng, structure, ante=0):
    """One random hand on both engines; True if compared to the end, False if skipped.
    `ante`: every player's (RULES.md 8), posted before the blinds as dead money."""
    seats = sorted(rng.sample(range(10), rng.randint(2, 6)))
    stacks = [rng.choice([2, 3, 5, 10, 40, 100, 1000]) for _ in seats]
    options = HandOptions(
        structure=structure,
        small_blind=1,
        big_blind=2,
        raise_cap=3 if structure == "fixed_limit" else None,
        ante=ante,
    )
    state, _ = start_hand(
        options,
        [SeatIn(s, c) for s, c in zip(seats, stacks)],
        rng.choice(seats),
        shuffle(new_deck(), rng),
    )
    lead = state.lead_index
    order = state.players[lead:] + state.players[:lead]  # pokerkit's player 0 is left of us
    if state.players[state.big_blind_index].bet < 2:
        return False
    theirs = _pokerkit_state(structure, tuple(p.stack + p.committed for p in order), ante)
    for player in order:
        theirs.deal_hole("".join(player.hole))
    burns = [state.stub[0], state.stub[4], state.stub[6]]
    streets = [state.stub[1:4], state.stub[5:6], state.stub[7:8]]

    def deal_board():
        while theirs.can_burn_card() or theirs.can_deal_board():
            if theirs.can_burn_card():
                theirs.burn_card(burns.pop(0))
            else:
                theirs.deal_board("".join(streets.pop(0)))

    while not state.is_over:
        deal_board()
        legal = legal_actions(state)
        assert theirs.actor_index == [p.seat for p in order].index(legal.seat)
        bounds = (
            theirs.min_completion_betting_or_raising_to_amount,
            theirs.max_completion_betting_or_raising_to_amount,
        )
        if structure == "fixed_limit" and state.street == "preflop" and state.raises == 3:
            return False
        smallest_bet = options.bet_size(state.street) if structure == "fixed_limit" else 2
        if (
            bounds != (legal.min_to, legal.max_to)
            and theirs.completion_betting_or_raising_amount < smallest_bet
        ):
            return False
        assert bounds == (legal.min_to, legal.max_to)
        choices = [a for a in legal.actions if not (a == "fold" and "check" in legal.actions)]
        action = rng.choice(choices)
        to = rng.randint(legal.min_to, legal.max_to) if action in ("bet", "raise") else None
        state, _ = apply_action(state, legal.seat, action, to)
        if action == "fold":
            theirs.fold()
        elif action in ("check", "call") or (
            action == "all_in" and legal.all_in_to <= legal.current_bet
        ):
            theirs.check_or_call()
        else:
            theirs.complete_bet_or_raise_to(to if to is not None else legal.all_in_to)
    while theirs.status:
        if theirs.actor_index is not None:
            # pokerkit asks a lone player with nothing to call to check; we skip that turn.
            assert theirs.checking_or_calling_amount == 0
            theirs.check_or_call()
        deal_board()
    result = state.result
    if any(
        len(pot.winners) > 1 and (pot.amount - pot.rake) % len(pot.winners) for pot in result.pots
    ):
        return False
    assert list(theirs.stacks) == [result.final_stacks[p.seat] for p in order]
    return True


@pytest.mark.parametrize("structure", ["no_limit", "pot_limit", "fixed_limit"])
def test_random_hands_end_with_the_same_stacks_as_pokerkit(structure):
    rng = random.Random(structure)
    compared = sum(play_both(rng, structure) for _ in range(150))
    assert compared >= 100


@pytest.mark.parametrize("structure", ["no_limit", "pot_limit", "fixed_limit"])
def test_random_hands_with_antes_end_with_the_same_stacks_as_pokerkit(structure):
    """RULES.md 8: antes posted by everyone before the blinds, as dead money; a stack short of
    the ante all in for what it has, eligible for as much from each player."""
    rng = random.Random(f"{structure}-ante")
    compared = sum(play_both(rng, structure, ante=rng.choice([1, 2])) for _ in range(150))
    assert compared >= 80
