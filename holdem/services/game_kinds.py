"""What differs between kinds of game, behind one interface chosen per table (`game_kind_of`):
how chips come to a seat and leave it, who is dealt in and where the blinds fall, what a bust
does, where a hand's blinds come from, what a disconnection costs.

The services hold the mechanics (locks, seats, events) and ask the table's kind at each point
where a cash game and a tournament part ways. Two kinds: the cash game (RULES.md 1 to 7) and the
Sit & Go (RULES.md 8, holdem/services/tournaments.py holds its money and places).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from casino.accounts.models import LedgerKind, User
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError
from holdem import engine
from holdem.db.locks import LockedTable
from holdem.engine.cards import Rng
from holdem.engine.positions import blind_seats, next_button, tournament_blinds
from holdem.models import Disconnect, Entry, HandRecord, Seat, Table, TableKind
from holdem.selectors.tournaments import level_of
from holdem.services.blinds import (
    big_blind_sit_out,
    blinds_missed_mark,
    hand_entrants,
    hand_seats_dealt,
)
from holdem.services.multi_table import mtt_dealing, mtt_hold
from holdem.services.tournament_places import mtt_hand_ended
from holdem.services.tournaments import tournament_hand_ended
from holdem.table_options import hand_options


@dataclass(frozen=True)
class HandPlan:
    """Who is dealt into the next hand (seat numbers, increasing) and where the button and the
    blinds fall. `dead_button`: the blinds were placed by RULES.md 8 (the small blind may be
    dead, None) rather than derived from the button (RULES.md 3)."""

    dealt: list[int]
    button: int
    small: int | None
    big: int
    dead_button: bool = False


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

    def can_play(self, seat: Seat) -> bool:
        """Whether the seat is dealt into the next hand if the game goes on (a cash game leaves
        out those sitting out)."""
        ...

    def hand_plan(self, *, table: LockedTable, seats: Sequence[Seat], rng: Rng) -> HandPlan | None:
        """Who is dealt in and where the blinds fall; None when no hand can be dealt."""
        ...

    def keeps_disconnected(self, table: Table) -> bool:
        """Whether a player still disconnected when a hand ends keeps the seat (sitting out)
        rather than being cashed out (RULES.md 5)."""
        ...

    def hand_header(self, table: Table) -> dict[str, Any] | None:
        """What the hand's record keeps of the game beyond the table (a tournament's header)."""
        ...

    def hand_ended(
        self, table: LockedTable, *, record: HandRecord, seats: Sequence[Seat], now: datetime
    ) -> None:
        """The hand's pots are back in the seats (`seats`, every seat of the table): settle what
        that decides before busted seats leave (a tournament's places and prizes)."""
        ...

    def hold(self, table: LockedTable) -> str | None:
        """Why the table must not deal now although it could (None: it may): a multi-table
        tournament's balancing or hand for hand. The table looks again a second later."""
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

    def can_play(self, seat: Seat) -> bool:
        return not seat.sitting_out and seat.stack > 0

    def hand_plan(self, *, table: LockedTable, seats: Sequence[Seat], rng: Rng) -> HandPlan | None:
        ready = [s for s in seats if self.can_play(s)]
        while True:
            playing, posting, waiting = hand_entrants(ready)
            if len(playing) < 2:
                return None
            # RULES.md 2 [002]: the button goes round the players only, never onto a post.
            button = next_button(table.button_seat, playing, rng)
            dealt = hand_seats_dealt(playing, posting, waiting, button)
            small, big = blind_seats(dealt, button)
            # RULES.md 2: a player who asked to sit out at their next big blind is sat out
            # before this hand, and the hand is planned again without them.
            due = next(s for s in ready if s.number == big)
            if not big_blind_sit_out(due):
                break
            ready.remove(due)
        if table.entry == Entry.WAIT_OR_POST:
            blinds_missed_mark(seats, dealt, button)
        return HandPlan(dealt=dealt, button=button, small=small, big=big)

    def keeps_disconnected(self, table: Table) -> bool:
        return table.disconnect != Disconnect.CHECK_FOLD

    def hand_header(self, table: Table) -> dict[str, Any] | None:
        return None

    def hand_ended(
        self, table: LockedTable, *, record: HandRecord, seats: Sequence[Seat], now: datetime
    ) -> None:
        return None

    def hold(self, table: LockedTable) -> str | None:
        return None


CASH_GAME = CashGame()


class SitAndGo:
    """A one-table tournament (RULES.md 8): the seats are drawn for the registered players, the
    chips are tournament chips (no top-up, no leaving with them), everyone with chips is dealt
    in, present or not, the blinds follow the dead button and the level clock, and a bust
    decides a place (paid through the ledger by holdem/services/tournaments.py)."""

    name = "sit_and_go"

    def entry_refusal(self, *, table: Table, user: User) -> DomainError | None:
        return DomainError(
            "tournament_table",
            "this is a Sit & Go table: its seats are drawn for the players registered in the lobby",
        )

    def chips_in(self, *, table: Table, user: User, amount: int, reason: str) -> None:
        raise DomainError("tournament_table", "tournament chips come only with the starting stack")

    def chips_out(self, *, table: Table, seat: Seat, reason: str) -> None:
        return None  # RULES.md 8: tournament chips stay in the tournament; prizes are paid

    def top_up_refusal(self, *, table: Table, seat: Seat) -> DomainError | None:
        return DomainError("no_top_up", "there are no top-ups in a tournament (RULES.md 8)")

    def leave_refusal(self, *, table: Table, seat: Seat) -> DomainError | None:
        return DomainError(
            "in_tournament",
            "you are playing a tournament: your chips stay in it; sit out, or close the page, "
            "and you are blinded off until you come back",
        )

    def bust(self, *, table: Table, seat: Seat, now: datetime) -> bool:
        return True  # out of the tournament: the place was given in hand_ended

    def hand_options(self, *, table: Table, stacks: list[int], now: datetime) -> engine.HandOptions:
        # RULES.md 8: the blinds and ante of the level in force when the hand starts.
        tournament = table.tournament
        assert tournament is not None  # a tournament's table
        level = level_of(tournament, tournament.level)
        fixed_limit = table.structure == engine.Structure.FIXED_LIMIT
        return engine.HandOptions(
            structure=engine.Structure(table.structure),
            small_blind=level["small_blind"],
            big_blind=level["big_blind"],
            ante=level["ante"],
            raise_cap=table.raise_cap if fixed_limit else None,
        )

    def can_play(self, seat: Seat) -> bool:
        return seat.stack > 0  # RULES.md 8: sitting out or away, still dealt in

    def hand_plan(self, *, table: LockedTable, seats: Sequence[Seat], rng: Rng) -> HandPlan | None:
        alive = sorted(s.number for s in seats if self.can_play(s))
        if len(alive) < 2:
            return None
        previous = (
            (table.button_seat, table.small_blind_seat, table.big_blind_seat)
            if table.button_seat is not None and table.big_blind_seat is not None
            else None
        )
        button, small, big = tournament_blinds(previous, alive, rng)
        return HandPlan(dealt=alive, button=button, small=small, big=big, dead_button=True)

    def keeps_disconnected(self, table: Table) -> bool:
        return True  # RULES.md 8: nobody is removed for being away

    def hand_header(self, table: Table) -> dict[str, Any] | None:
        tournament = table.tournament
        assert tournament is not None  # a tournament's table
        return {
            "id": tournament.pk,
            "buy_in": tournament.buy_in,
            "fee": tournament.fee,
            "level": tournament.level + 1,
        }

    def hand_ended(
        self, table: LockedTable, *, record: HandRecord, seats: Sequence[Seat], now: datetime
    ) -> None:
        tournament_hand_ended(table, record=record, seats=seats, now=now)

    def hold(self, table: LockedTable) -> str | None:
        return None


SIT_AND_GO = SitAndGo()


class MultiTable(SitAndGo):
    """A table of a multi-table tournament (RULES.md 9): a Sit & Go's table, with players who
    come (late entrants, waiting for the big blind; players moved in, dealt in at once) and go
    (moved out, the table broken) between hands, a hold while that is done or while the tables
    play hand for hand, and places decided across tables (holdem/services/multi_table.py)."""

    name = "tournament"

    def entry_refusal(self, *, table: Table, user: User) -> DomainError | None:
        return DomainError(
            "tournament_table",
            "this is a tournament's table: its players are seated by the tournament",
        )

    def hand_plan(self, *, table: LockedTable, seats: Sequence[Seat], rng: Rng) -> HandPlan | None:
        # RULES.md 9 and 2: a late entrant waits until the big blind reaches their seat. The
        # blinds are placed with them; when the big blind is not theirs they are left out, and
        # the blinds fall as they would without them (the big blind is the same seat).
        plan = super().hand_plan(table=table, seats=seats, rng=rng)
        waiting = {s.number for s in seats if s.waiting_for_big_blind and self.can_play(s)}
        if plan is None or not waiting or plan.big in waiting:
            return plan
        ready = [s for s in seats if s.number not in waiting]
        if len([s for s in ready if self.can_play(s)]) < 2:
            return plan  # nobody to wait with: everyone is dealt in
        return super().hand_plan(table=table, seats=ready, rng=rng)

    def hand_header(self, table: Table) -> dict[str, Any] | None:
        header = super().hand_header(table)
        assert header is not None
        # The table's number in the tournament (1 for its first), as hand histories name it.
        assert table.tournament_id is not None  # a tournament's table
        earlier = Table.objects.filter(tournament_id=table.tournament_id, pk__lt=table.pk)
        return {**header, "table": earlier.count() + 1}

    def hand_ended(
        self, table: LockedTable, *, record: HandRecord, seats: Sequence[Seat], now: datetime
    ) -> None:
        mtt_hand_ended(table, record=record, seats=seats, now=now)

    def hold(self, table: LockedTable) -> str | None:
        hold = mtt_hold(table)
        if hold is None:
            mtt_dealing(table)
            return None
        return hold.reason


MULTI_TABLE = MultiTable()


def game_kind_of(table: Table) -> GameKind:
    """The kind of game played at `table`, by the table's kind."""
    if table.kind == TableKind.SIT_AND_GO:
        return SIT_AND_GO
    if table.kind == TableKind.TOURNAMENT:
        return MULTI_TABLE
    return CASH_GAME
