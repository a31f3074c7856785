"""The deadline clock walks a registry of kinds (holdem/services/clock.py): each kind is counted
under its name, a kind added to the registry is fired like the others, a broken one stops
nothing else, and a table locked by someone else is skipped this run and fired on the next."""

import threading
import time
from datetime import datetime, timedelta

import pytest
from django.db import connection, transaction

from holdem.models import Table
from holdem.services import clock as deadline_clock
from holdem.services import deadlines_fire_due
from holdem.services.clock import Beat, Sweep, TableDeadline
from tests.holdem.conftest import clock_ran_until, current

# The counts the clock has always returned (the waiting list's only when an offer lapsed).
KEYS = {
    "hands_started",
    "timeouts",
    "turns_renewed",
    "connections_dropped",
    "mucked",
    "disconnected",
}


@pytest.mark.django_db
def test_the_registry_declares_each_kind_once_under_the_names_the_clock_returns(db):
    kinds = [kind.name for kind in deadline_clock.TABLE_DEADLINES]
    sweeps = [sweep.name for sweep in deadline_clock.SWEEPS]
    assert len(set(kinds + sweeps)) == len(kinds + sweeps)
    assert kinds == ["mucked", "timeouts", "hands_started"]  # the order they fire in at a table
    assert set(sweeps) == {
        "connections_dropped",
        "disconnected",
        "offers_lapsed",
        "levels",
        "sit_and_gos_opened",
        "tournaments_started",
        "players_moved",
    }
    assert set(deadlines_fire_due()) == KEYS


@pytest.mark.django_db
def test_the_countdown_and_the_turn_fire_through_their_kinds(seated, clock):
    table, _ = seated("nl50", seats=(0, 1))
    fired = clock.advance(31)
    assert fired["hands_started"] == 1 and fired["timeouts"] == 0
    assert current(table) is not None
    fired = clock.advance(table.turn_seconds + 1)
    assert fired["timeouts"] == 1 and fired["hands_started"] == 0


@pytest.mark.django_db
def test_a_kind_added_to_the_registry_is_walked_under_the_table_lock(room, clock, monkeypatch):
    bell, quiet = room("nl50"), room("nl50")
    rung: list[tuple[int, datetime, bool]] = []
    swept: list[Beat] = []

    def ring(table: Table, now: datetime) -> bool:
        rung.append((table.pk, now, connection.in_atomic_block))
        return True

    def sweep(beat: Beat) -> int:
        swept.append(beat)
        return 2

    # A kind on a column every table has, due at one table only: like a blind level would be.
    extra = TableDeadline("bells", "created_at", ring, applies=lambda table: table.pk == bell.pk)
    monkeypatch.setattr(deadline_clock, "TABLE_DEADLINES", (*deadline_clock.TABLE_DEADLINES, extra))
    monkeypatch.setattr(deadline_clock, "SWEEPS", (*deadline_clock.SWEEPS, Sweep("swept", sweep)))
    fired = clock.advance(1)
    assert fired["bells"] == 1 and fired["swept"] == 2
    assert rung == [(bell.pk, clock.now, True)]
    assert swept == [Beat(now=clock.now, silent_since=None)]
    assert quiet.pk not in [pk for pk, _, _ in rung]


@pytest.mark.django_db
def test_a_broken_kind_stops_neither_the_other_tables_nor_the_sweeps(room, clock, monkeypatch):
    broken, fine = room("nl50"), room("nl50")
    rung: list[int] = []

    def ring(table: Table, now: datetime) -> bool:
        if table.pk == broken.pk:
            raise RuntimeError("this table is broken")
        rung.append(table.pk)
        return True

    def failing(beat: Beat) -> int:
        raise RuntimeError("this sweep is broken")

    monkeypatch.setattr(
        deadline_clock, "TABLE_DEADLINES", (TableDeadline("bells", "created_at", ring),)
    )
    monkeypatch.setattr(
        deadline_clock, "SWEEPS", (Sweep("broken", failing), Sweep("after", lambda beat: 1))
    )
    fired = clock.advance(1)
    assert rung == [fine.pk]
    assert fired == {"bells": 1, "turns_renewed": 0, "broken": 0, "after": 1}


def _hold_table_lock(table_id: int, locked: threading.Event, release: threading.Event) -> None:
    """Another connection's transaction holding the table's row lock until `release`."""
    try:
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=table_id)
            locked.set()
            release.wait(30)
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_the_clock_skips_a_table_locked_elsewhere_and_fires_it_next_run(postgres, seated):
    busy, _ = seated("nl50", seats=(0, 1))
    free, _ = seated("nl50", seats=(0, 1))
    now = max(busy.next_hand_at, free.next_hand_at) + timedelta(seconds=1)
    clock_ran_until(now)
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_table_lock, args=(busy.pk, locked, release))
    holder.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        fired = deadlines_fire_due(now)
        assert time.monotonic() - started < 5  # it did not wait for the lock
        assert fired["hands_started"] == 1
        assert current(free) is not None and current(busy) is None
        busy.refresh_from_db()
        assert busy.next_hand_at is not None  # still due: untouched
    finally:
        release.set()
        holder.join(30)
    fired = deadlines_fire_due(now + timedelta(seconds=1))
    assert fired["hands_started"] == 1
    assert current(busy) is not None
