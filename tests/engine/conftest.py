"""Builders shared by the engine rule and property tests: rigged decks, options, hand drivers.

Engine modules are imported inside the helpers so this conftest never breaks collection.
"""

import importlib
import pkgutil
import re

import pytest

RANKS = "23456789TJQKA"
SUITS = "cdhs"
ALL_CARDS = tuple(rank + suit for rank in RANKS for suit in SUITS)
CARD_CODE = re.compile(r"^[2-9TJQKA][cdhs]$")


# --- finding the engine's public names -------------------------------------------------------
# docs/engine-api.md names the module of start_hand (holdem.engine.hand) but not of view,
# state_to_json or IllegalAction; look them up in the hand module first, then the package.


def engine_name(name):
    """The engine object called `name` (a function or class of docs/engine-api.md)."""
    package = importlib.import_module("holdem.engine")
    candidates = ["holdem.engine.hand", "holdem.engine"]
    candidates += [f"holdem.engine.{info.name}" for info in pkgutil.iter_modules(package.__path__)]
    for module_name in candidates:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if hasattr(module, name):
            return getattr(module, name)
    raise ImportError(f"holdem.engine has no {name!r}")


class _EngineNames:
    """`engine.start_hand(...)` etc.: the engine's names, resolved on first use."""

    def __getattr__(self, name):
        if name.startswith("_"):  # pytest and copy probe dunder/private names
            raise AttributeError(name)
        try:
            value = engine_name(name)
        except ImportError as error:
            raise AttributeError(str(error)) from error
        setattr(self, name, value)
        return value


engine = _EngineNames()


# --- table geometry ---------------------------------------------------------------------------


def clockwise_from(button, seats):
    """Dealt seats in clockwise order starting with the first seat left of `button`."""
    ordered = sorted(seats)
    after = [seat for seat in ordered if seat > button]
    return after + [seat for seat in ordered if seat <= button]


def rigged_deck(holes_by_seat, board=(), button=0, seats=None):
    """A 52-card deck that deals `holes_by_seat` and `board` in the contract's dealing order.

    docs/engine-api.md: hole cards one at a time clockwise starting left of the button, two
    rounds; then burn + 3, burn + 1, burn + 1. Seats in `seats` without given cards, burns and
    the rest are filled from the cards not named, lowest first (2c, 2d, ...).
    """
    seats = sorted(set(seats if seats is not None else holes_by_seat))
    named = [card for hole in holes_by_seat.values() for card in hole] + list(board)
    assert len(named) == len(set(named)), f"a card is named twice: {named}"
    assert all(CARD_CODE.match(card) for card in named), named
    assert set(holes_by_seat) <= set(seats)
    filler = [card for card in ALL_CARDS if card not in named]

    deck = []
    order = clockwise_from(button, seats)
    for round_index in (0, 1):
        for seat in order:
            hole = holes_by_seat.get(seat)
            deck.append(hole[round_index] if hole else filler.pop(0))
    board = list(board) + [None] * (5 - len(board))
    for burn_then in (board[0:3], board[3:4], board[4:5]):
        deck.append(filler.pop(0))  # the burn card
        deck.extend(card if card else filler.pop(0) for card in burn_then)
    deck.extend(filler)
    assert sorted(deck) == sorted(ALL_CARDS)
    return deck


# --- options and hands ------------------------------------------------------------------------


def hand_options(
    structure="no_limit",
    small_blind=50,
    big_blind=100,
    small_bet=None,
    big_bet=None,
    raise_cap=None,
    min_raise="full",
    rake_percent=0,
    rake_cap=None,
):
    """HandOptions for one hand (docs/engine-api.md, Options); fixed limit gets bets of 2 x BB."""
    if small_bet is None:
        small_bet = big_blind
    if big_bet is None:
        big_bet = 2 * small_bet
    return engine.HandOptions(
        structure=structure,
        small_blind=small_blind,
        big_blind=big_blind,
        small_bet=small_bet,
        big_bet=big_bet,
        raise_cap=raise_cap,
        min_raise=min_raise,
        rake_percent=rake_percent,
        rake_cap=rake_cap,
    )


def deal(options, stacks, button, deck=None, holes=None, board=(), posts=None, auto_muck=None):
    """Start a hand: `stacks` seat -> chips; returns (state, events).

    `holes`/`board` rig the deck (see rigged_deck); `posts` seat -> SeatIn.post;
    `auto_muck` seat -> bool.
    """
    if deck is None:
        deck = rigged_deck(holes or {}, board, button, seats=list(stacks))
    seat_ins = []
    for seat, stack in stacks.items():
        kwargs = {}
        if posts and seat in posts:
            kwargs["post"] = posts[seat]
        if auto_muck and seat in auto_muck:
            kwargs["auto_muck"] = auto_muck[seat]
        seat_ins.append(engine.SeatIn(seat=seat, stack=stack, **kwargs))
    return engine.start_hand(options, seat_ins, button, list(deck))


def act(state, seat, action, to=None):
    """apply_action after checking it is `seat`'s turn (clearer failures); returns the state."""
    assert state.to_act == seat, f"expected seat {seat} to act, engine has {state.to_act}"
    if to is None:
        new_state, _events = engine.apply_action(state, seat, action)
    else:
        new_state, _events = engine.apply_action(state, seat, action, to=to)
    return new_state


def play(state, moves):
    """Apply `moves`, each (seat, action) or (seat, action, to)."""
    for move in moves:
        state = act(state, *move)
    return state


def check_down(state):
    """Everyone to act checks until the hand is over (call when a check is not possible)."""
    for _ in range(200):
        if state.is_over:
            return state
        legal = engine.legal_actions(state)
        state = act(state, legal.seat, "check" if "check" in legal.actions else "call")
    raise AssertionError("the hand did not end")


def refused(state, seat, action, to=None, *, code=None, message=None, call=None):
    """Assert the move raises IllegalAction and leaves the state exactly as it was.

    `message` must appear in the refusal's message (case-insensitive); returns the exception.
    """
    before_json = engine.state_to_json(state)
    before_legal = engine.legal_actions(state)
    with pytest.raises(engine.IllegalAction) as caught:
        if call is not None:
            call()
        elif to is None:
            engine.apply_action(state, seat, action)
        else:
            engine.apply_action(state, seat, action, to=to)
    error = caught.value
    # docs/engine-api.md: "The state is never changed by a refused action."
    assert engine.state_to_json(state) == before_json
    assert engine.state_from_json(before_json) == state
    assert engine.legal_actions(state) == before_legal
    if code is not None:
        assert error.code == code, (error.code, error.message)
    if message is not None:
        assert message.lower() in str(error.message).lower(), error.message
    assert str(error.message).strip(), "a refusal names the rule"
    return error


# --- reading views and results ----------------------------------------------------------------


def seat_view(view, seat):
    """The per-seat entry of a view (docs/engine-api.md, Views), keyed or listed by seat."""
    seats = view["seats"]
    if isinstance(seats, dict):
        for key in (seat, str(seat)):
            if key in seats:
                return seats[key]
        raise KeyError(seat)
    for entry in seats:
        if entry.get("seat") == seat:
            return entry
    raise KeyError(seat)


def hole_of(state, seat):
    """The seat's own hole cards, read from its own view."""
    return set(seat_view(engine.view(state, seat), seat)["hole"])


def cards_in(value):
    """Every card code that appears anywhere in a JSON-like value (keys, strings, lists)."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= cards_in(key) | cards_in(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            found |= cards_in(item)
    elif isinstance(value, str):
        for token in value.replace(",", " ").replace("[", " ").replace("]", " ").split():
            if CARD_CODE.match(token.strip("'\"")):
                found.add(token.strip("'\""))
    return found


def assert_chips_conserved(state, start_stacks):
    """RULES/DESIGN: chips are never created or lost (final stacks + rake == starting stacks)."""
    total = sum(start_stacks.values())
    assert all(chips >= 0 for chips in state.stacks.values()), state.stacks
    if state.is_over:
        result = state.result
        assert sum(result.final_stacks.values()) + result.rake == total
        assert dict(result.final_stacks) == dict(state.stacks)
        assert state.total_chips == total - result.rake
        for seat, chips in result.final_stacks.items():
            assert result.net[seat] == chips - start_stacks[seat], seat
    else:
        assert state.total_chips == total
        for seat, start in start_stacks.items():
            assert state.stacks[seat] + state.committed[seat] == start, seat


# Shared by the RULES.md 3 test files. Six seats 0..5, button 0: small blind 1, big blind 2;
# preflop order 3 4 5 0 1 2, after the flop 1 2 3 4 5 0.
SIX_DEEP = dict.fromkeys(range(6), 10000)
FOUR_DEEP = dict.fromkeys(range(4), 10000)
FL_STACKS = dict.fromkeys(range(4), 1000)


def nl(**overrides):
    return hand_options(**overrides)


def fixed_limit(**overrides):
    return hand_options(
        structure="fixed_limit", small_blind=10, big_blind=20, small_bet=20, big_bet=40, **overrides
    )


def limped_flop(options=None, stacks=FOUR_DEEP):
    """Four players limp, the big blind checks: the flop with nothing bet, seat 1 to act."""
    state, _ = deal(options or nl(), stacks, 0)
    return play(state, [(3, "call"), (0, "call"), (1, "call"), (2, "check")])


# Shared by the RULES.md 4 and 5 test files (pot shares, showdown, timeouts and disconnects).
# A board no pocket pair below can improve to more than one pair (no straight, no flush draw
# completes): pocket pairs rank by their own rank.
DRY_BOARD = ("2c", "7d", "9h", "Js", "4s")
PAIRS = {
    "A": ("Ac", "Ad"),
    "K": ("Kc", "Kd"),
    "Q": ("Qc", "Qd"),
    "T": ("Tc", "Td"),
    "8": ("8c", "8d"),
    "6": ("6c", "6d"),
    "5": ("5c", "5d"),
    "3": ("3c", "3d"),
}


def pots_of(state):
    """(amount, eligible seats) of each pot of a finished hand."""
    return [(pot.amount, set(pot.eligible)) for pot in state.result.pots]
