"""Rooms in the admin: from a preset or by hand, validated; closing; read-only history."""

import re

import pytest
from django.urls import reverse

from holdem.models import HandAction, HandRecord, Table, TableStatus
from holdem.table_options import room_problems
from tests.holdem.conftest import play_out

pytestmark = pytest.mark.django_db


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
        "pace": "normal",
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


def test_hand_records_and_actions_are_read_only_and_a_running_hand_shows_nothing(
    admin_client, seated, clock
):
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    running = HandRecord.objects.get(table=table)
    page = admin_client.get(
        reverse("admin:holdem_handrecord_change", args=[running.pk])
    ).content.decode()
    assert "still being played" in page and "Deck" not in page and "Players" not in page
    assert admin_client.get(reverse("admin:holdem_handrecord_add")).status_code == 403
    play_out(table, users)
    finished = admin_client.get(
        reverse("admin:holdem_handrecord_change", args=[running.pk])
    ).content.decode()
    assert "Players" in finished and f"PokerStars Hand #{running.pk}:" in finished
    assert "Deck" not in finished  # the deck is never shown: it holds the cards nobody saw
    action = HandAction.objects.filter(hand=running).first()
    assert (
        admin_client.post(
            reverse("admin:holdem_handaction_delete", args=[action.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def errors_in(response) -> list[str]:
    """The form errors a page shows, for a failed test to print."""
    return re.findall(
        r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', response.content.decode(), re.S
    )


def form_row(page: str, field: str) -> tuple[str, str]:
    """The admin form row of a field: (its classes, its HTML up to the next row)."""
    found = re.search(
        rf'<div class="(form-row[^"]*\bfield-{field}\b[^"]*)">(.*?)(?=<div class="form-row|</fieldset>)',
        page,
        re.S,
    )
    assert found, f"no row for {field}"
    return found[1], found[2]


def fieldset_of(page: str, field: str) -> str:
    """The classes of the fieldset holding a field's row."""
    before = page[: page.index(f" field-{field}")]
    return re.findall(r'<fieldset class="([^"]*)"', before)[-1]


def input_names(page: str) -> set[str]:
    return set(re.findall(r'name="([a-z_]+)"', page))


STRUCTURE_STAKES = {
    "no_limit": {"blinds", "small_blind", "big_blind", "dynamic_blind_percent"},
    "pot_limit": {"blinds", "small_blind", "big_blind", "dynamic_blind_percent"},
    "fixed_limit": {"small_bet", "big_bet"},
}


def test_the_add_form_holds_every_structure_s_stakes_each_in_a_fieldset_marked_for_the_script(
    admin_client,
):
    page = admin_client.get(reverse("admin:holdem_table_add")).content.decode()
    for name in STRUCTURE_STAKES["no_limit"]:
        assert "structure-no_limit structure-pot_limit" in fieldset_of(page, name), name
        assert "structure-fixed_limit" not in fieldset_of(page, name), name
    for name in STRUCTURE_STAKES["fixed_limit"]:
        assert "structure-fixed_limit" in fieldset_of(page, name), name
        assert "structure-no_limit" not in fieldset_of(page, name), name
    for name in ("seats", "raise_cap", "min_buy_in", "rake_percent"):
        assert "structure-" not in fieldset_of(page, name), name  # every structure has them
    assert re.search(r'<script src="[^"]*js/admin-room-structure\.js" type="module">', page)


@pytest.mark.parametrize("preset", ["nl50", "pl50", "fl20"])
def test_a_saved_room_s_form_shows_only_its_structure_s_stakes(admin_client, room, preset):
    table = room(preset)
    page = admin_client.get(reverse("admin:holdem_table_change", args=[table.pk])).content.decode()
    others = set().union(*STRUCTURE_STAKES.values()) - STRUCTURE_STAKES[table.structure]
    assert STRUCTURE_STAKES[table.structure] <= input_names(page)
    assert not others & input_names(page)
    assert not any(f"field-{name}" in page for name in others)


def test_a_fixed_limit_room_is_saved_without_blinds_which_follow_its_lower_stake(admin_client):
    data = form_data(structure="fixed_limit", small_bet=100, big_bet="", min_buy_in=1_000)
    for name in STRUCTURE_STAKES["no_limit"]:
        del data[name]
    response = admin_client.post(reverse("admin:holdem_table_add"), data)
    assert response.status_code == 302, errors_in(response)
    table = Table.objects.get(name="By hand")
    assert (table.blinds, table.small_blind, table.big_blind) == ("fixed", 50, 100)
    assert (table.small_bet, table.big_bet) == (100, 200)  # empty: twice the lower stake


def test_a_no_limit_room_is_saved_without_limit_stakes(admin_client):
    data = form_data()
    for name in STRUCTURE_STAKES["fixed_limit"]:
        del data[name]
    response = admin_client.post(reverse("admin:holdem_table_add"), data)
    assert response.status_code == 302, errors_in(response)
    table = Table.objects.get(name="By hand")
    assert (table.small_blind, table.big_blind, table.small_bet, table.big_bet) == (5, 10, 0, 0)


def test_without_the_script_a_fixed_limit_room_s_blinds_are_checked_under_their_fields(
    admin_client,
):
    # Without the script every field is sent: blinds given for a Fixed-Limit room must be the
    # ones its lower stake makes, and each one that is not says so under itself.
    data = form_data(structure="fixed_limit", small_bet=200, big_bet=400, min_buy_in=2_000)
    response = admin_client.post(reverse("admin:holdem_table_add"), data)
    assert response.status_code == 200 and not Table.objects.filter(name="By hand").exists()
    page = response.content.decode()
    for field, message in (
        ("small_blind", "half the lower stake, rounded down: 100"),
        ("big_blind", "the big blind is the lower stake: 200"),
    ):
        classes, row = form_row(page, field)
        assert "errors" in classes and message in row
    good = admin_client.post(
        reverse("admin:holdem_table_add"),
        {**data, "small_blind": 100, "big_blind": 200, "max_buy_in": 20_000},
    )
    assert good.status_code == 302, errors_in(good)


def test_without_the_script_a_pot_limit_room_ignores_the_limit_stakes(admin_client):
    response = admin_client.post(
        reverse("admin:holdem_table_add"), form_data(structure="pot_limit", small_bet=7, big_bet=9)
    )
    assert response.status_code == 302, errors_in(response)
    table = Table.objects.get(name="By hand")
    assert (table.small_bet, table.big_bet, table.small_blind, table.big_blind) == (0, 0, 5, 10)


def test_a_no_limit_room_still_needs_its_blinds_and_says_so_under_them(admin_client):
    response = admin_client.post(reverse("admin:holdem_table_add"), form_data(small_blind=""))
    assert response.status_code == 200 and not Table.objects.filter(name="By hand").exists()
    classes, row = form_row(response.content.decode(), "small_blind")
    assert "errors" in classes and "This field is required." in row


def test_a_saved_room_changes_structure_with_its_stakes_carried_over(admin_client, room):
    table = room("nl50")
    url = reverse("admin:holdem_table_change", args=[table.pk])
    shown = input_names(admin_client.get(url).content.decode())
    data = {
        k: v
        for k, v in form_data(name=table.name, min_buy_in=2_000, max_buy_in=20_000).items()
        if k in shown
    }
    response = admin_client.post(url, {**data, "structure": "fixed_limit"})
    assert response.status_code == 302, errors_in(response)
    table.refresh_from_db()
    assert (table.structure, table.small_bet, table.big_bet) == ("fixed_limit", 10, 20)
    assert (table.small_blind, table.big_blind) == (5, 10)
    assert "small_bet" in input_names(admin_client.get(url).content.decode())


@pytest.mark.parametrize(
    "overrides, field, message",
    [
        ({"min_buy_in": 5_000, "max_buy_in": 1_000}, "max_buy_in", "must not be below the minimum"),
        (
            {"structure": "fixed_limit", "small_bet": 100, "big_bet": 200, "min_buy_in": 500},
            "min_buy_in",
            "at least 10 lower stakes here: 1,000",
        ),
        ({"structure": "fixed_limit", "small_bet": 100, "big_bet": 300}, "big_bet", "twice"),
        ({"turn_seconds": 2}, "turn_seconds", "at least 5 seconds"),
    ],
)
def test_a_room_form_error_sits_under_the_field_it_is_about(
    admin_client, overrides, field, message
):
    response = admin_client.post(reverse("admin:holdem_table_add"), form_data(**overrides))
    page = response.content.decode()
    assert response.status_code == 200
    classes, row = form_row(page, field)
    assert "errors" in classes and message in row
    non_field = re.search(r'<ul class="errorlist nonfield">(.*?)</ul>', page, re.S)
    assert non_field is None or message not in non_field[1]


def test_the_preset_form_shows_a_taken_name_under_the_name(admin_client, room):
    table = room("nl50")
    response = admin_client.post(
        reverse("admin:holdem_table_from_preset"), {"name": table.name, "preset": "pl50"}
    )
    assert response.status_code == 200
    classes, row = form_row(response.content.decode(), "name")
    assert "errors" in classes and "exists already" in row


def test_a_room_in_play_shows_its_options_read_only_with_separators_and_site_seats(
    admin_client, seated, clock
):
    table, _users = seated("nl50", seats=(3, 7))
    clock.advance(31)
    table.refresh_from_db()
    assert table.in_hand and table.button_seat in (3, 7)
    page = admin_client.get(reverse("admin:holdem_table_change", args=[table.pk])).content.decode()
    assert "min_buy_in" not in input_names(page)
    _classes, row = form_row(page, "min_buy_in")
    assert '<div class="readonly">2,000</div>' in row
    _classes, row = form_row(page, "max_buy_in")
    assert '<div class="readonly">20,000</div>' in row
    _classes, row = form_row(page, "button_seat")
    assert f'<div class="readonly">{table.button_seat + 1}</div>' in row
    hand = HandRecord.objects.get(table=table)
    _classes, row = form_row(page, "hand_in_play")
    assert f"Hand #{hand.pk}" in row


def test_seats_read_from_1_in_the_action_log_list_and_pages(admin_client, seated, clock):
    table, users = seated("nl50", seats=(3, 7))
    clock.advance(31)
    play_out(table, users)
    actions = HandAction.objects.filter(hand__table=table)
    page = admin_client.get(reverse("admin:holdem_handaction_changelist")).content.decode()
    seats = [int(s) for s in re.findall(r'<td class="field-seat">(\d+)</td>', page)]
    assert sorted(seats) == sorted(a.seat + 1 for a in actions) and set(seats) <= {4, 8}
    sorted_page = admin_client.get(
        reverse("admin:holdem_handaction_changelist"), {"o": "4"}
    ).content.decode()  # the seat column sorts by the stored seat
    ordered = [int(s) for s in re.findall(r'<td class="field-seat">(\d+)</td>', sorted_page)]
    assert ordered == sorted(ordered)
    action = actions.first()
    detail = admin_client.get(
        reverse("admin:holdem_handaction_change", args=[action.pk])
    ).content.decode()
    _classes, row = form_row(detail, "seat")
    assert f'<div class="readonly">{action.seat + 1}</div>' in row


def test_the_room_list_writes_chips_with_separators(admin_client, seated, clock):
    table, _users = seated("nl50", seats=(0, 1))
    Table.objects.filter(pk=table.pk).update(rake_collected=12_345, hands_played=1_200)
    page = admin_client.get(reverse("admin:holdem_table_changelist")).content.decode()
    assert '<td class="field-rake_collected">12,345</td>' in page
    assert '<td class="field-hands_played">1,200</td>' in page
    assert "<td class=\"field-stakes\">50/100</td>" in page


def test_saving_a_room_writes_its_options_and_leaves_the_game_s_columns_alone(
    admin_client, seated, clock, monkeypatch
):
    table, _users = seated("nl50", seats=(0, 1))
    url = reverse("admin:holdem_table_change", args=[table.pk])
    shown = input_names(admin_client.get(url).content.decode())
    data = form_data(name=table.name, min_buy_in=2_000, max_buy_in=20_000, chat="players")
    checks = room_problems

    def game_moves_on_meanwhile(candidate):
        # A hand starts while the admin's request holds the row it read: the save must not
        # write the old game columns back over the new ones.
        clock.advance(31)
        return checks(candidate)

    monkeypatch.setattr("holdem.admin.room_forms.room_problems", game_moves_on_meanwhile)
    response = admin_client.post(url, {k: v for k, v in data.items() if k in shown})
    assert response.status_code == 302, errors_in(response)
    table.refresh_from_db()
    assert table.chat == "players" and (table.small_blind, table.big_blind) == (5, 10)
    assert table.in_hand and table.hand_id is not None and table.seq > 0
