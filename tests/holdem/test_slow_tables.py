"""Slow tables (RULES.md 1 `pace`, 5 and 7): the turn clock, the time bank and its refill are
SLOW_PACE_FACTOR times the room's figures, in the deadlines the clock fires, in what the table's
clients are sent, and in the rules dialog's words; a pace that is not one is refused."""

from datetime import timedelta

import pytest
from django.forms.models import model_to_dict

from casino.errors import DomainError
from holdem import engine
from holdem.admin.room_forms import TableForm
from holdem.models import HandAction, Seat, Table
from holdem.rules_words import BANK_REFILL_MS, SLOW_PACE_FACTOR
from holdem.selectors.table_view import public_table
from holdem.services import deadlines_fire_due, room_create, table_act
from holdem.table_options import rules_dialog, rules_of
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db

TURN = 20  # the room's turn_seconds
BANK = 30  # the room's time_bank_seconds
SLOW_TURN = TURN * SLOW_PACE_FACTOR
SLOW_BANK = BANK * SLOW_PACE_FACTOR


def slow(seated, **options):
    return seated(
        "nl50_slow", seats=(0, 1, 2), turn_seconds=TURN, time_bank_seconds=BANK, **options
    )


def test_the_factor_is_the_rule_books():
    # RULES.md 1 and 7 say "three times" and 180 s for the preset's 60.
    assert SLOW_PACE_FACTOR == 3


def test_a_slow_tables_turn_deadline_is_the_multiplied_turn_clock_and_the_client_is_told(
    seated, clock
):
    table, users = slow(seated)
    clock.advance(31)  # the countdown: the hand starts
    table.refresh_from_db()
    assert table.turn_deadline == clock.now + timedelta(seconds=SLOW_TURN)
    # The client's ring spans the same time the server gives (static/js/clock.js turn.seconds).
    assert public_table(table)["turn"]["seconds"] == SLOW_TURN
    # The next turn after an action is a slow one too.
    actor = current(table).to_act
    clock.advance(TURN + 5)  # past the normal pace's clock, nothing fires
    table.refresh_from_db()
    assert current(table).to_act == actor and table.turn_bank_from is None
    table_act(table_id=table.pk, user=users[actor], action="call", turn_token=table.turn_token)
    table.refresh_from_db()
    assert table.turn_deadline == clock.now + timedelta(seconds=SLOW_TURN)
    chips_everywhere()


def test_a_slow_tables_time_bank_is_the_multiplied_bank_and_opens_for_all_of_it(seated, clock):
    table, _users = slow(seated)
    # A new seat starts with the slow table's full bank.
    assert set(Seat.objects.filter(table=table).values_list("time_bank_ms", flat=True)) == {
        SLOW_BANK * 1000
    }
    clock.advance(31)
    state = current(table)
    actor = state.to_act
    deadline = table.turn_deadline
    fired = clock.advance(SLOW_TURN + 1)
    assert fired["timeouts"] == 0
    table.refresh_from_db()
    assert table.turn_bank_from == deadline
    assert (table.turn_deadline - deadline).total_seconds() == SLOW_BANK
    seat_row = next(s for s in public_table(table)["seats"] if s["number"] == actor)
    assert seat_row["time_bank"] == SLOW_BANK
    # Only once the whole slow bank is spent does the timeout act.
    clock.advance(SLOW_BANK - 2)
    assert current(table) == state
    assert clock.advance(2)["timeouts"] == 1
    assert HandAction.objects.filter(hand=table.hand, source="timeout").count() == 1
    chips_everywhere()


def test_a_slow_tables_bank_refills_at_the_slow_pace_up_to_the_slow_bank(seated, clock):
    table, users = slow(seated)
    Seat.objects.filter(table=table).update(time_bank_ms=12_000, bank_hands=9)
    clock.advance(31)  # one hand dealt: the tenth since the last refill
    refill = BANK_REFILL_MS * SLOW_PACE_FACTOR
    assert set(Seat.objects.filter(table=table).values_list("time_bank_ms", flat=True)) == {
        12_000 + refill
    }
    while (state := current(table)) is not None:
        legal = engine.legal_actions(state)
        action = "fold" if "fold" in legal.actions else "check"
        table_act(table_id=table.pk, user=users[legal.seat], action=action)
    Seat.objects.filter(table=table).update(time_bank_ms=SLOW_BANK * 1000 - 1_000, bank_hands=9)
    clock.advance(31)
    assert set(Seat.objects.filter(table=table).values_list("time_bank_ms", flat=True)) == {
        SLOW_BANK * 1000  # never above the slow bank
    }
    chips_everywhere()


def test_a_turn_renewed_after_downtime_is_a_slow_turn(seated, clock):
    # RULES.md 5 and docs/decisions.md (Clock and deadlines): downtime gives a whole new clock.
    table, _users = slow(seated)
    clock.advance(31)
    clock.now += timedelta(minutes=10)  # the clock stood still meanwhile
    fired = deadlines_fire_due(clock.now)
    assert fired["turns_renewed"] == 1
    table.refresh_from_db()
    assert table.turn_deadline == clock.now + timedelta(seconds=SLOW_TURN)


def test_a_normal_table_keeps_the_rooms_figures(seated, clock):
    table, _users = seated("nl50", seats=(0, 1), turn_seconds=TURN, time_bank_seconds=BANK)
    assert table.pace == "normal"
    clock.advance(31)
    table.refresh_from_db()
    assert table.turn_deadline == clock.now + timedelta(seconds=TURN)
    assert public_table(table)["turn"]["seconds"] == TURN
    assert set(Seat.objects.filter(table=table).values_list("time_bank_ms", flat=True)) == {
        BANK * 1000
    }


def test_a_pace_that_is_not_one_is_refused_with_the_reason_and_nothing_is_made():
    with pytest.raises(DomainError) as refused:
        room_create(name="too fast", preset="nl50", pace="fast")
    assert refused.value.code == "bad_options"
    assert refused.value.fields == {"pace": "The pace is normal or slow."}
    assert "The pace is normal or slow." in refused.value.message
    assert not Table.objects.filter(name="too fast").exists()


def test_the_admin_form_refuses_a_pace_that_is_not_one_and_the_room_keeps_its_own():
    table = room_create(name="slow admin", preset="nl50_slow")
    form = TableForm(instance=table, data={**model_to_dict(table), "pace": "glacial"})
    assert not form.is_valid()
    assert "pace" in form.errors
    table.refresh_from_db()
    assert table.pace == "slow"


def test_the_rules_dialog_says_the_slow_figures_and_why():
    # RULES.md 1: the dialog words the option; a normal room has no pace line.
    table = room_create(name="slow words", preset="nl50_slow")
    lines = {line["key"]: line for line in rules_dialog(rules_of(table))}
    assert lines["pace"] == {
        "key": "pace",
        "term": "Pace",
        "text": "A slow table: the turn clock and the time bank are three times as long as the "
        "room's 60 s and 30 s, for players who take longer to read the table.",
    }
    assert lines["turn"]["text"].startswith("180 s to act;")
    assert lines["time_bank"]["text"] == (
        "90 s of extra time each, used when your turn clock runs out; it refills by 15 s every "
        "10 hands."
    )
    keys = [line["key"] for line in rules_dialog(rules_of(table))]
    assert keys.index("time_bank") < keys.index("pace") < keys.index("countdown")
    normal = room_create(name="normal words", preset="nl50")
    normal_lines = {line["key"]: line for line in rules_dialog(rules_of(normal))}
    assert "pace" not in normal_lines
    assert normal_lines["turn"]["text"].startswith("60 s to act;")
    # The snapshot carries the option and the words.
    view = public_table(table)
    assert view["options"]["pace"] == "slow"
    assert view["rules"] == rules_dialog(rules_of(table))
