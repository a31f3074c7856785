"""One lock order for everything at a table: the table row, then its seats, then wallets (STYLE.md 8)."""

from holdem.models import Seat, Table


def table_lock(table_id: int) -> Table:
    """Lock and return the table row; every table change starts here."""
    return Table.objects.select_for_update().get(pk=table_id)


def seats_lock(table: Table) -> list[Seat]:
    """Lock the table's seats in primary-key order (after the table, before any wallet)."""
    return list(
        Seat.objects.select_for_update().filter(table=table).select_related("user").order_by("pk")
    )
