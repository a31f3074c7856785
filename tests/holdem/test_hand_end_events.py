"""What the table hears when a hand ends (docs/protocol.md, "event"): one `hand_ended` carrying the
next countdown when nobody leaves, else `hand_ended`, a `left` per seat that leaves, `countdown`.
RULES.md 2: the countdown between games is 30 s (10 s with every seat taken)."""

import json
import random

import pytest

from holdem.engine.cards import new_deck
from holdem.services import game_kinds
from holdem.services import hand_start as hand_service
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard(monkeypatch):
    """The frames the table's group is sent, in order (as queued for after commit)."""
    frames = []

    def keep(messages):
        frames.extend(json.loads(m["text"]) for group, m in messages if group.startswith("table."))
        frames[:] = [f for f in frames if f.get("type") == "event"]

    monkeypatch.setattr("holdem.services.notify.send_on_commit", keep)
    return frames


def kinds(frames):
    seen = []
    for frame in frames:
        if not seen or seen[-1][0] != frame["seq"]:
            seen.append((frame["seq"], frame["event"]["kind"]))
    return [kind for _, kind in seen]


def test_a_hand_nobody_leaves_ends_in_one_event_that_carries_the_countdown(seated, clock, heard):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    assert current(table) is not None
    heard.clear()
    play_out(table, users, choose=lambda legal: "fold" if "fold" in legal.actions else "check")
    table.refresh_from_db()
    assert kinds(heard)[-1] == "hand_ended" and "countdown" not in kinds(heard)
    ended = heard[-1]
    assert ended["event"]["countdown"] == 30  # RULES.md 2: three of nine seats taken
    assert ended["changes"]["countdown"]["starts_at"] == int(table.next_hand_at.timestamp() * 1000)


def test_a_hand_that_busts_a_player_ends_then_they_leave_then_the_countdown(
    seated, clock, heard, monkeypatch
):
    table, users = seated("nl50", seats=(0, 1, 2), stacks=(2_000, 4_000, 6_000))
    # The same cards to the same seats every run: a fixed deck and a fixed first button.
    monkeypatch.setattr(
        hand_service, "hand_deck", lambda: random.Random(1).sample(new_deck(), k=52)
    )
    monkeypatch.setattr(game_kinds, "next_button", lambda current, dealt, rng: dealt[0])
    clock.advance(31)
    heard.clear()
    play_out(table, users, choose=lambda legal: "all_in" if "all_in" in legal.actions else "call")
    order = kinds(heard)
    at = order.index("hand_ended")
    left = order[at + 1 : at + 1 + order.count("left")]
    assert left and set(left) == {"left"}
    table.refresh_from_db()
    assert table.next_hand_at is not None  # two players are left
    assert order[at + 1 + len(left) :] == ["countdown"]
    assert "countdown" not in next(f for f in heard if f["event"]["kind"] == "hand_ended")["event"]
    chips_everywhere()
