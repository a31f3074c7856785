"""Wallet locking on real PostgreSQL: racing debits never overdraw, the ledger always adds up."""

import threading

import pytest
from django.db import close_old_connections, connection

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.accounts.selectors import ledger_sum, wallet_balance
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError

pytestmark = pytest.mark.django_db(transaction=True)


def run_in_threads(count, work):
    barrier = threading.Barrier(count)
    results, errors = [], []

    def runner(i):
        try:
            barrier.wait()
            results.append(work(i))
        except DomainError as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    close_old_connections()
    return results, errors


def test_two_debits_racing_for_the_same_chips_never_overdraw(postgres, make_player):
    player = make_player()
    for _ in range(10):  # many rounds so the race actually happens
        balance = wallet_balance(user=player)
        results, errors = run_in_threads(
            2,
            lambda i: wallet_adjust(
                user=player, amount=-balance, kind=LedgerKind.ADMIN_ADJUSTMENT, reason=f"race {i}"
            ),
        )
        assert len(results) == 1 and len(errors) == 1
        assert errors[0].code == "insufficient_chips"
        assert wallet_balance(user=player) == 0 == ledger_sum(user=player)
        wallet_adjust(user=player, amount=1_000, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="refill")


def test_fifty_concurrent_adjustments_leave_balance_equal_to_the_ledger(postgres, make_player):
    player = make_player()
    amounts = [(-1) ** i * (i * 37 % 500 + 1) for i in range(50)]
    results, errors = run_in_threads(
        50,
        lambda i: wallet_adjust(
            user=player, amount=amounts[i], kind=LedgerKind.ADMIN_ADJUSTMENT, reason=f"n{i}"
        ),
    )
    assert len(results) == 50 and not errors
    assert wallet_balance(user=player) == 10_000 + sum(amounts) == ledger_sum(user=player)
    # The running balance in each entry is consistent: the audit checks the chain.
    from holdem.selectors.audit import audit_chips

    assert audit_chips().ok, audit_chips().summary()
    assert LedgerEntry.objects.filter(user=player).count() == 51


def test_concurrent_repeats_of_one_idempotency_key_apply_once(postgres, make_player):
    player = make_player()
    results, errors = run_in_threads(
        8,
        lambda i: wallet_adjust(
            user=player,
            amount=25,
            kind=LedgerKind.ADMIN_ADJUSTMENT,
            reason="promo",
            idempotency_key="promo-1",
        ),
    )
    assert wallet_balance(user=player) == 10_025 == ledger_sum(user=player)
    assert len({entry.pk for entry in results}) == 1
    assert all(error.code == "duplicate" for error in errors)
