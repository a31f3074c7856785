"""What a player may bring to a table: the room's buy-in range and the ratholing rule, how much a
seat may top up, and whether a broke player may have free chips (the smallest buy-in open).

Broke means the wallet and the seat together hold less than the smallest minimum buy-in of the
open rooms with fixed stakes: the player cannot sit down anywhere a game is worth playing. A room
with dynamic blinds seats anyone for 1 chip (its blinds shrink to the shortest stack), so it would
make nobody broke. holdem/services/refill.py grants the chips.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Min
from django.db.models.functions import Greatest
from django.utils import timezone

from casino.accounts.models import LedgerEntry, LedgerKind, User
from casino.errors import DomainError
from holdem.models import Blinds, Departure, Seat, Table, TableKind, TableStatus
from holdem.rules_words import DEPARTURE_MEMORY


@dataclass(frozen=True)
class BuyInLimits:
    minimum: int
    maximum: int | None
    reason: str | None  # why the minimum is above the room's
    departure: Departure | None


def buy_in_limits(table: Table, user: User, now: datetime | None = None) -> BuyInLimits:
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


def top_up_limit(table: Table, seat: Seat) -> int | None:
    """How many chips the room lets this seat add now (its wallet aside): 0 while dealt in or at
    the room's maximum; None when the room has no maximum (up to the wallet)."""
    if seat.in_hand:
        return 0
    if table.max_buy_in is None:
        return None
    return max(0, table.max_buy_in - seat.stack)


def top_up_room(table: Table, seat: Seat, balance: int) -> int:
    """How many chips this seat may add now with a wallet of `balance`."""
    limit = top_up_limit(table, seat)
    return balance if limit is None else min(limit, balance)


# Free chips come at most once in this long.
REFILL_EVERY = timedelta(hours=24)
# With only rooms of dynamic blinds open: their smallest big blind (RULES.md 3).
DYNAMIC_FLOOR = 2


def smallest_buy_in() -> int | None:
    """The least a player needs for a seat worth taking: the smallest minimum buy-in of the open
    fixed-stake rooms (a room asking less than a big blind still needs one); with none open, that
    of the dynamic-blind rooms, at least their 2-chip big blind. None when no room is open."""
    open_rooms = Table.objects.filter(status=TableStatus.OPEN, kind=TableKind.CASH)
    fixed: int | None = open_rooms.filter(blinds=Blinds.FIXED).aggregate(
        m=Min(Greatest("min_buy_in", "big_blind"))
    )["m"]
    if fixed is not None:
        return max(fixed, 1)
    dynamic: int | None = open_rooms.aggregate(m=Min("min_buy_in"))["m"]
    return None if dynamic is None else max(dynamic, DYNAMIC_FLOOR)


@dataclass(frozen=True)
class RefillOffer:
    """What a player holds against the smallest buy-in, and why free chips are not theirs now
    (`refusal`; None: they may claim them)."""

    balance: int
    seat_stack: int
    floor: int | None
    refusal: DomainError | None

    @property
    def claimable(self) -> bool:
        return self.refusal is None


def refill_offer(*, user: User, balance: int, now: datetime) -> RefillOffer:
    """The one answer to "may this player have free chips now?": the lobby and the profile ask it
    to decide whether to offer them, wallet_refill asks it again under the wallet lock."""
    top = settings.CASINO_STARTING_CHIPS
    seat = Seat.objects.filter(user=user).select_related("table").first()
    stack = seat.stack if seat else 0
    floor = smallest_buy_in()

    def offer(refusal: DomainError | None) -> RefillOffer:
        return RefillOffer(balance=balance, seat_stack=stack, floor=floor, refusal=refusal)

    if top <= 0:
        return offer(DomainError("refill_off", "this site gives no free chips"))
    if seat is not None and seat.in_hand:
        return offer(
            DomainError(
                "in_hand",
                f"you are playing a hand at {seat.table.name}: the chips in it are still yours. "
                "Ask for free chips once it is over, if they are gone",
            )
        )
    holding = balance + stack
    if floor is None:
        return offer(DomainError("no_rooms", "no room is open, so there is nothing to buy in for"))
    if holding >= floor:
        return offer(
            DomainError(
                "not_broke",
                f"you hold {holding:,} chips, enough to buy in (the smallest buy-in is "
                f"{floor:,}): free chips are for players who cannot sit down anywhere",
            )
        )
    if holding >= top:
        # Only when a room asks more than the starting chips: a top-up would add nothing.
        return offer(
            DomainError(
                "not_broke",
                f"you hold {holding:,} chips: free chips only top a player up to {top:,}",
            )
        )
    claims = LedgerEntry.objects.filter(user=user, kind=LedgerKind.REFILL)
    last = claims.order_by("-id").values_list("created_at", flat=True).first()
    if last is not None and now < last + REFILL_EVERY:
        return offer(
            DomainError(
                "refill_too_soon",
                f"you had free chips {_span(now - last)} ago: the next are yours in "
                f"{_span(last + REFILL_EVERY - now)} (once every 24 hours)",
            )
        )
    return offer(None)


def _span(length: timedelta) -> str:
    """A length of time as a player reads it, rounded up to the minute: '3 h 05 min', '12 min'."""
    minutes = max(1, -(-int(length.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
