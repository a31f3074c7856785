"""Replay one hand described in JSON and print how it ends: a stable entry point for tools.

    python -m holdem.engine.replay FILE.json [--trace]      (FILE "-" reads standard input)
    holdem.engine.replay.replay(spec: dict, trace: bool = False) -> dict   (never raises)

Input (docs/replay.md has the full description and examples):
    {"options": {"structure": "no_limit", "small_blind": 50, "big_blind": 100},
     "seats": [{"seat": 0, "stack": 2378, "hole": ["Ts", "9h"]}, ...],      clockwise, all dealt in
     "button": 6,                                        any seat number, dealt in or not
     "blind_seats": [null, 2],       optional (RULES.md 8): small blind seat or null, big blind
     "board": ["Qs", "Td", "Qc", "Tc", "Qh"],            as many cards as the hand deals (0-5)
     "actions": [{"seat": 2, "action": "call"}, {"seat": 3, "action": "raise", "to": 600}, ...]}
`to` is the seat's total for the betting round after the action, blinds included. Actions:
fold, check, call, bet, raise, all_in; also timeout, disconnect (with "protect": true/false) and
show (the uncontested winner shows). Options are RULES.md section 1 names: structure, blinds,
small_blind, big_blind, dynamic_blind_percent, small_bet, big_bet, raise_cap, min_raise,
rake_percent, rake_cap, and a tournament's ante (RULES.md 8); other names are refused.

Output, one line of JSON:
    {"ok": true, "complete": true, "final_stacks": {"0": ...}, "pots": [{"amount": ...,
     "rake": ..., "eligible": [...], "winners": [...], "shares": {...}}], "rake": ..., ...}
    {"ok": true, "complete": false, "stacks": {...}, "committed": {...}, "to_act": 3, ...}
    {"ok": false, "step": k, "code": "illegal_action", "reason": "below_min_raise",
     "message": "minimum raise is to 400"}
    {"ok": false, "code": "bad_spec", "message": "..."}
With --trace also "steps" (before each action, what the seat to act may do) and "next" (the
same after the last action, null once the hand is over). Exit status: 0 when ok, 1 when not,
2 for a bad command line.
"""

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from holdem.engine.betting import legal_actions
from holdem.engine.cards import new_deck
from holdem.engine.errors import IllegalAction
from holdem.engine.hand import apply_action, apply_disconnect, apply_timeout, show_hand, start_hand
from holdem.engine.options import HandOptions
from holdem.engine.state import HandState, SeatIn
from holdem.engine.view import result_view

SPEC_KEYS = {"options", "seats", "button", "blind_seats", "board", "actions"}
SEAT_KEYS = {"seat", "stack", "hole", "post", "auto_muck"}
ACTION_KEYS = {"seat", "action", "to", "protect"}
_CARDS = new_deck()


class BadSpec(ValueError):
    """The replay description itself is malformed (not a refused move)."""


def replay(spec: object, trace: bool = False) -> dict[str, Any]:
    """Play `spec` through the engine; the answer is a dict of JSON primitives, never an
    exception (see the module docstring)."""
    try:
        return _replay(spec, trace)
    except Exception as error:  # a tool's contract: answer, even if the engine has a bug
        return {"ok": False, "code": "internal_error", "message": repr(error)}


def _replay(spec: object, trace: bool) -> dict[str, Any]:
    steps: list[dict[str, Any] | None] = []
    try:
        state, actions, board = _start(spec)
        for step, entry in enumerate(actions):
            try:
                move = _checked_action(entry)
            except BadSpec as error:
                return _failed(trace, steps, code="bad_spec", message=str(error), step=step)
            if trace:
                steps.append(probe(state))
            try:
                state = _apply(state, move)
            except IllegalAction as refusal:
                return _failed(
                    trace,
                    steps,
                    step=step,
                    code="illegal_action",
                    reason=refusal.code,
                    message=refusal.message,
                )
        if len(state.board) > len(board):
            raise BadSpec(
                f"board: the hand deals {len(state.board)} board cards but only "
                f"{len(board)} are given"
            )
    except BadSpec as error:
        return _failed(trace, steps, code="bad_spec", message=str(error))
    answer: dict[str, Any] = {"ok": True, "complete": state.is_over, "board": list(state.board)}
    if state.result is not None:
        result = result_view(state.result)
        answer.update(
            final_stacks=result["final_stacks"],
            pots=result["pots"],
            rake=result["rake"],
            net=result["net"],
            returned=result["returned"],
            shown=result["shown"],
            uncontested=result["uncontested"],
        )
    else:
        answer.update(
            street=state.street,
            to_act=state.to_act,
            stacks={str(seat): chips for seat, chips in state.stacks.items()},
            committed={str(seat): chips for seat, chips in state.committed.items()},
        )
    if trace:
        answer["steps"] = steps
        answer["next"] = probe(state)
    return answer


def probe(state: HandState) -> dict[str, Any] | None:
    """What the seat to act may do now, or None when nobody is to act."""
    legal = legal_actions(state)
    if legal is None:
        return None
    return {
        "seat": legal.seat,
        "actions": list(legal.actions),
        "to_call": legal.to_call,
        "current_bet": legal.current_bet,
        "min_to": legal.min_to,
        "max_to": legal.max_to,
        "all_in_to": legal.all_in_to,
        "can_raise": legal.can_raise,
    }


def _failed(trace: bool, steps: list[dict[str, Any] | None], **fields: object) -> dict[str, Any]:
    answer = {"ok": False, **fields}
    if trace:
        answer["steps"] = steps
    return answer


def _start(spec: object) -> tuple[HandState, list[Any], list[Any]]:
    if not isinstance(spec, dict):
        raise BadSpec("the replay description must be a JSON object")
    unknown = sorted(set(spec) - SPEC_KEYS)
    if unknown:
        raise BadSpec(f"unknown key {unknown[0]!r}: expected {', '.join(sorted(SPEC_KEYS))}")
    for key in ("options", "seats", "button"):
        if key not in spec:
            raise BadSpec(f"{key}: missing")
    seats = spec["seats"]
    if not isinstance(seats, list) or not all(isinstance(entry, dict) for entry in seats):
        raise BadSpec("seats: must be a list of objects")
    for entry in seats:
        unknown = sorted(set(entry) - SEAT_KEYS)
        if unknown:
            raise BadSpec(f"seats: unknown key {unknown[0]!r}")
        for key in ("seat", "stack", "hole"):
            if key not in entry:
                raise BadSpec(f"seats: each seat needs {key!r}")
    board = spec.get("board", [])
    actions = spec.get("actions", [])
    if not isinstance(board, list) or len(board) > 5:
        raise BadSpec("board: must be a list of at most 5 cards")
    if not isinstance(actions, list):
        raise BadSpec("actions: must be a list")
    button = spec["button"]
    try:
        seat_ins = [
            SeatIn(
                seat=entry["seat"],
                stack=entry["stack"],
                post=entry.get("post", "none"),
                auto_muck=entry.get("auto_muck", True),
            )
            for entry in seats
        ]
        stacks = [entry["stack"] for entry in seats]
        valid_stacks = all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in stacks)
        options = HandOptions.from_rules(spec["options"], stacks if valid_stacks else None)
        deck = _deck(seats, button, board)
        placed = spec.get("blind_seats")
        blinds = None
        if placed is not None:
            if not isinstance(placed, list) or len(placed) != 2:
                raise BadSpec("blind_seats: must be [small blind seat or null, big blind seat]")
            blinds = (placed[0], placed[1])
        state, _events = start_hand(options, seat_ins, button, deck, blinds=blinds)
    except (ValueError, TypeError) as error:
        raise BadSpec(str(error)) from None
    return state, actions, board


def _deck(seats: list[dict[str, Any]], button: object, board: list[Any]) -> list[str]:
    """The deck that deals the given hole cards and board (engine order: docs/engine-api.md),
    burn cards and missing board cards taken from the unused cards in new_deck() order."""
    holes: dict[int, list[str]] = {}
    named: list[str] = []
    for entry in seats:
        hole = entry["hole"]
        if not isinstance(hole, list) or len(hole) != 2:
            raise BadSpec(f"seat {entry['seat']}: hole must be a list of 2 cards")
        holes[entry["seat"]] = hole
        named += hole
    named += board
    for card in named:
        if card not in _CARDS:
            raise BadSpec(f"bad card {card!r}: rank 23456789TJQKA then suit cdhs, like 'As'")
    repeated = sorted({card for card in named if named.count(card) > 1})
    if repeated:
        raise BadSpec(f"card {repeated[0]} appears twice")
    if not isinstance(button, int) or isinstance(button, bool):
        raise BadSpec("button: must be a seat number")
    try:
        order = sorted(holes)
    except TypeError:
        raise BadSpec("seats: seat numbers must be integers") from None
    start = next((i for i, seat in enumerate(order) if seat > button), 0)
    order = order[start:] + order[:start]  # dealing starts left of the button
    unused = [card for card in _CARDS if card not in set(named)]
    slots = list(board) + [None] * (5 - len(board))
    deck = [holes[seat][0] for seat in order] + [holes[seat][1] for seat in order]
    for street_cards in (slots[0:3], slots[3:4], slots[4:5]):
        deck.append(unused.pop(0))  # the burn card
        deck += [card if card is not None else unused.pop(0) for card in street_cards]
    return deck + unused


def _checked_action(entry: object) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise BadSpec("each action must be an object")
    unknown = sorted(set(entry) - ACTION_KEYS)
    if unknown:
        raise BadSpec(f"action: unknown key {unknown[0]!r}")
    if "seat" not in entry or "action" not in entry:
        raise BadSpec("action: needs 'seat' and 'action'")
    if "protect" in entry and entry["action"] != "disconnect":
        raise BadSpec("action: 'protect' goes only with 'disconnect'")
    if entry["action"] == "disconnect" and not isinstance(entry.get("protect"), bool):
        raise BadSpec("disconnect: needs 'protect': true or false")
    return entry


def _apply(state: HandState, move: dict[str, Any]) -> HandState:
    seat, action = move["seat"], move["action"]
    if action == "timeout":
        return apply_timeout(state, seat)[0]
    if action == "disconnect":
        return apply_disconnect(state, seat, move["protect"])[0]
    if action == "show":
        return show_hand(state, seat)[0]
    return apply_action(state, seat, action, move.get("to"))[0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m holdem.engine.replay", description="Replay one hand described in JSON."
    )
    parser.add_argument("file", help="the replay description (JSON), or - for standard input")
    parser.add_argument(
        "--trace", action="store_true", help="also print the legal actions before each step"
    )
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        spec = json.loads(text)
    except (OSError, ValueError) as error:
        answer = {"ok": False, "code": "bad_spec", "message": f"cannot read {args.file}: {error}"}
    else:
        answer = replay(spec, trace=args.trace)
    print(json.dumps(answer))
    return 0 if answer["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
