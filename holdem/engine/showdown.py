"""Settling a hand: pots, rake, winners, who shows and who mucks (RULES.md 4).

`settle` pays a finished hand, whether it went to showdown or was won uncontested.
"""
from holdem.engine.evaluator import best_five, evaluate
from holdem.engine.events import HandEnded, Mucked, PotAwarded, ShowdownShown
from holdem.engine.frozen import FrozenDict
from holdem.engine.pots import Stake, pot_rakes, side_pots, split_pot
from holdem.engine.state import HandResult, HandState, PlayerState, PotResult


def clockwise(players: tuple[PlayerState, ...], start: int) -> list[PlayerState]:
    return list(players[start:] + players[:start])


def showdown_order(state: HandState) -> list[PlayerState]:
    """RULES.md 4: the last aggressor of the final round shows first, else the first active
    player left of the button; then clockwise."""
    start = state.lead_index
    if state.aggressor is not None:
        start = state.index_of(state.aggressor)
    return [player for player in clockwise(state.players, start) if not player.folded]


def hand_pots(players: list[PlayerState]):
    """The pots of a finished hand, eligible seats listed in the order of `players`."""
    return side_pots([
        Stake(player.seat, player.committed - player.dead, player.dead, not player.folded,
              player.stack == 0 or player.protected)
        for player in players])


def settle(state: HandState) -> tuple[HandState, list]:
    """Award every pot of `state` (its board complete, or one player left) and end the hand."""
    ring = clockwise(state.players, state.lead_index)  # clockwise from the button
    contenders = [player for player in ring if not player.folded]
    uncontested = len(contenders) == 1
    pots = hand_pots(ring)
    # RULES.md 4: rake only from pots that saw a flop ("no flop, no drop").
    if len(state.board) >= 3:
        rakes = pot_rakes([pot.amount for pot in pots], state.options.rake_percent,
                          state.options.rake_cap)
    else:
        rakes = (0,) * len(pots)

    values = {}
    if not uncontested:
        board = state.board
        values = {player.seat: evaluate(player.hole + board) for player in contenders}

    events = []
    shown, best, mucked = {}, {}, []
    if not uncontested:
        shown, best, mucked, events = _reveal(state, pots, values)

    payouts = {player.seat: 0 for player in state.players}
    pot_results = []
    for index, (pot, rake) in enumerate(zip(pots, rakes)):
        if len(pot.eligible) == 1 or uncontested:
            winners = pot.eligible[:1]
        else:
            top = max(values[seat] for seat in pot.eligible)
            winners = tuple(seat for seat in pot.eligible if values[seat] == top)
        # RULES.md 4: each pot is split on its own; odd chips to the first winner clockwise.
        shares = split_pot(pot.amount - rake, winners)
        for seat, chips in shares.items():
            payouts[seat] += chips
        result = PotResult(pot.amount, tuple(sorted(pot.eligible)), tuple(sorted(winners)),
                           FrozenDict(shares), rake)
        pot_results.append(result)
        events.append(PotAwarded(index, pot.amount, rake, result.eligible, result.winners,
                                 result.shares))

    players = tuple(
        PlayerState(p.seat, p.stack + payouts[p.seat], p.hole, 0, p.committed, p.dead,
                    p.returned, p.folded, p.acted, p.protected, p.auto_muck)
        for p in state.players)
    rake_total = sum(rakes)
    final_stacks = FrozenDict({p.seat: p.stack for p in players})
    net = FrozenDict({p.seat: payouts[p.seat] - p.committed for p in players})
    result = HandResult(
        pots=tuple(pot_results), rake=rake_total, payouts=FrozenDict(payouts),
        final_stacks=final_stacks, net=net, shown=FrozenDict(shown), best=FrozenDict(best),
        uncontested=uncontested,
        returned=FrozenDict({p.seat: p.returned for p in players if p.returned}),
        mucked=tuple(mucked))
    events.append(HandEnded(uncontested, rake_total, result.payouts, net, final_stacks))
    street = "over" if uncontested else "showdown"
    return HandState(state.options, state.button, players, state.stub, state.small_blind_index,
                     state.big_blind_index, state.board, street, None, state.current_bet,
                     state.min_increment, state.raises, state.aggressor, result), events


def _reveal(state: HandState, pots, values: dict):
    """RULES.md 4 auto-muck: a hand is not revealed only if, for every pot it can win, a hand
    already shown and eligible for that pot beats it; so a hand that could still win or tie
    any pot is always shown. Folded hands are never revealed."""
    shown, best, mucked, events = {}, {}, [], []
    pots_of = {}
    for pot in pots:
        for seat in pot.eligible:
            pots_of.setdefault(seat, []).append(pot)
    for player in showdown_order(state):
        seat = player.seat
        value = values[seat]
        my_pots = pots_of.get(seat, ())
        beaten = all(
            any(other in shown and values[other] > value for other in pot.eligible)
            for pot in my_pots)
        if player.auto_muck and beaten:
            mucked.append(seat)
            events.append(Mucked(seat))
            continue
        hand = best_five(player.hole + state.board)
        shown[seat] = player.hole
        best[seat] = FrozenDict(category=hand.category, cards=tuple(hand.cards))
        events.append(ShowdownShown(seat, player.hole, hand.category, tuple(hand.cards)))
    return shown, best, mucked, events
