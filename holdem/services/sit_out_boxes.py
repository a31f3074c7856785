"""The player's two sit-out boxes (RULES.md 2): "sit out next hand" and "sit out at the next big
blind", each a flag on the seat that the player ticks and the table honours between hands.

Both stay ticked while the player sits out; unticking either brings the player back, as the
Sit in button does. Cash games only: at a tournament's table everyone is dealt in (RULES.md 8).
"""

from collections.abc import Iterable

from django.db import transaction

from casino.accounts.models import User
from casino.errors import DomainError
from holdem.db import rows
from holdem.db.locks import LockedTable, seats_lock, table_lock
from holdem.models import Seat, TableKind
from holdem.selectors.game_state import current_state
from holdem.services.blinds import seat_sit_out
from holdem.services.notify import TableChange, notify_player, notify_table
from holdem.services.seats import seat_sit_in

NEXT_HAND = "sit_out_next_hand"
NEXT_BIG_BLIND = "sit_out_next_big_blind"


def table_sit_out_next_hand(*, table_id: int, user: User, value: bool) -> Seat:
    """Tick (or untick) "sit out next hand": the player finishes the hand they are dealt in and
    is dealt no further hand until they sit back in. Between hands, or while not dealt in, that
    is at once."""
    return _box_set(table_id=table_id, user=user, box=NEXT_HAND, value=value)


def table_sit_out_next_big_blind(*, table_id: int, user: User, value: bool) -> Seat:
    """Tick (or untick) "sit out at the next big blind": the player plays on until the hand in
    which they would post the big blind, and is sat out before it is dealt (RULES.md 2)."""
    return _box_set(table_id=table_id, user=user, box=NEXT_BIG_BLIND, value=value)


def _box_set(*, table_id: int, user: User, box: str, value: bool) -> Seat:
    with transaction.atomic():
        table = table_lock(table_id)
        seats = seats_lock(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise DomainError("not_seated", "you do not sit at this table")
        if table.kind != TableKind.CASH:
            raise DomainError(
                "tournament_table",
                "there is no sitting out at a tournament's table: you are dealt in and post your "
                "blinds whether you are here or not (RULES.md 8)",
            )
        if not value:
            if seat.sitting_out:
                seat_sit_in(table, seats, seat)  # unticked while out: the player is back
                return seat
            setattr(seat, box, False)
            rows.save_fields(seat, [box])
            notify_player(table, seat, current_state(table))
            return seat
        setattr(seat, box, True)
        rows.save_fields(seat, [box])
        if box == NEXT_HAND and not seat.sitting_out and not seat.in_hand:
            # Not dealt in now: the next hand is the coming one, so the player sits out now.
            seat_sit_out(seat)
            notify_table(table, TableChange("sitting_out", {"seat": seat.number}))
        else:
            notify_player(table, seat, current_state(table))
    return seat


def sit_outs_due(seats: Iterable[Seat]) -> list[Seat]:
    """RULES.md 2: the seats whose "sit out next hand" box is ticked and which are not dealt in
    sit out now (the caller holds the table and seats locks: a hand has ended, or is about to be
    dealt). Returns them, for the caller to tell the table."""
    due = [s for s in seats if s.sit_out_next_hand and not s.sitting_out and not s.in_hand]
    for seat in due:
        seat_sit_out(seat)
    return due


def sat_out_tell(table: LockedTable, seats: Iterable[Seat]) -> None:
    """Tell the table of each seat its box has just sat out."""
    for seat in seats:
        notify_table(table, TableChange("sitting_out", {"seat": seat.number}))
