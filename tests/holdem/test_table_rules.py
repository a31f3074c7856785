"""The table around the engine, as RULES.md 2, 4 and 5 say, through the services."""

from datetime import timedelta

import pytest

from casino.errors import DomainError
from holdem import engine
from holdem.models import Departure, HandAction, HandRecord, ProtectionUse, Seat, Table
from holdem.selectors.hand_history import hand_summary_for
from holdem.selectors.player_view import viewer_part
from holdem.selectors.snapshot import previous_hand_for
from holdem.selectors.table_view import public_table
from holdem.services import (
    table_act,
    table_leave,
    table_muck,
    table_post,
    table_show,
    table_sit,
    table_sit_in,
)
from tests.holdem.conftest import chips_everywhere, current, play_out
from tests.holdem.test_fixed_decks import fixed_deck, rigged  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def check_or_call(legal):
    return "check" if "check" in legal.actions else "call"


# --- RULES.md 2: "During a game" includes the countdown between two hands of a running game ------


def test_sitting_down_in_the_countdown_between_two_hands_waits_for_the_big_blind(
    seated, clock, make_player
):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    play_out(table, users)
    table.refresh_from_db()
    assert table.next_hand_at is not None and not table.in_hand  # the countdown after a hand
    newcomer = make_player()
    seat = table_sit(table_id=table.pk, user=newcomer, seat=5, buy_in=3_000)
    assert seat.waiting_for_big_blind  # before: dealt in blind-free at the next hand
    table_post(table_id=table.pk, user=newcomer)  # or post, like one who sat down mid-hand
    chips_everywhere()


def test_at_a_table_with_no_game_running_everybody_is_dealt_in(seated, clock, make_player):
    table, _users = seated("nl50", seats=(0,))
    second = make_player()
    seat = table_sit(table_id=table.pk, user=second, seat=4, buy_in=3_000)
    assert not seat.waiting_for_big_blind
    clock.advance(31)
    assert set(current(table).seats) == {0, 4}


# --- RULES.md 2: leaving does not wipe a debt --------------------------------------------------


def test_a_player_who_leaves_owing_blinds_owes_them_when_back_within_30_minutes(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2, 3))
    Seat.objects.filter(user=users[3]).update(
        missed_small_blind=True, missed_big_blind=True, sitting_out=True
    )
    table_leave(table_id=table.pk, user=users[3])
    clock.now += timedelta(minutes=29)
    seat = table_sit(table_id=table.pk, user=users[3], seat=3, buy_in=5_000)
    assert (seat.missed_small_blind, seat.missed_big_blind, seat.waiting_for_big_blind) == (
        True,
        True,
        True,
    )
    table_leave(table_id=table.pk, user=users[3])
    clock.now += timedelta(minutes=31)
    seat = table_sit(table_id=table.pk, user=users[3], seat=3, buy_in=2_000)
    assert not (seat.missed_small_blind or seat.missed_big_blind)  # forgotten after 30 minutes


def test_a_player_who_leaves_with_chips_buys_back_in_for_at_least_as_many(seated, clock):
    table, users = seated("nl50", seats=(0, 1), buy_in=6_000)
    table_leave(table_id=table.pk, user=users[1])
    assert Departure.objects.get(user=users[1], table=table).stack == 6_000
    clock.now += timedelta(minutes=10)
    you = viewer_part(table, users[1])
    assert you["buy_in"]["min"] == 6_000 and "6,000 chips" in you["buy_in"]["reason"]
    with pytest.raises(DomainError) as refused:
        table_sit(table_id=table.pk, user=users[1], seat=1, buy_in=2_000)
    assert (
        refused.value.code == "buy_in_too_small"
        and "10 minutes ago with 6,000" in refused.value.message
    )
    assert not Seat.objects.filter(user=users[1]).exists()
    table_sit(table_id=table.pk, user=users[1], seat=1, buy_in=6_000)
    chips_everywhere()


def test_the_rathole_minimum_may_exceed_the_rooms_maximum_and_lapses_after_30_minutes(
    seated, clock
):
    table, users = seated("pl50", seats=(0, 1), buy_in=10_000)
    Seat.objects.filter(user=users[1]).update(stack=14_000)  # won 4,000 (moved for the test)
    Seat.objects.filter(user=users[0]).update(stack=6_000)
    table_leave(table_id=table.pk, user=users[1])
    limits = viewer_part(table, users[1])["buy_in"]
    assert (limits["min"], limits["max"]) == (14_000, 14_000)
    clock.now += timedelta(minutes=31)
    limits = viewer_part(table, users[1])["buy_in"]
    assert (limits["min"], limits["max"], limits["reason"]) == (2_000, 10_000, None)


# --- RULES.md 4: Show or Muck, tabled all-in run-outs, show previous hand ------------------------


@pytest.fixture
def showdown_table(seated, clock, fixed_deck, monkeypatch):  # noqa: F811
    """Heads-up, button on seat 0: seat 1 (the big blind, first to show) holds aces, seat 0 7-2."""
    monkeypatch.setattr("holdem.services.game_kinds.next_button", lambda previous, dealt, rng: 0)
    table, users = seated("nl50", seats=(0, 1), buy_in=3_000)
    fixed_deck(rigged([["Ah", "Ad"], ["7c", "2d"]], ["As", "Kd", "9h", "4c", "3s"]))
    return table, users


def test_without_auto_muck_the_beaten_player_chooses_show_or_muck(showdown_table, clock):
    table, users = showdown_table
    users[0].auto_muck = False
    users[0].save()
    Seat.objects.filter(user=users[0]).update(auto_muck=False)
    clock.advance(31)
    play_out(table, users, choose=check_or_call)
    table.refresh_from_db()
    last = public_table(table)["last_hand"]
    assert last["undecided"] == [0] and last["decide_by"] is not None
    assert "0" not in last["shown"]
    loser = viewer_part(table, users[0])
    assert loser["can_show"] and loser["can_muck"]
    assert not viewer_part(table, users[1])["can_muck"]
    # Before deciding, "previous hand" keeps the choice open.
    assert "0" not in previous_hand_for(table, users[1])["showdown"]
    table_show(table_id=table.pk, user=users[0])
    table.refresh_from_db()
    last = public_table(table)["last_hand"]
    assert last["shown"]["0"] == ["7c", "2d"] and last["undecided"] == []
    assert table.show_or_muck_deadline is None
    with pytest.raises(DomainError):
        table_muck(table_id=table.pk, user=users[0])  # decided already


def test_the_time_to_choose_runs_out_into_a_muck_and_previous_hand_still_shows_the_cards(
    showdown_table, clock
):
    table, users = showdown_table
    Seat.objects.filter(user=users[0]).update(auto_muck=False)
    clock.advance(31)
    play_out(table, users, choose=check_or_call)
    fired = clock.advance(9)
    assert fired["mucked"] == 1
    table.refresh_from_db()
    record = table.last_hand
    assert "0" not in record.shown and 0 in record.result["mucked"]
    # RULES.md 4 [002]: the previous-hand view lists every hand still in at the showdown.
    for viewer in (users[0], users[1]):
        summary = previous_hand_for(table, viewer)
        assert summary["showdown"] == {"0": ["7c", "2d"], "1": ["Ah", "Ad"]} and summary[
            "mucked"
        ] == [0]


def test_with_auto_muck_a_beaten_hand_is_mucked_silently_and_the_room_default_applies(
    showdown_table, clock
):
    table, users = showdown_table
    Table.objects.filter(pk=table.pk).update(auto_muck=False)  # the room's default: show
    Seat.objects.filter(user=users[0]).update(auto_muck=True)  # the player's own choice wins
    clock.advance(31)
    play_out(table, users, choose=check_or_call)
    table.refresh_from_db()
    assert table.last_hand.result["mucked"] == [0] and table.show_or_muck_deadline is None


def test_a_player_who_never_chose_follows_the_rooms_auto_muck(showdown_table, clock):
    table, users = showdown_table
    assert Seat.objects.get(user=users[0]).auto_muck is None
    Table.objects.filter(pk=table.pk).update(auto_muck=False)
    clock.advance(31)
    play_out(table, users, choose=check_or_call)
    table.refresh_from_db()
    assert table.last_hand.result["undecided"] == [0]


def test_an_all_in_run_out_turns_every_hand_face_up_and_nobody_may_muck(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2), buy_in=2_000)
    clock.advance(31)
    first = current(table).to_act
    table_act(table_id=table.pk, user=users[first], action="all_in")
    while (state := current(table)) is not None:
        table_act(table_id=table.pk, user=users[state.to_act], action="call")
    table.refresh_from_db()
    record = table.last_hand
    assert set(record.shown) == {"0", "1", "2"} and record.result["mucked"] == []
    tabled = HandRecord.objects.get(pk=record.pk).result
    assert tabled["undecided"] == []
    chips_everywhere()


def test_folded_hands_stay_hidden_in_previous_hand_and_history(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    folder = current(table).to_act
    table_act(table_id=table.pk, user=users[folder], action="fold")
    play_out(table, users, choose=check_or_call)
    table.refresh_from_db()
    summary = hand_summary_for(table.last_hand, users[folder])
    assert str(folder) not in summary["showdown"] and len(summary["showdown"]) == 2
    assert summary["your_cards"]  # your own cards, folded or not


def test_all_in_lines_of_the_log_carry_their_amount(seated, clock):
    table, users = seated("nl50", seats=(0, 1), buy_in=2_500)
    clock.advance(31)
    pusher = current(table).to_act
    table_act(table_id=table.pk, user=users[pusher], action="all_in", action_id="shove")
    logged = HandAction.objects.get(client_action_id="shove")
    assert logged.action == "all_in" and logged.amount == 2_500
    # A repeat of the same frame is still the same action (not an idempotency conflict).
    assert table_act(table_id=table.pk, user=users[pusher], action="all_in", action_id="shove")[
        "repeated"
    ]


# --- RULES.md 5: protection only when it protects; RULES.md 2: idle players sit out -------------


def test_a_player_already_all_in_or_not_in_the_hand_uses_no_protection(
    seated, clock, sockets, make_player
):
    # RULES.md 5: "A player already all in (or not in the hand) uses none."
    table, users = seated("nl50", seats=(0, 1, 2), disconnect="all_in_protection", buy_in=2_000)
    tabs = {number: sockets.open(table, user) for number, user in users.items()}
    clock.advance(31)
    while (state := current(table)).to_act != 2:
        table_act(table_id=table.pk, user=users[state.to_act], action="call")
    table_act(table_id=table.pk, user=users[2], action="all_in")
    watcher = make_player()
    table_sit(table_id=table.pk, user=watcher, seat=5, buy_in=2_000)  # waits: not in this hand
    watching = sockets.open(table, watcher)
    sockets.close(tabs[2], table, users[2])
    sockets.close(watching, table, watcher)
    clock.advance(21)
    assert (
        Seat.objects.get(user=users[2]).disconnected and Seat.objects.get(user=watcher).disconnected
    )
    assert not ProtectionUse.objects.exists()
    assert not HandAction.objects.filter(source="disconnect").exists()
    # One who can still bet is protected, and that uses one of their two.
    mover = current(table).to_act
    sockets.close(tabs[mover], table, users[mover])
    clock.advance(21)
    assert ProtectionUse.objects.filter(user=users[mover]).count() == 1


def test_a_connected_player_who_times_out_twice_in_a_row_is_sat_out(seated, clock, sockets):
    table, users = seated("nl50", seats=(0, 1, 2))
    for _number, user in users.items():
        sockets.open(table, user)
    clock.advance(31)
    idle = current(table).to_act
    clock.advance(61)  # first timeout: folded
    assert not Seat.objects.get(user=users[idle]).sitting_out
    play_out(table, users, choose=check_or_call)
    clock.advance(31)
    while (state := current(table)) is not None and state.to_act != idle:
        table_act(
            table_id=table.pk,
            user=users[state.to_act],
            action=check_or_call(engine.legal_actions(state)),
        )
    assert current(table).to_act == idle  # everyone checks or calls: the idle player's turn comes
    clock.advance(61)  # second timeout in a row
    seat = Seat.objects.get(user=users[idle])
    assert seat.sitting_out and seat.sat_out_idle
    assert viewer_part(table, users[idle])["sit_out_reason"] == "idle"
    play_out(table, users, choose=check_or_call)
    table_sit_in(table_id=table.pk, user=users[idle])  # "I'm back"
    seat.refresh_from_db()
    assert not seat.sitting_out and seat.timeouts_in_row == 0
    chips_everywhere()


def test_acting_in_between_resets_the_count_of_timeouts(seated, clock, sockets):
    table, users = seated("nl50", seats=(0, 1))
    for user in users.values():
        sockets.open(table, user)
    clock.advance(31)
    sleeper = current(table).to_act
    Seat.objects.filter(user=users[sleeper]).update(timeouts_in_row=1)
    table_act(table_id=table.pk, user=users[sleeper], action="call")
    assert Seat.objects.get(user=users[sleeper]).timeouts_in_row == 0


def test_a_disconnected_player_timing_out_is_not_sat_out_for_idleness(seated, clock):
    # RULES.md 2 speaks of a *connected* player; a disconnected one follows RULES.md 5.
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    idle = current(table).to_act
    Seat.objects.filter(user=users[idle]).update(disconnected=True, timeouts_in_row=1)
    clock.advance(61)
    assert not Seat.objects.get(user=users[idle]).sat_out_idle


def test_a_protected_player_who_comes_back_sees_their_seat_all_in_until_the_hand_ends(
    seated, clock, sockets
):
    # RULES.md 5: protected = all in for what they put in; coming back does not undo it.
    table, users = seated("fl20", seats=(0, 1, 2), buy_in=1_000)
    tabs = {number: sockets.open(table, user) for number, user in users.items()}
    clock.advance(31)
    victim = current(table).to_act
    sockets.close(tabs[victim], table, users[victim])
    clock.advance(21)
    assert current(table).player(victim).protected
    sockets.open(table, users[victim])  # back
    seat = next(s for s in public_table(table)["seats"] if s["number"] == victim)
    assert seat["state"] == "all_in" and seat["protected"] and not seat["disconnected"]
    assert viewer_part(table, users[victim])["legal"] is None  # no more actions this hand


def test_coming_back_heads_up_starts_the_countdown(seated, clock):
    # "I'm back" at a two-player table: the next game is counted down again.
    table, users = seated("nl50", seats=(0, 1))
    Seat.objects.filter(user=users[1]).update(sitting_out=True, sat_out_idle=True)
    Table.objects.filter(pk=table.pk).update(next_hand_at=None)  # no game: one player was out
    table_sit_in(table_id=table.pk, user=users[1])
    table.refresh_from_db()
    assert table.next_hand_at is not None
