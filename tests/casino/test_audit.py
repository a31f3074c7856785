"""audit_chips: passes on consistent books, fails on tampered ones."""

import pytest
from django.core.management import CommandError, call_command

from casino.accounts.models import LedgerKind, Wallet
from casino.accounts.services import wallet_adjust

pytestmark = pytest.mark.django_db


def test_audit_passes_on_a_consistent_database(make_player, capsys):
    alice, bob = make_player("alice"), make_player("bob")
    wallet_adjust(user=alice, amount=-300, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="fee")
    wallet_adjust(user=bob, amount=700, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="bonus")
    call_command("audit_chips")
    out = capsys.readouterr().out
    assert "chips OK" in out and "20,400" in out


def test_audit_fails_when_a_balance_was_tampered_with(make_player, capsys):
    alice = make_player("alice")
    Wallet.objects.filter(user=alice).update(balance=10_500)  # behind the service's back
    with pytest.raises(CommandError):
        call_command("audit_chips")
    out = capsys.readouterr().out
    assert "wallet shows 10,500 but the ledger adds up to 10,000" in out
    assert "chips NOT OK" in out
