"""The one function that fires every due deadline: countdown ends and turn timeouts.

Idempotent: each table is re-checked under its lock, so a late, repeated or racing call is a
no-op. Celery beat calls it every second; the embedded clock calls it in-process (style.md 7).
Each run is recorded (`ClockBeat`): /healthz reports it, and a gap since the last run means the
site was down, so turns that ran out meanwhile get a fresh clock instead of a timeout.
"""

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from holdem.db.locks import table_lock
from holdem.models import DEADLINES_CLOCK, ClockBeat, Table
from holdem.services.hand_act import hand_muck_undecided, hand_timeout, turn_renew
from holdem.services.hand_start import hand_start
from holdem.services.presence import connections_expire, disconnections_due
from holdem.services.waiting import waiting_offers_fire_due

log = logging.getLogger(__name__)

# The clock runs every second; a longer silence than this means it (and so the site) was down.
DOWNTIME_SECONDS = 5


def deadlines_fire_due(now: datetime | None = None) -> dict[str, int]:
    """Start the hands whose countdown ended, time out the turns that ran out, renew the turns
    that ran out while the site was down, muck the hands whose time to show ran out, drop the
    sockets of dead web processes, disconnect players whose grace period ran out, and pass on
    the waiting-list offers whose time ran out."""
    now = now or timezone.now()
    fired = {
        "hands_started": 0,
        "timeouts": 0,
        "turns_renewed": 0,
        "connections_dropped": 0,
        "mucked": 0,
        "disconnected": 0,
    }
    last_run = clock_beat(now)
    silent = last_run is not None and (now - last_run).total_seconds() > DOWNTIME_SECONDS
    if silent and last_run is not None:
        fired["turns_renewed"] = turns_renew_after_downtime(since=last_run, now=now)
    due = Table.objects.filter(
        Q(next_hand_at__lte=now) | Q(turn_deadline__lte=now) | Q(show_or_muck_deadline__lte=now)
    ).values_list("pk", flat=True)
    for table_id in list(due):
        try:
            with transaction.atomic():
                table = table_lock(table_id)
                if table.show_or_muck_deadline is not None and table.show_or_muck_deadline <= now:
                    fired["mucked"] += hand_muck_undecided(table, now)
                if table.turn_deadline is not None and table.turn_deadline <= now and table.in_hand:
                    fired["timeouts"] += hand_timeout(table, now)
                elif (
                    table.next_hand_at is not None
                    and table.next_hand_at <= now
                    and not table.in_hand
                ):
                    fired["hands_started"] += hand_start(table, now)
        except Exception:  # one broken table must not stop the clock for the others
            log.exception("deadline at table %s failed", table_id)
    try:
        fired["connections_dropped"] = connections_expire(now)
        fired["disconnected"] = disconnections_due(now)
    except Exception:
        log.exception("presence sweep failed")
    try:
        # Waiting-list offers that ran out pass to the next in line (named only when some did).
        passed_on = waiting_offers_fire_due(now, silent_since=last_run if silent else None)
        if passed_on:
            fired["offers_lapsed"] = passed_on
    except Exception:
        log.exception("waiting list sweep failed")
    return fired


def clock_beat(now: datetime) -> datetime | None:
    """Record this run of the clock; returns when it last ran before (None the first time)."""
    with transaction.atomic():
        beat = ClockBeat.objects.select_for_update().filter(name=DEADLINES_CLOCK).first()
        if beat is None:
            ClockBeat.objects.create(name=DEADLINES_CLOCK, ran_at=now)
            return None
        last_run = beat.ran_at
        if now > last_run:
            beat.ran_at = now
            beat.save(update_fields=["ran_at"])
    return last_run


def turns_renew_after_downtime(*, since: datetime, now: datetime) -> int:
    """RULES.md 5: a turn is never cut short by downtime. A turn whose deadline passed while the
    clock was silent (after `since`) starts a whole new turn clock now."""
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
