"""The wallet service: integer chips, never negative, every movement in the append-only ledger."""

import pytest

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.accounts.selectors import ledger_sum, wallet_balance
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError

pytestmark = pytest.mark.django_db


def snapshot(user):
    return wallet_balance(user=user), list(
        LedgerEntry.objects.filter(user=user).values_list("id", flat=True)
    )


def test_adjustment_writes_a_ledger_entry_with_balance_after(make_player):
    player = make_player()
    entry = wallet_adjust(
        user=player,
        amount=-2_500,
        kind=LedgerKind.ADMIN_ADJUSTMENT,
        reason="correction",
        actor=player,
    )
    assert entry.balance_after == 7_500 and entry.actor == player
    assert wallet_balance(user=player) == 7_500 == ledger_sum(user=player)


@pytest.mark.parametrize("amount", [0, 1.5, "100", True, None])
def test_bad_amounts_are_refused_and_change_nothing(make_player, amount):
    player = make_player()
    before = snapshot(player)
    with pytest.raises(DomainError) as refused:
        wallet_adjust(user=player, amount=amount, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="x")
    assert refused.value.code == "bad_amount"
    assert snapshot(player) == before


def test_going_below_zero_is_refused_with_a_sentence(make_player):
    player = make_player()
    before = snapshot(player)
    with pytest.raises(DomainError, match="negative balance") as refused:
        wallet_adjust(
            user=player, amount=-10_001, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="too much"
        )
    assert refused.value.code == "insufficient_chips"
    assert snapshot(player) == before


def test_an_empty_reason_is_refused(make_player):
    player = make_player()
    before = snapshot(player)
    with pytest.raises(DomainError, match="reason"):
        wallet_adjust(user=player, amount=5, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="   ")
    assert snapshot(player) == before


def test_a_repeated_idempotency_key_is_applied_once(make_player):
    player = make_player()
    first = wallet_adjust(
        user=player,
        amount=50,
        kind=LedgerKind.ADMIN_ADJUSTMENT,
        reason="once",
        idempotency_key="k1",
    )
    again = wallet_adjust(
        user=player,
        amount=50,
        kind=LedgerKind.ADMIN_ADJUSTMENT,
        reason="once",
        idempotency_key="k1",
    )
    assert first.pk == again.pk
    assert wallet_balance(user=player) == 10_050
    with pytest.raises(DomainError, match="already used"):
        wallet_adjust(
            user=player,
            amount=70,
            kind=LedgerKind.ADMIN_ADJUSTMENT,
            reason="other",
            idempotency_key="k1",
        )


def test_ledger_entries_are_append_only(make_player):
    player = make_player()
    entry = LedgerEntry.objects.get(user=player)
    entry.amount = 1
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()
    with pytest.raises(TypeError):
        LedgerEntry.objects.filter(user=player).update(amount=5)
    with pytest.raises(TypeError):
        LedgerEntry.objects.all().delete()
    assert LedgerEntry.objects.get(user=player).amount == 10_000


def test_the_database_refuses_a_negative_balance_even_past_the_service(make_player):
    from django.db import IntegrityError, transaction

    from casino.accounts.models import Wallet

    player = make_player()
    with pytest.raises(IntegrityError), transaction.atomic():
        Wallet.objects.filter(user=player).update(balance=-1)
