"""The countdown between hands (RULES.md 2): 30 s to the next game, 10 s when every seat is filled.

The deadline clock (holdem.services.clock) starts the hand when `Table.next_hand_at` passes; these
functions only set it, inside the caller's transaction and table lock.
"""

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.utils import timezone

from holdem.db.locks import LockedTable
from holdem.models import Seat
from holdem.services.game_kinds import game_kind_of


def countdown_start(table: LockedTable, seats: Sequence[Seat], now: datetime | None = None) -> None:
    """RULES.md 2: 30 s to the next game, or 10 s when every seat is filled."""
    countdown_set(table, seats, now)
    table.save(update_fields=["next_hand_at"])


def countdown_set(table: LockedTable, seats: Sequence[Seat], now: datetime | None = None) -> None:
    """`countdown_start` without the save: the caller saves `next_hand_at` with its event."""
    now = now or timezone.now()
    full = len(seats) >= table.seats
    seconds = table.countdown_full_seconds if full else table.countdown_seconds
    table.next_hand_at = now + timedelta(seconds=seconds)


def countdown_after_hand(table: LockedTable, seats: Sequence[Seat], now: datetime) -> int | None:
    """RULES.md 2: at a hand's end, set the next countdown (the caller saves `next_hand_at` with
    its event) if two of `seats` can play; returns its seconds, or None."""
    kind = game_kind_of(table)
    if len([s for s in seats if kind.can_play(s)]) < 2:
        return None
    countdown_set(table, seats, now)
    assert table.next_hand_at is not None  # just set
    return int((table.next_hand_at - now).total_seconds())


def countdown_shorten_if_full(
    table: LockedTable, seats: Sequence[Seat], now: datetime | None = None
) -> None:
    """A table that fills up during a countdown starts within the short countdown."""
    now = now or timezone.now()
    if table.next_hand_at is None or len(seats) < table.seats:
        return
    soon = now + timedelta(seconds=table.countdown_full_seconds)
    if table.next_hand_at > soon:
        table.next_hand_at = soon
        table.save(update_fields=["next_hand_at"])


def countdown_start_if_ready(table: LockedTable, seats: Sequence[Seat]) -> None:
    """RULES.md 2: when a second player sits at an idle table, the countdown starts."""
    if table.next_hand_at is not None:
        countdown_shorten_if_full(table, seats)
        return
    if table.in_hand:
        return
    kind = game_kind_of(table)
    ready = [s for s in seats if kind.can_play(s)]
    if len(ready) >= 2:
        countdown_start(table, seats)
