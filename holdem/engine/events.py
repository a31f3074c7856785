"""What happened in a hand, one frozen event per thing a viewer should learn.

Every event has `kind`, `private_to` (a seat, or None for everyone) and `as_dict()` with JSON
primitives only; mappings keyed by seat use string keys ("3"), as JSON does.
"""

from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, fields
from typing import Any, ClassVar, dataclass_transform

from holdem.engine.names import Action, Street, Structure


def _arguments(
    cls: type["Event"], values: tuple[object, ...], named: dict[str, object]
) -> dict[str, object]:
    """The fields of `cls` from values given by position and by name, defaults filled in."""
    names, defaults = cls._names, cls._defaults
    if len(values) > len(names):
        raise TypeError(f"{cls.__name__} takes {len(names)} values, got {len(values)}")
    given = dict(zip(names, values))
    for name, value in named.items():
        if name not in names or name in given:
            raise TypeError(f"{cls.__name__}: unexpected or repeated {name!r}")
        given[name] = value
    missing = [name for name in names if name not in given and name not in defaults]
    if missing:
        raise TypeError(f"{cls.__name__} needs {', '.join(missing)}")
    return {name: given[name] if name in given else defaults[name] for name in names}


def _plain(value: object) -> object:
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value


class Event:
    """Base of the engine's events (each a frozen dataclass made by `@event`, with a `kind`).

    The events share this __init__: several are made on every action, and one __dict__ store
    is about three times as fast as a frozen dataclass's generated __init__ (one
    object.__setattr__ per field; see state.py). It takes the values by position or by name,
    with the fields' defaults, as the generated one would (what `@event` tells type checkers).
    """

    kind: ClassVar[str] = "event"
    # Set by @event on every subclass: its dataclass fields, their names (in order and as a
    # set) and their defaults.
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    _names: ClassVar[tuple[str, ...]]
    _name_set: ClassVar[frozenset[str]]
    _defaults: ClassVar[dict[str, Any]]

    def __init__(self, *values: object, **named: object) -> None:
        if not named and len(values) == len(self._names):
            given = dict(zip(self._names, values))
        elif not values and named.keys() == self._name_set:
            given = named  # every field by name: the dict made for this call will do
        else:
            given = _arguments(type(self), values, named)
        object.__setattr__(self, "__dict__", given)

    @property
    def private_to(self) -> int | None:
        """The one seat this event is for, or None when everyone may see it."""
        return None

    def as_dict(self) -> dict[str, object]:
        answer: dict[str, object] = {"kind": self.kind}
        for field in fields(self):
            answer[field.name] = _plain(getattr(self, field.name))
        if "private_to" not in answer:
            answer["private_to"] = self.private_to
        return answer


@dataclass_transform(frozen_default=True)
def event[E: Event](cls: type[E]) -> type[E]:
    """Make an Event subclass a frozen dataclass that keeps Event's fast __init__."""
    cls = dataclass(frozen=True, init=False)(cls)
    cls._names = tuple(field.name for field in fields(cls))
    cls._name_set = frozenset(cls._names)
    cls._defaults = {
        field.name: field.default for field in fields(cls) if field.default is not MISSING
    }
    return cls


@event
class HandStarted(Event):
    """small_blind_seat: None for a dead small blind; ante: each player's (RULES.md 8)."""

    kind = "hand_started"
    button: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    structure: Structure
    stacks: Mapping[int, int]  # seat -> chips before the antes and blinds
    ante: int = 0


@event
class BlindPosted(Event):
    """blind: "small", "big", "post" (a live big blind on entry or return), "dead" (a dead
    small blind with it) or "ante" (RULES.md 8: dead money posted before the blinds)."""

    kind = "blind_posted"
    seat: int
    blind: str
    amount: int
    all_in: bool


@event
class HoleCards(Event):
    """A player's two cards, for that player only."""

    kind = "hole_cards"
    seat: int
    cards: tuple[str, ...]

    @property
    def private_to(self) -> int:
        return self.seat


@event
class ActionTaken(Event):
    """amount: chips this action put in; to: the seat's round total after it; reason: None,
    "timeout" or "disconnect" when the engine acted for the player (RULES.md 5)."""

    kind = "action"
    seat: int
    action: Action
    amount: int
    to: int
    stack: int
    all_in: bool
    reason: str | None = None


@event
class Protected(Event):
    """RULES.md 5, all-in protection: the seat stops acting and keeps its stack behind."""

    kind = "all_in_protected"
    seat: int
    committed: int


@event
class StreetDealt(Event):
    kind = "street"
    street: Street
    cards: tuple[str, ...]
    board: tuple[str, ...]


@event
class UncalledReturned(Event):
    kind = "uncalled_returned"
    seat: int
    amount: int


@event
class ShowdownShown(Event):
    kind = "showdown"
    seat: int
    hole: tuple[str, ...]
    category: str
    cards: tuple[str, ...]


@event
class Mucked(Event):
    kind = "mucked"
    seat: int


@event
class PotAwarded(Event):
    kind = "pot_awarded"
    index: int
    amount: int
    rake: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: Mapping[int, int]  # seat -> chips


@event
class HandEnded(Event):
    kind = "hand_ended"
    uncontested: bool
    rake: int
    payouts: Mapping[int, int]
    net: Mapping[int, int]
    final_stacks: Mapping[int, int]


@event
class HandsTabled(Event):
    """RULES.md 4: every remaining player is all in and no betting is left: all hands are
    turned face up before the board is run out. `hands` is seat -> hole cards."""

    kind = "hands_tabled"
    hands: Mapping[int, tuple[str, ...]]


@event
class HandShown(Event):
    """An uncontested winner chose to show (RULES.md 4)."""

    kind = "hand_shown"
    seat: int
    hole: tuple[str, ...]
