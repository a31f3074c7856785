"""Query budgets: what one table action costs the database, held so it cannot creep.

A mid-hand action is the common case: the table row is locked and read (it holds the state, its
clock and the action count), the seats with their players are read once (for the check and the
broadcast), the action is appended and the row written back with the new state and seq in one
UPDATE. Wallets are not read: no balance changes mid-hand; spectators are not counted: that
number changes when a socket comes or goes, or a seat is taken or given up, not on an action."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from holdem import engine
from holdem.models import HandAction, Seat, SitGoTemplate, Table
from holdem.services import table_act, table_sit
from holdem.services.tournaments import sit_and_go_open, tournament_register
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db

MID_HAND_ACT = 4
# Measured when the budgets were set (6 players): 20 and 25.
HAND_START = 20  # the clock's sweep that deals: the record, the participants, 6 seats, the state
HAND_END = 25  # the last fold: the record, each stack back to its seat, wallets, the countdown
# (and since the hands are chained, one more: the hand's actions, read for its hash; the record's
# and the table's chain columns go in the UPDATEs made anyway. 9 statements when measured.)
SIT = 17  # 20 before (and 6 savepoint statements, now 2): the wallet was read 4 times; +1: is
# the player registered in a Sit & Go (RULES.md 8: one room at a time)? +1: is the account
# frozen, on a break, or linked to a player seated there (RULES.md 2 and 11, docs/integrity.md)?
# +1: the player's buy-in limits (rules.md 11; one more, the sums, only for a player who has one).
# +1: the notes on the newcomer of those watching the table, sent to them (rules.md 6).


def statements(captured) -> list[str]:
    """The SQL statements run, savepoints (the test's own transaction) left out."""
    return [
        q["sql"]
        for q in captured.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT"))
    ]


def test_a_mid_hand_action_costs_at_most_four_queries(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2, 3, 4, 5))
    clock.advance(31)
    for number in range(3):
        legal = engine.legal_actions(current(table))
        table.refresh_from_db()
        with CaptureQueriesContext(connection) as captured:
            table_act(
                table_id=table.pk,
                user=users[legal.seat],
                action="call",
                action_id=f"call-{number}",
                turn_token=table.turn_token,
            )
        run = statements(captured)
        assert len(run) <= MID_HAND_ACT, "\n".join(run)
        assert not any("COUNT(" in sql and "holdem_handaction" in sql for sql in run), (
            "index: the row"
        )
        assert not any("accounts_wallet" in sql for sql in run), "no wallet read mid-hand"
        assert not any("holdem_connection" in sql for sql in run), "no spectator count"
    chips_everywhere()


def test_a_mid_hand_action_at_a_sit_and_go_costs_what_it_costs_at_a_cash_table(make_player, clock):
    """RULES.md 8: the tournament's panel the table shows changes with hands and levels, not
    with actions: an action reads nothing of the tournament (holdem/services/notify.py,
    PANEL_KINDS), and costs the cash table's four queries."""
    template = SitGoTemplate.objects.create(
        name="Budget Sit & Go",
        seats=3,
        buy_in=100,
        fee=0,
        starting_stack=1_000,
        level_seconds=600,
        time_bank_seconds=0,
    )
    tournament = sit_and_go_open(template)
    for _ in range(3):
        tournament_register(tournament_id=tournament.pk, user=make_player())
    tournament.refresh_from_db()
    clock.advance(11)  # the first hand, 10 s after the start
    table = Table.objects.get(pk=tournament.table_id)
    for number in range(2):
        table.refresh_from_db()
        legal = engine.legal_actions(current(table))
        user = Seat.objects.get(table=table, number=legal.seat).user
        with CaptureQueriesContext(connection) as captured:
            table_act(
                table_id=table.pk,
                user=user,
                action="call",
                action_id=f"call-{number}",
                turn_token=table.turn_token,
            )
        run = statements(captured)
        assert len(run) <= MID_HAND_ACT, "\n".join(run)
        assert not any("holdem_tournament" in sql for sql in run), "\n".join(run)
    chips_everywhere()


def test_a_hand_start_and_a_hand_end_stay_within_their_budgets(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2, 3, 4, 5))
    with CaptureQueriesContext(connection) as captured:
        clock.advance(31)
    started = [sql for sql in statements(captured) if "holdem_clockbeat" not in sql]
    assert current(table) is not None
    assert len(started) <= HAND_START, "\n".join(started)
    # Everybody folds to the big blind: the last fold ends the hand.
    while True:
        legal = engine.legal_actions(current(table))
        with CaptureQueriesContext(connection) as captured:
            table_act(table_id=table.pk, user=users[legal.seat], action="fold")
        if current(table) is None:
            break
    ended = statements(captured)
    assert len(ended) <= HAND_END, "\n".join(ended)
    chips_everywhere()


def test_a_repeated_action_id_is_answered_once_without_a_second_apply(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    legal = engine.legal_actions(current(table))
    first = table_act(table_id=table.pk, user=users[legal.seat], action="call", action_id="once")
    again = table_act(table_id=table.pk, user=users[legal.seat], action="call", action_id="once")
    assert (first["repeated"], again["repeated"]) == (False, True)
    assert HandAction.objects.filter(client_action_id="once").count() == 1
    assert engine.legal_actions(current(table)).seat != legal.seat  # applied once: turn moved on
    chips_everywhere()


def test_sitting_down_stays_within_its_budget(seated, make_player, clock):
    """A buy-in mid-game (a busted player coming back, the most common sit at a busy table): the
    locks, the checks (one seat per player, the waiting list, the last departure), the wallet
    moved once with its ledger line, the seat, and the event with the spectator count."""
    table, _ = seated("nl50", seats=(0, 1, 2, 3, 4))
    clock.advance(31)
    user = make_player()
    with CaptureQueriesContext(connection) as captured:
        table_sit(table_id=table.pk, user=user, seat=5, buy_in=5_000)
    run = statements(captured)
    savepoints = len(captured.captured_queries) - len(run)
    assert len(run) <= SIT, "\n".join(run)
    # Two savepoints: the sit's own transaction (inside the test's) and the wallet's; the
    # ledger line no longer takes a third (it was 6 statements).
    assert savepoints <= 4, "\n".join(q["sql"] for q in captured.captured_queries)
    chips_everywhere()
