"""Every change of a chip balance goes through wallet_adjust: lock the wallet, write the ledger.
Also what staff do to an account (freeze it, drop it from the leaderboard, move chips back) and
the traces that link accounts (docs/integrity.md)."""

import ipaddress
import uuid
from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.crypto import salted_hmac

from casino.accounts.ledger_chain import LEDGER_HEAD_FIELDS, ledger_link
from casino.accounts.models import (
    AccountTrace,
    CardBack,
    LedgerEntry,
    LedgerKind,
    SignIn,
    TraceKind,
    User,
    Wallet,
)
from casino.accounts.sessions import sessions_changed
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


def account_create(
    *, username: str, password: str, email: str = "", signup_address: str = ""
) -> User:
    """A new account with its wallet and grant; `signup_address` (the client's address, kept
    only as a keyed hash) links it to other accounts made from there (docs/integrity.md)."""
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password, email=email)
        account_open(user=user)
        if address_links(signup_address):
            account_trace_record(user=user, kind=TraceKind.SIGNUP_ADDRESS, value=signup_address)
    return user


def address_links(address: str) -> bool:
    """Whether a client address can tell players apart: not one of CASINO_UNLINKED_NETWORKS
    (loopback, private, carrier-grade NAT by default), which is the server's own machine, a proxy
    or a shared network, nor a value that is no address at all. Two players behind one of those
    would otherwise never be let to sit at one table."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return False
    return not any(ip in ipaddress.ip_network(n) for n in settings.CASINO_UNLINKED_NETWORKS)


def user_set_card_back(*, user: User, card_back: str) -> None:
    """RULES.md 6 [000]: the card-back chooser, remembered per user."""
    if card_back not in CardBack.values:
        raise DomainError("bad_card_back", f"card backs are {', '.join(CardBack.values)}")
    user.card_back = card_back
    user.save(update_fields=["card_back"])


def trace_hash(*, kind: str, value: str) -> str:
    """A sign-up address or device cookie as stored: keyed with SECRET_KEY, so the table of
    hashes cannot be turned back into addresses by trying them all."""
    return salted_hmac(f"casino.accounts.trace.{kind}", value, algorithm="sha256").hexdigest()


def account_trace_record(
    *, user: User, kind: str, value: str, now: datetime | None = None
) -> AccountTrace | None:
    """Remember that `user` came with this address or device cookie (first and last seen);
    nothing for an empty value (an address the server could not tell)."""
    if kind not in TraceKind.values:
        raise DomainError("bad_kind", f"unknown trace kind {kind!r}")
    value = (value or "").strip()
    if not value:
        return None
    now = now or timezone.now()
    trace, _ = AccountTrace.objects.update_or_create(
        user=user,
        kind=kind,
        value_hash=trace_hash(kind=kind, value=value),
        defaults={"last_seen": now},
        create_defaults={"first_seen": now, "last_seen": now},
    )
    return trace


def sign_in_record(*, user: User, at: datetime | None = None) -> SignIn:
    """A successful sign-in, counted on the player's monthly statement (RULES.md 10)."""
    return SignIn.objects.create(user=user, at=at or timezone.now())


def _reason_or_error(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("reason_required", "a reason is required")
    return reason[:255]


def account_freeze(*, user: User, reason: str, actor: User) -> User:
    """Freeze an account: it may no longer sit, register or claim free chips, and its open
    sockets close once this commits. Its chips stay where they are. The wallet lock is the one
    sitting, registering and claiming take before they ask whether the account is frozen."""
    reason = _reason_or_error(reason)
    if actor.pk == user.pk:
        raise DomainError("own_account", "you cannot freeze your own account")
    with transaction.atomic():
        wallet_lock(user_ids=[user.pk])
        row = User.objects.select_for_update().get(pk=user.pk)
        if row.frozen_at is not None:
            raise DomainError("already_frozen", f"{row.username} is already frozen")
        row.frozen_at = timezone.now()
        row.frozen_reason = reason
        row.frozen_by = actor
        row.save(update_fields=["frozen_at", "frozen_reason", "frozen_by"])
        sessions_changed.send(sender=None, user_id=row.pk, ended_session=None)
    return row


def account_unfreeze(*, user: User, actor: User) -> User:
    with transaction.atomic():
        row = User.objects.select_for_update().get(pk=user.pk)
        if row.frozen_at is None:
            raise DomainError("not_frozen", f"{row.username} is not frozen")
        row.frozen_at = None
        row.frozen_reason = ""
        row.frozen_by = None
        row.save(update_fields=["frozen_at", "frozen_reason", "frozen_by"])
    return row


def account_leaderboard_set(*, user: User, shown: bool, actor: User) -> User:
    """Drop an account from the leaderboard (shown=False) or put it back."""
    with transaction.atomic():
        row = User.objects.select_for_update().get(pk=user.pk)
        if row.off_leaderboard == (not shown):
            where = "on" if shown else "off"
            raise DomainError("unchanged", f"{row.username} is already {where} the leaderboard")
        row.off_leaderboard = not shown
        row.save(update_fields=["off_leaderboard"])
    return row


def chips_move(
    *,
    from_user: User,
    to_user: User,
    amount: int,
    reason: str,
    actor: User,
    idempotency_key: str,
) -> tuple[LedgerEntry, LedgerEntry]:
    """Staff move chips from one wallet to another (chips won by dumping, given back): two
    ledger lines under one key, each naming the other account, the actor and the reason. The
    same key posted twice moves the chips once."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise DomainError("bad_amount", "move at least 1 chip")
    if from_user.pk == to_user.pk:
        raise DomainError("same_account", "chips move between two different accounts")
    reason = _reason_or_error(reason)
    key = (idempotency_key or "").strip()
    if not key:
        raise DomainError("key_required", "a movement needs its idempotency key")
    with transaction.atomic():
        wallet_lock(user_ids=[from_user.pk, to_user.pk])  # both, in one order (style.md 8)
        taken = wallet_adjust(
            user=from_user,
            amount=-amount,
            kind=LedgerKind.STAFF_MOVE,
            reason=f"Moved to {to_user.username}: {reason}",
            actor=actor,
            idempotency_key=f"move:{key}:from",
        )
        given = wallet_adjust(
            user=to_user,
            amount=amount,
            kind=LedgerKind.STAFF_MOVE,
            reason=f"Moved from {from_user.username}: {reason}",
            actor=actor,
            idempotency_key=f"move:{key}:to",
        )
    return taken, given
