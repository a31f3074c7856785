"""Free chips for a broke player: once every 24 hours, back up to the starting chips.

Broke means the wallet and the seat together hold less than the smallest minimum buy-in of the
open rooms with fixed stakes: the player cannot sit down anywhere a game is worth playing. A room
with dynamic blinds seats anyone for 1 chip (its blinds shrink to the shortest stack), so it would
make nobody broke. The chips are new to the system, so the ledger entry is a REFILL, one of the
SYSTEM_KINDS the chip audit counts as brought in.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Min
from django.db.models.functions import Greatest
from django.utils import timezone

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.accounts.services import wallet_adjust, wallet_lock
from casino.errors import DomainError
from holdem.models import Blinds, Seat, Table, TableStatus

REFILL_EVERY = timedelta(hours=24)
# With only rooms of dynamic blinds open: their smallest big blind (RULES.md 3).
DYNAMIC_FLOOR = 2


def smallest_buy_in() -> int | None:
    """The least a player needs for a seat worth taking: the smallest minimum buy-in of the open
    fixed-stake rooms (a room asking less than a big blind still needs one); with none open, that
    of the dynamic-blind rooms, at least their 2-chip big blind. None when no room is open."""
    open_rooms = Table.objects.filter(status=TableStatus.OPEN)
    fixed = open_rooms.filter(blinds=Blinds.FIXED).aggregate(
        m=Min(Greatest("min_buy_in", "big_blind"))
    )["m"]
    if fixed is not None:
        return max(fixed, 1)
    dynamic = open_rooms.aggregate(m=Min("min_buy_in"))["m"]
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


def refill_offer(*, user, balance: int, now: datetime) -> RefillOffer:
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


def wallet_refill(*, user) -> LedgerEntry:
    """Top a broke player's chips up to CASINO_STARTING_CHIPS through the ledger; refuse a
    player who can still buy in somewhere, or who had free chips less than 24 hours ago."""
    top = settings.CASINO_STARTING_CHIPS
    if top <= 0:
        raise DomainError("refill_off", "this site gives no free chips")
    with transaction.atomic():
        # The wallet lock makes a player's claims take turns (a second tab waits, then finds the
        # first claim). The seat is read after it without a lock of its own: a sit-down or a
        # cash-out moves chips between the seat and this wallet in one transaction that needs
        # this lock too, so the two always add up to what the player holds (style.md 8: a
        # table's locks would have to come before the wallet's, and only one is needed here).
        wallet = wallet_lock(user_ids=[user.pk])[user.pk]
        offer = refill_offer(user=user, balance=wallet.balance, now=timezone.now())
        if offer.refusal is not None:
            raise offer.refusal
        holding = offer.balance + offer.seat_stack
        claims = LedgerEntry.objects.filter(user=user, kind=LedgerKind.REFILL).count()
        return wallet_adjust(
            user=user,
            amount=top - holding,
            kind=LedgerKind.REFILL,
            reason=f"Free chips: {holding:,} held, topped up to {top:,}",
            # The n-th claim has one key: a claim repeated in a race is written once.
            idempotency_key=f"refill:{user.pk}:{claims + 1}",
        )


def _span(length: timedelta) -> str:
    """A length of time as a player reads it, rounded up to the minute: '3 h 05 min', '12 min'."""
    minutes = max(1, -(-int(length.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
