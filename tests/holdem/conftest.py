"""Builders for table tests: rooms, seated players, a clock you can move, hands played out."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from holdem import engine
from holdem.models import DEADLINES_CLOCK, ClockBeat, Table, Tournament
from holdem.selectors.audit import audit_chips
from holdem.services import (
    connection_close,
    connection_open,
    deadlines_fire_due,
    room_create,
    table_act,
    table_sit,
)
from holdem.services.multi_table import tournament_schedule
from holdem.services.presence import process_beat

TEST_PROCESS = "tests-web-process"


class Clock:
    """Test time: deadlines fire only when the test moves the clock past them. The test's own web
    process (the `sockets` fixture) beats at every step, so its sockets stay alive."""

    def __init__(self):
        self.now = timezone.now()

    def advance(self, seconds: float):
        self.now += timedelta(seconds=seconds)
        process_beat(process_key=TEST_PROCESS, now=self.now)
        clock_ran_until(self.now)
        return deadlines_fire_due(self.now)


def clock_ran_until(now):
    """The deadline clock ran every second up to `now` (a jump of test time is not downtime)."""
    ClockBeat.objects.update_or_create(
        name=DEADLINES_CLOCK, defaults={"ran_at": now - timedelta(seconds=1)}
    )


class Sockets:
    """Websockets opened and closed as the consumers do, from one live web process."""

    def __init__(self):
        self.opened = 0

    def open(self, table, user) -> str:
        self.opened += 1
        channel = f"test.socket.{self.opened}"
        connection_open(
            process_key=TEST_PROCESS, channel_name=channel, user=user, table_id=table.pk
        )
        return channel

    def close(self, channel: str, table, user) -> None:
        connection_close(channel_name=channel, user=user, table_id=table.pk)


@pytest.fixture
def sockets(db):
    return Sockets()


@pytest.fixture
def clock(monkeypatch):
    """The services read the time from django.utils.timezone.now: it follows this clock."""
    test_clock = Clock()
    monkeypatch.setattr(timezone, "now", lambda: test_clock.now)
    return test_clock


@pytest.fixture
def room(db):
    def make(preset="nl50", name=None, **options):
        # The turn-clock tests time turns out: rooms here have no time bank unless a test gives
        # one (tests/holdem/test_time_bank.py).
        options.setdefault("time_bank_seconds", 0)
        return room_create(
            name=name or f"{preset} room {Table.objects.count() + 1}", preset=preset, **options
        )

    return make


@pytest.fixture
def seated(make_player, room):
    """A room with players sat down: returns (table, {seat number: user})."""

    def make(preset="nl50", seats=(0, 1), buy_in=5_000, stacks=None, **options):
        table = room(preset, **options)
        users = {}
        for i, number in enumerate(seats):
            user = make_player()
            stack = stacks[i] if stacks else buy_in
            table_sit(table_id=table.pk, user=user, seat=number, buy_in=stack)
            users[number] = user
        table.refresh_from_db()
        return table, users

    return make


def current(table):
    table.refresh_from_db()
    return engine.state_from_json(table.hand_state) if table.in_hand else None


def play_out(table, users, rng=None, choose=None):
    """Play the hand in progress to its end with legal actions through the service."""
    rng = rng or random.Random(7)
    steps = 0
    while (state := current(table)) is not None:
        legal = engine.legal_actions(state)
        action = choose(legal) if choose else rng.choice(legal.actions)
        amount = None
        if action in ("bet", "raise"):
            # Mostly modest sizes (play continues), sometimes anything up to the maximum.
            top = legal.max_to if rng.random() < 0.2 else min(legal.max_to, legal.min_to * 3)
            amount = rng.randint(legal.min_to, top)
        table_act(
            table_id=table.pk,
            user=users[legal.seat],
            action=action,
            amount=amount,
            action_id=f"h{table.hands_played}-a{steps}",
        )
        steps += 1
        assert steps < 500
    return steps


def chips_everywhere():
    audit = audit_chips()
    assert audit.ok, audit.summary()
    return audit


@pytest.fixture
def scheduled(clock):
    """A scheduled tournament (RULES.md 9) starting a minute from the test clock's now, with small
    figures; any option of tournament_schedule may be given."""

    def make(**options):
        options.setdefault("name", f"Daily {Tournament.objects.count() + 1}")
        options.setdefault("starts_at", clock.now + timedelta(seconds=60))
        options.setdefault("buy_in", 1_000)
        options.setdefault("fee", 100)
        options.setdefault("starting_stack", 1_000)
        options.setdefault("level_seconds", 120)
        options.setdefault("time_bank_seconds", 0)
        return tournament_schedule(**options)

    return make
