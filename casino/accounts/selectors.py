"""Reads of balances and ledger history."""

from django.db.models import OuterRef, Subquery, Sum

from casino.accounts.models import LedgerEntry, Wallet


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
