"""One lock order for everything at a table: the table row, then its seats, then wallets (style.md 8).

`LockedTable` is a table row read under its lock: the helpers that may only run inside a table's
locked section take one, so the type checker refuses a call with a table read any other way.
"""

from typing import NewType

from holdem.db.rows import seats_with_users, table_locked
from holdem.models import Seat, Table

LockedTable = NewType("LockedTable", Table)


def table_lock(table_id: int) -> LockedTable:
    """Lock and return the table row; every table change starts here."""
    return LockedTable(table_locked(table_id))


def table_lock_unless_busy(table_id: int) -> LockedTable | None:
    """Lock and return the table row if nobody holds it now; None at once if someone does (or
    the table is gone). For sweeps that come back a second later anyway."""
    table = table_locked(table_id, skip_locked=True)
    return None if table is None else LockedTable(table)


def seats_lock(table: LockedTable) -> list[Seat]:
    """Lock the table's seats in primary-key order (after the table, before any wallet), each
    with its player."""
    return seats_with_users(table.pk, lock=True)
