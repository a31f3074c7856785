"""Table locking on real PostgreSQL: timeouts racing actions, seats raced for, chips conserved."""
import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from casino.accounts.audit import audit_chips
from holdem import engine
from holdem.errors import TableError
from holdem.models import HandAction, Seat
from holdem.services import deadlines_fire_due, room_create, table_act, table_sit

pytestmark = pytest.mark.django_db(transaction=True)


def race(*jobs):
    barrier = threading.Barrier(len(jobs))
    outcomes = [None] * len(jobs)

    def run(i, job):
        try:
            barrier.wait()
            outcomes[i] = ("ok", job())
        except TableError as error:
            outcomes[i] = ("refused", error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    close_old_connections()
    return outcomes


def current(table):
    table.refresh_from_db()
    return engine.state_from_json(table.hand_state) if table.in_hand else None


def test_a_timeout_racing_the_players_own_action_lets_exactly_one_win(postgres, make_player):
    table = room_create(name="race", preset="nl50")
    users = {}
    for number in (0, 1, 2):
        users[number] = make_player()
        table_sit(table_id=table.pk, user=users[number], seat=number, buy_in=3_000)
    for _ in range(8):
        deadlines_fire_due(timezone.now() + timedelta(seconds=31))
        state = current(table)
        if state is None:
            continue
        actor = state.to_act
        late = timezone.now() + timedelta(seconds=table.turn_seconds + 1)
        outcomes = race(
            lambda: table_act(table_id=table.pk, user=users[actor], action="call"),
            lambda: deadlines_fire_due(late),
        )
        acted = outcomes[0][0] == "ok"
        timed_out = outcomes[1] == ("ok", {"hands_started": 0, "timeouts": 1})
        assert acted != timed_out, outcomes  # exactly one of them took the turn
        log = HandAction.objects.filter(hand=table.hand if table.in_hand else table.last_hand, seat=actor)
        assert log.count() == 1
        # finish the hand quickly
        while (state := current(table)) is not None:
            legal = engine.legal_actions(state)
            table_act(table_id=table.pk, user=users[legal.seat], action="check" if "check" in legal.actions else "fold")
        assert audit_chips().ok


def test_two_players_racing_for_one_seat_one_sits_and_no_chips_move_for_the_other(postgres, make_player):
    table = room_create(name="seat race", preset="nl50")
    alice, bob = make_player(), make_player()
    outcomes = race(
        lambda: table_sit(table_id=table.pk, user=alice, seat=3, buy_in=2_000),
        lambda: table_sit(table_id=table.pk, user=bob, seat=3, buy_in=2_000),
    )
    assert sorted(o[0] for o in outcomes) == ["ok", "refused"]
    assert Seat.objects.filter(table=table).count() == 1
    audit = audit_chips()
    assert audit.ok and audit.at_tables == 2_000


def test_one_player_sitting_at_two_tables_at_once_gets_one_seat(postgres, make_player):
    first, second = room_create(name="t1", preset="nl50"), room_create(name="t2", preset="pl50")
    alice = make_player()
    outcomes = race(
        lambda: table_sit(table_id=first.pk, user=alice, seat=0, buy_in=2_000),
        lambda: table_sit(table_id=second.pk, user=alice, seat=0, buy_in=2_000),
    )
    assert sorted(o[0] for o in outcomes) == ["ok", "refused"]
    assert Seat.objects.filter(user=alice).count() == 1
    assert audit_chips().ok
