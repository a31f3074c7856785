"""What happened in a hand, one frozen event per thing a viewer should learn.

Every event has `kind`, `private_to` (a seat, or None for everyone) and `as_dict()` with JSON
primitives only; mappings keyed by seat use string keys ("3"), as JSON does.
"""
from dataclasses import dataclass, fields


def _plain(value):
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value


class Event:
    """Base of the engine's events (each a frozen dataclass with a `kind` class attribute)."""

    kind = "event"
    private_to: int | None = None

    def as_dict(self) -> dict:
        answer = {"kind": self.kind}
        for field in fields(self):
            answer[field.name] = _plain(getattr(self, field.name))
        if "private_to" not in answer:
            answer["private_to"] = self.private_to
        return answer


@dataclass(frozen=True)
class HandStarted(Event):
    kind = "hand_started"
    button: int
    small_blind_seat: int
    big_blind_seat: int
    small_blind: int
    big_blind: int
    structure: str
    stacks: dict  # seat -> chips before the blinds


@dataclass(frozen=True)
class BlindPosted(Event):
    """blind: "small", "big", "post" (a live big blind on entry or return) or "dead"."""

    kind = "blind_posted"
    seat: int
    blind: str
    amount: int
    all_in: bool


@dataclass(frozen=True)
class HoleCards(Event):
    """A player's two cards, for that player only."""

    kind = "hole_cards"
    seat: int
    cards: tuple[str, ...]

    @property
    def private_to(self) -> int:
        return self.seat


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Protected(Event):
    """RULES.md 5, all-in protection: the seat stops acting and keeps its stack behind."""

    kind = "all_in_protected"
    seat: int
    committed: int


@dataclass(frozen=True)
class StreetDealt(Event):
    kind = "street"
    street: str
    cards: tuple[str, ...]
    board: tuple[str, ...]


@dataclass(frozen=True)
class UncalledReturned(Event):
    kind = "uncalled_returned"
    seat: int
    amount: int


@dataclass(frozen=True)
class ShowdownShown(Event):
    kind = "showdown"
    seat: int
    hole: tuple[str, ...]
    category: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Mucked(Event):
    kind = "mucked"
    seat: int


@dataclass(frozen=True)
class PotAwarded(Event):
    kind = "pot_awarded"
    index: int
    amount: int
    rake: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: dict  # seat -> chips


@dataclass(frozen=True)
class HandEnded(Event):
    kind = "hand_ended"
    uncontested: bool
    rake: int
    payouts: dict
    net: dict
    final_stacks: dict


@dataclass(frozen=True)
class HandShown(Event):
    """An uncontested winner chose to show (RULES.md 4)."""

    kind = "hand_shown"
    seat: int
    hole: tuple[str, ...]
