"""Every change of a chip balance goes through wallet_adjust: lock the wallet, write the ledger."""

import uuid
from collections.abc import Iterable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone

from casino.accounts.ledger_chain import LEDGER_HEAD_FIELDS, ledger_link
from casino.accounts.models import CardBack, LedgerEntry, LedgerKind, User, Wallet
from casino.errors import DomainError

# Sent inside the transaction of every balance change, with `user_id`, `balance` (after the
# change) and `version` (the ledger entry's id: the wallet lock orders a wallet's changes, so a
# later one always has a higher id). The tables app tells the user's open pages once it commits
# (holdem/apps.py); accounts knows nothing of sockets.
wallet_changed = Signal()


def wallet_lock(*, user_ids: Iterable[int]) -> dict[int, Wallet]:
    """Lock wallets in primary-key order (style.md 8: one lock order), creating missing ones."""
    ids = sorted(set(user_ids))
    wallets = _wallets_locked(ids)
    if len(wallets) < len(ids):  # rare: an account made before wallets were opened with it
        for user_id in ids:
            Wallet.objects.get_or_create(user_id=user_id)
        wallets = _wallets_locked(ids)
    return wallets


def _wallets_locked(ids: list[int]) -> dict[int, Wallet]:
    wallets = Wallet.objects.select_for_update(no_key=True).filter(user_id__in=ids).order_by("pk")
    return {wallet.user_id: wallet for wallet in wallets}


def wallet_adjust(
    *,
    user: User,
    amount: int,
    kind: str,
    reason: str,
    actor: User | None = None,
    idempotency_key: str | None = None,
    table_id: int | None = None,
) -> LedgerEntry:
    """Move `amount` chips (signed) in or out of a wallet and record it; refuse going below zero.

    A repeated idempotency key returns the entry first written for it and changes nothing.
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise DomainError("bad_amount", "the amount must be a whole number of chips")
    if amount == 0:
        raise DomainError("bad_amount", "the amount must not be zero")
    if kind not in LedgerKind.values:
        raise DomainError("bad_kind", f"unknown ledger kind {kind!r}")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason_required", "a reason is required")
    # A key of our own making is new: it needs no look-up, and no savepoint for a racing
    # duplicate (a seat's buy-in or cash-out made four more round trips for them).
    fresh = idempotency_key is None
    key = idempotency_key or uuid.uuid4().hex
    with transaction.atomic():
        existing = None if fresh else LedgerEntry.objects.filter(idempotency_key=key).first()
        if existing is not None:
            return _same_entry_or_error(existing, user=user, amount=amount)
        wallet = wallet_lock(user_ids=[user.pk])[user.pk]
        # Re-check under the lock: a racing call with the same key may have just committed.
        existing = None if fresh else LedgerEntry.objects.filter(idempotency_key=key).first()
        if existing is not None:
            return _same_entry_or_error(existing, user=user, amount=amount)
        new_balance = wallet.balance + amount
        if new_balance < 0:
            raise DomainError(
                "insufficient_chips",
                f"{user.username} has {wallet.balance:,} chips; removing {-amount:,} would leave a negative balance",
            )
        wallet.balance = new_balance
        entry = LedgerEntry(
            user=user,
            amount=amount,
            balance_after=new_balance,
            kind=kind,
            reason=reason[:255],
            actor=actor,
            table_id=table_id,
            idempotency_key=key,
            created_at=timezone.now(),
        )
        ledger_link(wallet, entry)  # its hash, chained to the wallet's last line
        try:
            with transaction.atomic(savepoint=not fresh):
                entry.save(force_insert=True)
        except IntegrityError as error:
            raise DomainError("duplicate", "this movement was already recorded") from error
        # The balance and the chain's head in one UPDATE, once the line has its id.
        wallet.ledger_chain_last_id = entry.pk
        wallet.save(update_fields=["balance", "updated_at", *LEDGER_HEAD_FIELDS])
        wallet_changed.send(sender=None, user_id=user.pk, balance=new_balance, version=entry.pk)
        return entry


def _same_entry_or_error(entry: LedgerEntry, *, user: User, amount: int) -> LedgerEntry:
    if entry.user_id != user.pk or entry.amount != amount:
        raise DomainError(
            "key_reused", "this idempotency key was already used for another movement"
        )
    return entry


def account_open(*, user: User) -> Wallet:
    """Give a new account its wallet and the starting grant (once, whatever calls it)."""
    wallet, _ = Wallet.objects.get_or_create(user=user)
    if settings.CASINO_STARTING_CHIPS > 0:
        wallet_adjust(
            user=user,
            amount=settings.CASINO_STARTING_CHIPS,
            kind=LedgerKind.GRANT,
            reason="Welcome grant",
            idempotency_key=f"grant:welcome:{user.pk}",
        )
    wallet.refresh_from_db()
    return wallet


def account_create(*, username: str, password: str, email: str = "") -> User:
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password, email=email)
        account_open(user=user)
    return user


def user_set_card_back(*, user: User, card_back: str) -> None:
    """RULES.md 6 [000]: the card-back chooser, remembered per user."""
    if card_back not in CardBack.values:
        raise DomainError("bad_card_back", f"card backs are {', '.join(CardBack.values)}")
    user.card_back = card_back
    user.save(update_fields=["card_back"])
