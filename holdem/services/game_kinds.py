"""What differs between kinds of game, behind one interface chosen per table (`game_kind_of`):
how chips come to a seat and leave it, what a bust does, where a hand's blinds come from.

The services hold the mechanics (locks, seats, events) and ask the table's kind at each point
where a cash game and a tournament part ways. The cash game is the first and only kind so far.
"""

from datetime import datetime
from typing import Protocol

from casino.accounts.models import LedgerKind, User
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError
from holdem import engine
from holdem.models import Seat, Table
from holdem.table_options import hand_options


class GameKind(Protocol):
    """The questions the services ask a table's kind of game. The caller holds the table lock."""

    name: str

    def entry_refusal(self, *, table: Table, user: User) -> DomainError | None:
        """Why `user` may not take a seat here by sitting down (None: they may). A tournament
        seats its registered players itself."""
        ...

    def chips_in(self, *, table: Table, user: User, amount: int, reason: str) -> None:
        """Bring `amount` chips to the player's seat (a buy-in or a top-up): a cash game takes
        them from the wallet. `reason` is the ledger line's."""
        ...

    def chips_out(self, *, table: Table, seat: Seat, reason: str) -> None:
        """The seat is given up: what becomes of its stack. A cash game returns it to the
        wallet."""
        ...

    def top_up_refusal(self, *, table: Table, seat: Seat) -> DomainError | None:
        """Why the seat may not add chips between hands now (None: it may, within the room's
        limits)."""
        ...

    def leave_refusal(self, *, table: Table, seat: Seat) -> DomainError | None:
        """Why the seat's player may not stand up with their chips between hands (None: they
        may). Leaving a hand they are dealt in is refused whatever the kind (RULES.md 2)."""
        ...

    def bust(self, *, table: Table, seat: Seat, now: datetime) -> bool:
        """A hand ended with this seat out of chips: do what that means here. True when the seat
        is then given up (it leaves with the reason "Busted"), False when it stays."""
        ...

    def hand_options(self, *, table: Table, stacks: list[int], now: datetime) -> engine.HandOptions:
        """The options of the hand about to be dealt, its blinds included, for the stacks dealt
        in (in seat order). A tournament's blinds come from its level clock."""
        ...


class CashGame:
    """A ring game: the wallet buys the chips in and takes them back, a busted player leaves
    (and may buy in again), and the blinds are the room's options (RULES.md 1 to 3)."""

    name = "cash"

    def entry_refusal(self, *, table: Table, user: User) -> DomainError | None:
        return None

    def chips_in(self, *, table: Table, user: User, amount: int, reason: str) -> None:
        wallet_adjust(
            user=user, amount=-amount, kind=LedgerKind.BUY_IN, reason=reason, table_id=table.pk
        )

    def chips_out(self, *, table: Table, seat: Seat, reason: str) -> None:
        if seat.stack > 0:
            wallet_adjust(
                user=seat.user,
                amount=seat.stack,
                kind=LedgerKind.CASH_OUT,
                reason=reason,
                table_id=table.pk,
            )

    def top_up_refusal(self, *, table: Table, seat: Seat) -> DomainError | None:
        return None

    def leave_refusal(self, *, table: Table, seat: Seat) -> DomainError | None:
        return None

    def bust(self, *, table: Table, seat: Seat, now: datetime) -> bool:
        return True  # the seat is freed; the player may buy in again from the wallet

    def hand_options(self, *, table: Table, stacks: list[int], now: datetime) -> engine.HandOptions:
        return hand_options(table, stacks)


CASH_GAME = CashGame()


def game_kind_of(table: Table) -> GameKind:
    """The kind of game played at `table`. Every table is a cash game today; a tournament's
    tables will be told apart by the table's kind once the model has one."""
    return CASH_GAME
