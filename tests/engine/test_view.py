"""view(state, seat): what one seat or a spectator sees, as JSON primitives (RULES.md 6)."""

import json

from holdem.engine import (
    HandOptions,
    SeatIn,
    apply_action,
    apply_disconnect,
    own_view,
    start_hand,
    view,
)
from tests.engine.conftest import rigged_deck

NL = HandOptions(small_blind=50, big_blind=100)
HOLES = {0: ("Ac", "Ad"), 1: ("Kc", "Kd"), 2: ("Qc", "Qd")}
BOARD = ("2c", "7d", "9h", "Js", "4s")


def dealt(stacks=None, button=2):
    stacks = stacks or {0: 200, 1: 1000, 2: 1000}
    deck = rigged_deck(HOLES, BOARD, button, seats=list(stacks))
    return start_hand(NL, [SeatIn(seat, chips) for seat, chips in stacks.items()], button, deck)[0]


def cards_in(value):
    if isinstance(value, dict):
        return set().union(*(cards_in(item) for item in value.values()), set())
    if isinstance(value, list):
        return set().union(*(cards_in(item) for item in value), set())
    return {value} if isinstance(value, str) and len(value) == 2 and value[1] in "cdhs" else set()


def test_a_view_is_json_primitives():
    state = dealt()
    for seat in (None, 0, 1, 2, 7):
        seen = view(state, seat)
        assert json.loads(json.dumps(seen)) == seen


def test_a_player_sees_only_their_own_hole_cards_and_a_spectator_none():
    state = dealt()
    for seat in (0, 1, 2):
        seen = view(state, seat)
        assert cards_in(seen) == set(HOLES[seat])
        holes = {entry["seat"]: entry.get("hole") for entry in seen["seats"]}
        assert holes == {s: (list(HOLES[s]) if s == seat else None) for s in (0, 1, 2)}
    assert cards_in(view(state, None)) == set()
    assert all(entry["has_cards"] for entry in view(state, None)["seats"])


def test_the_deck_and_burn_cards_never_appear():
    state = dealt()
    state, _ = apply_action(state, 2, "call")
    state, _ = apply_action(state, 0, "call")
    state, _ = apply_action(state, 1, "check")
    seen = view(state, None)
    assert seen["board"] == list(BOARD[:3]) and cards_in(seen) == set(BOARD[:3])
    assert "stub" not in json.dumps(seen) and "deck" not in json.dumps(seen)


def test_only_the_seat_to_act_gets_legal_actions():
    state = dealt()
    assert view(state, 2)["legal"]["actions"] == ["fold", "call", "raise", "all_in"]
    assert view(state, 2)["legal"]["min_to"] == 200
    assert "legal" not in view(state, 0) and "legal" not in view(state, None)
    assert view(state, None)["to_act"] == 2


def test_own_view_is_exactly_what_a_seat_sees_beyond_a_spectator():
    """The private part sent to each player (holdem/selectors/player_view.py) is built from
    own_view: its hole cards and legal actions are those of the seat's full view, street by
    street; a seat not dealt in has none."""
    state = dealt()
    for action in ("call", "call", "check", "check", "check", "check"):
        for seat in (0, 1, 2):
            seen = view(state, seat)
            hole = next(entry["hole"] for entry in seen["seats"] if entry["seat"] == seat)
            assert own_view(state, seat) == {"hole": hole, "legal": seen.get("legal")}
        assert own_view(state, 7) is None
        state, _ = apply_action(state, state.to_act, action)


def test_pots_in_the_middle_leave_this_rounds_bets_in_front_of_the_seats():
    state = dealt()
    state, _ = apply_action(state, 2, "raise", 300)
    state, _ = apply_action(state, 0, "all_in")  # 200: all in for less
    seen = view(state, None)
    assert seen["pots"] == []  # nothing gathered yet: every chip is a bet of this round
    bets = {entry["seat"]: entry["bet"] for entry in seen["seats"]}
    assert bets == {0: 200, 1: 100, 2: 300} and seen["pot_total"] == 600
    state, _ = apply_action(state, 1, "call")
    seen = view(state, None)
    assert seen["pots"] == [
        {"amount": 600, "eligible": [0, 1, 2]},
        {"amount": 200, "eligible": [1, 2]},
    ]
    assert {entry["seat"]: entry["all_in"] for entry in seen["seats"]}[0] is True


def test_at_the_end_shown_hands_are_seen_by_all_and_mucked_hands_by_their_owner_only():
    state = dealt()
    checks = [(1, "check"), (2, "check")] * 3
    for move in [(2, "raise", 300), (0, "all_in"), (1, "call"), *checks]:
        state, _ = apply_action(state, *move)
    spectator = view(state, None)
    assert spectator["street"] == "showdown"
    assert cards_in(spectator) == set(BOARD) | set(HOLES[0]) | set(HOLES[1])
    assert spectator["result"]["mucked"] == [2]
    assert spectator["result"]["final_stacks"] == {"0": 600, "1": 900, "2": 700}
    assert set(HOLES[2]) <= cards_in(view(state, 2))


def test_a_protected_seat_is_marked():
    state = dealt()
    state, _ = apply_disconnect(state, 1, protect=True)
    entry = next(e for e in view(state, None)["seats"] if e["seat"] == 1)
    assert entry["protected"] is True and entry["stack"] == 900
