"""Rooms in the admin: from a preset or by hand, validated; closing; read-only history."""

import pytest
from django.urls import reverse

from holdem.models import HandAction, HandRecord, Table, TableStatus
from tests.holdem.conftest import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(admin_sign_in, make_player):
    admin = make_player("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    return admin_sign_in(admin)  # a superuser passes the second factor too


def test_a_room_is_created_from_a_preset_in_the_admin(admin_client):
    response = admin_client.post(
        reverse("admin:holdem_table_from_preset"), {"name": "Friday PL", "preset": "pl50"}
    )
    assert response.status_code == 302
    table = Table.objects.get(name="Friday PL")
    assert (table.structure, table.min_buy_in, table.max_buy_in, table.seats) == (
        "pot_limit",
        2_000,
        10_000,
        6,
    )
    changelist = admin_client.get(reverse("admin:holdem_table_changelist")).content.decode()
    assert "Add room from preset" in changelist and "Friday PL" in changelist


def form_data(**overrides):
    data = {
        "name": "By hand",
        "preset": "",
        "seats": 6,
        "structure": "no_limit",
        "blinds": "fixed",
        "small_blind": 5,
        "big_blind": 10,
        "dynamic_blind_percent": 10,
        "small_bet": 0,
        "big_bet": 0,
        "raise_cap": "",
        "min_raise": "full",
        "min_buy_in": 200,
        "max_buy_in": 1000,
        "entry": "next_hand",
        "disconnect": "check_fold",
        "turn_seconds": 60,
        "time_bank_seconds": 30,
        "chat": "everyone",
        "countdown_seconds": 30,
        "countdown_full_seconds": 10,
        "rake_percent": "0",
        "rake_cap": "",
        "auto_muck": "on",
        "disconnect_grace_seconds": 20,
    }
    data.update(overrides)
    return data


def test_a_room_made_by_hand_is_validated(admin_client):
    url = reverse("admin:holdem_table_add")
    bad = admin_client.post(url, form_data(min_buy_in=5000, max_buy_in=1000))
    assert bad.status_code == 200 and "must not be below the minimum buy-in" in bad.content.decode()
    fixed = admin_client.post(url, form_data(structure="fixed_limit", small_bet=1, big_bet=2))
    assert fixed.status_code == 200 and "below 1 chip" in fixed.content.decode()
    assert not Table.objects.filter(name="By hand").exists()
    good = admin_client.post(url, form_data())
    assert good.status_code == 302, good.content.decode()[:3000]
    assert Table.objects.get(name="By hand").big_blind == 10


def test_closing_rooms_from_the_admin(admin_client, seated):
    table, _users = seated("nl50", seats=(0, 1))
    response = admin_client.post(
        reverse("admin:holdem_table_changelist"),
        {"action": "close_rooms", "_selected_action": [table.pk]},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED and table.seat_set.count() == 0


def test_hand_records_and_actions_are_read_only_and_hide_the_deck_of_a_running_hand(
    admin_client, seated, clock
):
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    running = HandRecord.objects.get(table=table)
    page = admin_client.get(
        reverse("admin:holdem_handrecord_change", args=[running.pk])
    ).content.decode()
    assert "Deck" not in page
    assert admin_client.get(reverse("admin:holdem_handrecord_add")).status_code == 403
    play_out(table, users)
    finished = admin_client.get(
        reverse("admin:holdem_handrecord_change", args=[running.pk])
    ).content.decode()
    assert "Deck" in finished
    action = HandAction.objects.filter(hand=running).first()
    assert (
        admin_client.post(
            reverse("admin:holdem_handaction_delete", args=[action.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
