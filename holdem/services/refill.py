"""Free chips for a broke player: once every 24 hours, back up to the starting chips.

Who is broke, and when the next claim is due, is read by holdem/selectors/buy_in.py
(`refill_offer`). The chips are new to the system, so the ledger entry is a REFILL, one of the
SYSTEM_KINDS the chip audit counts as brought in.
"""

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from casino.accounts.models import LedgerEntry, LedgerKind, User
from casino.accounts.selectors import frozen_refusal
from casino.accounts.services import wallet_adjust, wallet_lock
from casino.errors import DomainError
from holdem.selectors.buy_in import refill_offer


def wallet_refill(*, user: User) -> LedgerEntry:
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
        # Under the wallet lock, which a freeze and a break take too (docs/rules.md 11).
        refusal = frozen_refusal(user=user)
        if refusal is not None:
            raise refusal
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
