"""One lock order for everything at a table: the table row, then its seats, then wallets (style.md 8)."""

from holdem.db.rows import seats_with_users, table_locked
from holdem.models import Seat, Table


def table_lock(table_id: int) -> Table:
    """Lock and return the table row; every table change starts here."""
    return table_locked(table_id)


def seats_lock(table: Table) -> list[Seat]:
    """Lock the table's seats in primary-key order (after the table, before any wallet), each
    with its player."""
    return seats_with_users(table.pk, lock=True)
