"""What one seat, or a spectator, may see of a hand: JSON primitives only (RULES.md 6).

Hole cards of others are absent, not hidden; the deck, burn cards and undealt cards never appear.
"""

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from holdem.engine.betting import Legal, legal_actions
from holdem.engine.showdown import hand_pots
from holdem.engine.state import HandResult, HandState


def view(state: HandState, seat: int | None = None) -> dict[str, Any]:
    """The hand as `seat` sees it (None: a spectator)."""
    options = state.options
    result = state.result
    shown: Mapping[int, tuple[str, ...]] = result.shown if result is not None else {}
    seats = []
    for player in state.players:
        entry: dict[str, Any] = {
            "seat": player.seat,
            "stack": player.stack,
            "bet": player.bet,
            "committed": player.committed,
            "folded": player.folded,
            "all_in": player.all_in,
            "protected": player.protected,
            "has_cards": not player.folded,
        }
        # RULES.md 6 [002]: a player sees their own hole cards and never anyone else's before
        # the showdown; folded hands are never revealed (RULES.md 4).
        if player.seat == seat:
            entry["hole"] = list(player.hole)
        elif player.seat in shown:
            entry["hole"] = list(shown[player.seat])
        seats.append(entry)
    answer: dict[str, Any] = {
        "street": state.street,
        "board": list(state.board),
        "button": state.button,
        "small_blind_seat": state.small_blind_seat,
        "big_blind_seat": state.big_blind_seat,
        "structure": options.structure,
        "small_blind": options.small_blind,
        "big_blind": options.big_blind,
        "ante": options.ante,
        "current_bet": state.current_bet,
        "pot_total": state.pot_total,
        "pots": _pots(state),
        "seats": seats,
        "to_act": state.to_act,
    }
    legal = legal_actions(state)
    if legal is not None and legal.seat == seat:
        answer["legal"] = legal_view(legal)
    if result is not None:
        answer["result"] = result_view(result)
    return answer


def own_view(state: HandState, seat: int, legal: Legal | None = None) -> dict[str, Any] | None:
    """Only what `seat` sees of the hand that nobody else does: its hole cards and, on its turn,
    its legal actions (what `view(state, seat)` adds to the spectator's view for that seat).
    `legal`: `legal_actions(state)`, if the caller has it. None if the seat is not dealt in."""
    player = next((p for p in state.players if p.seat == seat), None)
    if player is None:
        return None
    if legal is None:
        legal = legal_actions(state)
    return {
        "hole": list(player.hole),
        "legal": legal_view(legal) if legal is not None and legal.seat == seat else None,
    }


def legal_view(legal: Legal) -> dict[str, Any]:
    return {**asdict(legal), "actions": list(legal.actions)}


def _pots(state: HandState) -> list[dict[str, Any]]:
    """The pots in the middle; chips bet in the current round are shown in front of the seats."""
    if state.result is not None:
        return [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in state.result.pots]
    return [
        {"amount": pot.amount, "eligible": list(pot.eligible)}
        for pot in hand_pots(state.players, gathered_only=True)
    ]


def _by_seat(mapping: Mapping[int, Any]) -> dict[str, Any]:
    return {str(seat): value for seat, value in mapping.items()}


def result_view(result: HandResult) -> dict[str, Any]:
    """A finished hand's result as JSON primitives (seat keys as strings)."""
    return {
        "pots": [
            {
                "amount": pot.amount,
                "rake": pot.rake,
                "eligible": list(pot.eligible),
                "winners": list(pot.winners),
                "shares": _by_seat(pot.shares),
            }
            for pot in result.pots
        ],
        "rake": result.rake,
        "payouts": _by_seat(result.payouts),
        "net": _by_seat(result.net),
        "final_stacks": _by_seat(result.final_stacks),
        "shown": {str(seat): list(hole) for seat, hole in result.shown.items()},
        "best": {
            str(seat): {"category": best["category"], "cards": list(best["cards"])}
            for seat, best in result.best.items()
        },
        "mucked": list(result.mucked),
        "undecided": list(result.undecided),
        "uncontested": result.uncontested,
        "returned": _by_seat(result.returned),
    }
