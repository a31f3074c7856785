"""Reads of balances and ledger history, and of what links or freezes an account."""

from collections.abc import Iterable

from django.db.models import Exists, OuterRef, Subquery, Sum
from django.utils import timezone

from casino.accounts.exclusions import exclusion_refusal
from casino.accounts.models import AccountTrace, Exclusion, LedgerEntry, User, Wallet
from casino.errors import DomainError

# What a frozen player reads: the staff's reason stays with the staff (docs/integrity.md).
FROZEN_MESSAGE = "This account is frozen; contact support if you think this is a mistake"
CLOSED_MESSAGE = "This account is closed"


def wallet_balance(*, user) -> int:
    wallet = Wallet.objects.filter(user=user).only("balance").first()
    return wallet.balance if wallet else 0


def wallet_balances(*, user_ids) -> dict[int, int]:
    """Balances by user id, in one query (a user without a wallet is left out)."""
    return dict(Wallet.objects.filter(user_id__in=user_ids).values_list("user_id", "balance"))


def ledger_for(*, user):
    return LedgerEntry.objects.filter(user=user).select_related("actor").order_by("-id")


def ledger_sum(*, user) -> int:
    return LedgerEntry.objects.filter(user=user).aggregate(total=Sum("amount"))["total"] or 0


def wallet_now(*, user) -> dict:
    """The balance with its version (the id of the ledger entry that made it; 0 before any), as
    the `wallet` frame carries it (docs/protocol.md). One statement, so the two agree."""
    last_entry = LedgerEntry.objects.filter(user=OuterRef("user")).order_by("-id").values("id")
    row = (
        Wallet.objects.filter(user=user)
        .annotate(version=Subquery(last_entry[:1]))
        .values("balance", "version")
        .first()
    )
    if row is None:
        return {"balance": 0, "version": 0}
    return {"balance": row["balance"], "version": row["version"] or 0}


def account_is_frozen(*, user_id: int) -> bool:
    """Read from the row, not from a user object that may have been loaded before the freeze."""
    return User.objects.filter(pk=user_id, frozen_at__isnull=False).exists()


def frozen_refusal(*, user) -> DomainError | None:
    """The refusal a frozen, closed or excluded (on a break, docs/rules.md 11) account meets when
    it tries to sit, register, join a waiting list or claim free chips. Callers ask under the
    account's wallet lock, which the freeze, the closing and the break also take, so a request
    in flight either finishes before them or sees them."""
    row = User.objects.filter(pk=user.pk).values_list("frozen_at", "closed_at").first()
    refusal = _account_refusal(*row) if row else None
    return refusal or exclusion_refusal(user_id=user.pk)


def _account_refusal(frozen_at, closed_at) -> DomainError | None:
    if closed_at is not None:
        return DomainError("account_closed", CLOSED_MESSAGE)
    if frozen_at is not None:
        return DomainError("account_frozen", FROZEN_MESSAGE)
    return None


def seat_refusal(*, user, seated_ids: Iterable[int], separate_linked: bool) -> DomainError | None:
    """Why this account may not sit down among `seated_ids`, in one query: it is frozen, on a
    break (docs/rules.md 11), or (`separate_linked`: the room's option) linked to one of them.
    Asked under the wallet lock, as frozen_refusal is."""
    others = set(seated_ids) - {user.pk}
    # docs/rules.md 11: on a break or self-excluded, asked in the same query.
    row = User.objects.filter(pk=user.pk).annotate(
        excluded=Exists(Exclusion.objects.filter(user_id=user.pk, until__gt=timezone.now()))
    )
    if separate_linked and others:
        row = row.annotate(linked=Exists(_sharing_with(user.pk).filter(user_id__in=others)))
        frozen_at, closed_at, excluded, linked = row.values_list(
            "frozen_at", "closed_at", "excluded", "linked"
        ).get()
    else:
        frozen_at, closed_at, excluded = row.values_list("frozen_at", "closed_at", "excluded").get()
        linked = False
    refusal = _account_refusal(frozen_at, closed_at)
    if refusal is None and excluded:
        refusal = exclusion_refusal(user_id=user.pk)
    if refusal is not None:
        return refusal
    if linked:
        # RULES.md 2: which account, and why they are linked, is for the staff to see.
        return DomainError(
            "linked_account",
            "an account linked to yours (same sign-up address or same browser) already sits at "
            "this table",
        )
    return None


def _sharing_with(user_id: int):
    """Traces of any account that equal one of `user_id`'s."""
    mine = AccountTrace.objects.filter(
        user_id=user_id, kind=OuterRef("kind"), value_hash=OuterRef("value_hash")
    )
    return AccountTrace.objects.filter(Exists(mine))


def linked_user_ids(*, user_id: int, among: Iterable[int]) -> set[int]:
    """Those of `among` that share a sign-up address or a device cookie with `user_id`."""
    others = set(among) - {user_id}
    if not others:
        return set()
    return set(_sharing_with(user_id).filter(user_id__in=others).values_list("user_id", flat=True))


def linked_pairs(*, user_ids: Iterable[int]) -> dict[tuple[int, int], set[str]]:
    """Every pair (lower id first) of `user_ids` that shares a trace, with the kinds shared."""
    ids = set(user_ids)
    by_value: dict[tuple[str, str], set[int]] = {}
    for kind, value_hash, uid in AccountTrace.objects.filter(user_id__in=ids).values_list(
        "kind", "value_hash", "user_id"
    ):
        by_value.setdefault((kind, value_hash), set()).add(uid)
    pairs: dict[tuple[int, int], set[str]] = {}
    for (kind, _), users in by_value.items():
        ordered = sorted(users)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                pairs.setdefault((a, b), set()).add(kind)
    return pairs
