"""The RULES.md 6 seat states are derived from the stored state, and the private part is private."""

import json

import pytest

from casino.accounts.selectors import wallet_balance
from holdem import engine
from holdem.models import Seat
from holdem.selectors.player_view import seated_part, unseated_part, viewer_part
from holdem.selectors.snapshot import table_view_for
from holdem.selectors.table_view import public_table
from holdem.services import table_act, table_leave, table_sit, table_sit_out
from tests.holdem.conftest import current

pytestmark = pytest.mark.django_db


def states(table):
    table.refresh_from_db()
    return {s["number"]: s.get("state") for s in public_table(table)["seats"] if s["occupied"]}


def test_seat_states_follow_the_game(seated, clock, make_player, sockets):
    table, users = seated("classic", seats=(0, 1, 2), buy_in=None)
    assert set(states(table).values()) == {"waiting"}
    clock.advance(31)
    state = current(table)
    seen = states(table)
    assert seen[state.to_act] == "betting"  # only one seat at a time
    assert list(seen.values()).count("betting") == 1
    late = make_player()
    table_sit(table_id=table.pk, user=late, seat=4, buy_in=None)
    assert states(table)[4] == "waiting_next_game"
    folder = state.to_act
    table_act(table_id=table.pk, user=users[folder], action="fold")
    assert states(table)[folder] == "folded"
    pusher = current(table).to_act
    table_act(table_id=table.pk, user=users[pusher], action="all_in")
    assert states(table)[pusher] == "all_in"
    tab = sockets.open(table, users[folder])
    sockets.close(tab, table, users[folder])
    clock.advance(21)  # RULES.md 5: past the grace period
    assert states(table)[folder] == "disconnected"
    sockets.open(table, users[folder])
    while (state := current(table)) is not None:
        legal = engine.legal_actions(state)
        table_act(
            table_id=table.pk,
            user=users[state.to_act],
            action="call" if "call" in legal.actions else "check",
        )
    after = states(table)
    winners = public_table(table)["last_hand"]["winners"]
    for number in winners:
        assert after[number] == "winner"
    played = [n for n in after if n not in winners and n != 4]
    assert all(after[n] in ("post_game", "winner") for n in played)
    assert after[4] == "waiting"  # sat down during the hand: no result of it on the seat
    table_sit_out(table_id=table.pk, user=late)
    assert states(table)[4] == "sitting_out"


def test_legal_actions_and_hole_cards_reach_only_their_owner(seated, clock, make_player):
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    state = current(table)
    actor, other = state.to_act, next(s for s in state.seats if s != state.to_act)
    mine = viewer_part(table, users[actor])
    theirs = viewer_part(table, users[other])
    assert mine["legal"]["actions"] and theirs["legal"] is None
    assert mine["hole"] == list(state.player(actor).hole) and theirs["hole"] == list(
        state.player(other).hole
    )
    spectator = table_view_for(table, make_player())
    assert spectator["you"]["hole"] is None and spectator["you"]["seat"] is None
    assert all("hole" not in seat for seat in spectator["table"]["seats"])
    assert all("hole" not in seat for seat in spectator["table"]["hand"]["seats"])


def test_a_snapshot_mid_hand_carries_the_hands_public_log(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    legal = engine.legal_actions(current(table))
    table_act(table_id=table.pk, user=users[legal.seat], action="call")
    table.refresh_from_db()
    log = table_view_for(table, users[0])["log"]
    kinds = [event["kind"] for event in log]
    assert kinds[0] == "hand_started" and "action" in kinds
    assert any(e["kind"] == "action" and e["seat"] == legal.seat for e in log)
    text = json.dumps(log)
    for seat in current(table).players:  # nobody's hole cards, in nobody's snapshot
        assert not any(f'"{card}"' in text for card in seat.hole), text
    clock.advance(0)
    table.refresh_from_db()
    while current(table) is not None:
        legal = engine.legal_actions(current(table))
        table_act(table_id=table.pk, user=users[legal.seat], action="fold")
    table.refresh_from_db()
    between = table_view_for(table, users[0])["log"]  # between hands: the last hand's log
    assert between[: len(log)] == log and between[-1]["kind"] == "hand_ended"


def test_an_empty_table_shows_no_old_result(seated, clock):
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    while current(table) is not None:
        legal = engine.legal_actions(current(table))
        table_act(table_id=table.pk, user=users[legal.seat], action="fold")
    table.refresh_from_db()
    assert public_table(table)["last_hand"] is not None  # the result stays while they sit
    for user in users.values():
        table_leave(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert public_table(table)["last_hand"] is None


def test_a_seated_player_a_watcher_and_a_player_who_just_left_each_get_their_own_view(
    seated, clock, make_player
):
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    table.refresh_from_db()
    seat = Seat.objects.select_related("user").get(table=table, user=users[0])
    balance = wallet_balance(user=users[0])
    mine = viewer_part(table, users[0])
    assert mine == seated_part(table, seat, balance=balance)
    assert mine["seat"] == 0 and mine["hole"] and mine["balance"] == balance
    quiet = seated_part(table, seat, balance=None)  # no wallet changed: the balance is left out
    assert "balance" not in quiet and quiet == {k: v for k, v in mine.items() if k != "balance"}

    watcher = make_player()
    watching = viewer_part(table, watcher)
    assert watching == unseated_part(table, watcher, seated_elsewhere=None)
    assert watching["seat"] is None and watching["hole"] is None
    assert watching["buy_in"]["min"] == table.min_buy_in

    elsewhere, _ = seated("nl50", seats=(3,))
    (away,) = Seat.objects.filter(table=elsewhere).select_related("user")
    theirs = viewer_part(table, away.user)
    assert theirs["seated_elsewhere"] == {"table_id": elsewhere.pk, "name": elsewhere.name}
    assert "buy_in" not in theirs  # they cannot sit here while seated there

    while current(table) is not None:
        legal = engine.legal_actions(current(table))
        table_act(table_id=table.pk, user=users[legal.seat], action="fold")
    table_leave(table_id=table.pk, user=users[1])
    table.refresh_from_db()
    gone = unseated_part(table, users[1], seated_elsewhere=None)
    assert gone == viewer_part(table, users[1])
    assert gone["seat"] is None and gone["balance"] == wallet_balance(user=users[1])
    assert "buy_in" in gone and "top_up" not in gone
