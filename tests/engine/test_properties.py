"""Property tests of the engine over random tables and random legal play (style.md, Tests).

Chips conserved, no negative stack, every listed action accepted, unlisted ones refused, JSON
round trip exact, determinism, termination, and views that never leak a hidden card.
"""

import json
import random
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from tests.engine.conftest import (
    ALL_CARDS,
    assert_chips_conserved,
    cards_in,
    clockwise_from,
    engine,
    hand_options,
    refused,
    seat_view,
)

ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")
WEIGHTS = {"fold": 1.0, "check": 4.0, "call": 4.0, "bet": 3.0, "raise": 3.0, "all_in": 1.5}
MAX_STEPS = 500

STREETS = ("preflop", "flop", "turn", "river", "showdown", "over")
BOARD_SIZE = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}

PROPERTY_SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@dataclass(frozen=True)
class Table:
    options_kwargs: tuple
    stacks: dict = field(hash=False)
    button: int = 0
    posts: dict = field(default_factory=dict, hash=False)
    auto_muck: dict = field(default_factory=dict, hash=False)
    deck: tuple = ()
    play_seed: int = 0
    disconnect_rate: float = 0.03

    def options(self):
        return hand_options(**dict(self.options_kwargs))

    def start(self):
        seat_ins = [
            engine.SeatIn(
                seat=seat,
                stack=stack,
                post=self.posts.get(seat, "none"),
                auto_muck=self.auto_muck.get(seat, True),
            )
            for seat, stack in self.stacks.items()
        ]
        return engine.start_hand(self.options(), seat_ins, self.button, list(self.deck))


@st.composite
def tables(draw):
    """2-10 seats anywhere in 0..9, any button (dead ones too), many short stacks, every
    structure, fixed or dynamic blinds, raise caps, both min-raise rules, rake, posts."""
    seats = draw(st.lists(st.integers(0, 9), min_size=2, max_size=10, unique=True))
    button = draw(st.integers(0, 9))
    structure = draw(st.sampled_from(["no_limit", "pot_limit", "fixed_limit"]))
    if draw(st.booleans()):  # RULES.md 3: dynamic blinds from the smallest stack dealt in
        stacks = {
            seat: draw(st.one_of(st.integers(1, 80), st.integers(20, 20_000))) for seat in seats
        }
        small, big = engine.dynamic_blinds(list(stacks.values()), draw(st.sampled_from([10, 1, 5])))
    else:
        big = draw(st.sampled_from([2, 10, 20, 100]))
        small = max(1, big // 2)
        stacks = {
            seat: draw(st.one_of(st.integers(1, 3 * big), st.integers(big, 200 * big)))
            for seat in seats
        }
    rake_percent, rake_cap = draw(
        st.sampled_from([(0, None), (5, None), (5, 30), (2.5, 7), (10, 0)])
    )
    options_kwargs = (
        ("structure", structure),
        ("small_blind", small),
        ("big_blind", big),
        ("raise_cap", draw(st.sampled_from([None, 1, 2, 3, 4]))),
        ("min_raise", draw(st.sampled_from(["full", "any"]))),
        ("rake_percent", rake_percent),
        ("rake_cap", rake_cap),
    )
    posts = {}
    order = clockwise_from(button, seats)
    if len(seats) >= 4 and draw(st.booleans()):
        # Entry posts from seats that are neither blind nor the button.
        candidates = [seat for seat in order[2:] if seat != button]
        for seat in draw(st.lists(st.sampled_from(candidates), max_size=2, unique=True)):
            posts[seat] = draw(st.sampled_from(["big", "big_and_dead_small"]))
    auto_muck = {seat: draw(st.booleans()) for seat in seats}
    deck = tuple(random.Random(draw(st.integers(0, 2**32 - 1))).sample(ALL_CARDS, 52))
    return Table(
        options_kwargs=options_kwargs,
        stacks=stacks,
        button=button,
        posts=posts,
        auto_muck=auto_muck,
        deck=deck,
        play_seed=draw(st.integers(0, 2**32 - 1)),
        disconnect_rate=draw(st.sampled_from([0.03, 0.03, 0.25])),
    )


# --- random legal play ------------------------------------------------------------------------


def seats_still_betting(state):
    """Seats that are in the hand, not all in and not protected (from the public view)."""
    view = engine.view(state, None)
    return [
        seat
        for seat in state.stacks
        if not any(seat_view(view, seat)[flag] for flag in ("folded", "all_in", "protected"))
    ]


def amounts_to_try(legal, rng=None):
    """min_to, max_to and a value in between (docs/engine-api.md: the bounds of `to`)."""
    amounts = {legal.min_to, legal.max_to}
    if legal.max_to > legal.min_to + 1:
        amounts.add(
            (rng or random.Random(legal.max_to)).randint(legal.min_to + 1, legal.max_to - 1)
        )
    return sorted(amounts)


def choose_move(rng, state, legal, disconnect_rate=0.03):
    """A move for the seat to act: mostly a listed action, sometimes a timeout or a disconnect
    (RULES.md 5: all-in protection or a fold, for any seat still betting, in turn or not)."""
    roll = rng.random()
    if roll < 0.05:
        return ("timeout", legal.seat)
    if roll < 0.05 + disconnect_rate:
        seat = rng.choice(seats_still_betting(state))
        return ("disconnect", seat, rng.random() < 0.5)
    actions = list(legal.actions)
    action = rng.choices(actions, weights=[WEIGHTS[name] for name in actions])[0]
    if action in ("bet", "raise"):
        return ("act", legal.seat, action, rng.choice(amounts_to_try(legal, rng)))
    return ("act", legal.seat, action, None)


def apply_move(state, move):
    if move[0] == "timeout":
        return engine.apply_timeout(state, move[1])
    if move[0] == "disconnect":
        return engine.apply_disconnect(state, move[1], protect=move[2])
    _, seat, action, to = move
    if to is None:
        return engine.apply_action(state, seat, action)
    return engine.apply_action(state, seat, action, to=to)


def play_random_hand(table, check_step=None):
    """Play one hand to the end; `check_step(state, events)` runs after the deal and each move.

    Returns (final state, moves, every event as a dict).
    """
    rng = random.Random(table.play_seed)
    state, events = table.start()
    all_events = [event.as_dict() for event in events]
    moves = []
    if check_step:
        check_step(state, events)
    for _ in range(MAX_STEPS):
        if state.is_over:
            break
        legal = engine.legal_actions(state)
        assert legal is not None, "nobody to act in a hand that is not over"
        assert legal.seat == state.to_act
        move = choose_move(rng, state, legal, table.disconnect_rate)
        moves.append(move)
        state, events = apply_move(state, move)
        all_events.extend(event.as_dict() for event in events)
        if check_step:
            check_step(state, events)
    else:
        raise AssertionError(f"the hand did not end in {MAX_STEPS} moves")
    note(f"moves: {moves}")
    return state, moves, all_events


# --- the properties ---------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(tables())
def test_chips_are_conserved_to_the_chip_at_every_step_and_at_the_end(table):
    start_total = sum(table.stacks.values())

    def check(state, _events):
        assert_chips_conserved(state, table.stacks)  # per seat: behind + put in == bought in
        assert state.street in STREETS
        if state.street in BOARD_SIZE:
            assert len(state.board) == BOARD_SIZE[state.street]
        assert len(state.board) in (0, 3, 4, 5)
        # docs/engine-api.md: after the hole cards, burn + 3, burn + 1, burn + 1.
        after_holes = 2 * len(table.stacks)
        board_positions = [after_holes + offset for offset in (1, 2, 3, 5, 7)]
        assert list(state.board) == [table.deck[i] for i in board_positions][: len(state.board)]
        legal = engine.legal_actions(state)
        if legal is not None:
            raising = {"bet", "raise"} & set(legal.actions)
            assert bool(raising) == (legal.min_to is not None)
            if raising:
                assert legal.can_raise is True
            if not legal.can_raise:
                assert not raising
            assert not {"check", "call"} <= set(legal.actions)
            assert ("check" in legal.actions) == (legal.to_call == 0)
            stack = state.stacks[legal.seat]
            bet = seat_view(engine.view(state, None), legal.seat)["bet"]
            assert legal.to_call == max(0, min(legal.current_bet - bet, stack))
            assert legal.pot == sum(state.committed.values())
            assert legal.all_in_to == stack + bet
            if legal.min_to is not None:
                assert legal.min_to <= legal.max_to <= legal.all_in_to
                assert legal.min_to > legal.current_bet

    state, _, _ = play_random_hand(table, check)
    result = state.result
    options = table.options()
    assert sum(result.final_stacks.values()) + result.rake == start_total
    assert sum(result.payouts.values()) + result.rake == sum(p.amount for p in result.pots)
    for pot in result.pots:
        assert set(pot.winners) <= set(pot.eligible)
        assert set(pot.shares) <= set(pot.winners)
        assert sum(pot.shares.values()) + pot.rake == pot.amount
        assert all(chips >= 0 for chips in pot.shares.values())
    for seat in result.payouts:
        assert result.payouts[seat] == sum(p.shares.get(seat, 0) for p in result.pots)
    # RULES.md 4: rake only from pots that saw a flop, rounded down, up to the cap.
    if not state.board:
        assert result.rake == 0
    if options.rake_cap is not None:
        assert result.rake <= options.rake_cap
    for pot in result.pots:
        assert pot.rake * 100 <= pot.amount * options.rake_percent


@PROPERTY_SETTINGS
@given(tables())
def test_every_listed_legal_action_is_accepted(table):
    def check(state, _events):
        legal = engine.legal_actions(state)
        if legal is None:
            return
        assert legal.actions, "a seat to act always has something it may do"
        before = engine.state_to_json(state)
        for action in legal.actions:
            amounts = amounts_to_try(legal) if action in ("bet", "raise") else [None]
            for to in amounts:
                new_state, _events = apply_move(state, ("act", legal.seat, action, to))
                assert all(chips >= 0 for chips in new_state.stacks.values())
                assert (
                    new_state.total_chips + (new_state.result.rake if new_state.is_over else 0)
                    == state.total_chips
                )
        # RULES.md 5: a timeout checks if nothing is owed, else folds.
        timed_out, _ = apply_move(state, ("timeout", legal.seat))
        folded = seat_view(engine.view(timed_out, None), legal.seat)["folded"]
        assert folded is ("check" not in legal.actions)
        for protect in (True, False):
            apply_move(state, ("disconnect", legal.seat, protect))
        # States are immutable: every move above left the state it started from as it was.
        assert engine.state_to_json(state) == before

    play_random_hand(table, check)


@PROPERTY_SETTINGS
@given(tables())
def test_unlisted_actions_are_refused_and_leave_the_state_equal(table):
    def check(state, _events):
        legal = engine.legal_actions(state)
        if legal is None:
            for seat in table.stacks:
                refused(state, seat, "fold", code="hand_over")
                refused(state, seat, "check", code="hand_over")
            return
        for action in ACTIONS:
            if action not in legal.actions:
                refused(
                    state,
                    legal.seat,
                    action,
                    to=legal.current_bet + 1 if action in ("bet", "raise") else None,
                )
        if legal.min_to is not None:
            for action in ("bet", "raise"):
                if action in legal.actions:
                    refused(state, legal.seat, action, to=legal.min_to - 1)
                    refused(state, legal.seat, action, to=legal.max_to + 1)
        others = [seat for seat in [*table.stacks, 10] if seat != legal.seat]
        for seat in random.Random(len(state.board) + legal.seat).sample(others, 2):
            refused(state, seat, "fold")
            refused(
                state,
                seat,
                legal.actions[0],
                to=legal.min_to if legal.actions[0] in ("bet", "raise") else None,
            )

    play_random_hand(table, check)


@PROPERTY_SETTINGS
@given(tables())
def test_json_round_trip_is_exact_at_every_step(table):
    def check(state, events):
        text = engine.state_to_json(state)
        assert json.loads(text)["format"] == 1
        restored = engine.state_from_json(text)
        assert restored == state
        assert engine.state_to_json(restored) == text
        assert engine.legal_actions(restored) == engine.legal_actions(state)
        for event in events:
            payload = event.as_dict()
            assert json.loads(json.dumps(payload)) == payload
            assert payload["kind"] == event.kind
        for seat in [None, *table.stacks]:
            view = engine.view(state, seat)
            assert json.loads(json.dumps(view)) == view

    play_random_hand(table, check)


@PROPERTY_SETTINGS
@given(tables())
def test_a_restored_state_plays_on_exactly_like_the_original(table):
    rng = random.Random(table.play_seed)
    state, _ = table.start()
    for _ in range(MAX_STEPS):
        if state.is_over:
            break
        restored = engine.state_from_json(engine.state_to_json(state))
        move = choose_move(rng, state, engine.legal_actions(state), table.disconnect_rate)
        state, events = apply_move(state, move)
        again, again_events = apply_move(restored, move)
        assert again == state
        assert [e.as_dict() for e in again_events] == [e.as_dict() for e in events]
    assert state.is_over


@PROPERTY_SETTINGS
@given(tables())
def test_same_inputs_give_the_same_hand(table):
    first, first_moves, first_events = play_random_hand(table)
    second, second_moves, second_events = play_random_hand(table)
    assert first_moves == second_moves
    assert first == second
    assert first_events == second_events
    assert engine.state_to_json(first) == engine.state_to_json(second)


@PROPERTY_SETTINGS
@given(tables())
def test_every_hand_terminates_with_a_result(table):
    state, _moves, events = play_random_hand(table)
    assert state.is_over
    assert state.to_act is None and engine.legal_actions(state) is None
    result = state.result
    assert result is not None
    if not result.uncontested:
        assert len(state.board) == 5  # a showdown needs the whole board
        assert result.shown  # at least the first hand at the showdown is revealed
    assert sum(1 for event in events if event["kind"] == "hand_ended") == 1


def _revealed_cards(state):
    if not state.is_over:
        return set()
    return {card for hole in state.result.shown.values() for card in hole}


@PROPERTY_SETTINGS
@given(tables())
def test_spectator_view_never_shows_a_hole_card_before_showdown(table):
    hidden = set()

    def check(state, events):
        if not hidden:
            seats = list(table.stacks)
            hidden.update(table.deck[: 2 * len(seats)])  # the hole cards come off the front
        public = set(state.board) | _revealed_cards(state)
        view = engine.view(state, None)
        assert cards_in(view) <= public
        assert not view.get("legal")
        for event in events:
            if event.private_to is None:
                assert cards_in(event.as_dict()) <= public, event.as_dict()
        if not state.is_over:
            assert cards_in(view) & hidden == set()

    play_random_hand(table, check)


@PROPERTY_SETTINGS
@given(tables())
def test_a_player_view_shows_only_their_own_hole_cards(table):
    own = {}

    def check(state, events):
        if not own:
            for seat in table.stacks:
                own[seat] = set(seat_view(engine.view(state, seat), seat)["hole"])
                assert len(own[seat]) == 2
            dealt = set().union(*own.values())
            assert dealt == set(table.deck[: 2 * len(table.stacks)])
        for event in events:
            if event.private_to is not None:
                assert event.kind == "hole_cards"
                assert cards_in(event.as_dict()) == own[event.private_to]
        public = set(state.board) | _revealed_cards(state)
        for seat in table.stacks:
            view = engine.view(state, seat)
            seen = cards_in(view)
            assert seen <= public | own[seat], (seat, seen - public - own[seat])
            entry = seat_view(view, seat)
            if not entry["folded"]:
                assert own[seat] <= seen
            if seat == state.to_act:
                assert view["legal"]["actions"] == list(engine.legal_actions(state).actions)
            else:
                assert not view.get("legal")

    play_random_hand(table, check)
