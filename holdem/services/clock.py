"""The one function that fires every due deadline, walking a registry of the kinds of deadline:
a table's own (the next game's countdown, the turn, Show or Muck) and the sweeps (presence,
the waiting list's seat holds).

Idempotent: each table is re-checked under its lock, so a late, repeated or racing call is a
no-op. Celery beat's tick calls it every second: one query finds the due tables, and chunks of
them go to the workers, which fire them in parallel (`deadline_tables_fire`); the embedded clock
calls it in-process and fires the chunks itself, one after another (style.md 7). A table locked
by someone else right now is skipped, not waited for: the next second checks it again. Each
run is recorded (`ClockBeat`): /healthz reports it, and a gap since the last run means the site
was down, so turns that ran out meanwhile get a fresh clock instead of a timeout.
"""

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import reduce
from operator import or_

from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Least
from django.utils import timezone

from holdem.db.locks import LockedTable, table_lock, table_lock_unless_busy
from holdem.models import DEADLINES_CLOCK, ClockBeat, Table
from holdem.services.hand_act import hand_muck_undecided, hand_timeout, turn_renew
from holdem.services.hand_start import hand_start
from holdem.services.multi_table import (
    tournament_levels_fire_due,
    tournaments_rebalance_due,
    tournaments_start_due,
)
from holdem.services.presence import connections_expire, disconnections_due
from holdem.services.tournaments import sit_and_gos_keep_open, tournament_levels_extend
from holdem.services.waiting import waiting_offers_fire_due

log = logging.getLogger(__name__)

# The clock runs every second; a longer silence than this means it (and so the site) was down.
DOWNTIME_SECONDS = 5
# How many due tables one task of the workers fires (beat's tick sends the chunks): small enough
# that a second's 500 due tables make ten tasks for the workers to share, large enough that a
# message costs little beside the fifty table transactions it carries.
CHUNK_SIZE = 50


def _always(table: LockedTable) -> bool:
    return True


@dataclass(frozen=True)
class TableDeadline:
    """A deadline held in a column of the table row. It is due when the column's time has come
    and `applies` holds for the locked table; then `fire` runs under the table lock (and says
    whether it did something, counted under `name`). The kinds are walked in registry order on
    the table as the earlier ones left it; one whose `unless_due` kind was due this run waits."""

    name: str
    column: str
    fire: Callable[[LockedTable, datetime], bool]
    applies: Callable[[LockedTable], bool] = _always
    unless_due: str | None = None

    def due_filter(self, now: datetime) -> Q:
        """The tables whose deadline of this kind may be due (looked at again under the lock)."""
        return Q(**{f"{self.column}__lte": now})

    def is_due(self, table: LockedTable, now: datetime) -> bool:
        when: datetime | None = getattr(table, self.column)
        return when is not None and when <= now and self.applies(table)


@dataclass(frozen=True)
class Beat:
    """This run of the clock: its time, and since when the clock was silent before it (None
    unless the site was down)."""

    now: datetime
    silent_since: datetime | None


@dataclass(frozen=True)
class Sweep:
    """A deadline kept in rows of its own, fired by one pass over them after the tables; returns
    how many fired, counted under `name` (left out of the counts when zero if not
    `counted_when_none`)."""

    name: str
    fire: Callable[[Beat], int]
    counted_when_none: bool = True


TABLE_DEADLINES: tuple[TableDeadline, ...] = (
    # RULES.md 4: players who let their time to show or muck run out muck, first.
    TableDeadline("mucked", "show_or_muck_deadline", hand_muck_undecided),
    # RULES.md 5: a turn that ran out times out (or spends the time bank).
    TableDeadline("timeouts", "turn_deadline", hand_timeout, applies=lambda t: t.in_hand),
    # The countdown to the next game ended: deal, unless a turn was due (one step a run).
    TableDeadline(
        "hands_started",
        "next_hand_at",
        hand_start,
        applies=lambda t: not t.in_hand,
        unless_due="timeouts",
    ),
)

SWEEPS: tuple[Sweep, ...] = (
    # RULES.md 8: tournament levels whose time is up move on (after downtime they were extended
    # first, with the record of the run: clock_beat).
    Sweep(
        "levels",
        lambda beat: tournament_levels_fire_due(beat.now),
        counted_when_none=False,
    ),
    # RULES.md 9: scheduled tournaments whose time has come start, or are cancelled and refunded.
    Sweep(
        "tournaments_started", lambda beat: tournaments_start_due(beat.now), counted_when_none=False
    ),
    # RULES.md 9: players move between a tournament's tables, and tables break, between hands.
    Sweep(
        "players_moved", lambda beat: tournaments_rebalance_due(beat.now), counted_when_none=False
    ),
    # RULES.md 8: one Sit & Go of every active template is taking entries (an admin's new
    # template, or one whose open tournament was cancelled, gets one within a second).
    Sweep("sit_and_gos_opened", lambda beat: sit_and_gos_keep_open(), counted_when_none=False),
    # The sockets of web processes that stopped beating, then the players whose grace ran out.
    Sweep("connections_dropped", lambda beat: connections_expire(beat.now)),
    Sweep("disconnected", lambda beat: disconnections_due(beat.now)),
    # Waiting-list seat holds that ran out pass to the next in line (named only when some did).
    Sweep(
        "offers_lapsed",
        lambda beat: waiting_offers_fire_due(beat.now, silent_since=beat.silent_since),
        counted_when_none=False,
    ),
)


def deadlines_fire_due(
    now: datetime | None = None,
    *,
    fire_chunk: Callable[[list[int]], Mapping[str, int] | None] | None = None,
    chunk_size: int = CHUNK_SIZE,
) -> dict[str, int]:
    """Fire every deadline due at `now` (the current time if None): renew the turns that ran
    out while the site was down, then each table's due deadlines of every kind in
    `TABLE_DEADLINES`, then every sweep of `SWEEPS`. Returns how many of each kind fired.

    The due tables are found by one query and split into chunks of `chunk_size` ids. Without
    `fire_chunk` each chunk fires here, one after another, at `now` (the embedded clock, tests).
    With it, each chunk is handed to `fire_chunk` (beat's tick sends it to the workers, which
    fire the chunks in parallel, each table at its own time: `deadline_tables_fire`); counts it
    returns are added in, and `tables_due` and `chunks` say how many it was given."""
    now = now or timezone.now()
    kinds, sweeps = TABLE_DEADLINES, SWEEPS
    fired = {kind.name: 0 for kind in kinds}
    fired["turns_renewed"] = 0
    fired.update((sweep.name, 0) for sweep in sweeps if sweep.counted_when_none)
    last_run = clock_last_run()
    silent_since = (
        last_run
        if last_run is not None and (now - last_run).total_seconds() > DOWNTIME_SECONDS
        else None
    )
    if silent_since is not None:
        # Renewing is idempotent (a renewed turn is no longer in the silent window): done before
        # the run is recorded, a run killed halfway finds the same silence again next time.
        fired["turns_renewed"] = turns_renew_after_downtime(since=silent_since, now=now)
    # The levels in progress are extended in the transaction that records the run: both or
    # neither, so a level is extended once for one silence.
    clock_beat(now, last_run=last_run, silent_since=silent_since)
    due = deadline_tables_due(now)
    chunks = deadline_chunks(due, size=chunk_size)
    for chunk in chunks:
        if fire_chunk is None:
            counts: Mapping[str, int] | None = deadline_tables_fire(chunk, now=now)
        else:
            # Sent before the sweeps run, so that the workers start on the tables at once.
            counts = fire_chunk(chunk)
        for name, count in (counts or {}).items():
            fired[name] = fired.get(name, 0) + count
    if fire_chunk is not None:
        fired["tables_due"], fired["chunks"] = len(due), len(chunks)
    beat = Beat(now=now, silent_since=silent_since)
    for sweep in sweeps:
        try:
            count = sweep.fire(beat)
        except Exception:
            log.exception("%s sweep failed", sweep.name)
            continue
        if count or sweep.counted_when_none:
            fired[sweep.name] = count
    return fired


def deadline_tables_due(now: datetime) -> list[int]:
    """The ids of the tables with a deadline of some kind due at `now`, the longest overdue
    first: one query, a candidate list that each table's lock re-checks. When the workers fall
    behind, the chunks that expire unfired are the last ones of each tick; in this order the
    tables they held come first in the next tick's, where in id order the same tables would
    come last every time, and wait."""
    columns = [kind.column for kind in TABLE_DEADLINES]
    due = Table.objects.filter(reduce(or_, (kind.due_filter(now) for kind in TABLE_DEADLINES)))
    # PostgreSQL's LEAST passes over NULLs: the earliest of the deadlines the table has. (SQLite's
    # is NULL if one is: the order is then arbitrary, which the embedded clock, firing all, can bear.)
    earliest = Least(*columns) if len(columns) > 1 else F(columns[0])
    return list(due.order_by(earliest, "pk").values_list("pk", flat=True))


def deadline_chunks(table_ids: list[int], *, size: int = CHUNK_SIZE) -> list[list[int]]:
    """`table_ids` cut into runs of at most `size`, in order (the last one shorter)."""
    if size < 1:
        raise ValueError(f"a chunk holds at least one table, not {size}")
    return [table_ids[start : start + size] for start in range(0, len(table_ids), size)]


def deadline_tables_fire(
    table_ids: Iterable[int], *, now: datetime | None = None
) -> dict[str, int]:
    """Fire the due deadlines of each table of `table_ids` (a chunk), each in its own
    transaction under its lock, judged at `now` (None: the time each table is locked at, so a
    chunk that waited in the queue gives nobody a shorter clock). Returns how many of each kind
    fired. Idempotent: a table no longer due, locked by someone else right now (the next second
    finds it again), or gone is passed over, and one that fails is logged and passed over too.
    Two chunks naming the same table fire it once."""
    kinds = TABLE_DEADLINES
    fired = {kind.name: 0 for kind in kinds}
    for table_id in table_ids:
        try:
            with transaction.atomic():
                table = table_lock_unless_busy(table_id)
                if table is None:
                    continue  # busy (or gone): firing is idempotent, the next second retries
                _table_deadlines_fire(table, kinds=kinds, now=now or timezone.now(), fired=fired)
        except Exception:  # one broken table must not stop the clock for the others
            log.exception("deadline at table %s failed", table_id)
    return fired


def _table_deadlines_fire(
    table: LockedTable, *, kinds: tuple[TableDeadline, ...], now: datetime, fired: dict[str, int]
) -> None:
    """Fire the kinds due at the locked `table`, in registry order, each judged on the table as
    the kinds before it left it."""
    was_due: set[str] = set()
    for kind in kinds:
        if kind.unless_due in was_due or not kind.is_due(table, now):
            continue
        was_due.add(kind.name)
        fired[kind.name] += int(kind.fire(table, now))


def clock_last_run() -> datetime | None:
    """When the clock last ran (None if never)."""
    return ClockBeat.objects.filter(name=DEADLINES_CLOCK).values_list("ran_at", flat=True).first()


def clock_beat(
    now: datetime, *, last_run: datetime | None = None, silent_since: datetime | None = None
) -> datetime | None:
    """Record this run of the clock; returns when it last ran before (None the first time).
    After a silence (`silent_since`, read by this run as `last_run`), the tournament levels in
    progress are extended by it in the same transaction, unless another run recorded itself
    meanwhile (it handled the silence)."""
    with transaction.atomic():
        beat = ClockBeat.objects.select_for_update().filter(name=DEADLINES_CLOCK).first()
        if beat is None:
            ClockBeat.objects.create(name=DEADLINES_CLOCK, ran_at=now)
            return None
        before = beat.ran_at
        if silent_since is not None and before == last_run:
            tournament_levels_extend(silent_since=silent_since, now=now)
        if now > before:
            beat.ran_at = now
            beat.save(update_fields=["ran_at"])
    return before


def turns_renew_after_downtime(*, since: datetime, now: datetime) -> int:
    """RULES.md 5: a turn is never cut short by downtime. A turn whose deadline passed while the
    clock was silent (after `since`) starts a whole new turn clock now. Each such table is
    waited for, not skipped: a second later the clock is no longer silent, and the turn would
    time out instead."""
    renewed = 0
    stranded = Table.objects.filter(turn_deadline__gt=since, turn_deadline__lte=now).values_list(
        "pk", flat=True
    )
    for table_id in list(stranded):
        with transaction.atomic():
            table = table_lock(table_id)
            if (
                table.in_hand
                and table.turn_deadline is not None
                and since < table.turn_deadline <= now
            ):
                turn_renew(table, now)
                renewed += 1
    if renewed:
        log.warning(
            "the clock was silent for %.0f s: %s turns got a fresh clock",
            (now - since).total_seconds(),
            renewed,
        )
    return renewed
