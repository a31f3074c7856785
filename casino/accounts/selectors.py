"""Reads of balances and ledger history."""

from django.db.models import Sum

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
