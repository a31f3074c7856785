"""Settling a hand: pots, rake, winners, who shows and who mucks (RULES.md 4).

`settle` pays a finished hand, whether it went to showdown or was won uncontested.
"""

from collections.abc import Sequence
from typing import Any

from holdem.engine.cards import parse_card
from holdem.engine.evaluator import best_five, evaluate_ints
from holdem.engine.events import Event, HandEnded, Mucked, PotAwarded, ShowdownShown
from holdem.engine.frozen import FrozenDict
from holdem.engine.names import OVER, SHOWDOWN
from holdem.engine.pots import Pot, Stake, pot_rakes, side_pots, split_pot
from holdem.engine.state import HandResult, HandState, PlayerState, PotResult

# What the showdown reveals: HandResult's shown, best, mucked and undecided.
Reveal = tuple[dict[int, tuple[str, ...]], dict[int, FrozenDict[str, Any]], list[int], list[int]]


def clockwise(players: tuple[PlayerState, ...], start: int) -> list[PlayerState]:
    return list(players[start:] + players[:start])


def showdown_order(state: HandState) -> list[PlayerState]:
    """RULES.md 4: the last aggressor of the final round shows first, else the first active
    player left of the button; then clockwise."""
    start = state.lead_index
    if state.aggressor is not None:
        aggressor = state.index_of(state.aggressor)
        # (a folded aggressor folded out of turn: RULES.md 5)
        if aggressor is not None and not state.players[aggressor].folded:
            start = aggressor
    return [player for player in clockwise(state.players, start) if not player.folded]


def hand_pots(players: Sequence[PlayerState], gathered_only: bool = False) -> tuple[Pot, ...]:
    """The pots, eligible seats listed in the order of `players`. `gathered_only`: leave out
    the bets of the round in progress (a player all in this round marks no level yet)."""
    if gathered_only:
        return side_pots(
            [
                Stake(
                    p.seat,
                    p.committed - p.bet - p.dead,
                    p.dead,
                    not p.folded,
                    (p.stack == 0 or p.protected) and not p.bet,
                )
                for p in players
            ]
        )
    return side_pots(
        [
            Stake(p.seat, p.committed - p.dead, p.dead, not p.folded, p.stack == 0 or p.protected)
            for p in players
        ]
    )


def settle(state: HandState, tabled: bool = False) -> tuple[HandState, list[Event]]:
    """Award every pot of `state` (its board complete, or one player left) and end the hand.
    `tabled`: the hands were turned face up for an all-in run-out; nobody may muck."""
    ring = clockwise(state.players, state.lead_index)  # clockwise from the button
    contenders = [player for player in ring if not player.folded]
    uncontested = len(contenders) == 1
    pots = hand_pots(ring)
    # RULES.md 4: rake only from pots that saw a flop ("no flop, no drop").
    if len(state.board) >= 3 and state.options.rake_percent:
        rakes = pot_rakes(
            [pot.amount for pot in pots], state.options.rake_percent, state.options.rake_cap
        )
    else:
        rakes = (0,) * len(pots)

    events: list[Event] = []
    values: dict[int, int] = {}
    reveal: Reveal = ({}, {}, [], [])
    if not uncontested:
        board = [parse_card(card) for card in state.board]
        for player in contenders:
            first, second = player.hole
            values[player.seat] = evaluate_ints([parse_card(first), parse_card(second), *board])
        reveal = _reveal(state, pots, values, events, tabled)
    shown, best, mucked, undecided = reveal

    payouts = {player.seat: 0 for player in state.players}
    pot_results = []
    for index, (pot, rake) in enumerate(zip(pots, rakes)):
        eligible = pot.eligible
        if len(eligible) == 1 or uncontested:
            winners = eligible[:1]
        else:
            top = max(values[seat] for seat in eligible)
            winners = tuple(seat for seat in eligible if values[seat] == top)
        # RULES.md 4: each pot is split on its own; odd chips to the first winner clockwise.
        shares = split_pot(pot.amount - rake, winners)
        for seat, chips in shares.items():
            payouts[seat] += chips
        pot_result = PotResult(
            amount=pot.amount,
            eligible=tuple(sorted(eligible)),
            winners=tuple(sorted(winners)),
            shares=FrozenDict(shares),
            rake=rake,
        )
        pot_results.append(pot_result)
        events.append(
            PotAwarded(
                index=index,
                amount=pot.amount,
                rake=rake,
                eligible=pot_result.eligible,
                winners=pot_result.winners,
                shares=pot_result.shares,
            )
        )

    players = tuple(
        p.replace(stack=p.stack + payouts[p.seat], bet=0) if payouts[p.seat] or p.bet else p
        for p in state.players
    )
    rake_total = sum(rakes)
    final_stacks = FrozenDict({p.seat: p.stack for p in players})
    net = FrozenDict({p.seat: payouts[p.seat] - p.committed for p in players})
    result = HandResult(
        pots=tuple(pot_results),
        rake=rake_total,
        payouts=FrozenDict(payouts),
        final_stacks=final_stacks,
        net=net,
        shown=FrozenDict(shown),
        best=FrozenDict(best),
        uncontested=uncontested,
        returned=FrozenDict({p.seat: p.returned for p in players if p.returned}),
        mucked=tuple(mucked),
        undecided=tuple(undecided),
    )
    events.append(
        HandEnded(
            uncontested=uncontested,
            rake=rake_total,
            payouts=result.payouts,
            net=net,
            final_stacks=final_stacks,
        )
    )
    street = OVER if uncontested else SHOWDOWN
    return state.replace(players=players, street=street, actor=None, result=result), events


def _reveal(
    state: HandState,
    pots: Sequence[Pot],
    values: dict[int, int],
    events: list[Event],
    tabled: bool,
) -> Reveal:
    """RULES.md 4 [003]: a hand that could still win or tie any pot is always shown. One that,
    for every pot it can win, a hand already shown beats is mucked with auto-muck, and left to
    its player's choice (show or muck) without it. Hands tabled for an all-in run-out are all
    shown. Folded hands are never revealed."""
    shown: dict[int, tuple[str, ...]] = {}
    best: dict[int, FrozenDict[str, Any]] = {}
    mucked: list[int] = []
    undecided: list[int] = []
    best_shown = [-1] * len(pots)  # per pot, the best value shown so far among its eligible
    for player in showdown_order(state):
        seat = player.seat
        value = values[seat]
        mine = [index for index, pot in enumerate(pots) if seat in pot.eligible]
        if not tabled and all(best_shown[index] > value for index in mine):
            if player.auto_muck:
                mucked.append(seat)
                events.append(Mucked(seat))
            else:
                undecided.append(seat)
            continue
        for index in mine:
            if value > best_shown[index]:
                best_shown[index] = value
        hand = best_five(player.hole + state.board)
        shown[seat] = player.hole
        best[seat] = FrozenDict(category=hand.category, cards=hand.cards)
        events.append(
            ShowdownShown(seat=seat, hole=player.hole, category=hand.category, cards=hand.cards)
        )
    return shown, best, mucked, undecided
