"""The frozen data of a hand: who is in it, their chips and cards, the round, the result.

Everything here is plain, immutable and equal by value, so a hand survives a JSON round trip.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from holdem.engine.frozen import FrozenDict
from holdem.engine.names import Street
from holdem.engine.options import HandOptions

POSTS = ("none", "big", "big_and_dead_small")


@dataclass(frozen=True)
class SeatIn:
    """A player dealt into a hand.

    post: "none", "big" (a live big blind posted on entry or return) or "big_and_dead_small"
    (that plus a dead small blind that goes straight to the pot), RULES.md 2.
    """

    seat: int
    stack: int
    post: str = "none"
    auto_muck: bool = True


# PlayerState and HandState are made on every action. A frozen dataclass's generated __init__
# sets each field with its own object.__setattr__ call, and dataclasses.replace goes through
# it by keyword; these two set their whole __dict__ at once instead: the keyword-only __init__
# for a new one, `replace` for a changed copy (a third of dataclasses.replace's cost).
# tests/engine/test_hand.py checks that the signatures and the change lists match the fields.
_new = object.__new__
_set = object.__setattr__


def _replaced[Frozen](frozen: Frozen, changes: Mapping[str, object]) -> Frozen:
    """A copy of a frozen dataclass with some fields changed, without running its __init__."""
    changed = _new(type(frozen))
    _set(changed, "__dict__", {**frozen.__dict__, **changes})
    return changed


class _PlayerChanges(TypedDict, total=False):
    """The fields of PlayerState, for PlayerState.replace."""

    seat: int
    stack: int
    hole: tuple[str, ...]
    bet: int
    committed: int
    dead: int
    returned: int
    folded: bool
    acted: bool
    protected: bool
    auto_muck: bool


@dataclass(frozen=True, init=False)
class PlayerState:
    """One player's part of the hand.

    bet: chips put in during this betting round (live blinds included); committed: chips put
    in during the whole hand (dead blind included, uncalled chips given back taken out);
    acted: has acted in this round (blinds are not actions: RULES.md 3, big-blind option).
    """

    seat: int
    stack: int
    hole: tuple[str, ...]
    bet: int = 0
    committed: int = 0
    dead: int = 0
    returned: int = 0
    folded: bool = False
    acted: bool = False
    protected: bool = False
    auto_muck: bool = True

    def __init__(
        self,
        *,
        seat: int,
        stack: int,
        hole: tuple[str, ...],
        bet: int = 0,
        committed: int = 0,
        dead: int = 0,
        returned: int = 0,
        folded: bool = False,
        acted: bool = False,
        protected: bool = False,
        auto_muck: bool = True,
    ) -> None:
        _set(
            self,
            "__dict__",
            {
                "seat": seat,
                "stack": stack,
                "hole": hole,
                "bet": bet,
                "committed": committed,
                "dead": dead,
                "returned": returned,
                "folded": folded,
                "acted": acted,
                "protected": protected,
                "auto_muck": auto_muck,
            },
        )

    def replace(self, **changes: Unpack[_PlayerChanges]) -> "PlayerState":
        """This player with some fields changed (dataclasses.replace, made fast)."""
        return _replaced(self, changes)

    @property
    def all_in(self) -> bool:
        return self.stack == 0 and not self.folded

    @property
    def can_bet(self) -> bool:
        """Still able to put chips in: not folded, not all in, not under all-in protection."""
        return self.stack > 0 and not self.folded and not self.protected

    def pays(self, chips: int) -> "PlayerState":
        """This player after putting `chips` more in this round as an action."""
        return self.replace(
            stack=self.stack - chips,
            bet=self.bet + chips,
            committed=self.committed + chips,
            acted=True,
        )

    def folds(self) -> "PlayerState":
        return self.replace(folded=True, acted=True)

    def gets_back(self, chips: int) -> "PlayerState":
        """This player after an uncalled part of their bet is returned (RULES.md 3)."""
        return self.replace(
            stack=self.stack + chips,
            bet=self.bet - chips,
            committed=self.committed - chips,
            returned=self.returned + chips,
        )

    def next_round(self) -> "PlayerState":
        """This player when the bets are gathered and a new betting round begins."""
        if not self.bet and not self.acted:
            return self
        return self.replace(bet=0, acted=False)


@dataclass(frozen=True)
class PotResult:
    """One pot at the end: `amount` before rake, `shares` seat -> chips won from it."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: FrozenDict[int, int]
    rake: int


@dataclass(frozen=True)
class HandResult:
    """How a finished hand was settled; every mapping is keyed by seat number."""

    pots: tuple[PotResult, ...]
    rake: int
    payouts: FrozenDict[int, int]
    final_stacks: FrozenDict[int, int]
    net: FrozenDict[int, int]
    shown: FrozenDict[int, tuple[str, ...]]
    best: FrozenDict[int, FrozenDict[str, Any]]  # seat -> {"category": str, "cards": tuple}
    uncontested: bool
    returned: FrozenDict[int, int]
    mucked: tuple[int, ...] = ()
    # RULES.md 4 [003]: players without auto-muck whose hand a shown hand beats, who have not
    # yet chosen to show or muck (muck when the table's time for it runs out).
    undecided: tuple[int, ...] = ()


class _HandChanges(TypedDict, total=False):
    """The fields of HandState, for HandState.replace."""

    options: HandOptions
    button: int
    players: tuple[PlayerState, ...]
    stub: tuple[str, ...]
    small_blind_index: int | None
    big_blind_index: int
    board: tuple[str, ...]
    street: Street
    actor: int | None
    current_bet: int
    min_increment: int
    raises: int
    aggressor: int | None
    result: HandResult | None


@dataclass(frozen=True, init=False)
class HandState:
    """A hand at one moment. Players are in clockwise order (increasing seat number).

    actor: index in `players` of the player to act, or None. current_bet: the round's highest
    total (before the flop at least the big blind). min_increment: the largest bet or raise
    increment of the round (RULES.md 3, min_raise=full). raises: raises this round, the
    round's first bet not counted. aggressor: seat of the last bet or raise of the latest round
    with betting (shows first, RULES.md 4). stub: the cards left for the board, in deal order:
    burn, flop x3, burn, turn, burn, river.
    """

    options: HandOptions
    button: int
    players: tuple[PlayerState, ...]
    stub: tuple[str, ...]
    small_blind_index: int | None
    big_blind_index: int
    board: tuple[str, ...] = ()
    street: Street = Street.PREFLOP
    actor: int | None = None
    current_bet: int = 0
    min_increment: int = 0
    raises: int = 0
    aggressor: int | None = None
    result: HandResult | None = None

    def __init__(
        self,
        *,
        options: HandOptions,
        button: int,
        players: tuple[PlayerState, ...],
        stub: tuple[str, ...],
        small_blind_index: int | None,
        big_blind_index: int,
        board: tuple[str, ...] = (),
        street: Street = Street.PREFLOP,
        actor: int | None = None,
        current_bet: int = 0,
        min_increment: int = 0,
        raises: int = 0,
        aggressor: int | None = None,
        result: HandResult | None = None,
    ) -> None:
        _set(
            self,
            "__dict__",
            {
                "options": options,
                "button": button,
                "players": players,
                "stub": stub,
                "small_blind_index": small_blind_index,
                "big_blind_index": big_blind_index,
                "board": board,
                "street": street,
                "actor": actor,
                "current_bet": current_bet,
                "min_increment": min_increment,
                "raises": raises,
                "aggressor": aggressor,
                "result": result,
            },
        )

    def replace(self, **changes: Unpack[_HandChanges]) -> "HandState":
        """This state with some fields changed (dataclasses.replace, made fast)."""
        return _replaced(self, changes)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def to_act(self) -> int | None:
        return None if self.actor is None else self.players[self.actor].seat

    @property
    def small_blind_seat(self) -> int | None:
        """None when the small blind is dead: nobody posts it (RULES.md 8)."""
        index = self.small_blind_index
        return None if index is None else self.players[index].seat

    @property
    def big_blind_seat(self) -> int:
        return self.players[self.big_blind_index].seat

    @property
    def lead_index(self) -> int:
        """Index of the first player left of the button: first to act after the flop, first
        to show without an aggressor, first to get odd chips. Heads-up the button is the small
        blind, so that is the big blind (RULES.md 3 and 8). With the button on a seat not
        dealt in, or a dead small blind (RULES.md 8), the first dealt seat after the button."""
        if len(self.players) == 2:
            return self.big_blind_index
        button = self.button
        for index, player in enumerate(self.players):
            if player.seat > button:
                return index
        return 0

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(player.seat for player in self.players)

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind, seat -> chips (the final stacks once the hand is over)."""
        return {player.seat: player.stack for player in self.players}

    @property
    def bets(self) -> dict[int, int]:
        return {player.seat: player.bet for player in self.players}

    @property
    def committed(self) -> dict[int, int]:
        """Chips each seat has put in this hand (uncalled chips given back not counted)."""
        return {player.seat: player.committed for player in self.players}

    @property
    def pot_total(self) -> int:
        """All chips in the middle, current bets included (0 once the pots are paid)."""
        if self.result is not None:
            return 0
        return sum(player.committed for player in self.players)

    @property
    def total_chips(self) -> int:
        """Stacks plus everything in the middle: constant through a hand, less rake at the end."""
        return sum(player.stack for player in self.players) + self.pot_total

    def player(self, seat: int) -> PlayerState:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    def index_of(self, seat: int) -> int | None:
        for index, player in enumerate(self.players):
            if player.seat == seat:
                return index
        return None
