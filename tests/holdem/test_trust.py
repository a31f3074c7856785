"""Exact idempotency, deadlines that mean what they say, and no turn cut short by downtime,
through the services."""

from datetime import timedelta

import pytest

from casino.errors import DomainError
from holdem.models import DEADLINES_CLOCK, ClockBeat, HandAction, Seat, Table, WebProcess
from holdem.services import connections_expire, deadlines_fire_due, table_act
from holdem.services.presence import process_beat
from tests.holdem.conftest import TEST_PROCESS, current


def world(table):
    table.refresh_from_db()
    return table.hand_state, table.seq, table.turn_deadline, HandAction.objects.count()


def test_the_same_action_id_with_another_payload_is_refused_and_changes_nothing(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    actor = current(table).to_act
    table_act(table_id=table.pk, user=users[actor], action="raise", amount=300, action_id="click-7")
    before = world(table)
    # Same id, same payload: answered as a repeat.
    again = table_act(
        table_id=table.pk, user=users[actor], action="raise", amount=300, action_id="click-7"
    )
    assert again["repeated"] is True
    # Same id, another amount or action: the client must not believe this one went in.
    for action, amount in (("raise", 500), ("call", None), ("fold", None)):
        with pytest.raises(DomainError) as refused:
            table_act(
                table_id=table.pk,
                user=users[actor],
                action=action,
                amount=amount,
                action_id="click-7",
            )
        assert refused.value.code == "idempotency_conflict"
        assert "raise 300" in refused.value.message
    assert world(table) == before


def test_an_action_after_its_deadline_is_refused_before_the_sweeper_runs(seated, clock):
    # RULES.md 5: the turn clock is the rule, not the sweeper's timing.
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    table.refresh_from_db()
    actor = current(table).to_act
    clock.now = table.turn_deadline + timedelta(milliseconds=300)  # due; the sweeper has not run
    before = world(table)
    with pytest.raises(DomainError) as refused:
        table_act(table_id=table.pk, user=users[actor], action="call", turn_token=table.turn_token)
    assert refused.value.code == "turn_expired"
    assert world(table) == before
    # Others acting out of turn still hear that it is not their turn.
    other = next(n for n in users if n != actor)
    with pytest.raises(DomainError) as refused:
        table_act(table_id=table.pk, user=users[other], action="call")
    assert refused.value.code == "not_your_turn"
    # The sweeper then times the turn out, once.
    assert clock.advance(0)["timeouts"] == 1
    assert HandAction.objects.filter(source="timeout").count() == 1


def test_a_turn_that_ran_out_while_the_site_was_down_gets_a_fresh_turn_clock(seated, clock):
    # The clock stopped (site down) 10 s into a 60 s turn and came back 5 minutes
    # later. The player gets a whole new turn instead of an instant timeout.
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    table.refresh_from_db()
    actor, token, seq = current(table).to_act, table.turn_token, table.seq
    clock.advance(10)
    down_at = clock.now
    clock.now = down_at + timedelta(minutes=5)  # nothing ran meanwhile
    fired = deadlines_fire_due(clock.now)
    assert fired["timeouts"] == 0 and fired["turns_renewed"] == 1
    table.refresh_from_db()
    assert table.turn_deadline == clock.now + timedelta(seconds=table.turn_seconds)
    assert table.turn_token == token and current(table).to_act == actor
    assert table.seq == seq + 1  # the players see the new deadline
    assert not HandAction.objects.filter(source="timeout").exists()
    # The renewed turn is a real turn: the player acts in it...
    table_act(table_id=table.pk, user=users[actor], action="call", turn_token=token)
    # ...and a turn left to run out with the clock running times out as usual.
    table.refresh_from_db()
    clock.now = table.turn_deadline - timedelta(seconds=1)
    clock.advance(2)
    assert HandAction.objects.filter(source="timeout").count() == 1


def test_a_turn_that_ran_out_with_the_clock_running_times_out_as_before(seated, clock):
    _table, _users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    fired = clock.advance(61)
    assert (fired["timeouts"], fired["turns_renewed"]) == (1, 0)


def test_every_run_of_the_clock_is_recorded(db):
    deadlines_fire_due()
    first = ClockBeat.objects.get(name=DEADLINES_CLOCK).ran_at
    deadlines_fire_due()
    assert ClockBeat.objects.get(name=DEADLINES_CLOCK).ran_at >= first
    assert Table.objects.count() == 0


def test_a_delayed_beat_never_makes_a_live_process_look_dead(seated, sockets, clock):
    """A beat written late (its database thread was slow) after a newer one must not move the
    process back in time: the sweep would drop its sockets and disconnect its players. Seen under
    load in the privacy test, where a player was stood up with their chips mid-run."""
    table, users = seated("nl50", seats=(0, 1))
    for user in users.values():
        sockets.open(table, user)
    clock.advance(31)  # the process beats at the new time, the hand starts
    late = clock.now - timedelta(seconds=31)
    process_beat(process_key=TEST_PROCESS, now=late)  # the delayed beat from before the jump
    assert WebProcess.objects.get(key=TEST_PROCESS).seen_at == clock.now
    assert connections_expire(clock.now + timedelta(seconds=5)) == 0
    assert not Seat.objects.filter(table=table, disconnected=True).exists()
    assert not Seat.objects.filter(table=table, connection_lost_at__isnull=False).exists()
