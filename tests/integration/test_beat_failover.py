"""Two real `celery beat` processes on real Redis, as the site runs them (celery-redbeat, its lock
in Redis): one ticks and the other waits; kill -9 the one ticking, and the other takes over once
the lock has run out. The ticks are read where beat puts them: the messages in the broker's
queue (no worker takes them here), each naming the process that sent it."""

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest
import redis
from django.conf import settings

from holdem.tasks import fire_due_deadlines
from tests.integration.daphne_serve import database_url

ROOT = Path(__file__).resolve().parents[2]
TICK = fire_due_deadlines.name
LOCK_TIMEOUT = 10  # CELERY_REDBEAT_LOCK_TIMEOUT in the settings beat runs with
TAKEOVER_BOUND = 20  # the lock's timeout, a second to notice, and room for a busy machine


def beat_env(redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASINO_", "CELERY_"))}
    env.update(
        DATABASE_URL=database_url(),
        DJANGO_SETTINGS_MODULE="casino.settings",
        DJANGO_DEBUG="true",
        REDIS_URL=redis_url,
    )
    return env


def start_beat(env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(Path(sys.executable).with_name("celery")), "--app=casino", "beat", "--loglevel=INFO"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def ticks(client: redis.Redis) -> list[tuple[float, int]]:
    """The deadline ticks waiting in the broker's default queue: (when sent, sender's pid), in
    the order sent. Beat sends each with `expires` 5 s after it sent it."""
    sent = []
    for raw in client.lrange("celery", 0, -1):
        headers = json.loads(raw)["headers"]
        if headers["task"] != TICK:
            continue
        expires = datetime.fromisoformat(headers["expires"]).timestamp()
        pid = int(headers["origin"].removeprefix("gen").split("@")[0])
        sent.append((expires - 5, pid))
    return sorted(sent)


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.timeout(90)
@pytest.mark.django_db
def test_a_second_beat_takes_over_the_ticks_when_the_first_is_killed(postgres, redis_url):
    assert settings.CELERY_BEAT_SCHEDULE["fire-due-deadlines"]["options"]["expires"] == 5
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    env = beat_env(redis_url)
    beats: list[subprocess.Popen[str]] = []
    try:
        first = start_beat(env)
        beats.append(first)
        assert wait_for(lambda: ticks(client), 30), "the first beat sent no tick"
        second = start_beat(env)
        beats.append(second)
        time.sleep(4)  # both run: the second waits for the lock
        before = ticks(client)
        assert {pid for _, pid in before} == {first.pid}, "only the lock's holder ticks"
        span = before[-1][0] - before[0][0]
        assert len(before) <= span + 3, f"{len(before)} ticks in {span:.1f} s: more than one beat?"

        os.killpg(first.pid, signal.SIGKILL)  # no clean stop: the lock stays until it runs out
        first.wait(10)
        killed_at = time.time()
        assert wait_for(
            lambda: any(pid == second.pid for _, pid in ticks(client)), TAKEOVER_BOUND + 5
        ), "the second beat never took over"
        time.sleep(3)  # a few of its ticks
        after = [when for when, pid in ticks(client) if pid == second.pid]
        last_of_first = max(when for when, pid in ticks(client) if pid == first.pid)
        gap = after[0] - last_of_first
        assert after[0] >= killed_at - 1
        assert gap < TAKEOVER_BOUND, f"{gap:.1f} s without a tick"
        assert gap > LOCK_TIMEOUT / 2, f"{gap:.1f} s: the second beat did not wait for the lock"
        # It ticks every second, not once per lock period.
        assert len(after) >= 3, after
        assert max(b - a for a, b in itertools.pairwise(after)) < 2.5, after
    finally:
        for beat in beats:
            if beat.poll() is None:
                os.killpg(beat.pid, signal.SIGTERM)
        outputs = [beat.communicate(timeout=20)[0] for beat in beats]
        client.flushdb()
    for output in outputs:
        assert "Traceback" not in output, output[-3000:]


@pytest.mark.timeout(90)
@pytest.mark.django_db
def test_a_beat_ticks_on_after_redis_lost_its_data_and_waits_while_another_holds_the_lock(
    postgres, redis_url
):
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    beat = start_beat(beat_env(redis_url))
    try:
        assert wait_for(lambda: ticks(client), 30), "the beat sent no tick"
        # Redis restarted empty: no lock, no schedule, no queue.
        client.flushdb()
        assert wait_for(lambda: len(ticks(client)) >= 2, 10), "no tick after Redis lost its data"
        assert client.exists("casino:beat::statics"), "the schedule was not written again"
        assert client.get("casino:beat::lock"), "the beat did not take the lock again"
        # Another beat holds the lock (this one paused past its timeout, say): this one waits.
        client.set("casino:beat::lock", "another beat's token", px=4000)
        time.sleep(1.5)  # its next pass finds the lock taken
        waiting_since = time.time()
        time.sleep(2)
        assert not [w for w, _ in ticks(client) if w > waiting_since], "it ticked without the lock"
        assert wait_for(lambda: [w for w, _ in ticks(client) if w > waiting_since], 10), (
            "it did not take the lock once it was free"
        )
    finally:
        if beat.poll() is None:
            os.killpg(beat.pid, signal.SIGTERM)
        output = beat.communicate(timeout=20)[0]
        client.flushdb()
    assert "Traceback" not in output, output[-3000:]
    assert beat.returncode == 0, output[-3000:]
