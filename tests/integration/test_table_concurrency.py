"""Table locking on real PostgreSQL: timeouts racing actions, seats raced for, chips conserved."""

import threading

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from casino.errors import DomainError
from holdem import engine
from holdem.models import HandAction, Seat
from holdem.selectors.audit import audit_chips
from holdem.services import deadlines_fire_due, room_create, table_act, table_sit

pytestmark = pytest.mark.django_db(transaction=True)


def race(*jobs):
    barrier = threading.Barrier(len(jobs))
    outcomes = [None] * len(jobs)

    def run(i, job):
        try:
            barrier.wait()
            outcomes[i] = ("ok", job())
        except DomainError as error:
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


def seated_table(make_player, name, seats=(0, 1, 2), buy_in=3_000):
    table = room_create(name=name, preset="nl50", time_bank_seconds=0)  # timeouts act at once
    users = {}
    for number in seats:
        users[number] = make_player()
        table_sit(table_id=table.pk, user=users[number], seat=number, buy_in=buy_in)
    return table, users


def start_hand_now(table):
    """End the countdown at the real current time (turn clocks then run from real time too)."""
    from holdem.models import Table

    Table.objects.filter(pk=table.pk, next_hand_at__isnull=False).update(
        next_hand_at=timezone.now()
    )
    assert deadlines_fire_due()["hands_started"] == 1, (
        "no hand started: the loop would spin forever"
    )


def finish_hand(table, users):
    while (state := current(table)) is not None:
        legal = engine.legal_actions(state)
        table_act(
            table_id=table.pk,
            user=users[legal.seat],
            action="check" if "check" in legal.actions else "fold",
        )


def test_a_timeout_racing_the_players_own_action_lets_exactly_one_win_200_times(
    postgres, make_player
):
    table, users = seated_table(make_player, "race")
    races = 0
    while races < 200:
        if current(table) is None:
            start_hand_now(table)
            continue
        state = current(table)
        actor = state.to_act
        hand = table.hand
        before = HandAction.objects.filter(hand=hand).count()
        # This turn's clock has just run out (in real time, so later turns run on real time too).
        from holdem.models import Table

        Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now())
        move = "check" if "check" in engine.legal_actions(state).actions else "call"
        token = table.turn_token  # the turn the player is answering
        outcomes = race(
            lambda: table_act(table_id=table.pk, user=users[actor], action=move, turn_token=token),
            lambda: deadlines_fire_due(),
        )
        acted = outcomes[0][0] == "ok"
        assert outcomes[1][0] == "ok", outcomes
        fired = outcomes[1][1]
        assert fired["hands_started"] == fired["mucked"] == fired["turns_renewed"] == 0, outcomes
        timed_out = fired["timeouts"] == 1
        if not acted and not timed_out:
            # The sweep found the table held by the action and skipped it; the action was then
            # refused (the turn had run out): the next second's sweep times the turn out.
            assert outcomes[0] == ("refused", "turn_expired"), outcomes
            timed_out = deadlines_fire_due()["timeouts"] == 1
        assert acted != timed_out, outcomes  # exactly one of them took the turn
        assert HandAction.objects.filter(hand=hand).count() == before + 1
        # Half these turns time out: RULES.md 2 would sit a player out after two in a row, and
        # this test is about the race, not about idle players (tests/holdem/test_table_rules.py).
        Seat.objects.filter(table=table).update(timeouts_in_row=0)
        races += 1
        if races % 10 == 0:
            assert audit_chips().ok
    finish_hand(table, users)
    assert audit_chips().ok


def test_two_actions_racing_for_the_same_turn_apply_once(postgres, make_player):
    table, users = seated_table(make_player, "double click")
    for round_number in range(20):
        if current(table) is None:
            start_hand_now(table)
        state = current(table)
        actor = state.to_act
        before = HandAction.objects.filter(hand=table.hand).count()
        move = "check" if "check" in engine.legal_actions(state).actions else "call"
        token = table.turn_token
        outcomes = race(  # two tabs clicking at once, with different action ids
            lambda: table_act(
                table_id=table.pk,
                user=users[actor],
                action=move,
                action_id=f"a{round_number}",
                turn_token=token,
            ),
            lambda: table_act(
                table_id=table.pk,
                user=users[actor],
                action=move,
                action_id=f"b{round_number}",
                turn_token=token,
            ),
        )
        assert sorted(o[0] for o in outcomes) == ["ok", "refused"], outcomes
        assert HandAction.objects.filter(hand=table.hand or table.last_hand).count() == before + 1
    assert audit_chips().ok


def test_a_double_buy_in_racing_for_one_wallet_never_overdraws(postgres, make_player):
    first, second = room_create(name="w1", preset="nl50"), room_create(name="w2", preset="nl50")
    alice = make_player()  # 10,000 chips: two buy-ins of 8,000 cannot both happen
    outcomes = race(
        lambda: table_sit(table_id=first.pk, user=alice, seat=0, buy_in=8_000),
        lambda: table_sit(table_id=second.pk, user=alice, seat=0, buy_in=8_000),
    )
    assert sorted(o[0] for o in outcomes) == ["ok", "refused"]
    alice.wallet.refresh_from_db()
    assert alice.wallet.balance == 2_000
    assert audit_chips().ok


def test_two_players_racing_for_one_seat_one_sits_and_no_chips_move_for_the_other(
    postgres, make_player
):
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
