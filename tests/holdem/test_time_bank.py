"""The time bank: when the turn clock runs out, a connected player's bank gives
them more time, shown to the table; what they use of it is gone; it refills by 5 s every 10
hands up to the room's option; only an empty bank lets the timeout act (RULES.md 5)."""

import pytest

from casino.errors import DomainError
from holdem import engine
from holdem.models import HandAction, Seat
from holdem.selectors.table_view import public_table
from holdem.services import room_create, table_act
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db

TURN = 20  # turn_seconds of these rooms
BANK = 30


def banked(seated, **options):
    return seated("nl50", seats=(0, 1, 2), turn_seconds=TURN, time_bank_seconds=BANK, **options)


def test_the_bank_takes_over_when_the_turn_clock_runs_out_and_the_table_sees_it(seated, clock):
    table, _users = banked(seated)
    clock.advance(31)
    state = current(table)
    actor = state.to_act
    deadline = table.turn_deadline
    seq = table.seq
    fired = clock.advance(TURN + 1)
    assert fired["timeouts"] == 0
    table.refresh_from_db()
    assert current(table) == state  # nothing was played
    assert table.turn_bank_from == deadline
    assert (table.turn_deadline - deadline).total_seconds() == BANK
    assert table.seq == seq + 1
    public = public_table(table)
    assert public["turn"]["bank_from"] is not None and public["turn"]["seat"] == actor
    assert next(s for s in public["seats"] if s["number"] == actor)["time_bank"] == BANK
    assert not HandAction.objects.filter(hand=table.hand, source="timeout").exists()


def test_what_the_player_uses_of_the_bank_is_gone_and_the_next_turn_starts_clean(seated, clock):
    table, users = banked(seated)
    clock.advance(31)
    actor = current(table).to_act
    clock.advance(TURN + 1)  # the bank opens (at the deadline, a second ago)
    clock.advance(10)
    table.refresh_from_db()
    table_act(table_id=table.pk, user=users[actor], action="call", turn_token=table.turn_token)
    seat = Seat.objects.get(table=table, number=actor)
    assert seat.time_bank_ms == (BANK - 11) * 1000
    table.refresh_from_db()
    assert table.turn_bank_from is None
    assert (table.turn_deadline - clock.now).total_seconds() == TURN
    chips_everywhere()


def test_only_an_empty_bank_lets_the_timeout_act(seated, clock):
    table, _users = banked(seated)
    clock.advance(31)
    state = current(table)
    actor = state.to_act
    clock.advance(TURN + 1)
    clock.advance(BANK - 2)
    assert current(table) == state  # still in the bank
    fired = clock.advance(2)
    assert fired["timeouts"] == 1
    folded = next(p for p in current(table).players if p.seat == actor)
    assert folded.folded  # owed the big blind: the timeout folds
    assert Seat.objects.get(table=table, number=actor).time_bank_ms == 0
    # Next time the clock runs out for this player there is no bank: the timeout acts at once.
    chips_everywhere()


def test_a_disconnected_player_gets_no_bank(seated, clock):
    table, _users = banked(seated)
    clock.advance(31)
    actor = current(table).to_act
    Seat.objects.filter(table=table, number=actor).update(disconnected=True)
    fired = clock.advance(TURN + 1)
    assert fired["timeouts"] == 1


def test_the_bank_refills_by_five_seconds_every_ten_hands_up_to_the_option(seated, clock):
    table, users = banked(seated)
    Seat.objects.filter(table=table).update(time_bank_ms=12_000)
    for _hand in range(20):
        clock.advance(31)
        # Everybody folds to the big blind: a quick hand.
        while (state := current(table)) is not None:
            legal = engine.legal_actions(state)
            action = "fold" if "fold" in legal.actions else "check"
            table_act(table_id=table.pk, user=users[legal.seat], action=action)
    banks = set(Seat.objects.filter(table=table).values_list("time_bank_ms", flat=True))
    assert banks == {22_000}  # two refills of 5 s each
    Seat.objects.filter(table=table).update(time_bank_ms=28_000, bank_hands=9)
    clock.advance(31)
    assert set(Seat.objects.filter(table=table).values_list("time_bank_ms", flat=True)) == {
        BANK * 1000
    }
    chips_everywhere()


def test_a_new_seat_starts_with_a_full_bank_and_the_option_is_checked(seated, clock):
    table, _users = banked(seated)
    assert set(Seat.objects.filter(table=table).values_list("time_bank_ms", flat=True)) == {
        BANK * 1000
    }
    with pytest.raises(DomainError) as refused:
        room_create(name="too long", preset="nl50", time_bank_seconds=601)
    assert "time_bank_seconds" in refused.value.fields
