"""Topping up between hands: chips from the wallet to the seat, up to the room's
maximum buy-in (or the wallet, in a room without one), never while dealt in; every chip kept."""

import pytest

from casino.accounts.models import LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError
from holdem.models import Seat
from holdem.selectors.player_view import viewer_part
from holdem.services import table_top_up
from tests.holdem.conftest import chips_everywhere

pytestmark = pytest.mark.django_db


def test_a_seated_player_tops_up_to_the_rooms_maximum(seated):
    table, users = seated("nl50", seats=(0, 1), buy_in=5_000)  # max buy-in 20,000
    alice = users[0]
    wallet_adjust(user=alice, amount=20_000, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="test")
    wallet = wallet_balance(user=alice)
    seq = table.seq
    assert viewer_part(table, alice)["top_up"] == {"max": 15_000}
    assert table_top_up(table_id=table.pk, user=alice, amount=15_000) == 20_000
    assert Seat.objects.get(table=table, user=alice).stack == 20_000
    assert wallet_balance(user=alice) == wallet - 15_000
    table.refresh_from_db()
    assert table.seq == seq + 1  # the table sees the new stack
    assert viewer_part(table, alice)["top_up"] is None  # at the maximum
    chips_everywhere()


@pytest.mark.parametrize(
    ("amount", "code"),
    [(15_001, "top_up_too_large"), (0, "bad_amount")],
)
def test_a_top_up_beyond_what_is_allowed_is_refused_and_changes_nothing(seated, amount, code):
    table, users = seated("nl50", seats=(0, 1), buy_in=5_000)
    wallet = wallet_balance(user=users[0])
    with pytest.raises(DomainError) as refused:
        table_top_up(table_id=table.pk, user=users[0], amount=amount)
    assert refused.value.code == code
    assert Seat.objects.get(table=table, user=users[0]).stack == 5_000
    assert wallet_balance(user=users[0]) == wallet
    chips_everywhere()


def test_no_top_up_while_dealt_in_nor_beyond_the_wallet(seated, clock, make_player):
    table, users = seated("fl20", seats=(0, 1), buy_in=2_000)  # no maximum: up to the wallet
    wallet = wallet_balance(user=users[1])
    with pytest.raises(DomainError) as refused:
        table_top_up(table_id=table.pk, user=users[1], amount=wallet + 1)
    assert refused.value.code == "top_up_too_large"
    clock.advance(31)  # a hand starts: both are dealt in
    table.refresh_from_db()
    assert viewer_part(table, users[0])["top_up"] is None
    with pytest.raises(DomainError) as refused:
        table_top_up(table_id=table.pk, user=users[0], amount=100)
    assert refused.value.code == "in_hand"
    with pytest.raises(DomainError) as refused:
        table_top_up(table_id=table.pk, user=make_player("outsider"), amount=100)
    assert refused.value.code == "not_seated"
    chips_everywhere()
