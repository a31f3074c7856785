"""The pure Texas Hold'em engine: options, the hand state machine, views, JSON and replay.

Standard library only: no Django, no I/O, no clock, no randomness of its own (docs/engine-api.md).
"""

from holdem.engine.betting import Legal, legal_actions
from holdem.engine.errors import IllegalAction
from holdem.engine.events import Event
from holdem.engine.frozen import FrozenDict
from holdem.engine.hand import (
    apply_action,
    apply_disconnect,
    apply_timeout,
    muck_hand,
    show_hand,
    start_hand,
)
from holdem.engine.names import Action, Street, Structure
from holdem.engine.options import HandOptions, dynamic_blinds, fixed_limit_blinds
from holdem.engine.positions import blind_seats, next_button, tournament_blinds
from holdem.engine.serial import state_from_json, state_to_json
from holdem.engine.state import HandResult, HandState, PlayerState, PotResult, SeatIn
from holdem.engine.view import own_view, view

__all__ = [
    "Action",
    "Event",
    "FrozenDict",
    "HandOptions",
    "HandResult",
    "HandState",
    "IllegalAction",
    "Legal",
    "PlayerState",
    "PotResult",
    "SeatIn",
    "Street",
    "Structure",
    "apply_action",
    "apply_disconnect",
    "apply_timeout",
    "blind_seats",
    "dynamic_blinds",
    "fixed_limit_blinds",
    "legal_actions",
    "muck_hand",
    "next_button",
    "own_view",
    "show_hand",
    "start_hand",
    "state_from_json",
    "state_to_json",
    "tournament_blinds",
    "view",
]
