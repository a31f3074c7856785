"""The time bank: extra time a connected player gets once their turn clock runs out,
kept on the seat; what they use is gone, and it refills a little every few hands. The caller
holds the table lock (holdem/services/hand_start.py, hand_act.py)."""

from datetime import datetime, timedelta

from holdem import engine
from holdem.db import rows
from holdem.db.locks import LockedTable
from holdem.models import Seat
from holdem.rules_words import BANK_REFILL_HANDS
from holdem.services.notify import TableChange, table_change_publish
from holdem.table_options import bank_refill_ms_of, time_bank_ms_of


def bank_opens(table: LockedTable, seat: Seat, state: engine.HandState) -> bool:
    """The turn clock ran out: the player's time bank, if they have one, takes over."""
    if seat.disconnected or seat.time_bank_ms <= 0 or table.time_bank_seconds == 0:
        return False
    deadline = table.turn_deadline
    assert deadline is not None, "the bank opens when a turn clock runs out"
    table.turn_bank_from = deadline
    table.turn_deadline = deadline + timedelta(milliseconds=seat.time_bank_ms)
    published = table_change_publish(
        table,
        TableChange(
            "time_bank",
            {"seat": seat.number, "seconds": seat.time_bank_ms // 1000},
            state=state,
            balances=False,
        ),
    )
    rows.save_fields(table, [*published, "turn_bank_from", "turn_deadline"])  # one UPDATE
    return True


def bank_spent(table: LockedTable, seat: Seat, now: datetime) -> None:
    """The player acted while their time bank ran: what they used of it is gone."""
    if table.turn_bank_from is None:
        return
    used = int((now - table.turn_bank_from).total_seconds() * 1000)
    seat.time_bank_ms = max(0, seat.time_bank_ms - max(used, 0))
    seat.save(update_fields=["time_bank_ms"])


# The seat's fields bank_refill changes (the caller saves them).
BANK_FIELDS = ("bank_hands", "time_bank_ms")


def bank_refill(seat: Seat, table: LockedTable) -> None:
    """Count a hand dealt to the seat; every BANK_REFILL_HANDS of them refill its bank a little."""
    seat.bank_hands += 1
    if seat.bank_hands < BANK_REFILL_HANDS:
        return
    seat.bank_hands = 0
    # RULES.md 1: at a slow table the bank and its refill are both the pace's.
    seat.time_bank_ms = min(time_bank_ms_of(table), seat.time_bank_ms + bank_refill_ms_of(table))
