"""The hand state machine's own machinery: start_hand input, blind positions and posts, action
naming and amounts, timeouts, disconnection, showing, showdown order, events, purity."""

import ast
import dataclasses
import inspect
import json
import pathlib
import typing
from dataclasses import MISSING, fields

import pytest

from holdem.engine import (
    HandOptions,
    HandState,
    IllegalAction,
    Legal,
    PlayerState,
    SeatIn,
    apply_action,
    apply_disconnect,
    apply_timeout,
    legal_actions,
    muck_hand,
    show_hand,
    start_hand,
)
from holdem.engine.cards import new_deck
from tests.engine.conftest import rigged_deck

NL = HandOptions(structure="no_limit", small_blind=50, big_blind=100)
BOARD = ("2c", "7d", "9h", "Js", "4s")


def start(stacks, button, options=NL, holes=None, board=BOARD, posts=None, auto_muck=None):
    seats = [
        SeatIn(seat, stack, (posts or {}).get(seat, "none"), (auto_muck or {}).get(seat, True))
        for seat, stack in stacks.items()
    ]
    deck = rigged_deck(holes or {}, board, button, seats=list(stacks))
    return start_hand(options, seats, button, deck)[0]


def play(state, *moves):
    for move in moves:
        state, _ = apply_action(state, *move)
    return state


def refused(state, seat, action, to=None):
    with pytest.raises(IllegalAction) as caught:
        apply_action(state, seat, action, to)
    return caught.value


# --- the frozen states ------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [PlayerState, HandState, Legal])
def test_hand_written_constructors_take_exactly_the_dataclass_fields_by_keyword(cls):
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in parameters] == [f.name for f in fields(cls)]
    for parameter, field in zip(parameters, fields(cls)):
        default = inspect.Parameter.empty if field.default is MISSING else field.default
        assert parameter.default == default, field.name
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, field.name
        assert parameter.annotation == field.type, field.name


@pytest.mark.parametrize("cls", [PlayerState, HandState])
def test_replace_takes_every_field_and_changes_only_what_it_is_given(cls):
    (changes,) = [p.annotation for p in inspect.signature(cls.replace).parameters.values()][1:]
    typed = typing.get_args(changes)[0]  # Unpack[TypedDict]
    assert typing.get_type_hints(typed) == {f.name: f.type for f in fields(cls)}

    state = start({0: 1000, 1: 1000, 2: 500}, 0)
    original = state if cls is HandState else state.players[1]
    name = fields(cls)[1].name  # HandState.button, PlayerState.stack
    changed = original.replace(**{name: 7})
    assert changed == dataclasses.replace(original, **{name: 7}) != original
    assert [n for n in vars(original) if vars(changed)[n] != vars(original)[n]] == [name]
    assert type(changed) is cls and hash(changed) != hash(original)
    with pytest.raises(AttributeError):
        setattr(changed, name, 8)  # still frozen


def test_states_are_frozen_and_equal_by_value():
    state = start({0: 1000, 1: 1000}, 0)
    with pytest.raises(AttributeError):
        state.street = "flop"
    assert state == start({0: 1000, 1: 1000}, 0)
    assert hash(state) == hash(start({0: 1000, 1: 1000}, 0))


# --- starting a hand --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seats, deck, words",
    [
        ([SeatIn(0, 100)], None, "at least two players"),
        ([SeatIn(0, 100), SeatIn(0, 100)], None, "listed twice"),
        ([SeatIn(0, 100), SeatIn(1, 0)], None, "at least 1"),
        ([SeatIn(0, 100), SeatIn(1, True)], None, "at least 1"),
        ([SeatIn(0, 100), SeatIn(10, 100)], None, "0 to 9"),
        ([SeatIn(0, 100), SeatIn(1, 100, post="maybe")], None, "post must be"),
        ([SeatIn(0, 100), SeatIn(1, 100)], new_deck()[:11], "at least 12"),
        ([SeatIn(0, 100), SeatIn(1, 100)], ["As"] * 52, "distinct"),
        ([SeatIn(0, 100), SeatIn(1, 100)], ["Zz", *new_deck()[1:]], "card codes"),
    ],
)
def test_start_hand_refuses_bad_input_with_a_value_error(seats, deck, words):
    with pytest.raises(ValueError, match=words):
        start_hand(NL, seats, 0, deck if deck is not None else new_deck())


def test_with_a_dead_button_the_blinds_are_the_next_dealt_seats():
    state = start({1: 1000, 4: 1000, 6: 1000}, button=5)
    assert (state.small_blind_seat, state.big_blind_seat, state.to_act) == (6, 1, 4)
    assert state.button == 5


def test_heads_up_with_a_dead_button_the_first_dealt_seat_after_it_plays_the_button():
    state = start({2: 1000, 7: 1000}, button=4)
    assert (state.small_blind_seat, state.big_blind_seat, state.to_act) == (7, 2, 7)
    state = play(state, (7, "call"), (2, "check"))
    assert state.street == "flop" and state.to_act == 2


def test_a_short_big_blind_still_makes_the_others_call_the_full_big_blind():
    # A common card-room rule (Robert's Rules, TDA practice) RULES.md leaves open.
    state = start(
        {0: 1000, 1: 1000, 2: 30, 3: 1000}, button=0, holes={2: ("Ac", "Ad"), 3: ("Kc", "Kd")}
    )
    legal = legal_actions(state)
    assert (legal.seat, legal.to_call, legal.min_to) == (3, 100, 200)
    state = play(state, (3, "call"), (0, "fold"), (1, "fold"))
    # Only seat 3 can still bet and nothing is owed: the board is dealt out. Its call is
    # matched up to the small blind's 50 (folded, forfeited); the other 50 comes back.
    result = state.result
    assert result.returned == {3: 50}
    assert [(pot.amount, pot.eligible, pot.winners) for pot in result.pots] == [
        (90, (2, 3), (2,)),
        (40, (3,), (3,)),
    ]
    assert result.final_stacks == {0: 1000, 1: 950, 2: 90, 3: 990}


def test_heads_up_a_big_blind_all_in_for_less_than_the_small_blind_runs_out_at_once():
    state = start({0: 1000, 1: 30}, button=0, holes={0: ("Kc", "Kd"), 1: ("Ac", "Ad")})
    assert state.is_over and len(state.board) == 5
    assert state.result.returned == {0: 20}
    assert state.result.final_stacks == {0: 970, 1: 60}


def test_a_live_post_counts_as_the_bet_and_gets_the_option():
    state = start({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=0, posts={3: "big"})
    assert state.bets == {0: 0, 1: 50, 2: 100, 3: 100}
    legal = legal_actions(state)
    assert legal.seat == 3 and {"check", "raise"} <= set(legal.actions)
    state = play(state, (3, "check"), (0, "call"), (1, "call"), (2, "check"))
    assert state.street == "flop" and state.pot_total == 400


def test_a_dead_small_blind_goes_to_the_pot_and_is_lost_with_the_hand():
    state = start({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=0, posts={3: "big_and_dead_small"})
    assert state.bets[3] == 100 and state.committed[3] == 150 and state.pot_total == 300
    state = play(
        state, (3, "check"), (0, "fold"), (1, "fold"), (2, "check"), (2, "bet", 100), (3, "fold")
    )
    assert state.result.final_stacks == {0: 1000, 1: 950, 2: 1200, 3: 850}
    assert state.result.returned == {2: 100}


# --- naming the action and its amount ---------------------------------------------------------


def test_bet_raise_call_and_check_must_fit_the_situation():
    state = start({0: 1000, 1: 1000, 2: 1000}, button=0)
    assert refused(state, 0, "bet", 300).code == "bet_facing_bet"
    assert refused(state, 0, "check").code == "cannot_check"
    state = play(state, (0, "call"), (1, "call"), (2, "check"))
    assert refused(state, 1, "raise", 200).code == "nothing_to_raise"
    assert refused(state, 1, "call").code == "nothing_to_call"


@pytest.mark.parametrize(
    "action, to",
    [
        ("fold", 100),
        ("check", 0),
        ("call", 50),
        ("all_in", 999),
        ("raise", None),
        ("raise", "300"),
        ("raise", 300.0),
        ("raise", -5),
        ("raise", False),
    ],
)
def test_bad_amounts_are_refused_as_bad_amount(action, to):
    state = start({0: 1000, 1: 1000, 2: 1000}, button=0)
    assert refused(state, 0, action, to).code == "bad_amount"


def test_call_and_all_in_may_repeat_the_total_they_lead_to():
    state = start({0: 1000, 1: 1000, 2: 1000}, button=0)
    after, _ = apply_action(state, 0, "call", 100)
    assert after.bets[0] == 100
    after, _ = apply_action(state, 0, "all_in", 1000)
    assert after.bets[0] == 1000


def test_a_bet_above_the_stack_is_refused_naming_the_all_in_total():
    state = start({0: 1000, 1: 1000, 2: 1000}, button=0)
    error = refused(state, 0, "raise", 1001)
    assert error.code == "above_stack" and "1000" in error.message


def test_unknown_seats_and_actions_are_refused():
    state = start({0: 1000, 1: 1000}, button=0)
    assert refused(state, 5, "call").code == "unknown_seat"
    assert refused(state, True, "call").code == "unknown_seat"
    assert refused(state, "0", "call").code == "unknown_seat"
    assert refused(state, 0, "muck").code == "unknown_action"
    assert refused(state, 1, "call").message == "it is seat 0's turn"


def test_going_all_in_above_the_pot_limit_is_refused_but_calling_all_in_is_not():
    options = HandOptions(structure="pot_limit", small_blind=50, big_blind=100)
    state = start({0: 1000, 1: 1000, 2: 300}, button=2, options=options)
    assert "all_in" in legal_actions(state).actions  # 300 is within the pot limit of 350
    state = start({0: 1000, 1: 1000, 2: 5000}, button=2, options=options)
    assert "all_in" not in legal_actions(state).actions
    error = refused(state, 2, "all_in")
    assert (error.code, error.message) == (
        "above_pot_limit",
        "pot limit: the most you can raise to is 350",
    )
    state = play(state, (2, "raise", 350), (0, "raise", 1000))
    after, _ = apply_action(state, 1, "all_in")  # all in for less than the bet: a call
    assert after.player(1).all_in


def test_fixed_limit_all_in_is_allowed_only_up_to_one_bet():
    options = HandOptions(structure="fixed_limit", small_blind=10, big_blind=20)
    state = start({0: 1000, 1: 1000, 2: 35}, button=2, options=options)
    legal = legal_actions(state)
    assert legal.seat == 2 and (legal.min_to, legal.max_to) == (35, 35)
    assert "all_in" in legal.actions
    state = start({0: 1000, 1: 1000, 2: 1000}, button=2, options=options)
    assert refused(state, 2, "all_in").message == "fixed limit: a raise is to exactly 40"


def test_nobody_may_raise_when_no_other_player_could_call_it():
    state = start({0: 1000, 1: 400}, button=0)
    state = play(state, (0, "raise", 300), (1, "all_in"))
    legal = legal_actions(state)
    assert legal.actions == ("fold", "call") and legal.to_call == 100
    assert legal.raise_closed_reason == "no other player could call a raise"
    assert refused(state, 0, "raise", 900).code == "opponents_all_in"


def test_a_short_all_in_opening_bet_keeps_the_big_blind_as_the_raise_increment():
    state = start({0: 1000, 1: 130, 2: 1000}, button=0)
    state = play(state, (0, "call"), (1, "call"), (2, "check"))
    state = play(state, (1, "all_in"))  # a bet of 30 after the flop, less than a big blind
    legal = legal_actions(state)
    assert legal.seat == 2 and legal.min_to == 130
    state = play(state, (2, "call"))
    legal = legal_actions(state)
    assert legal.seat == 0 and legal.min_to == 130  # seat 0 has not acted yet: may raise
    state = play(state, (0, "raise", 130))
    assert legal_actions(state).min_to == 230


def test_min_raise_any_allows_a_one_chip_bet_and_raise():
    options = HandOptions(structure="no_limit", small_blind=50, big_blind=100, min_raise="any")
    state = start({0: 1000, 1: 1000}, button=0, options=options)
    assert legal_actions(state).min_to == 101
    state = play(state, (0, "call"), (1, "check"), (1, "bet", 1))
    assert legal_actions(state).min_to == 2


def test_raise_cap_zero_allows_the_bet_and_calls_only():
    options = HandOptions(structure="no_limit", small_blind=50, big_blind=100, raise_cap=0)
    state = start({0: 1000, 1: 1000, 2: 1000}, button=0, options=options)
    assert not legal_actions(state).can_raise
    state = play(state, (0, "call"), (1, "call"), (2, "check"), (1, "bet", 100))
    assert legal_actions(state).raise_closed_reason == "raising is capped after 0 raises"


# --- timeouts and disconnection (RULES.md 5) --------------------------------------------------


def test_a_timeout_checks_when_nothing_is_owed_and_folds_otherwise():
    state = start({0: 1000, 1: 1000, 2: 1000}, button=0)
    state, events = apply_timeout(state, 0)
    assert state.player(0).folded
    assert events[0].as_dict() == {
        "kind": "action",
        "seat": 0,
        "action": "fold",
        "amount": 0,
        "to": 0,
        "stack": 1000,
        "all_in": False,
        "reason": "timeout",
        "private_to": None,
    }
    state = play(state, (1, "call"))
    state, events = apply_timeout(state, 2)
    assert events[0].action == "check" and state.street == "flop"


def test_a_timeout_is_refused_for_a_seat_not_to_act_and_after_the_hand():
    state = start({0: 1000, 1: 1000}, button=0)
    with pytest.raises(IllegalAction, match="it is seat 0's turn"):
        apply_timeout(state, 1)
    state = play(state, (0, "fold"))
    with pytest.raises(IllegalAction, match="the hand is over"):
        apply_timeout(state, 1)


def test_a_protected_player_stops_acting_keeps_its_stack_and_can_win_only_what_it_matched():
    state = start(
        {0: 3000, 1: 3000, 2: 3000},
        button=0,
        holes={0: ("Kc", "Kd"), 1: ("Ac", "Ad"), 2: ("Qh", "Qs")},
    )
    state = play(state, (0, "call"), (1, "call"), (2, "check"))
    state, events = apply_disconnect(state, 1, protect=True)
    assert events[0].kind == "all_in_protected" and state.to_act == 2
    state = play(state, (2, "bet", 500), (0, "call"))
    for _ in range(4):
        state = play(state, (state.to_act, "check"))
    result = state.result
    assert [(pot.amount, pot.eligible, pot.winners) for pot in result.pots] == [
        (300, (0, 1, 2), (1,)),
        (1000, (0, 2), (0,)),
    ]
    assert result.final_stacks == {0: 3400, 1: 3200, 2: 2400}


def test_protecting_the_only_other_player_ends_the_betting_and_returns_the_bet():
    state = start({0: 1000, 1: 1000}, button=0)
    state = play(state, (0, "call"), (1, "check"), (1, "bet", 200))
    state, events = apply_disconnect(state, 0, protect=True)
    assert state.is_over and len(state.board) == 5
    assert state.result.returned == {1: 200}
    # RULES.md 4: no betting is left, so the hands are turned face up before the run-out.
    assert [event.kind for event in events][:4] == [
        "all_in_protected",
        "uncalled_returned",
        "hands_tabled",
        "street",
    ]


def test_disconnect_without_protection_folds_out_of_turn_and_the_turn_stays():
    state = start({0: 1000, 1: 1000, 2: 1000, 3: 1000}, button=0)
    assert state.to_act == 3
    state, events = apply_disconnect(state, 1, protect=False)
    assert state.player(1).folded and state.to_act == 3
    assert events[0].reason == "disconnect"
    with pytest.raises(IllegalAction, match="has folded"):
        apply_disconnect(state, 1, protect=True)


def test_protecting_twice_changes_nothing():
    state = start({0: 1000, 1: 1000, 2: 1000}, button=0)
    state, _ = apply_disconnect(state, 2, protect=True)
    again, events = apply_disconnect(state, 2, protect=True)
    assert again == state and events == []


# --- the end of the hand ----------------------------------------------------------------------


def test_only_the_uncontested_winner_may_show_and_only_once_it_is_over():
    state = start({0: 1000, 1: 1000, 2: 1000}, button=0, holes={2: ("Ah", "Kh")})
    with pytest.raises(IllegalAction) as caught:
        show_hand(state, 2)
    assert caught.value.code == "hand_not_over"
    state = play(state, (0, "fold"), (1, "fold"))
    with pytest.raises(IllegalAction):
        show_hand(state, 1)
    shown, events = show_hand(state, 2)
    assert shown.result.shown == {2: ("Ah", "Kh")} and shown.result.best == {}
    assert events[0].as_dict() == {
        "kind": "hand_shown",
        "seat": 2,
        "hole": ["Ah", "Kh"],
        "private_to": None,
    }
    assert show_hand(shown, 2) == (shown, [])


def test_a_shown_winner_after_the_flop_has_a_best_hand():
    state = start({0: 1000, 1: 1000}, button=0, holes={1: ("Jh", "Jc")})
    state = play(state, (0, "call"), (1, "check"), (1, "bet", 100), (0, "fold"))
    state, _ = show_hand(state, 1)
    assert state.result.best[1] == {"category": "one pair", "cards": ("Jh", "Jc", "9h", "7d", "2c")}


def test_the_street_reads_showdown_after_a_showdown_and_over_after_an_uncontested_win():
    state = start({0: 1000, 1: 1000}, button=0)
    assert play(state, (0, "fold")).street == "over"
    state = play(state, (0, "all_in"), (1, "call"))
    assert state.street == "showdown" and state.is_over
    assert legal_actions(state) is None and state.to_act is None


def test_a_hand_that_could_still_win_a_side_pot_is_shown_and_one_beaten_everywhere_mucks():
    holes = {0: ("Ac", "Ad"), 1: ("Kc", "Kd"), 2: ("Qc", "Qd")}
    state = start({0: 200, 1: 1000, 2: 1000}, button=2, holes=holes)
    state = play(state, (2, "raise", 300), (0, "all_in"), (1, "call"))
    for _ in range(6):
        state = play(state, (state.to_act, "check"))
    result = state.result
    # No bet on the river: the first player left of the button (all-in seat 0) shows first.
    assert result.shown == {0: ("Ac", "Ad"), 1: ("Kc", "Kd")} and result.mucked == (2,)
    assert [pot.winners for pot in result.pots] == [(0,), (1,)]


def test_without_auto_muck_a_beaten_hand_waits_for_its_player_to_show_or_muck():
    # RULES.md 4 [003]: without auto-muck the player is offered Show or Muck.
    holes = {0: ("Ac", "Ad"), 1: ("Kc", "Kd"), 2: ("Qc", "Qd")}
    state = start({0: 200, 1: 1000, 2: 1000}, button=2, holes=holes, auto_muck={2: False})
    state = play(state, (2, "raise", 300), (0, "all_in"), (1, "call"))
    for _ in range(6):
        state = play(state, (state.to_act, "check"))
    assert set(state.result.shown) == {0, 1} and state.result.undecided == (2,)
    assert state.result.mucked == ()
    shown, events = show_hand(state, 2)
    assert set(shown.result.shown) == {0, 1, 2} and shown.result.undecided == ()
    assert [(e.kind, e.seat) for e in events] == [("hand_shown", 2)]
    assert shown.result.best[2]["category"] == "one pair"
    mucked, events = muck_hand(state, 2)
    assert mucked.result.mucked == (2,) and 2 not in mucked.result.shown
    assert muck_hand(state)[0].result == mucked.result  # time ran out: the same
    assert shown.result.payouts == state.result.payouts == mucked.result.payouts


def test_an_all_in_run_out_turns_every_hand_face_up_and_nobody_mucks():
    # RULES.md 4: every remaining player all in, no betting left: hands tabled before the board.
    holes = {0: ("Ac", "Ad"), 1: ("Kc", "Kd"), 2: ("Qc", "Qd")}
    state = start({0: 200, 1: 1000, 2: 300}, button=2, holes=holes, auto_muck={1: True, 2: True})
    state, events = apply_action(state, 2, "all_in")
    state, events = apply_action(state, 0, "all_in")
    state, events = apply_action(state, 1, "call")
    kinds = [event.kind for event in events]
    assert kinds.index("hands_tabled") < kinds.index("street")
    tabled = next(event for event in events if event.kind == "hands_tabled")
    assert tabled.hands == {0: ("Ac", "Ad"), 1: ("Kc", "Kd"), 2: ("Qc", "Qd")}
    assert (
        set(state.result.shown) == {0, 1, 2} and state.result.mucked == state.result.undecided == ()
    )


def test_the_last_aggressor_shows_first_and_a_beaten_caller_mucks():
    holes = {0: ("Kc", "Kd"), 1: ("Qc", "Qd")}
    state = start({0: 1000, 1: 1000}, button=0, holes=holes)
    state = play(
        state,
        (0, "call"),
        (1, "check"),
        (1, "check"),
        (0, "check"),
        (1, "check"),
        (0, "check"),
        (1, "check"),
        (0, "bet", 100),
    )
    state, events = apply_action(state, 1, "call")
    # Heads-up the big blind (seat 1) would show first, but seat 0 bet the river.
    shows = [(event.kind, event.seat) for event in events if event.kind in ("showdown", "mucked")]
    assert shows == [("showdown", 0), ("mucked", 1)]
    assert state.result.shown == {0: ("Kc", "Kd")} and state.result.mucked == (1,)


# --- events -----------------------------------------------------------------------------------


def test_events_are_json_primitives_and_only_hole_cards_are_private():
    seats = [SeatIn(seat, 1000) for seat in (0, 3, 5)]
    state, events = start_hand(NL, seats, 0, rigged_deck({}, BOARD, 0, seats=[0, 3, 5]))
    moves = [(0, "all_in"), (3, "call"), (5, "call")]
    for seat, action in moves:
        state, more = apply_action(state, seat, action)
        events += more
    kinds = {event.kind for event in events}
    assert {
        "hand_started",
        "blind_posted",
        "hole_cards",
        "action",
        "street",
        "showdown",
        "pot_awarded",
        "hand_ended",
    } <= kinds
    for event in events:
        record = event.as_dict()
        assert json.loads(json.dumps(record)) == record and record["kind"] == event.kind
        assert (event.private_to is not None) == (event.kind == "hole_cards")
        if event.kind == "hole_cards":
            assert event.private_to == event.seat


def test_the_same_inputs_give_the_same_states_and_events():
    def run():
        seats = [SeatIn(seat, 500 * (seat + 1)) for seat in range(4)]
        state, events = start_hand(NL, seats, 2, rigged_deck({}, BOARD, 2, seats=range(4)))
        for move in [(1, "raise", 300), (2, "all_in"), (3, "call"), (0, "fold"), (1, "call")]:
            state, more = apply_action(state, *move)
            events += more
        return state, [event.as_dict() for event in events]

    assert run() == run()


# --- purity (style.md 1) ----------------------------------------------------------------------


def test_nothing_under_holdem_engine_imports_django_channels_celery_or_io():
    engine_dir = pathlib.Path(__file__).resolve().parents[2] / "holdem" / "engine"
    forbidden = {
        "django",
        "channels",
        "celery",
        "random",
        "secrets",
        "time",
        "datetime",
        "socket",
        "os",
        "threading",
        "asyncio",
    }
    for path in sorted(engine_dir.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in forbidden, f"{path.name} imports {name}"


def test_events_take_positional_or_named_values_with_defaults_and_stay_frozen():
    from holdem.engine.events import ActionTaken, Event

    action = ActionTaken(3, "call", 100, 100, 900, False)
    assert action == ActionTaken(
        seat=3, action="call", amount=100, to=100, stack=900, all_in=False, reason=None
    )
    assert action.reason is None and isinstance(action, Event)
    with pytest.raises(TypeError, match="needs"):
        ActionTaken(3, "call")
    with pytest.raises(TypeError, match="unexpected"):
        ActionTaken(3, "call", 100, 100, 900, False, colour="red")
    with pytest.raises(AttributeError):
        action.seat = 4
