"""Builders for table tests: rooms, seated players, a clock you can move, hands played out."""
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from holdem import engine
from holdem.models import Table
from holdem.services import deadlines_fire_due, room_create, table_act, table_sit


class Clock:
    """Test time: deadlines fire only when the test moves the clock past them."""

    def __init__(self):
        self.now = timezone.now()

    def advance(self, seconds: float):
        self.now += timedelta(seconds=seconds)
        return deadlines_fire_due(self.now)


@pytest.fixture
def clock(monkeypatch):
    """The services read the time from django.utils.timezone.now: it follows this clock."""
    test_clock = Clock()
    monkeypatch.setattr(timezone, "now", lambda: test_clock.now)
    return test_clock


@pytest.fixture
def room(db):
    def make(preset="nl50", name=None, **options):
        return room_create(name=name or f"{preset} room {Table.objects.count() + 1}", preset=preset, **options)

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
        table_act(table_id=table.pk, user=users[legal.seat], action=action, amount=amount, action_id=f"a{steps}")
        steps += 1
        assert steps < 500
    return steps


def chips_everywhere():
    from casino.accounts.audit import audit_chips

    audit = audit_chips()
    assert audit.ok, audit.summary()
    return audit
