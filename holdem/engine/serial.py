"""A hand state as JSON text and back, exactly: state_from_json(state_to_json(s)) == s.

The text carries "format": 1 so a stored hand can be read by later versions of the engine.
"""

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, fields
from typing import Any

from holdem.engine.frozen import FrozenDict
from holdem.engine.names import Street
from holdem.engine.options import HandOptions
from holdem.engine.state import HandResult, HandState, PlayerState, PotResult

FORMAT = 1
_PLAYER_FIELDS = tuple(field.name for field in fields(PlayerState))


def _same(value: Any) -> Any:
    return value


def _by_seat(mapping: Mapping[int, Any], encode: Callable[[Any], Any] = _same) -> dict[str, Any]:
    return {str(seat): encode(value) for seat, value in mapping.items()}


def _seat_map(
    mapping: Mapping[str, Any], decode: Callable[[Any], Any] = _same
) -> FrozenDict[int, Any]:
    return FrozenDict({int(seat): decode(value) for seat, value in mapping.items()})


def state_to_json(state: HandState) -> str:
    """The whole state (deck stub included: this is for storage, not for players)."""
    document = {
        "format": FORMAT,
        "options": asdict(state.options),
        "button": state.button,
        "players": [[getattr(player, name) for name in _PLAYER_FIELDS] for player in state.players],
        "stub": list(state.stub),
        "small_blind_index": state.small_blind_index,
        "big_blind_index": state.big_blind_index,
        "board": list(state.board),
        "street": state.street,
        "actor": state.actor,
        "current_bet": state.current_bet,
        "min_increment": state.min_increment,
        "raises": state.raises,
        "aggressor": state.aggressor,
        "result": None if state.result is None else _result_document(state.result),
    }
    return json.dumps(document, separators=(",", ":"))


def _result_document(result: HandResult) -> dict[str, Any]:
    return {
        "pots": [
            {
                "amount": pot.amount,
                "eligible": list(pot.eligible),
                "winners": list(pot.winners),
                "shares": _by_seat(pot.shares),
                "rake": pot.rake,
            }
            for pot in result.pots
        ],
        "rake": result.rake,
        "payouts": _by_seat(result.payouts),
        "final_stacks": _by_seat(result.final_stacks),
        "net": _by_seat(result.net),
        "shown": _by_seat(result.shown, list),
        "best": _by_seat(
            result.best, lambda best: {"category": best["category"], "cards": list(best["cards"])}
        ),
        "uncontested": result.uncontested,
        "returned": _by_seat(result.returned),
        "mucked": list(result.mucked),
        "undecided": list(result.undecided),
    }


def state_from_json(text: str) -> HandState:
    """The state written by state_to_json; ValueError for text of another format."""
    document = json.loads(text)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a hand state of format {FORMAT}")
    try:
        return _state_from(document)
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"a damaged hand state: {error!r}") from None


def _state_from(document: dict[str, Any]) -> HandState:
    players = []
    for values in document["players"]:
        player = dict(zip(_PLAYER_FIELDS, values))
        player["hole"] = tuple(player["hole"])
        players.append(PlayerState(**player))
    result = document["result"]
    return HandState(
        options=HandOptions(**document["options"]),
        button=document["button"],
        players=tuple(players),
        stub=tuple(document["stub"]),
        small_blind_index=document["small_blind_index"],
        big_blind_index=document["big_blind_index"],
        board=tuple(document["board"]),
        street=Street(document["street"]),
        actor=document["actor"],
        current_bet=document["current_bet"],
        min_increment=document["min_increment"],
        raises=document["raises"],
        aggressor=document["aggressor"],
        result=None if result is None else _result_from(result),
    )


def _result_from(document: dict[str, Any]) -> HandResult:
    return HandResult(
        pots=tuple(
            PotResult(
                amount=pot["amount"],
                eligible=tuple(pot["eligible"]),
                winners=tuple(pot["winners"]),
                shares=_seat_map(pot["shares"]),
                rake=pot["rake"],
            )
            for pot in document["pots"]
        ),
        rake=document["rake"],
        payouts=_seat_map(document["payouts"]),
        final_stacks=_seat_map(document["final_stacks"]),
        net=_seat_map(document["net"]),
        shown=_seat_map(document["shown"], tuple),
        best=_seat_map(
            document["best"],
            lambda best: FrozenDict(category=best["category"], cards=tuple(best["cards"])),
        ),
        uncontested=document["uncontested"],
        returned=_seat_map(document["returned"]),
        mucked=tuple(document["mucked"]),
        undecided=tuple(document.get("undecided", ())),
    )
