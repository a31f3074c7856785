"""A real Celery worker with beat, on Redis and PostgreSQL, drives the table clock."""
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from holdem.models import Table
from holdem.services import room_create, table_sit

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def test_celery_beat_starts_the_hand_when_the_countdown_ends(postgres, redis_url, make_player, tmp_path):
    table = room_create(name="beat", preset="nl50")
    for number in (0, 1):
        table_sit(table_id=table.pk, user=make_player(), seat=number, buy_in=2_000)
    Table.objects.filter(pk=table.pk).update(next_hand_at=timezone.now() + timedelta(seconds=2))

    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}",
        REDIS_URL=redis_url,
    )
    celery = Path(sys.executable).with_name("celery")
    worker = subprocess.Popen(
        [str(celery), "-A", "casino", "worker", "-B", "--pool=solo", "--loglevel=warning",
         f"--schedule={tmp_path / 'beat-schedule'}"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            table.refresh_from_db()
            if table.in_hand:
                break
            time.sleep(0.3)
        assert table.in_hand, "Celery beat did not start the hand"
        # The turn clock is a column too: move it into the past and beat times the player out.
        Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        actions_before = table.hand.actions.count()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and table.hand_id and table.hand.actions.count() == actions_before:
            time.sleep(0.3)
            table.refresh_from_db()
        table.refresh_from_db()
        assert table.last_hand is not None or table.hand.actions.count() > actions_before
    finally:
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
    assert "Traceback" not in output, output[-3000:]
