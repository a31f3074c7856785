"""A real Celery worker with beat, on Redis and PostgreSQL, drives the table clock: countdowns
start games, turns time out into check/fold, and a worker killed mid-countdown and restarted
still starts the game exactly once."""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from holdem.models import HandAction, HandRecord, Table
from holdem.services import room_create, table_sit

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker(postgres, redis_url, tmp_path):
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}",
        REDIS_URL=redis_url,
    )
    celery = Path(sys.executable).with_name("celery")
    running = []
    outputs = []

    def start():
        process = subprocess.Popen(
            [
                str(celery),
                "-A",
                "casino",
                "worker",
                "-B",
                "--pool=solo",
                "--loglevel=warning",
                f"--schedule={tmp_path / 'beat-schedule'}",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group: beat runs in a child process
        )
        running.append(process)
        return process

    def kill(process):
        os.killpg(process.pid, signal.SIGKILL)  # the worker and its beat die without cleanup
        process.communicate(timeout=10)

    yield start, kill
    for process in running:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                outputs.append(process.communicate(timeout=15)[0])
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                outputs.append(process.communicate()[0])
    for output in outputs:
        assert "Traceback" not in output, output[-3000:]


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return False


def seated_table(make_player, name):
    table = room_create(
        name=name, preset="nl50", countdown_seconds=3, turn_seconds=5, time_bank_seconds=0
    )
    for number in (0, 1):
        table_sit(table_id=table.pk, user=make_player(), seat=number, buy_in=2_000)
    return table


def test_beat_starts_the_game_and_times_out_the_turn(worker, make_player):
    start, _ = worker
    table = seated_table(make_player, "beat")
    start()
    assert wait_for(lambda: Table.objects.get(pk=table.pk).in_hand, 40), (
        "beat did not start the hand"
    )
    hand = HandRecord.objects.get(table=table)
    # Nobody acts: within the 5-second turn clock beat folds the player facing the big blind.
    assert wait_for(lambda: HandAction.objects.filter(hand=hand, source="timeout").exists(), 30)
    first = HandAction.objects.filter(hand=hand).order_by("index").first()
    assert (first.source, first.action) == ("timeout", "fold")


def test_a_worker_killed_mid_countdown_and_restarted_starts_the_game_exactly_once(
    worker, make_player
):
    start, kill = worker
    table = seated_table(make_player, "phoenix")
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() + timedelta(seconds=6))
    first = start()
    time.sleep(3)  # mid-countdown
    kill(first)
    assert not Table.objects.get(pk=table.pk).in_hand
    start()
    assert wait_for(lambda: Table.objects.get(pk=table.pk).in_hand, 40), (
        "the restarted worker did not start the hand"
    )
    time.sleep(2)  # more beats: the due countdown must not fire twice
    assert HandRecord.objects.filter(table=table).count() == 1
