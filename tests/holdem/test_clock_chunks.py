"""The clock's chunks (holdem/services/clock.py): one scan finds the due tables, cut into chunks
that the workers fire in parallel. The chunks cover every due table once, longest overdue first; a chunk fires
what is due at its tables and passes over the rest; a table locked elsewhere is skipped and fired
by a later chunk; two chunks naming one table fire it once; a table that fails stops nothing
else; beat's tick sends the chunks, and in embedded mode (eager tasks) they fire in the tick.
A table already on its way in a chunk is not sent again until that chunk ran or expired."""

import threading
from datetime import timedelta

import pytest
import redis
from django.db import connection, transaction
from django.utils import timezone

from holdem import tasks
from holdem.models import HandRecord, Table
from holdem.services import clock as deadline_clock
from holdem.services.clock import deadline_chunks, deadline_tables_fire, deadlines_fire_due
from holdem.tasks import fire_due_deadlines
from tests.holdem.conftest import clock_ran_until, current


def due_now(*tables: Table) -> None:
    """The countdown of each table ended a second ago."""
    Table.objects.filter(pk__in=[t.pk for t in tables]).update(
        next_hand_at=timezone.now() - timedelta(seconds=1)
    )


def test_the_chunks_cover_the_due_tables_once_in_order():
    assert deadline_chunks(list(range(1, 121)), size=50) == [
        list(range(1, 51)),
        list(range(51, 101)),
        list(range(101, 121)),
    ]
    assert deadline_chunks(list(range(1, 101)), size=50) == [
        list(range(1, 51)),
        list(range(51, 101)),
    ]
    assert deadline_chunks([7], size=50) == [[7]]
    assert deadline_chunks([], size=50) == []


@pytest.mark.parametrize("size", [0, -3])
def test_a_chunk_of_no_tables_is_refused(size):
    with pytest.raises(ValueError, match="at least one table"):
        deadline_chunks([1, 2, 3], size=size)


@pytest.mark.django_db
def test_the_tick_sends_every_due_table_in_chunks_and_fires_none_itself(seated, room):
    tables = [seated("nl50", seats=(0, 1))[0] for _ in range(5)]
    not_due = room("nl50")
    due_now(*tables)
    # The last table's turn ran out long ago (its workers fell behind): it goes first.
    Table.objects.filter(pk=tables[-1].pk).update(
        next_hand_at=None, turn_deadline=timezone.now() - timedelta(seconds=9)
    )
    now = timezone.now()
    clock_ran_until(now)
    sent: list[list[int]] = []

    fired = deadlines_fire_due(now, fire_chunk=sent.append, chunk_size=2)

    ids = [tables[-1].pk, *(t.pk for t in tables[:-1])]
    assert sent == [ids[0:2], ids[2:4], ids[4:5]]
    assert all(not_due.pk not in chunk for chunk in sent)
    assert fired["tables_due"] == 5 and fired["chunks"] == 3
    assert fired["hands_started"] == 0  # the workers fire them, not the tick
    assert all(current(t) is None for t in tables)
    # The tick is recorded and the sweeps ran as in the serial walk.
    assert fired["connections_dropped"] == 0 and fired["disconnected"] == 0
    assert deadline_clock.clock_last_run() == now


@pytest.mark.django_db
def test_a_chunk_fires_its_due_tables_and_passes_over_the_others(seated):
    due, _ = seated("nl50", seats=(0, 1))
    waiting, _ = seated("nl50", seats=(0, 1))  # its countdown has not ended
    due_now(due)
    gone = Table.objects.order_by("-pk").values_list("pk", flat=True).first() + 100

    fired = deadline_tables_fire([due.pk, waiting.pk, gone])

    assert fired == {"mucked": 0, "timeouts": 0, "hands_started": 1}
    assert current(due) is not None and current(waiting) is None
    assert deadline_tables_fire([due.pk, waiting.pk, gone])["hands_started"] == 0


@pytest.mark.django_db
def test_a_turn_due_beats_the_next_hand_in_a_chunk_too(seated):
    table, _ = seated("nl50", seats=(0, 1))
    due_now(table)
    deadline_tables_fire([table.pk])
    assert current(table) is not None
    # The turn ran out and (as a hand ended meanwhile would) the next countdown is due too.
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk=table.pk).update(turn_deadline=past, next_hand_at=past)

    fired = deadline_tables_fire([table.pk])

    assert fired["timeouts"] == 1 and fired["hands_started"] == 0
    assert HandRecord.objects.filter(table=table).count() == 1
    assert current(table) is None  # the hand ended by the timeout; no new one was dealt


@pytest.mark.django_db
def test_a_chunk_failing_at_one_table_fires_the_others_and_leaves_it_as_it_was(seated):
    first, _ = seated("nl50", seats=(0, 1))
    broken, _ = seated("nl50", seats=(0, 1))
    last, _ = seated("nl50", seats=(0, 1))
    due_now(first, broken, last)
    deadline_tables_fire([first.pk, broken.pk, last.pk])
    past = timezone.now() - timedelta(seconds=1)
    Table.objects.filter(pk__in=[first.pk, broken.pk, last.pk]).update(turn_deadline=past)
    Table.objects.filter(pk=broken.pk).update(hand_state='{"not": "a hand"')
    before = Table.objects.get(pk=broken.pk)

    fired = deadline_tables_fire([first.pk, broken.pk, last.pk])

    assert fired["timeouts"] == 2
    after = Table.objects.get(pk=broken.pk)
    assert (after.hand_state, after.turn_deadline, after.seq) == (
        before.hand_state,
        before.turn_deadline,
        before.seq,
    )
    assert HandRecord.objects.get(table=broken).actions.count() == 0


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
def test_a_busy_table_is_skipped_and_a_later_chunk_fires_it(postgres, seated):
    busy, _ = seated("nl50", seats=(0, 1))
    free, _ = seated("nl50", seats=(0, 1))
    due_now(busy, free)
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_table_lock, args=(busy.pk, locked, release))
    holder.start()
    try:
        assert locked.wait(10)
        fired = deadline_tables_fire([busy.pk, free.pk])
        assert fired["hands_started"] == 1
        assert current(free) is not None and current(busy) is None
        busy.refresh_from_db()
        assert busy.next_hand_at is not None  # still due: untouched
    finally:
        release.set()
        holder.join(30)
    assert deadline_tables_fire([busy.pk, free.pk])["hands_started"] == 1
    assert current(busy) is not None
    assert HandRecord.objects.filter(table__in=[busy, free]).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_chunks_naming_the_same_tables_at_once_fire_each_once(postgres, seated):
    tables = [seated("nl50", seats=(0, 1))[0] for _ in range(6)]
    due_now(*tables)
    ids = [t.pk for t in tables]
    start = threading.Barrier(2)
    counts: list[dict[str, int]] = []

    def chunk(table_ids: list[int]) -> None:
        try:
            start.wait(10)
            counts.append(deadline_tables_fire(table_ids))
        finally:
            connection.close()

    # The same tables, one chunk walking them backwards: the two meet in the middle.
    racers = [
        threading.Thread(target=chunk, args=(ids,)),
        threading.Thread(target=chunk, args=(ids[::-1],)),
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(60)
    assert len(counts) == 2
    # A table one chunk found locked by the other is left to the next second's chunk.
    later = deadline_tables_fire(ids)
    assert sum(c["hands_started"] for c in [*counts, later]) == len(tables)
    for table in tables:
        assert HandRecord.objects.filter(table=table).count() == 1
        assert current(table) is not None
    assert deadline_tables_fire(ids)["hands_started"] == 0


@pytest.mark.django_db
def test_in_embedded_mode_the_tick_task_fires_its_chunks_itself(seated, settings):
    assert settings.CELERY_TASK_ALWAYS_EAGER  # no broker: the tasks run where they are sent
    tables = [seated("nl50", seats=(0, 1))[0] for _ in range(3)]
    due_now(*tables)
    clock_ran_until(timezone.now())

    fired = fire_due_deadlines()

    assert fired["tables_due"] == 3 and fired["chunks"] == 1
    assert fired["hands_started"] == 3
    assert all(current(t) is not None for t in tables)


def test_a_table_on_its_way_in_a_chunk_is_not_sent_again_until_its_chunk_ran(
    redis_url, monkeypatch
):
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    monkeypatch.setattr(tasks, "_redis", lambda: client)
    # With a broker, as beat's tick and the workers run.
    monkeypatch.setitem(tasks.fire_deadline_chunk.app.conf, "task_always_eager", False)

    assert tasks.deadline_tables_mark([11, 12, 13]) == [11, 12, 13]
    # The next second's scan finds them still due (the workers are behind): only the new one.
    assert tasks.deadline_tables_mark([12, 13, 14]) == [14]
    # A mark lasts as long as a chunk may wait in the queue, then the table may go out again.
    assert 0 < client.pttl(tasks.SENT_KEY.format(12)) <= tasks.CHUNK_EXPIRES_SECONDS * 1000
    # Its chunk ran: a table of it still due goes out with the next tick.
    tasks.deadline_tables_unmark([11, 12])
    assert tasks.deadline_tables_mark([11, 12, 13]) == [11, 12]
    client.flushdb()
