"""Action, street and structure names are StrEnums that stay the plain strings the site stores,
sends and compares: nothing outside the engine sees a difference."""

import json
import pickle

import pytest

from holdem.engine import (
    Action,
    HandOptions,
    SeatIn,
    Street,
    Structure,
    apply_action,
    legal_actions,
    names,
    start_hand,
    state_from_json,
    state_to_json,
    view,
)
from holdem.engine.cards import new_deck


@pytest.mark.parametrize("enum", [Action, Street, Structure])
def test_each_member_is_its_plain_string(enum):
    for member in enum:
        plain = str(member)
        assert type(plain) is str and plain == member.value
        assert member == plain and hash(member) == hash(plain)
        assert {plain: 1}[member] == 1 and {member: 1}[plain] == 1
        assert f"{member}" == plain and json.dumps(member) == json.dumps(plain)
        assert enum(plain) is member
        assert pickle.loads(pickle.dumps(member)) is member


def test_the_names_are_those_of_the_rules_and_the_stored_hands():
    assert [*Action] == ["fold", "check", "call", "bet", "raise", "all_in"]
    assert [*Street] == ["preflop", "flop", "turn", "river", "showdown", "over"]
    assert [*Structure] == ["no_limit", "pot_limit", "fixed_limit"]


def test_the_module_names_are_the_members():
    for enum in (Action, Street, Structure):
        for member in enum:
            assert getattr(names, member.name) is member


def play_to_the_flop():
    options = HandOptions(structure="pot_limit", small_blind=50, big_blind=100)
    state, events = start_hand(options, [SeatIn(0, 1000), SeatIn(1, 1000)], 0, new_deck())
    steps = [(state, events)]
    for seat, action in ((0, "call"), (1, "check")):
        state, events = apply_action(state, seat, action)
        steps.append((state, events))
    return steps


def test_the_engine_hands_out_members_and_takes_plain_strings():
    steps = play_to_the_flop()
    first, last = steps[0][0], steps[-1][0]
    assert first.options.structure is Structure.POT_LIMIT  # given as "pot_limit"
    assert first.street is Street.PREFLOP and last.street is Street.FLOP
    assert all(type(action) is Action for action in legal_actions(first).actions)
    action_taken = steps[1][1][0]
    assert action_taken.action is Action.CALL  # sent as "call"
    street_dealt = next(event for event in steps[-1][1] if event.kind == "street")
    assert street_dealt.street is Street.FLOP


def test_json_states_events_and_views_carry_the_plain_strings():
    for state, events in play_to_the_flop():
        text = state_to_json(state)
        assert f'"street":"{state.street}"' in text and '"structure":"pot_limit"' in text
        restored = state_from_json(text)
        assert restored == state and type(restored.street) is Street
        assert type(restored.options.structure) is Structure
        for event in events:
            document = event.as_dict()
            assert json.loads(json.dumps(document)) == document
        for seat in (None, 0, 1):
            seen = view(state, seat)
            assert json.loads(json.dumps(seen)) == seen
    assert '"action": "check"' in json.dumps(events[0].as_dict())


def test_an_unknown_structure_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="structure: must be one of no_limit, pot_limit, fixed"):
        HandOptions(structure="limit")
    with pytest.raises(ValueError, match="structure: must be one of"):
        HandOptions.from_rules({"structure": ["no_limit"], "big_blind": 2})
