"""What happened in a hand, one frozen event per thing a viewer should learn.

Every event has `kind`, `private_to` (a seat, or None for everyone) and `as_dict()` with JSON
primitives only; mappings keyed by seat use string keys ("3"), as JSON does.
"""

from dataclasses import MISSING, dataclass, fields

_LAYOUTS = {}


def _layout(cls) -> tuple[tuple[str, ...], dict]:
    """The field names of an event class, in order, and their defaults."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = (
            tuple(field.name for field in fields(cls)),
            {field.name: field.default for field in fields(cls) if field.default is not MISSING},
        )
    return layout


def _arguments(cls, names, defaults, values, named) -> list:
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
    return [given[name] if name in given else defaults[name] for name in names]


def _plain(value):
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value


class Event:
    """Base of the engine's events (each a frozen dataclass with a `kind` class attribute).

    The events are declared with init=False and share this __init__: several are made on every
    action, and one __dict__ store is about three times as fast as a frozen dataclass's
    generated __init__ (one object.__setattr__ per field; see state.py).
    """

    kind = "event"
    private_to: int | None = None

    def __init__(self, *values, **named):
        names, defaults = _layout(type(self))
        if named or len(values) != len(names):
            values = _arguments(type(self), names, defaults, values, named)
        object.__setattr__(self, "__dict__", dict(zip(names, values)))

    def as_dict(self) -> dict:
        answer = {"kind": self.kind}
        for field in fields(self):
            answer[field.name] = _plain(getattr(self, field.name))
        if "private_to" not in answer:
            answer["private_to"] = self.private_to
        return answer


@dataclass(frozen=True, init=False)
class HandStarted(Event):
    kind = "hand_started"
    button: int
    small_blind_seat: int
    big_blind_seat: int
    small_blind: int
    big_blind: int
    structure: str
    stacks: dict  # seat -> chips before the blinds


@dataclass(frozen=True, init=False)
class BlindPosted(Event):
    """blind: "small", "big", "post" (a live big blind on entry or return) or "dead"."""

    kind = "blind_posted"
    seat: int
    blind: str
    amount: int
    all_in: bool


@dataclass(frozen=True, init=False)
class HoleCards(Event):
    """A player's two cards, for that player only."""

    kind = "hole_cards"
    seat: int
    cards: tuple[str, ...]

    @property
    def private_to(self) -> int:
        return self.seat


@dataclass(frozen=True, init=False)
class ActionTaken(Event):
    """amount: chips this action put in; to: the seat's round total after it; reason: None,
    "timeout" or "disconnect" when the engine acted for the player (RULES.md 5)."""

    kind = "action"
    seat: int
    action: str
    amount: int
    to: int
    stack: int
    all_in: bool
    reason: str | None = None


@dataclass(frozen=True, init=False)
class Protected(Event):
    """RULES.md 5, all-in protection: the seat stops acting and keeps its stack behind."""

    kind = "all_in_protected"
    seat: int
    committed: int


@dataclass(frozen=True, init=False)
class StreetDealt(Event):
    kind = "street"
    street: str
    cards: tuple[str, ...]
    board: tuple[str, ...]


@dataclass(frozen=True, init=False)
class UncalledReturned(Event):
    kind = "uncalled_returned"
    seat: int
    amount: int


@dataclass(frozen=True, init=False)
class ShowdownShown(Event):
    kind = "showdown"
    seat: int
    hole: tuple[str, ...]
    category: str
    cards: tuple[str, ...]


@dataclass(frozen=True, init=False)
class Mucked(Event):
    kind = "mucked"
    seat: int


@dataclass(frozen=True, init=False)
class PotAwarded(Event):
    kind = "pot_awarded"
    index: int
    amount: int
    rake: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict  # seat -> chips


@dataclass(frozen=True, init=False)
class HandEnded(Event):
    kind = "hand_ended"
    uncontested: bool
    rake: int
    payouts: dict
    net: dict
    final_stacks: dict


@dataclass(frozen=True, init=False)
class HandsTabled(Event):
    """RULES.md 4: every remaining player is all in and no betting is left: all hands are
    turned face up before the board is run out. `hands` is seat -> hole cards."""

    kind = "hands_tabled"
    hands: dict


@dataclass(frozen=True, init=False)
class HandShown(Event):
    """An uncontested winner chose to show (RULES.md 4)."""

    kind = "hand_shown"
    seat: int
    hole: tuple[str, ...]
