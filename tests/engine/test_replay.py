"""The replay entry point: the hand-written examples in tests/engine/replays, the command line,
and clean answers (never exceptions) for bad descriptions."""

import json
import pathlib
import random
import subprocess
import sys

import pytest

from holdem.engine.replay import replay

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((pathlib.Path(__file__).parent / "replays").glob("*.json"))


def contains(expected, actual, where="answer"):
    """Every key of `expected` is in `actual` with the same value (lists item by item)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}: missing {key!r}"
            contains(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), (
            f"{where}: expected {expected!r}, got {actual!r}"
        )
        for index, (want, got) in enumerate(zip(expected, actual)):
            contains(want, got, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


def test_there_are_examples_for_every_structure_and_the_named_situations():
    names = {path.stem for path in EXAMPLES}
    structures = {
        json.loads(path.read_text())["spec"]["options"].get("structure") for path in EXAMPLES
    }
    assert {"no_limit", "pot_limit", "fixed_limit"} <= structures
    assert {"nl_three_side_pots", "nl_split_pot_odd_chip", "fl_capped_rounds"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_replay_example_gives_its_expected_answer(path):
    example = json.loads(path.read_text())
    answer = replay(example["spec"], trace=example.get("trace", False))
    contains(example["expected"], answer)
    assert json.loads(json.dumps(answer)) == answer  # JSON primitives only


def test_complete_answers_conserve_chips():
    for path in EXAMPLES:
        example = json.loads(path.read_text())
        answer = replay(example["spec"])
        if answer["ok"] and answer["complete"]:
            start = sum(seat["stack"] for seat in example["spec"]["seats"])
            assert sum(answer["final_stacks"].values()) + answer["rake"] == start, path.stem


def test_command_line_reads_a_file_or_standard_input_and_prints_the_same_answer(tmp_path):
    example = json.loads((EXAMPLES[0].parent / "nl_three_side_pots.json").read_text())
    spec_file = tmp_path / "hand.json"
    spec_file.write_text(json.dumps(example["spec"]))
    command = [sys.executable, "-m", "holdem.engine.replay"]
    from_file = subprocess.run(
        [*command, str(spec_file)], capture_output=True, text=True, cwd=ROOT, check=True
    )
    from_stdin = subprocess.run(
        [*command, "-", "--trace"],
        input=json.dumps(example["spec"]),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(from_file.stdout) == replay(example["spec"])
    assert json.loads(from_stdin.stdout) == replay(example["spec"], trace=True)


def test_command_line_exit_status_is_one_when_the_answer_is_not_ok():
    completed = subprocess.run(
        [sys.executable, "-m", "holdem.engine.replay", "-"],
        input="{not json",
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert completed.returncode == 1
    answer = json.loads(completed.stdout)
    assert answer["ok"] is False and answer["code"] == "bad_spec"


def _spec(**changes):
    spec = {
        "options": {"structure": "no_limit", "small_blind": 50, "big_blind": 100},
        "seats": [
            {"seat": 0, "stack": 1000, "hole": ["As", "Kd"]},
            {"seat": 1, "stack": 1000, "hole": ["7c", "2d"]},
        ],
        "button": 0,
        "board": [],
        "actions": [],
    }
    spec.update(changes)
    return spec


@pytest.mark.parametrize(
    "spec, words",
    [
        ("not an object", "must be a JSON object"),
        (_spec(extra=1), "unknown key 'extra'"),
        (
            _spec(options={"structure": "no_limit", "big_blind": 100, "colour": "red"}),
            "colour: unknown option",
        ),
        (_spec(options={"structure": "no_limit"}), "big_blind"),
        (_spec(seats=[{"seat": 0, "stack": 1000, "hole": ["As", "Kd"]}]), "at least two players"),
        (
            _spec(
                seats=[
                    {"seat": 0, "stack": 1000, "hole": ["As"]},
                    {"seat": 1, "stack": 1000, "hole": ["7c", "2d"]},
                ]
            ),
            "hole must be",
        ),
        (
            _spec(
                seats=[
                    {"seat": 0, "stack": 1000, "hole": ["As", "Xx"]},
                    {"seat": 1, "stack": 1000, "hole": ["7c", "2d"]},
                ]
            ),
            "bad card 'Xx'",
        ),
        (
            _spec(
                seats=[
                    {"seat": 0, "stack": 0, "hole": ["As", "Kd"]},
                    {"seat": 1, "stack": 1000, "hole": ["7c", "2d"]},
                ]
            ),
            "at least 1",
        ),
        (_spec(board=["As"]), "appears twice"),
        (_spec(button="0"), "button"),
        (_spec(actions=[{"seat": 0}]), "needs 'seat' and 'action'"),
        (_spec(actions=[{"seat": 0, "action": "call", "amount": 5}]), "unknown key 'amount'"),
        (_spec(actions=[{"seat": 0, "action": "disconnect"}]), "protect"),
    ],
)
def test_bad_descriptions_get_bad_spec_answers(spec, words):
    answer = replay(spec)
    assert answer["ok"] is False and answer["code"] == "bad_spec", answer
    assert words in answer["message"]


def test_a_hand_that_needs_more_board_cards_than_given_is_a_bad_spec():
    spec = _spec(
        board=["2c", "3c", "4c"],
        actions=[
            {"seat": 0, "action": "call"},
            {"seat": 1, "action": "check"},
            {"seat": 1, "action": "check"},
            {"seat": 0, "action": "check"},
        ],
    )
    answer = replay(spec)
    assert answer == {
        "ok": False,
        "code": "bad_spec",
        "message": "board: the hand deals 4 board cards but only 3 are given",
    }


def test_a_refused_action_names_its_step_code_and_rule():
    spec = _spec(actions=[{"seat": 0, "action": "call"}, {"seat": 0, "action": "check"}])
    answer = replay(spec, trace=True)
    assert answer["ok"] is False
    assert (answer["step"], answer["code"], answer["reason"]) == (
        1,
        "illegal_action",
        "not_your_turn",
    )
    assert answer["message"] == "it is seat 1's turn"
    assert [step["seat"] for step in answer["steps"]] == [0, 1]


def test_an_action_after_the_hand_is_over_is_refused():
    spec = _spec(actions=[{"seat": 0, "action": "fold"}, {"seat": 1, "action": "check"}])
    answer = replay(spec, trace=True)
    assert (answer["step"], answer["reason"]) == (1, "hand_over")
    assert answer["steps"][1] is None


def test_the_uncontested_winner_may_show_in_a_replay():
    spec = _spec(actions=[{"seat": 0, "action": "fold"}, {"seat": 1, "action": "show"}])
    assert replay(spec)["shown"] == {"1": ["7c", "2d"]}


def test_an_empty_action_list_is_a_hand_just_dealt():
    answer = replay(_spec(), trace=True)
    assert answer["complete"] is False and answer["to_act"] == 0
    assert answer["committed"] == {"0": 50, "1": 100}
    assert answer["steps"] == [] and answer["next"]["seat"] == 0


def test_replay_never_raises_on_garbage():
    rng = random.Random(5)
    pieces = [None, True, 0, -1, 1.5, "x", "As", [], {}, ["As", "As"], {"seat": 0}, [[1]]]
    base = _spec(actions=[{"seat": 0, "action": "raise", "to": 300}])
    for _ in range(400):
        spec = json.loads(json.dumps(base))
        target = rng.choice(["options", "seats", "button", "board", "actions", "seat", "action"])
        piece = rng.choice(pieces)
        if target == "seat":
            spec["seats"][rng.randrange(2)][rng.choice(["seat", "stack", "hole", "post"])] = piece
        elif target == "action":
            spec["actions"][0][rng.choice(["seat", "action", "to"])] = piece
        else:
            spec[target] = piece
        answer = replay(spec, trace=rng.random() < 0.5)
        assert answer["ok"] in (True, False)
        assert answer.get("code") != "internal_error", (spec, answer)
        json.dumps(answer)
