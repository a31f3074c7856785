"""The hand state machine: start a hand, then apply actions, timeouts and disconnections.

Every function takes a frozen HandState and returns a new one plus the events it caused; a
refused move raises IllegalAction and changes nothing (docs/engine-api.md).
"""

import dataclasses
from collections.abc import Sequence

from holdem.engine.betting import Legal, check_move, legal_actions
from holdem.engine.cards import new_deck
from holdem.engine.errors import IllegalAction
from holdem.engine.evaluator import best_five
from holdem.engine.events import (
    ActionTaken,
    BlindPosted,
    Event,
    HandShown,
    HandStarted,
    HoleCards,
    Mucked,
    Protected,
)
from holdem.engine.frozen import FrozenDict
from holdem.engine.names import CHECK, FOLD, PREFLOP, Action
from holdem.engine.options import HandOptions
from holdem.engine.positions import blind_indexes, given_blind_indexes
from holdem.engine.rounds import proceed, round_start_increment
from holdem.engine.state import POSTS, HandState, PlayerState, SeatIn

__all__ = [
    "HandState",
    "Legal",
    "SeatIn",
    "apply_action",
    "apply_disconnect",
    "apply_timeout",
    "legal_actions",
    "show_hand",
    "start_hand",
]

_CARD_CODES = frozenset(new_deck())
# The action names a player may send, to their Action (a plain string becomes its member).
_ACTIONS = {action.value: action for action in Action}

Step = tuple[HandState, list[Event]]  # what every move returns: the new state and its events


def start_hand(
    options: HandOptions,
    seats: Sequence[SeatIn],
    button: int,
    deck: Sequence[str],
    *,
    blinds: tuple[int | None, int] | None = None,
) -> Step:
    """Deal a hand: post the antes and the blinds, deal two hole cards each, and find the
    first to act.

    `seats` are the players dealt in, in any order; clockwise is increasing seat number.
    `deck` is the shuffled deck; cards are dealt from its front (docs/engine-api.md).
    `blinds`: (small blind seat or None for a dead small blind, big blind seat), placed by the
    caller (RULES.md 8, the dead button) instead of derived from the button (RULES.md 3).
    Bad input raises ValueError.
    """
    seat_ins = _checked_seats(options, seats, button)
    count = len(seat_ins)
    cards = tuple(deck)
    needed = 2 * count + 8
    if len(cards) < needed or len(set(cards)) != len(cards) or not _CARD_CODES.issuperset(cards):
        raise ValueError(f"deck: need at least {needed} distinct card codes")

    # Clockwise is increasing seat number; the first dealt seat left of the button starts.
    order = [s.seat for s in seat_ins]
    small: int | None
    if blinds is None:
        after_button, small, big = blind_indexes(order, button)
    else:
        after_button, small, big = given_blind_indexes(order, button, blinds)

    # RULES.md 3: two hole cards each, one at a time clockwise, starting left of the button.
    holes = {}
    for step in range(count):
        holes[(after_button + step) % count] = (cards[step], cards[count + step])
    players = [
        PlayerState(seat=s.seat, stack=s.stack, hole=holes[i], auto_muck=s.auto_muck)
        for i, s in enumerate(seat_ins)
    ]

    events: list[Event] = [
        HandStarted(
            button=button,
            small_blind_seat=None if small is None else seat_ins[small].seat,
            big_blind_seat=seat_ins[big].seat,
            small_blind=options.small_blind,
            big_blind=options.big_blind,
            structure=options.structure,
            stacks=FrozenDict({s.seat: s.stack for s in seat_ins}),
            ante=options.ante,
        )
    ]
    if options.ante:
        for step in range(count):
            _post_ante(players, (after_button + step) % count, options.ante, events)
    if small is not None:  # (None: RULES.md 8, a dead small blind nobody posts)
        _post(players, small, options.small_blind, 0, "small", events)
    _post(players, big, options.big_blind, 0, "big", events)
    for step in range(1, count + 1):
        index = (big + step) % count
        post = seat_ins[index].post
        if post != "none":
            # RULES.md 2: a live big blind on entry or return (plus a dead small blind).
            dead = options.small_blind if post == "big_and_dead_small" else 0
            _post(players, index, options.big_blind, dead, "post", events)
    for step in range(count):
        index = (after_button + step) % count
        events.append(HoleCards(players[index].seat, players[index].hole))

    current_bet = max(options.big_blind, max(player.bet for player in players))
    state = HandState(
        options=options,
        button=button,
        players=tuple(players),
        stub=cards[2 * count : needed],
        small_blind_index=small,
        big_blind_index=big,
        current_bet=current_bet,
        min_increment=round_start_increment(options, PREFLOP),
    )
    # RULES.md 3: before the flop the first to act is left of the big blind.
    return proceed(
        state,
        players,
        events,
        start=big + 1,
        current_bet=current_bet,
        min_increment=state.min_increment,
        raises=0,
        aggressor=None,
    )


def _checked_seats(options: object, seats: Sequence[SeatIn], button: object) -> list[SeatIn]:
    if not isinstance(options, HandOptions):
        raise ValueError("options: need a HandOptions")
    if type(button) is not int:
        raise ValueError("button: need a seat number")
    try:
        seat_ins = sorted(seats, key=lambda s: s.seat)
    except (AttributeError, TypeError):
        raise ValueError("seats: need SeatIn entries with seat numbers") from None
    if len(seat_ins) < 2:
        raise ValueError("seats: a hand needs at least two players")
    for s in seat_ins:
        if type(s) is not SeatIn:
            raise ValueError("seats: need SeatIn entries")
        if type(s.seat) is not int or not 0 <= s.seat <= 9:  # (type: a bool is no seat)
            raise ValueError(f"seat {s.seat!r}: seats are numbered 0 to 9")
        if type(s.stack) is not int or s.stack < 1:
            raise ValueError(f"seat {s.seat}: a player dealt in needs whole chips, at least 1")
        if s.post not in POSTS:
            raise ValueError(f"seat {s.seat}: post must be one of {', '.join(POSTS)}")
    if len({s.seat for s in seat_ins}) != len(seat_ins):
        raise ValueError("seats: a seat is listed twice")
    return seat_ins


def _post(
    players: list[PlayerState],
    index: int,
    live_to: int,
    dead: int,
    blind: str,
    events: list[Event],
) -> None:
    """RULES.md 3: a blind is posted in full, or all the player has (then they are all in).
    `live_to` is the live bet to reach; `dead` chips go straight to the pot."""
    p = players[index]
    live = min(max(live_to - p.bet, 0), p.stack)
    dead = min(dead, p.stack - live)
    if live:
        events.append(BlindPosted(seat=p.seat, blind=blind, amount=live, all_in=live == p.stack))
    if dead:
        events.append(
            BlindPosted(seat=p.seat, blind="dead", amount=dead, all_in=live + dead == p.stack)
        )
    players[index] = p.replace(
        stack=p.stack - live - dead,
        bet=p.bet + live,
        committed=p.committed + live + dead,
        dead=p.dead + dead,
    )


def _post_ante(players: list[PlayerState], index: int, ante: int, events: list[Event]) -> None:
    """RULES.md 8: the ante, or all the player has (then they are all in), before the blinds.
    It is dead money: in `committed` (so the pots count it, and a player all in from the ante
    is eligible for what they put in from each player), never in `bet` (not toward a call).
    A player all in from the ante posts no blind after it; the big blind to call stays full."""
    p = players[index]
    chips = min(ante, p.stack)
    events.append(BlindPosted(seat=p.seat, blind="ante", amount=chips, all_in=chips == p.stack))
    players[index] = p.replace(stack=p.stack - chips, committed=p.committed + chips)


def _index_of(state: HandState, seat: object) -> int:
    if not isinstance(seat, bool) and isinstance(seat, int):
        for index, player in enumerate(state.players):
            if player.seat == seat:
                return index
    raise IllegalAction("unknown_seat", f"seat {seat!r} is not dealt in this hand")


def _turn_of(state: HandState, seat: object) -> int:
    """The index of `seat`, which must be the player to act."""
    actor = state.actor
    if state.result is not None or actor is None:  # (only a finished hand has nobody to act)
        raise IllegalAction("hand_over", "the hand is over")
    if state.players[actor].seat == seat and type(seat) is int:
        return actor
    index = _index_of(state, seat)
    if index != actor:
        raise IllegalAction("not_your_turn", f"it is seat {state.to_act}'s turn")
    return index


def apply_action(state: HandState, seat: int, action: str, to: int | None = None) -> Step:
    """Apply one player's action; `to` is their total for this betting round (bet/raise)."""
    if state.result is not None:
        raise IllegalAction("hand_over", "the hand is over")
    move = _ACTIONS.get(action) if isinstance(action, str) else None
    if move is None:
        raise IllegalAction(
            "unknown_action", f"unknown action {action!r}: one of {', '.join(Action)}"
        )
    index = _turn_of(state, seat)
    total = check_move(state, state.players[index], move, to)
    return _act(state, index, move, total, None)


def apply_timeout(state: HandState, seat: int) -> Step:
    """RULES.md 5: the turn ran out: check if nothing is owed, else fold."""
    index = _turn_of(state, seat)
    player = state.players[index]
    action = CHECK if player.bet >= state.current_bet else FOLD
    return _act(state, index, action, player.bet, "timeout")


def _act(state: HandState, index: int, action: Action, total: int, reason: str | None) -> Step:
    player = state.players[index]
    players = list(state.players)
    if action == FOLD:
        players[index] = player.folds()
    else:
        players[index] = player.pays(total - player.bet)
    current_bet, min_increment = state.current_bet, state.min_increment
    raises, aggressor = state.raises, state.aggressor
    if total > current_bet:
        if current_bet:
            # RULES.md 3: the round's first bet is not a raise; a short all-in raise is one.
            raises += 1
        min_increment = max(min_increment, total - current_bet)
        current_bet = total
        aggressor = player.seat
    moved = players[index]
    events: list[Event] = [
        ActionTaken(
            seat=player.seat,
            action=action,
            amount=moved.bet - player.bet,
            to=moved.bet,
            stack=moved.stack,
            all_in=moved.all_in,
            reason=reason,
        )
    ]
    return proceed(
        state,
        players,
        events,
        start=index + 1,
        current_bet=current_bet,
        min_increment=min_increment,
        raises=raises,
        aggressor=aggressor,
    )


def apply_disconnect(state: HandState, seat: int, protect: bool) -> Step:
    """RULES.md 5. protect=True (all-in protection): the seat stops acting, keeps its stack
    behind and stays eligible for the pots up to what it has put in. protect=False: the seat
    folds at once, even out of turn."""
    if state.result is not None:
        raise IllegalAction("hand_over", "the hand is over")
    index = _index_of(state, seat)
    player = state.players[index]
    if player.folded:
        raise IllegalAction("folded", f"seat {seat} has folded")
    if player.protected:
        return state, []
    if player.stack == 0:
        # RULES.md 5: a player already all in has nothing to protect and uses no protection.
        raise IllegalAction("all_in", f"seat {seat} is already all in")
    actor = state.actor
    if actor is None:  # (a hand not over always has a player to act)
        raise IllegalAction("hand_over", "the hand is over")
    if index == actor:
        if not protect:
            return _act(state, index, FOLD, player.bet, "disconnect")
        start = index + 1
    else:
        start = actor
    players = list(state.players)
    events: list[Event]
    if protect:
        players[index] = player.replace(protected=True)
        events = [Protected(seat, player.committed)]
    else:
        players[index] = player.folds()
        events = [
            ActionTaken(
                seat=seat,
                action=FOLD,
                amount=0,
                to=player.bet,
                stack=player.stack,
                all_in=False,
                reason="disconnect",
            )
        ]
    return proceed(
        state,
        players,
        events,
        start=start,
        current_bet=state.current_bet,
        min_increment=state.min_increment,
        raises=state.raises,
        aggressor=state.aggressor,
    )


def show_hand(state: HandState, seat: int) -> Step:
    """RULES.md 4 [003]: the winner of an uncontested hand may choose to show it, and so may a
    player without auto-muck whose hand a shown hand beat (instead of mucking)."""
    result = state.result
    if result is None:
        raise IllegalAction("hand_not_over", "a hand can be shown once it is over")
    index = _index_of(state, seat)
    player = state.players[index]
    if seat in result.undecided:
        hand = best_five(player.hole + state.board)
        result = dataclasses.replace(
            result,
            shown=FrozenDict({**result.shown, seat: player.hole}),
            best=FrozenDict(
                {**result.best, seat: FrozenDict(category=hand.category, cards=hand.cards)}
            ),
            undecided=tuple(s for s in result.undecided if s != seat),
        )
        return state.replace(result=result), [HandShown(seat, player.hole)]
    if not result.uncontested or player.folded:
        raise IllegalAction(
            "not_uncontested_winner", "only the winner of an uncontested hand may show"
        )
    if seat in result.shown:
        return state, []
    best = result.best
    if len(state.board) >= 3:
        hand = best_five(player.hole + state.board)
        best = FrozenDict({**best, seat: FrozenDict(category=hand.category, cards=hand.cards)})
    result = dataclasses.replace(
        result, shown=FrozenDict({**result.shown, seat: player.hole}), best=best
    )
    return state.replace(result=result), [HandShown(seat, player.hole)]


def muck_hand(state: HandState, seat: int | None = None) -> Step:
    """RULES.md 4 [003]: a player offered Show or Muck mucks (seat), or the time to choose ran
    out and every player still choosing mucks (seat None)."""
    result = state.result
    if result is None:
        raise IllegalAction("hand_not_over", "a hand can be mucked once it is over")
    if seat is not None and seat not in result.undecided:
        raise IllegalAction("nothing_to_muck", "you have no hand waiting to be shown or mucked")
    leaving = result.undecided if seat is None else (seat,)
    if not leaving:
        return state, []
    result = dataclasses.replace(
        result,
        mucked=result.mucked + tuple(leaving),
        undecided=tuple(s for s in result.undecided if s not in leaving),
    )
    return state.replace(result=result), [Mucked(s) for s in leaving]
