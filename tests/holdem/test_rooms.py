"""Rooms from presets or by hand, validated; closing a room (RULES.md 1, 7)."""

import pytest

from casino.errors import DomainError
from holdem.admin.room_forms import TableForm
from holdem.models import Table, TableStatus
from holdem.presets import PRESETS
from holdem.services import room_close, room_create, rooms_seed_presets, table_leave
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db


def test_every_preset_of_rules_section_7_makes_a_playable_room():
    # RULES.md 7: the presets shipped with the site.
    assert rooms_seed_presets() == len(PRESETS) == 5
    assert rooms_seed_presets() == 5  # idempotent
    classic = Table.objects.get(preset="classic")
    assert (
        classic.seats,
        classic.blinds,
        classic.raise_cap,
        classic.min_raise,
        classic.max_buy_in,
    ) == (6, "dynamic", 3, "any", None)
    fixed = Table.objects.get(preset="fl20")
    assert (
        fixed.small_blind,
        fixed.big_blind,
        fixed.small_bet,
        fixed.big_bet,
        fixed.min_buy_in,
    ) == (10, 20, 20, 40, 200)
    assert fixed.disconnect == "all_in_protection"
    # The one slow table (RULES.md 1 `pace`); every other preset plays at the normal pace.
    assert dict(Table.objects.values_list("preset", "pace")) == {
        "classic": "normal",
        "nl50": "normal",
        "pl50": "normal",
        "fl20": "normal",
        "nl50_slow": "slow",
    }


@pytest.mark.parametrize(
    "options, field",
    [
        (
            {"structure": "fixed_limit", "small_bet": 1, "big_bet": 2, "blinds": "fixed"},
            "small_bet",
        ),  # RULES.md 7
        ({"min_buy_in": 5000, "max_buy_in": 1000}, "max_buy_in"),
        ({"seats": 11}, "seats"),
        ({"seats": 1}, "seats"),
        ({"small_blind": 100, "big_blind": 50}, "big_blind"),
        ({"structure": "fixed_limit", "small_bet": 20, "big_bet": 30}, "big_bet"),
        ({"raise_cap": 0}, "raise_cap"),
    ],
)
def test_unplayable_rooms_are_refused_with_the_reason(options, field):
    with pytest.raises(DomainError) as refused:
        room_create(name="bad", preset="nl50", **options)
    assert field in refused.value.fields
    assert not Table.objects.filter(name="bad").exists()


def test_unknown_preset_is_refused():
    with pytest.raises(DomainError, match="unknown preset"):
        room_create(name="x", preset="omaha")


def test_closing_an_idle_room_stands_everyone_up_with_chips_returned(seated):
    table, users = seated("nl50", seats=(0, 1), buy_in=3_000)
    room_close(table_id=table.pk)
    table.refresh_from_db()
    assert (
        table.status == TableStatus.CLOSED
        and table.seat_set.count() == 0
        and table.next_hand_at is None
    )
    for user in users.values():
        user.wallet.refresh_from_db()
        assert user.wallet.balance == 10_000
    chips_everywhere()


def test_closing_during_a_hand_lets_it_finish_then_closes(seated, clock):
    from tests.holdem.conftest import play_out

    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    assert current(table) is not None
    room_close(table_id=table.pk)
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSING and table.in_hand
    with pytest.raises(DomainError):
        table_leave(table_id=table.pk, user=users[0])  # still dealt in
    play_out(table, users)
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED and table.seat_set.count() == 0
    assert table.next_hand_at is None
    clock.advance(60)
    assert current(table) is None  # no new hand starts
    chips_everywhere()


@pytest.mark.parametrize(
    "options, field",
    [
        ({}, "small_blind"),  # the model's 50/100 blinds left in place
        ({"small_blind": 10, "big_blind": 40}, "big_blind"),
        ({"small_blind": 10, "big_blind": 20, "min_buy_in": 199}, "min_buy_in"),
    ],
)
def test_a_fixed_limit_room_made_by_hand_must_follow_its_lower_stake(options, field):
    # RULES.md 1 and 7 [003]: small blind = half the lower stake (rounded down), big blind = the
    # lower stake, big bet = twice it, minimum buy-in at least 10 lower stakes.
    values = {
        "structure": "fixed_limit",
        "small_bet": 20,
        "big_bet": 40,
        "min_buy_in": 200,
        **options,
    }
    with pytest.raises(DomainError) as refused:
        room_create(name="hand made", **values)
    assert field in refused.value.fields
    assert not Table.objects.filter(name="hand made").exists()
    room_create(
        name="hand made",
        structure="fixed_limit",
        small_bet=20,
        big_bet=40,
        small_blind=10,
        big_blind=20,
        min_buy_in=200,
    )
    odd = room_create(
        name="odd stake",
        structure="fixed_limit",
        small_bet=25,
        big_bet=50,
        small_blind=12,
        big_blind=25,
        min_buy_in=250,
    )
    assert (odd.small_blind, odd.big_blind) == (12, 25)  # rounded down


def test_the_admin_form_names_the_wrong_fixed_limit_field():
    data = {
        "name": "admin fl",
        "status": "open",
        "seats": 10,
        "structure": "fixed_limit",
        "blinds": "fixed",
        "small_blind": 50,
        "big_blind": 100,
        "dynamic_blind_percent": 10,
        "small_bet": 20,
        "big_bet": 40,
        "min_raise": "full",
        "min_buy_in": 200,
        "entry": "wait_or_post",
        "disconnect": "all_in_protection",
        "turn_seconds": 60,
        "countdown_seconds": 30,
        "countdown_full_seconds": 10,
        "rake_percent": "0",
        "auto_muck": True,
        "disconnect_grace_seconds": 20,
    }
    form = TableForm(data=data)
    assert not form.is_valid()
    assert "half the lower stake" in form.errors["small_blind"][0]
    assert "the lower stake" in form.errors["big_blind"][0]
