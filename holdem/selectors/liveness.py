"""What is alive: the open websockets whose web process still beats, the spectators they make,
and when the deadline clock last ran. holdem/services/presence.py keeps the connection rows.
"""

from datetime import timedelta

from django.utils import timezone

from holdem.models import DEADLINES_CLOCK, PROCESS_EXPIRY_SECONDS, ClockBeat, Connection, Seat


def live_cutoff(now=None):
    """A web process that has not beaten since this moment is taken for dead."""
    return (now or timezone.now()) - timedelta(seconds=PROCESS_EXPIRY_SECONDS)


def live_connections():
    """Connections whose web process is alive."""
    return Connection.objects.filter(process__seen_at__gte=live_cutoff())


def spectator_count(table) -> int:
    """Users with a live socket at the table who sit at none of its seats."""
    seated = Seat.objects.filter(table=table).values("user_id")
    watching = live_connections().filter(table=table).exclude(user_id__in=seated)
    return watching.values("user_id").distinct().count()


def clock_last_run():
    """When the deadline sweeper last ran (None before its first run)."""
    return ClockBeat.objects.filter(name=DEADLINES_CLOCK).values_list("ran_at", flat=True).first()
