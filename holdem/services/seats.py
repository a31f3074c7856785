"""Sitting down, standing up, sitting out and coming back, posting (RULES.md 2).

Every function locks the table row first, then seats, then wallets (STYLE.md 8).
"""

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from casino.accounts.errors import ChipError
from casino.accounts.models import LedgerKind
from casino.accounts.services import wallet_adjust, wallet_lock
from holdem.errors import TableError
from holdem.locks import seats_lock, table_lock
from holdem.models import Departure, Entry, Seat, TableStatus
from holdem.services.notify import notify_table


def table_sit(*, table_id: int, user, seat: int, buy_in: int | None) -> Seat:
    """Take an open seat with a buy-in moved from the wallet to the seat (RULES.md 2)."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TableError("bad_seat", "the seat must be a seat number")
    if buy_in is not None and (isinstance(buy_in, bool) or not isinstance(buy_in, int)):
        raise TableError("bad_amount", "the buy-in must be a whole number of chips")
    with transaction.atomic():
        table = table_lock(table_id)
        seats = seats_lock(table)
        if table.status != TableStatus.OPEN:
            raise TableError("table_closed", "this room is closed")
        if not 0 <= seat < table.seats:
            raise TableError("bad_seat", f"this room has seats 0 to {table.seats - 1}")
        # The wallet lock (after table and seats: STYLE.md 8) also serialises one user sitting
        # down at two tables at once, which the table locks alone would not.
        wallet_lock(user_ids=[user.pk])
        mine = Seat.objects.filter(user=user).first()
        if mine is not None:
            if mine.table_id == table.pk:
                raise TableError("already_seated", "you already sit at this table")
            raise TableError(
                "seated_elsewhere",
                "you already sit at another table; leave it first (one room at a time)",
            )
        if any(s.number == seat for s in seats):
            raise TableError("seat_taken", f"seat {seat + 1} is taken")
        balance = _wallet_balance(user)
        limits = buy_in_limits(table, user)
        if buy_in is None:
            if table.max_buy_in is not None:
                raise TableError("bad_amount", "choose a buy-in")
            buy_in = balance  # RULES.md 1: a room without a maximum plays the whole balance
        if buy_in < limits.minimum:
            raise TableError(
                "buy_in_too_small",
                limits.reason or f"the minimum buy-in here is {limits.minimum:,} chips",
            )
        if limits.maximum is not None and buy_in > limits.maximum:
            raise TableError(
                "buy_in_too_large", f"the maximum buy-in here is {limits.maximum:,} chips"
            )
        if buy_in > balance:
            raise TableError("insufficient_chips", f"you have {balance:,} chips in your wallet")
        debt = limits.departure
        owes = (
            table.entry == Entry.WAIT_OR_POST
            and debt is not None
            and (debt.missed_small_blind or debt.missed_big_blind)
        )
        row = Seat.objects.create(
            table=table,
            number=seat,
            user=user,
            stack=0,
            auto_muck=user.auto_muck,
            # RULES.md 2: sitting down during a game (a hand, or the countdown between two hands
            # of a running game) waits; wait_or_post rooms wait for the big blind or post. So
            # does a player who left owing blinds here less than 30 minutes ago.
            waiting_for_big_blind=table.entry == Entry.WAIT_OR_POST
            and (game_running(table, seats) or owes),
            missed_small_blind=owes and debt.missed_small_blind,
            missed_big_blind=owes and debt.missed_big_blind,
        )
        try:
            wallet_adjust(
                user=user,
                amount=-buy_in,
                kind=LedgerKind.BUY_IN,
                reason=f"Buy-in at {table.name}",
                table_id=table.pk,
            )
        except ChipError as error:
            raise TableError(error.code, error.message) from error
        row.stack = buy_in
        row.save(update_fields=["stack"])
        _start_countdown_if_ready(table, [*seats, row])
        notify_table(table, "seated", {"seat": seat, "username": user.username, "stack": buy_in})
    return row


def table_leave(*, table_id: int, user) -> int:
    """Stand up: the seat's chips go back to the wallet. Refused while dealt in (RULES.md 2)."""
    with transaction.atomic():
        table = table_lock(table_id)
        seats_lock(table)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise TableError("not_seated", "you do not sit at this table")
        if seat.in_hand:
            raise TableError(
                "in_hand", "you are dealt in; you can leave when this game ends (or fold and wait)"
            )
        returned = seat_release(table, seat, reason=f"Cash-out from {table.name}")
        notify_table(
            table,
            "left",
            {"seat": seat.number, "username": user.username, "returned": returned},
            also_tell=[user],
        )
    return returned


def seat_release(table, seat: Seat, *, reason: str) -> int:
    """Give the seat up, its chips back to the wallet; the caller holds the table lock. What the
    player held and owed is remembered for 30 minutes (RULES.md 2)."""
    returned = seat.stack
    Departure.objects.update_or_create(
        user_id=seat.user_id,
        table=table,
        defaults={
            "left_at": timezone.now(),
            "stack": returned,
            "missed_small_blind": seat.missed_small_blind,
            "missed_big_blind": seat.missed_big_blind,
        },
    )
    if returned > 0:
        wallet_adjust(
            user=seat.user,
            amount=returned,
            kind=LedgerKind.CASH_OUT,
            reason=reason,
            table_id=table.pk,
        )
    seat.delete()
    return returned


def table_sit_out(*, table_id: int, user) -> Seat:
    """Sit out from the next hand on; the seat is kept (RULES.md 2)."""
    with transaction.atomic():
        table = table_lock(table_id)
        seat = _my_seat(table, user)
        if seat.sitting_out:
            raise TableError("already_sitting_out", "you are already sitting out")
        seat.sitting_out = True
        seat.wants_to_post = False
        seat.save(update_fields=["sitting_out", "wants_to_post"])
        notify_table(table, "sitting_out", {"seat": seat.number})
    return seat


def table_sit_in(*, table_id: int, user) -> Seat:
    """Come back. In wait_or_post rooms a player who missed blinds posts them or waits for the big blind."""
    with transaction.atomic():
        table = table_lock(table_id)
        seats = seats_lock(table)
        seat = _my_seat(table, user)
        if not seat.sitting_out:
            raise TableError("not_sitting_out", "you are not sitting out")
        seat.sitting_out = False
        seat.sat_out_idle = False
        seat.timeouts_in_row = 0
        if table.entry == Entry.WAIT_OR_POST and (seat.missed_small_blind or seat.missed_big_blind):
            seat.waiting_for_big_blind = (
                True  # RULES.md 2: post the missed blinds, or wait for the big blind
            )
        seat.save(
            update_fields=[
                "sitting_out",
                "sat_out_idle",
                "timeouts_in_row",
                "waiting_for_big_blind",
            ]
        )
        # The locked list holds its own copy of this seat: count the player back in.
        _start_countdown_if_ready(table, [seat if s.pk == seat.pk else s for s in seats])
        notify_table(table, "sitting_in", {"seat": seat.number})
    return seat


def table_post(*, table_id: int, user) -> Seat:
    """Post to be dealt in at the next hand instead of waiting for the big blind (RULES.md 2)."""
    with transaction.atomic():
        table = table_lock(table_id)
        seat = _my_seat(table, user)
        if table.entry != Entry.WAIT_OR_POST:
            raise TableError("no_posting", "in this room new players are dealt in at the next game")
        if not seat.waiting_for_big_blind:
            raise TableError("nothing_to_post", "you are not waiting for the big blind")
        if seat.sitting_out:
            raise TableError("sitting_out", "come back first, then post")
        seat.wants_to_post = True
        seat.save(update_fields=["wants_to_post"])
        notify_table(table, "will_post", {"seat": seat.number})
    return seat


def table_set_auto_muck(*, table_id: int, user, auto_muck: bool) -> Seat:
    with transaction.atomic():
        table = table_lock(table_id)
        seat = _my_seat(table, user)
        seat.auto_muck = bool(auto_muck)
        seat.save(update_fields=["auto_muck"])
        user.auto_muck = seat.auto_muck
        user.save(update_fields=["auto_muck"])
    return seat


# RULES.md 2: how long a table remembers what a player who left it owed and held.
DEPARTURE_MEMORY = timedelta(minutes=30)


@dataclass(frozen=True)
class BuyInLimits:
    minimum: int
    maximum: int | None
    reason: str | None  # why the minimum is above the room's
    departure: Departure | None


def buy_in_limits(table, user, now=None) -> BuyInLimits:
    """RULES.md 2: the room's buy-in range, except that a player who left this table with chips
    less than 30 minutes ago comes back with at least that many (no hit-and-run "ratholing")."""
    now = now or timezone.now()
    minimum, maximum = max(table.min_buy_in, 1), table.max_buy_in
    departure = Departure.objects.filter(
        user=user, table=table, left_at__gte=now - DEPARTURE_MEMORY
    ).first()
    reason = None
    if departure is not None and departure.stack > minimum:
        minimum = departure.stack
        if maximum is not None and maximum < minimum:
            maximum = minimum
        ago = max(1, int((now - departure.left_at).total_seconds() // 60))
        reason = (
            f"you left this table {ago} minute{'s' if ago != 1 else ''} ago with {departure.stack:,} chips: "
            f"come back with at least that many (for 30 minutes after leaving)"
        )
    return BuyInLimits(minimum, maximum, reason, departure)


def game_running(table, seats) -> bool:
    """RULES.md 2: a hand is being played, or the countdown after a hand runs with two or more of
    the players who played it still seated. Otherwise everybody is dealt in at the next game."""
    if table.in_hand:
        return True
    if table.next_hand_at is None or table.last_hand is None:
        return False
    played = {p["user_id"] for p in table.last_hand.players}
    return sum(1 for s in seats if s.user_id in played) >= 2


def _my_seat(table, user) -> Seat:
    seat = Seat.objects.select_for_update().filter(table=table, user=user).first()
    if seat is None:
        raise TableError("not_seated", "you do not sit at this table")
    return seat


def _wallet_balance(user) -> int:
    from casino.accounts.selectors import wallet_balance

    return wallet_balance(user=user)


def _start_countdown_if_ready(table, seats) -> None:
    """RULES.md 2: when a second player sits at an idle table, the countdown starts."""
    from holdem.services.hands import countdown_shorten_if_full, countdown_start

    if table.next_hand_at is not None:
        countdown_shorten_if_full(table, seats)
        return
    if table.in_hand:
        return
    ready = [s for s in seats if not s.sitting_out and (s.stack > 0)]
    if len(ready) >= 2:
        countdown_start(table, seats)


def table_switch(*, user, to_table_id: int) -> int:
    """RULES.md 2: move to another room as a spectator. Refused while dealt in elsewhere;
    otherwise the seat held elsewhere is given up with its chips returned."""
    from holdem.models import Table

    if not Table.objects.filter(pk=to_table_id).exclude(status=TableStatus.CLOSED).exists():
        raise TableError("no_such_room", "that room does not exist or is closed")
    held = Seat.objects.filter(user=user).exclude(table_id=to_table_id).first()
    if held is None:
        return to_table_id
    with transaction.atomic():
        table = table_lock(held.table_id)
        seats_lock(table)
        seat = Seat.objects.filter(pk=held.pk).select_related("user").first()
        if seat is None:
            return to_table_id
        if seat.in_hand:
            raise TableError(
                "in_hand",
                f"you are dealt in at {table.name}; you can switch rooms when that game ends",
            )
        returned = seat_release(table, seat, reason=f"Switched rooms: cash-out from {table.name}")
        notify_table(
            table,
            "left",
            {"seat": seat.number, "username": user.username, "returned": returned},
            also_tell=[user],
        )
    return to_table_id
