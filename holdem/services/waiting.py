"""The waiting list of a room with no seat to take: join, leave, a freed seat offered
to the first in line for OFFER_SECONDS and passed on when declined or lapsed.

Every change locks the table row first (style.md 8), so a room's line changes in step with its
seats. A player hears of their place and offers in their own group (`user.<id>`: the lobby and
any table page they have open); the lobby hears when the number of seats held changes.
"""

import logging
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from casino.accounts.models import User
from casino.accounts.selectors import frozen_refusal
from casino.errors import DomainError
from holdem.db.locks import LockedTable, table_lock
from holdem.models import Seat, Table, TableStatus, WaitingEntry
from holdem.realtime.broadcast import LOBBY_GROUP, frame_message, send_on_commit, user_group
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.waiting_list import OFFER_SECONDS, waiting_frame
from holdem.services.notify import TableChange, notify_table

log = logging.getLogger(__name__)

# A player may stand in this many lines at once (each one may offer them a seat).
MAX_LINES_PER_USER = 10

# Why a player is no longer in a line (the `reason` of their last `waiting` frame).
LEFT = "left"
DECLINED = "declined"
LAPSED = "lapsed"
SEATED = "seated"
CLOSED = "closed"


def waiting_join(*, table_id: int, user: User) -> int:
    """Get in line for a seat at a room where every seat is taken or held for someone in line.
    Returns the player's place (1 is next)."""
    with transaction.atomic():
        table = _table_locked(table_id)
        if table.status != TableStatus.OPEN:
            raise DomainError("table_closed", "this room is closed")
        seated = set(Seat.objects.filter(table=table).values_list("user_id", flat=True))
        if user.pk in seated:
            raise DomainError("already_seated", "you already sit at this table")
        # The seat it waits for would be refused anyway.
        refusal = frozen_refusal(user=user)
        if refusal is not None:
            raise refusal
        line = _line(table)
        if any(entry.user_id == user.pk for entry in line):
            raise DomainError("already_waiting", "you are already on this room's waiting list")
        held = sum(1 for entry in line if entry.offered_seat is not None)
        if len(seated) + held < table.seats:
            raise DomainError("room_not_full", "a seat is free in this room: take it instead")
        if WaitingEntry.objects.filter(user=user).count() >= MAX_LINES_PER_USER:
            raise DomainError(
                "too_many_lists", f"you can wait for at most {MAX_LINES_PER_USER} rooms at once"
            )
        now = timezone.now()
        before = _places(line)
        line.append(WaitingEntry.objects.create(table=table, user=user, joined_at=now))
        _tell(table, before, line, {}, now)
    return len(line)


def waiting_leave(*, table_id: int, user: User) -> None:
    """Leave the line; a seat offered to the player (declined) goes to the next in line."""
    with transaction.atomic():
        table = _table_locked(table_id)
        line = _line(table)
        mine = next((entry for entry in line if entry.user_id == user.pk), None)
        if mine is None:
            raise DomainError("not_waiting", "you are not on this room's waiting list")
        now = timezone.now()
        before = _places(line)
        line.remove(mine)
        mine.delete()
        passed_on = True
        if mine.offered_seat is not None and table.status == TableStatus.OPEN:
            passed_on = _offer(line, mine.offered_seat, now, taken=_taken(table)) is not None
        reason = DECLINED if mine.offered_seat is not None else LEFT
        kept_open: set[int] = set() if passed_on else {user.pk}
        if _tell(table, before, line, {user.pk: reason}, now, kept_open=kept_open):
            notify_table(table, TableChange("seats_held"))  # the table shows which seats are held


def waiting_offer_held(*, table_id: int, user: User) -> int:
    """The seat offered to the player at this room, while the offer stands (taking it is a
    `sit` at that table, with a buy-in); refused when there is none."""
    entry = WaitingEntry.objects.filter(table_id=table_id, user=user).first()
    if entry is None:
        raise DomainError("not_waiting", "you are not on this room's waiting list")
    if entry.offered_seat is None or entry.offer_expires_at is None:
        raise DomainError("no_offer", "no seat is offered to you in this room yet")
    if entry.offer_expires_at <= timezone.now():
        raise DomainError("offer_expired", "your time to take this seat ran out")
    return entry.offered_seat


def waiting_seat_freed(table: LockedTable, seat_number: int) -> None:
    """A seat was given up (the caller holds the table lock): offer it to the first in line who
    holds no offer. One query when nobody waits. A closing room offers nothing (the sweep then
    empties its line)."""
    if table.status != TableStatus.OPEN:
        return
    line = _line(table)
    if not line:
        return
    now = timezone.now()
    before = _places(line)
    if _offer(line, seat_number, now, taken=set()) is not None:
        _tell(table, before, line, {}, now)


def waiting_seat_claim(table: LockedTable, *, seat: int, user: User) -> None:
    """`user` is about to sit in `seat` (the caller holds the table lock): a seat held for
    someone else in line is refused, and so is the player's own offer once its time ran out
    (even before the sweep passes it on). Sitting here takes the player out of this line."""
    line = _line(table)
    if not line:
        return
    now = timezone.now()
    holder = next((entry for entry in line if entry.offered_seat == seat), None)
    if holder is not None and holder.user_id != user.pk:
        raise DomainError(
            "seat_reserved",
            f"seat {seat + 1} is held for a player from the waiting list; join the list to be "
            "offered the next one",
        )
    if (
        holder is not None
        and holder.offer_expires_at is not None
        and holder.offer_expires_at <= now
    ):
        raise DomainError("offer_expired", "your time to take this seat ran out")
    mine = next((entry for entry in line if entry.user_id == user.pk), None)
    if mine is None:
        return
    before = _places(line)
    line.remove(mine)
    mine.delete()
    if mine.offered_seat is not None and mine.offered_seat != seat:
        _offer(line, mine.offered_seat, now, taken={seat})  # they sat elsewhere at this table
    _tell(table, before, line, {user.pk: SEATED}, now)


def waiting_offers_fire_due(now: datetime, *, silent_since: datetime | None = None) -> int:
    """The sweep (services/clock.py, every second): offers whose time ran out pass to the next
    in line; the lines of rooms closing or closed are emptied. An offer that ran out while the
    clock was silent (after `silent_since`: the site was down) gets a whole new time instead,
    as a turn does. Returns how many players left a line. Idempotent: re-checked under the lock."""
    due = (
        WaitingEntry.objects.filter(
            Q(offer_expires_at__lte=now) | ~Q(table__status=TableStatus.OPEN)
        )
        .values_list("table_id", flat=True)
        .distinct()
    )
    removed = 0
    for table_id in sorted(set(due)):
        try:
            with transaction.atomic():
                removed += _fire_table(table_lock(table_id), now, silent_since)
        except Exception:  # one broken line must not stop the others
            log.exception("waiting list of table %s failed", table_id)
    return removed


def _table_locked(table_id: int) -> LockedTable:
    try:
        return table_lock(table_id)
    except Table.DoesNotExist:
        raise DomainError("no_such_room", "that room does not exist") from None


def _line(table: LockedTable) -> list[WaitingEntry]:
    """The room's line, first in line first (the caller holds the table lock)."""
    return list(WaitingEntry.objects.filter(table=table).order_by("id"))


def _taken(table: LockedTable) -> set[int]:
    return set(Seat.objects.filter(table=table).values_list("number", flat=True))


def _offer(
    line: list[WaitingEntry], seat_number: int, now: datetime, *, taken: set[int]
) -> WaitingEntry | None:
    """Hold `seat_number` for the first in line without an offer, for OFFER_SECONDS."""
    if seat_number in taken:
        return None
    entry = next((entry for entry in line if entry.offered_seat is None), None)
    if entry is not None:
        entry.offered_seat = seat_number
        entry.offer_expires_at = now + timedelta(seconds=OFFER_SECONDS)
        entry.save(update_fields=["offered_seat", "offer_expires_at"])
    return entry


def _fire_table(table: LockedTable, now: datetime, silent_since: datetime | None) -> int:
    line = _line(table)
    before = _places(line)
    gone: dict[int, str] = {}
    kept_open: set[int] = set()
    if table.status != TableStatus.OPEN:
        WaitingEntry.objects.filter(pk__in=[entry.pk for entry in line]).delete()
        gone = {entry.user_id: CLOSED for entry in line}
        line = []
    else:
        lapsed = [e for e in line if e.offer_expires_at is not None and e.offer_expires_at <= now]
        taken = _taken(table) if lapsed else set()
        for entry in lapsed:
            assert entry.offer_expires_at is not None  # lapsed: it has a time
            if silent_since is not None and entry.offer_expires_at > silent_since:
                entry.offer_expires_at = now + timedelta(seconds=OFFER_SECONDS)
                entry.save(update_fields=["offer_expires_at"])
                continue
            line.remove(entry)
            entry.delete()
            gone[entry.user_id] = LAPSED
            assert entry.offered_seat is not None  # lapsed: it was offered one
            if _offer(line, entry.offered_seat, now, taken=taken) is None:
                kept_open.add(entry.user_id)  # nobody left in line: the seat is simply free
    if _tell(table, before, line, gone, now, kept_open=kept_open):
        notify_table(table, TableChange("seats_held"))  # the table shows which seats are held
    return len(gone)


type Places = dict[int, tuple[int, int | None, datetime | None]]


def _places(line: list[WaitingEntry]) -> Places:
    """What each player in the line was told: their place and their offer."""
    return {
        entry.user_id: (place, entry.offered_seat, entry.offer_expires_at)
        for place, entry in enumerate(line, 1)
    }


def _tell(
    table: LockedTable,
    before: Places,
    line: list[WaitingEntry],
    gone: dict[int, str],
    now: datetime,
    kept_open: Collection[int] = (),
) -> bool:
    """After commit: a `waiting` frame to each player whose place or offer changed or who left
    the line (`kept_open`: those whose seat went to nobody, the line being empty), and a
    `waiting_room` frame to the lobby when the number of seats held changed. The table row's
    `held_seats` follows the line; returns whether it changed (the caller's table event, if it
    sends none of its own, shows it)."""
    held = {
        str(entry.offered_seat): epoch_ms(entry.offer_expires_at)
        for entry in line
        if entry.offered_seat is not None
    }
    held_changed = held != (table.held_seats or {})
    if held_changed:
        table.held_seats = held
        table.save(update_fields=["held_seats"])
    after = _places(line)
    messages: list[tuple[str, dict[str, Any]]] = []
    for place, entry in enumerate(line, 1):
        if before.get(entry.user_id) != after[entry.user_id]:
            frame = waiting_frame(table, entry, place=place, size=len(line), now=now)
            messages.append((user_group(entry.user_id), frame_message(frame)))
    for user_id, reason in gone.items():
        frame = waiting_frame(table, None, place=None, size=len(line), now=now, reason=reason)
        if reason in (DECLINED, LAPSED):
            frame["passed_on"] = user_id not in kept_open
        messages.append((user_group(user_id), frame_message(frame)))
    held_before = sum(1 for _, seat, _ in before.values() if seat is not None)
    held_after = sum(1 for _, seat, _ in after.values() if seat is not None)
    if held_before != held_after:
        room = {"type": "waiting_room", "table_id": table.pk, "waiting": len(line)}
        messages.append((LOBBY_GROUP, frame_message({**room, "reserved": held_after})))
    if messages:
        send_on_commit(messages)
    return held_changed
