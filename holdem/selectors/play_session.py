"""The player's play session as the session reminder tells it (docs/rules.md 11): since when they
have been playing, and how many chips they are up or down since then.

A session starts with the first chips put into play after 30 minutes or more away from every
cash table; it goes on while they sit at one, and for 30 minutes after they leave it.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from casino.accounts.limits import PLAY_KINDS
from casino.accounts.models import LedgerEntry, LedgerKind, User
from holdem.models import Seat, TableKind

# docs/rules.md 11: this long away from the cash tables ends a session.
AWAY_ENDS_SESSION = timedelta(minutes=30)
# The ledger read for a session: one running longer is counted from the oldest line read (or
# from the seat's sit-down).
LOOK_BACK = timedelta(days=2)


@dataclass(frozen=True)
class PlaySession:
    started_at: datetime
    played_seconds: int
    # Chips on the cash table now (between hands) + chips back from play - chips put in.
    net: int
    seated: bool


def play_session_of(*, user: User, now: datetime | None = None) -> PlaySession | None:
    """The session in progress at `now`, or None when the player has been away from the cash
    tables for 30 minutes (or never played)."""
    now = now or timezone.now()
    seat = (
        Seat.objects.filter(user=user, table__kind=TableKind.CASH)
        .only("stack", "sat_at", "table_id")
        .first()
    )
    lines = list(
        LedgerEntry.objects.filter(
            user_id=user.pk, kind__in=PLAY_KINDS, created_at__gte=now - LOOK_BACK
        )
        .order_by("created_at", "id")
        .values_list("kind", "amount", "created_at")
    )
    started_at: datetime | None = None
    away_since: datetime | None = None
    net = 0
    for kind, amount, created_at in lines:
        if amount < 0 and (
            started_at is None
            or (away_since is not None and created_at - away_since >= AWAY_ENDS_SESSION)
        ):
            started_at, net = created_at, 0  # a new session
        if started_at is None:
            continue  # chips back from a session before the lines read
        net += amount
        if kind == LedgerKind.BUY_IN:
            away_since = None  # at a cash table
        elif away_since is None:
            # Left the table, or played a tournament (whose end the ledger does not tell).
            away_since = created_at
    if seat is not None:
        if started_at is None:
            started_at = seat.sat_at
        net += seat.stack
    elif started_at is None or away_since is None or now - away_since >= AWAY_ENDS_SESSION:
        return None
    return PlaySession(
        started_at=started_at,
        played_seconds=max(0, int((now - started_at).total_seconds())),
        net=net,
        seated=seat is not None,
    )
