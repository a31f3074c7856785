"""The deadline task under faults, in real processes: a worker killed while firing a turn's
deadline, and the task delivered again (twice, at once), time the turn out exactly once."""

import json
import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from holdem.models import HandAction, Seat, Table
from holdem.selectors.audit import audit_chips
from holdem.services import deadlines_fire_due, room_create, table_sit
from tests.integration.daphne_serve import ROOT, database_url

pytestmark = pytest.mark.django_db(transaction=True)

FIRE = (
    "import django, json; django.setup(); from holdem.tasks import fire_due_deadlines; "
    "print(json.dumps(fire_due_deadlines()))"
)


def worker_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASINO_")}
    env.update(
        DATABASE_URL=database_url(), DJANGO_SETTINGS_MODULE="casino.settings", DJANGO_DEBUG="true"
    )
    env.pop("REDIS_URL", None)
    return env


def fire_in_a_process():
    return subprocess.Popen(
        [sys.executable, "-c", FIRE], cwd=ROOT, env=worker_env(), stdout=subprocess.PIPE, text=True
    )


def test_a_deadline_fired_again_after_its_worker_was_killed_times_the_turn_out_once(
    postgres, make_player
):
    table = room_create(name="twice", preset="nl50", turn_seconds=5, time_bank_seconds=0)
    for number in (0, 1):
        table_sit(table_id=table.pk, user=make_player(), seat=number, buy_in=2_000)
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now())
    deadlines_fire_due()
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    with transaction.atomic():
        # The seats held: a worker takes the free table's lock, then blocks mid-firing, at the
        # seat it updates (a sweep skips a table locked by someone else, so the table itself
        # cannot be what it waits for).
        list(Seat.objects.select_for_update().filter(table=table))
        first = fire_in_a_process()
        time.sleep(2)
        assert first.poll() is None, "the first worker should be waiting mid-firing"
        first.kill()  # SIGKILL while firing: its transaction dies with it
        first.wait(10)
        redelivered = [fire_in_a_process(), fire_in_a_process()]  # the task comes back, twice
        time.sleep(1)
    results = [
        json.loads(p.communicate(timeout=60)[0].strip().splitlines()[-1]) for p in redelivered
    ]
    # The killed worker's session holds the table until the database finds its client gone; a
    # run meanwhile skips the table, and the clock's next second fires it.
    deadline = time.monotonic() + 30

    def timed_out() -> int:
        return HandAction.objects.filter(hand__table=table, source="timeout").count()

    while not timed_out() and time.monotonic() < deadline:
        deadlines_fire_due()
        time.sleep(0.5)
    assert sorted(r["timeouts"] for r in results) in ([0, 0], [0, 1]), results
    assert timed_out() == 1
    assert audit_chips().ok
