"""One lock order for everything at a table: the table row, then its seats, then wallets (style.md 8)."""

from holdem.db.rows import seats_with_users, table_locked
from holdem.models import Seat, Table


def table_lock(table_id: int) -> Table:
    """Lock and return the table row; every table change starts here."""
    return table_locked(table_id)


def table_lock_unless_busy(table_id: int) -> Table | None:
    """Lock and return the table row if nobody holds it now; None at once if someone does (or
    the table is gone). For sweeps that come back a second later anyway."""
    return table_locked(table_id, skip_locked=True)


def seats_lock(table: Table) -> list[Seat]:
    """Lock the table's seats in primary-key order (after the table, before any wallet), each
    with its player."""
    return seats_with_users(table.pk, lock=True)
