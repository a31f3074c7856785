"""state_to_json / state_from_json: exact round trips at every step of random hands of every
structure, with posts, protection, rake and showdowns."""

import json
import random

import pytest

from holdem.engine import (
    FrozenDict,
    HandOptions,
    IllegalAction,
    SeatIn,
    apply_action,
    apply_disconnect,
    apply_timeout,
    legal_actions,
    show_hand,
    start_hand,
    state_from_json,
    state_to_json,
)
from holdem.engine.cards import new_deck, shuffle


def random_hands(seed, count):
    """Yield every state of `count` random hands (all structures and options)."""
    rng = random.Random(seed)
    for _ in range(count):
        options = HandOptions(
            structure=rng.choice(["no_limit", "pot_limit", "fixed_limit"]),
            small_blind=rng.choice([1, 25, 50]),
            big_blind=100,
            raise_cap=rng.choice([None, 0, 3]),
            min_raise=rng.choice(["full", "any"]),
            rake_percent=rng.choice([0, 5, 2.5]),
            rake_cap=rng.choice([None, 30]),
        )
        seats = sorted(rng.sample(range(10), rng.randint(2, 7)))
        seat_ins = [
            SeatIn(
                seat,
                rng.choice([40, 150, 1000, 5000]),
                rng.choice(["none"] * 5 + ["big", "big_and_dead_small"]),
                rng.random() < 0.7,
            )
            for seat in seats
        ]
        state, _ = start_hand(options, seat_ins, rng.randint(0, 9), shuffle(new_deck(), rng))
        yield state
        while not state.is_over:
            legal = legal_actions(state)
            roll = rng.random()
            if roll < 0.04:
                state, _ = apply_timeout(state, legal.seat)
            elif roll < 0.08:
                target = rng.choice(state.seats)
                try:
                    state, _ = apply_disconnect(state, target, rng.random() < 0.5)
                except IllegalAction:
                    continue
            else:
                action = rng.choice(legal.actions)
                to = rng.randint(legal.min_to, legal.max_to) if action in ("bet", "raise") else None
                state, _ = apply_action(state, legal.seat, action, to)
            yield state
        if state.result.uncontested:
            winner = next(p.seat for p in state.players if not p.folded)
            yield show_hand(state, winner)[0]


def test_every_state_of_random_hands_round_trips_exactly():
    count = 0
    for state in random_hands(seed=11, count=250):
        text = state_to_json(state)
        assert json.loads(text)["format"] == 1
        restored = state_from_json(text)
        assert restored == state
        assert state_to_json(restored) == text
        count += 1
    assert count > 1000


def test_a_restored_state_plays_on_like_the_original():
    for state in random_hands(seed=12, count=60):
        if state.is_over:
            continue
        legal = legal_actions(state)
        restored = state_from_json(state_to_json(state))
        assert legal_actions(restored) == legal
        assert apply_action(restored, legal.seat, "fold") == apply_action(state, legal.seat, "fold")


def test_a_finished_hand_restores_its_result_with_seat_keys_as_ints():
    seats = [SeatIn(0, 1000), SeatIn(1, 1000)]
    state, _ = start_hand(
        HandOptions(small_blind=50, big_blind=100, rake_percent=2.5), seats, 0, new_deck()
    )
    state, _ = apply_action(state, 0, "all_in")
    state, _ = apply_action(state, 1, "call")
    restored = state_from_json(state_to_json(state))
    assert restored.result == state.result
    assert isinstance(restored.result.final_stacks, FrozenDict)
    assert set(restored.result.final_stacks) == {0, 1}
    assert all(isinstance(hole, tuple) for hole in restored.result.shown.values())
    assert restored.options.rake_percent == 2.5
    hash(restored)


@pytest.mark.parametrize(
    "text",
    ['{"format": 2}', '[]', '{"players": []}', '{"format": 1}', '{"format": 1, "players": [[1]]}'],
)
def test_other_formats_are_refused(text):
    with pytest.raises(ValueError):
        state_from_json(text)
