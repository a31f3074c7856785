"""Sitting down, standing up, sitting out and coming back, posting (RULES.md 2).

Every function locks the table row first, then seats, then wallets (style.md 8).
"""

from django.db import transaction
from django.utils import timezone

from casino.accounts.limits import buy_in_limit_refusal
from casino.accounts.models import User
from casino.accounts.selectors import seat_refusal
from casino.accounts.services import wallet_lock
from casino.errors import DomainError
from holdem.db.locks import LockedTable, seats_lock, table_lock
from holdem.models import Departure, Entry, Seat, Table, TableStatus
from holdem.selectors.buy_in import buy_in_limits, top_up_room
from holdem.selectors.game_state import game_running
from holdem.selectors.tournaments import entry_open_of
from holdem.services.countdown import countdown_start_if_ready
from holdem.services.game_kinds import game_kind_of
from holdem.services.notify import TableChange, notify_table
from holdem.services.waiting import waiting_seat_claim, waiting_seat_freed
from holdem.table_options import time_bank_ms_of


def table_sit(*, table_id: int, user: User, seat: int, buy_in: int | None) -> Seat:
    """Take an open seat with a buy-in brought to it (RULES.md 2; in a cash game from the
    wallet: the table's kind of game says how). `seat` and `buy_in` are whole numbers (the socket
    checks the shape of what a client sends)."""
    with transaction.atomic():
        table = table_lock(table_id)
        seats = seats_lock(table)
        if table.status != TableStatus.OPEN:
            raise DomainError("table_closed", "this room is closed")
        kind = game_kind_of(table)
        refusal = kind.entry_refusal(table=table, user=user)
        if refusal is not None:
            raise refusal
        if not 0 <= seat < table.seats:
            raise DomainError("bad_seat", f"this room has seats 0 to {table.seats - 1}")
        # The wallet lock (after table and seats: style.md 8) also serialises one user sitting
        # down at two tables at once, which the table locks alone would not.
        wallet = wallet_lock(user_ids=[user.pk])[user.pk]
        # Frozen, or linked to a player seated here (RULES.md 2)? Under the wallet lock, which
        # a freeze takes too.
        refusal = seat_refusal(
            user=user,
            seated_ids=[s.user_id for s in seats],
            separate_linked=table.separate_linked_accounts,
        )
        if refusal is not None:
            raise refusal
        registered = entry_open_of(user)
        if registered is not None:
            raise DomainError(
                "registered_elsewhere",
                f"you are registered in {registered.tournament.name} "
                f"(#{registered.tournament_id}); one room at a time",
            )
        mine = Seat.objects.filter(user=user).first()
        if mine is not None:
            if mine.table_id == table.pk:
                raise DomainError("already_seated", "you already sit at this table")
            raise DomainError(
                "seated_elsewhere",
                "you already sit at another table; leave it first (one room at a time)",
            )
        if any(s.number == seat for s in seats):
            raise DomainError("seat_taken", f"seat {seat + 1} is taken")
        waiting_seat_claim(table, seat=seat, user=user)  # a seat held for the waiting list
        balance = wallet.balance
        limits = buy_in_limits(table, user)
        if buy_in is None:
            if table.max_buy_in is not None:
                raise DomainError("bad_amount", "choose a buy-in")
            buy_in = balance  # RULES.md 1: a room without a maximum plays the whole balance
        if buy_in < limits.minimum:
            raise DomainError(
                "buy_in_too_small",
                limits.reason or f"the minimum buy-in here is {limits.minimum:,} chips",
            )
        if limits.maximum is not None and buy_in > limits.maximum:
            raise DomainError(
                "buy_in_too_large", f"the maximum buy-in here is {limits.maximum:,} chips"
            )
        if buy_in > balance:
            raise DomainError("insufficient_chips", f"you have {balance:,} chips in your wallet")
        limited = buy_in_limit_refusal(user=user, amount=buy_in)  # docs/rules.md 11
        if limited is not None:
            raise limited
        debt = limits.departure
        owes = (
            table.entry == Entry.WAIT_OR_POST
            and debt is not None
            and (debt.missed_small_blind or debt.missed_big_blind)
        )
        try:
            kind.chips_in(table=table, user=user, amount=buy_in, reason=f"Buy-in at {table.name}")
        except DomainError as error:
            raise DomainError(error.code, error.message) from error
        row = Seat.objects.create(
            table=table,
            number=seat,
            user=user,
            stack=buy_in,
            auto_muck=user.auto_muck,
            time_bank_ms=_time_bank_kept(table, debt),
            # RULES.md 2: sitting down during a game (a hand, or the countdown between two hands
            # of a running game) waits; wait_or_post rooms wait for the big blind or post. So
            # does a player who left owing blinds here less than 30 minutes ago.
            waiting_for_big_blind=table.entry == Entry.WAIT_OR_POST
            and (game_running(table, seats) or owes),
            missed_small_blind=owes and debt is not None and debt.missed_small_blind,
            missed_big_blind=owes and debt is not None and debt.missed_big_blind,
        )
        seats = [*seats, row]
        countdown_start_if_ready(table, seats)
        notify_table(
            table,
            TableChange(
                "seated",
                {"seat": seat, "username": user.username, "stack": buy_in},
                seats=seats,  # in primary-key order, as notify_table reads them: the new row is last
            ),
        )
    return row


def _time_bank_kept(table: LockedTable, departure: Departure | None) -> int:
    """RULES.md 2: like the blinds owed, the time bank a player left this table with stays theirs
    for 30 minutes (`departure` is within them, or None); leaving and sitting down again does
    not fill it up. Never more than the room's full bank."""
    full = time_bank_ms_of(table)  # RULES.md 1: a slow table's bank is the pace's
    if departure is None or departure.time_bank_ms is None:
        return full
    return min(full, departure.time_bank_ms)


def table_top_up(*, table_id: int, user: User, amount: int) -> int:
    """Bring more chips from the wallet to the seat between hands, up to the room's maximum
    buy-in (in a room without one, up to the wallet). Returns the new stack."""
    with transaction.atomic():
        table = table_lock(table_id)
        seats_lock(table)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise DomainError("not_seated", "you do not sit at this table")
        seat.user = user
        seat_top_up(table, seat, amount=amount, reason=f"Top-up at {table.name}")
    return seat.stack


def seat_top_up(
    table: LockedTable, seat: Seat, *, amount: int, reason: str, auto: bool = False
) -> None:
    """Add `amount` chips from the player's wallet to `seat` between hands (the caller holds the
    table and seats locks): the one path of a top-up, asked for or automatic (`auto`), with
    its checks, its ledger line (`reason`) and the table's "topped_up" event."""
    if seat.in_hand:
        raise DomainError("in_hand", "you are dealt in; top up when this game ends")
    kind = game_kind_of(table)
    refusal = kind.top_up_refusal(table=table, seat=seat)
    if refusal is not None:
        raise refusal
    user = seat.user
    wallet = wallet_lock(user_ids=[user.pk])[user.pk]
    room = top_up_room(table, seat, wallet.balance)
    if amount < 1:
        raise DomainError("bad_amount", "top up by at least 1 chip")
    if room < amount:
        raise DomainError(
            "top_up_too_large",
            f"you can add at most {room:,} chips now"
            if room
            else "you cannot add chips now: your stack is at the room's maximum, or your "
            "wallet is empty",
        )
    # docs/rules.md 11: here, so an automatic top-up meets the limit as a chosen one does.
    limited = buy_in_limit_refusal(user=user, amount=amount)
    if limited is not None:
        raise limited
    kind.chips_in(table=table, user=user, amount=amount, reason=reason)
    seat.stack += amount
    seat.save(update_fields=["stack"])
    detail = {"seat": seat.number, "username": user.username, "amount": amount}
    if auto:
        detail["auto"] = True
    notify_table(table, TableChange("topped_up", detail))


def table_leave(*, table_id: int, user: User) -> int:
    """Stand up: the seat's chips go back to the wallet. Refused while dealt in (RULES.md 2)."""
    with transaction.atomic():
        table = table_lock(table_id)
        seats_lock(table)
        seat = Seat.objects.filter(table=table, user=user).select_related("user").first()
        if seat is None:
            raise DomainError("not_seated", "you do not sit at this table")
        if seat.in_hand:
            raise DomainError(
                "in_hand", "you are dealt in; you can leave when this game ends (or fold and wait)"
            )
        refusal = game_kind_of(table).leave_refusal(table=table, seat=seat)
        if refusal is not None:
            raise refusal
        return seat_leave(table, seat, reason=f"Cash-out from {table.name}")


def seat_leave(table: LockedTable, seat: Seat, *, reason: str) -> int:
    """The player leaves the table (the caller holds its lock): the seat is given up with its
    chips (seat_release; `reason` is the ledger line's), and the table hears who left with what,
    as does the player, whose seat it no longer is. Returns the chips returned."""
    returned = seat_release(table, seat, reason=reason)
    left = {"seat": seat.number, "username": seat.user.username, "returned": returned}
    notify_table(table, TableChange("left", left, also_tell=(seat.user,)))
    return returned


def seat_release(table: LockedTable, seat: Seat, *, reason: str) -> int:
    """Give the seat up, its chips going where the table's kind of game sends them (a cash
    game: back to the wallet); the caller holds the table lock. What the player held and owed is
    remembered for 30 minutes (RULES.md 2)."""
    returned = seat.stack
    Departure.objects.update_or_create(
        user_id=seat.user_id,
        table=table,
        defaults={
            "left_at": timezone.now(),
            "stack": returned,
            "missed_small_blind": seat.missed_small_blind,
            "missed_big_blind": seat.missed_big_blind,
            "time_bank_ms": seat.time_bank_ms,
        },
    )
    game_kind_of(table).chips_out(table=table, seat=seat, reason=reason)
    seat.delete()
    waiting_seat_freed(table, seat.number)  # offered to the first on the waiting list
    return returned


def table_leave_after_hand(*, table_id: int, user: User) -> bool:
    """Stand up at once between hands; dealt in, when this hand ends (RULES.md 2): the player
    plays it out and the seat is given up, chips to the wallet, as it ends. True when the leave
    waits for the hand's end. Refused where leaving is (a tournament's chips stay in it)."""
    with transaction.atomic():
        table = table_lock(table_id)
        seats_lock(table)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise DomainError("not_seated", "you do not sit at this table")
        refusal = game_kind_of(table).leave_refusal(table=table, seat=seat)
        if refusal is not None:
            raise refusal
        if seat.in_hand:
            if not seat.leave_after_hand:
                seat.leave_after_hand = True
                seat.save(update_fields=["leave_after_hand"])
            return True
    table_leave(table_id=table_id, user=user)
    return False


def table_sit_out(*, table_id: int, user: User) -> Seat:
    """Sit out from the next hand on; the seat is kept (RULES.md 2)."""
    with transaction.atomic():
        table = table_lock(table_id)
        seat = _my_seat(table, user)
        if seat.sitting_out:
            raise DomainError("already_sitting_out", "you are already sitting out")
        seat.sitting_out = True
        seat.wants_to_post = False
        seat.save(update_fields=["sitting_out", "wants_to_post"])
        notify_table(table, TableChange("sitting_out", {"seat": seat.number}))
    return seat


def table_sit_in(*, table_id: int, user: User) -> Seat:
    """Come back. In wait_or_post rooms a player who missed blinds posts them or waits for the big blind."""
    with transaction.atomic():
        table = table_lock(table_id)
        seats = seats_lock(table)
        seat = _my_seat(table, user)
        if not seat.sitting_out:
            raise DomainError("not_sitting_out", "you are not sitting out")
        seat_sit_in(table, seats, seat)
    return seat


def seat_sit_in(table: LockedTable, seats: list[Seat], seat: Seat) -> None:
    """The player of `seat`, sitting out, comes back (the caller holds the table and seats
    locks; `seats` is the locked list): their sit-out boxes are cleared, blinds they missed are
    owed (RULES.md 2), and the countdown starts if they make two."""
    seat.sitting_out = False
    seat.sat_out_idle = False
    seat.timeouts_in_row = 0
    seat.sit_out_next_hand = seat.sit_out_next_big_blind = False
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
            "sit_out_next_hand",
            "sit_out_next_big_blind",
        ]
    )
    # The locked list holds its own copy of this seat: count the player back in.
    countdown_start_if_ready(table, [seat if s.pk == seat.pk else s for s in seats])
    notify_table(table, TableChange("sitting_in", {"seat": seat.number}))


def table_post(*, table_id: int, user: User) -> Seat:
    """Post to be dealt in at the next hand instead of waiting for the big blind (RULES.md 2)."""
    with transaction.atomic():
        table = table_lock(table_id)
        seat = _my_seat(table, user)
        if table.entry != Entry.WAIT_OR_POST:
            raise DomainError(
                "no_posting", "in this room new players are dealt in at the next game"
            )
        if not seat.waiting_for_big_blind:
            raise DomainError("nothing_to_post", "you are not waiting for the big blind")
        if seat.sitting_out:
            raise DomainError("sitting_out", "come back first, then post")
        seat.wants_to_post = True
        seat.save(update_fields=["wants_to_post"])
        notify_table(table, TableChange("will_post", {"seat": seat.number}))
    return seat


def table_set_auto_muck(*, table_id: int, user: User, auto_muck: bool) -> Seat:
    with transaction.atomic():
        table = table_lock(table_id)
        seat = _my_seat(table, user)
        seat.auto_muck = bool(auto_muck)
        seat.save(update_fields=["auto_muck"])
        user.auto_muck = seat.auto_muck
        user.save(update_fields=["auto_muck"])
    return seat


def _my_seat(table: LockedTable, user: User) -> Seat:
    seat = Seat.objects.select_for_update().filter(table=table, user=user).first()
    if seat is None:
        raise DomainError("not_seated", "you do not sit at this table")
    return seat


def table_switch(*, user: User, to_table_id: int) -> int:
    """RULES.md 2: move to another room as a spectator. Refused while dealt in elsewhere;
    otherwise the seat held elsewhere is given up with its chips returned."""
    if not Table.objects.filter(pk=to_table_id).exclude(status=TableStatus.CLOSED).exists():
        raise DomainError("no_such_room", "that room does not exist or is closed")
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
            raise DomainError(
                "in_hand",
                f"you are dealt in at {table.name}; you can switch rooms when that game ends",
            )
        refusal = game_kind_of(table).leave_refusal(table=table, seat=seat)
        if refusal is not None:
            raise refusal
        seat_leave(table, seat, reason=f"Switched rooms: cash-out from {table.name}")
    return to_table_id
