"""Taking a break or excluding oneself, at the tables (docs/rules.md 11): the account's part
(casino/accounts/exclusions.py), then the player's seat and registrations given up.

The exclusion commits first: from then on no seat or entry can be taken (both ask under the
wallet lock), so the seats and entries read after it are all there will be. Each is then left
in a transaction of its own, in the lock order (style.md 8: the table, then the wallet).
"""

import contextlib
from datetime import datetime

from django.db import transaction

from casino.accounts.exclusions import exclusion_take
from casino.accounts.models import Exclusion, User
from casino.errors import DomainError
from holdem.db.locks import seats_lock, table_lock
from holdem.models import Seat, TournamentStatus, WaitingEntry
from holdem.selectors.tournaments import entry_open_of
from holdem.services.game_kinds import game_kind_of
from holdem.services.notify import TableChange, notify_table
from holdem.services.seats import seat_leave
from holdem.services.tournaments import tournament_unregister
from holdem.services.waiting import waiting_leave


def play_exclusion_take(
    *, user: User, kind: str, length: str, now: datetime | None = None
) -> Exclusion:
    """docs/rules.md 11: the break or self-exclusion, then the player leaves the table (at the
    hand's end when dealt in), is unregistered from a tournament not yet started and leaves
    every waiting list. A tournament under way keeps their chips: they are blinded off."""
    exclusion = exclusion_take(user=user, kind=kind, length=length, now=now)
    seat = Seat.objects.filter(user=user).first()
    if seat is not None:
        _seat_give_up(table_id=seat.table_id, user=user)
    entry = entry_open_of(user)
    if entry is not None and entry.tournament.status == TournamentStatus.REGISTERING:
        tournament_unregister(tournament_id=entry.tournament_id, user=user)
    for table_id in WaitingEntry.objects.filter(user=user).values_list("table_id", flat=True):
        # Refused only when the line moved on meanwhile (the seat taken, the room closed).
        with contextlib.suppress(DomainError):
            waiting_leave(table_id=table_id, user=user)
    return exclusion


def _seat_give_up(*, table_id: int, user: User) -> None:
    with transaction.atomic():
        table = table_lock(table_id)
        seats_lock(table)
        seat = Seat.objects.filter(table=table, user=user).select_related("user").first()
        if seat is None:
            return
        if game_kind_of(table).leave_refusal(table=table, seat=seat) is not None:
            # A tournament's chips stay in it (RULES.md 8): sitting out, blinded off.
            if not seat.sitting_out:
                seat.sitting_out = True
                seat.save(update_fields=["sitting_out"])
                notify_table(table, TableChange("sitting_out", {"seat": seat.number}))
            return
        if seat.in_hand:
            # The hand plays on without them (their turns time out as a disconnected player's
            # do); the seat is given up when it ends (holdem/services/hand_end.py).
            seat.sitting_out = True
            seat.leave_after_hand = True
            seat.save(update_fields=["sitting_out", "leave_after_hand"])
            notify_table(table, TableChange("sitting_out", {"seat": seat.number}))
            return
        seat_leave(table, seat, reason=f"Took a break: cash-out from {table.name}")
