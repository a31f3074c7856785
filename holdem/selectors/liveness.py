"""What is alive: the open websockets whose web process still beats, the spectators they make,
and when the deadline clock last ran. holdem/services/presence.py keeps the connection rows.
"""

from datetime import datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone

from holdem.models import (
    DEADLINES_CLOCK,
    PROCESS_EXPIRY_SECONDS,
    ClockBeat,
    Connection,
    Seat,
    Table,
)


def live_cutoff(now: datetime | None = None) -> datetime:
    """A web process that has not beaten since this moment is taken for dead."""
    return (now or timezone.now()) - timedelta(seconds=PROCESS_EXPIRY_SECONDS)


def live_connections() -> QuerySet[Connection]:
    """Connections whose web process is alive."""
    return Connection.objects.filter(process__seen_at__gte=live_cutoff())


def spectator_count(table: Table) -> int:
    """Users with a live socket at the table who sit at none of its seats."""
    seated = Seat.objects.filter(table=table).values("user_id")
    watching = live_connections().filter(table=table).exclude(user_id__in=seated)
    return watching.values("user_id").distinct().count()


def clock_last_run() -> datetime | None:
    """When the deadline sweeper last ran (None before its first run)."""
    return ClockBeat.objects.filter(name=DEADLINES_CLOCK).values_list("ran_at", flat=True).first()


def tables_playing() -> int:
    """How many tables have a hand in progress (one count over the table rows: a few hundred
    rows, their hand state compared by length only)."""
    return Table.objects.exclude(hand_state="").count()
