"""Moving a hand on after each change: whose turn it is, when a betting round ends, dealing the
next street, running the board out, and handing a finished hand to the showdown (RULES.md 3).
"""

from holdem.engine.events import Event, HandsTabled, StreetDealt, UncalledReturned
from holdem.engine.names import FIXED_LIMIT, FLOP, RIVER, TURN, Street
from holdem.engine.options import HandOptions
from holdem.engine.showdown import settle
from holdem.engine.state import HandState, PlayerState

# Where each street's cards sit in the stub (burn, flop x3, burn, turn, burn, river).
_NEXT_STREET = {0: (FLOP, slice(1, 4)), 3: (TURN, slice(5, 6)), 4: (RIVER, slice(7, 8))}


def round_start_increment(options: HandOptions, street: Street) -> int:
    """RULES.md 3: the smallest bet is the big blind (fixed limit: the round's bet size)."""
    if options.structure == FIXED_LIMIT:
        return options.bet_size(street)
    return options.big_blind


def next_actor(players: list[PlayerState], start: int, current_bet: int) -> int | None:
    """Index of the next player who must act, looking clockwise from `start`, or None when the
    betting round is over (RULES.md 3: everyone has acted and matched the highest bet)."""
    able = 0
    lone = None
    for player in players:
        if player.stack and not player.folded and not player.protected:  # PlayerState.can_bet
            able += 1
            lone = player
    if able <= 1:
        # RULES.md 3: when at most one player can still bet, that player only has to answer
        # chips they have not matched; otherwise no more betting happens.
        if lone is None:
            return None
        facing = max((p.bet for p in players if p is not lone and not p.folded), default=0)
        return players.index(lone) if lone.bet < facing else None
    count = len(players)
    for step in range(count):
        index = (start + step) % count
        player = players[index]
        if (
            player.stack
            and not player.folded
            and not player.protected
            and (not player.acted or player.bet < current_bet)
        ):
            return index
    return None


def return_uncalled(players: list[PlayerState], events: list[Event]) -> list[PlayerState]:
    """RULES.md 3: the part of the highest bet that nobody matched goes back to its owner, if
    they are still in the hand: a player who folds forfeits what they bet ([003])."""
    top_index = 0
    top = second = 0
    for index, player in enumerate(players):
        if player.bet > top:
            top, second, top_index = player.bet, top, index
        elif player.bet > second:
            second = player.bet
    if top > second and not players[top_index].folded:
        players[top_index] = players[top_index].gets_back(top - second)
        events.append(UncalledReturned(players[top_index].seat, top - second))
    return players


def proceed(
    state: HandState,
    players: list[PlayerState],
    events: list[Event],
    *,
    start: int,
    current_bet: int,
    min_increment: int,
    raises: int,
    aggressor: int | None,
) -> tuple[HandState, list[Event]]:
    """The hand after a change to `players` (an action, a timeout, a disconnection), with the
    round's bet, raise increment, raise count and aggressor after it: the next player to act
    (looking clockwise from index `start`), or the end of the round, the next street, the
    run-out or the settlement. `events` are the change's; the new ones are added to them."""
    live = 0
    for player in players:
        if not player.folded:
            live += 1
    if live == 1:
        # RULES.md 3: one player left takes the pot at once: no more cards, no showdown.
        players = return_uncalled(players, events)
        return _settled(
            state, players, events, board=state.board, street=state.street, aggressor=aggressor
        )
    actor = next_actor(players, start, current_bet)
    if actor is not None:
        return state.replace(
            players=tuple(players),
            actor=actor,
            current_bet=current_bet,
            min_increment=min_increment,
            raises=raises,
            aggressor=aggressor,
        ), events

    players = return_uncalled(players, events)
    able = sum(player.can_bet for player in players)
    players = [player.next_round() for player in players]
    board, street = state.board, state.street
    if street == RIVER or able <= 1:
        tabled = able <= 1
        if tabled:
            # RULES.md 4: no betting is left: every hand is turned face up, then (RULES.md 3)
            # the board is dealt out.
            events.append(HandsTabled({p.seat: p.hole for p in players if not p.folded}))
        while len(board) < 5:
            board, street = _deal_street(state.stub, board, events)
        return _settled(
            state, players, events, board=board, street=street, aggressor=aggressor, tabled=tabled
        )

    board, street = _deal_street(state.stub, board, events)
    return state.replace(
        players=tuple(players),
        board=board,
        street=street,
        actor=next_actor(players, state.lead_index, 0),
        current_bet=0,
        min_increment=round_start_increment(state.options, street),
        raises=0,
        aggressor=None,
    ), events


def _deal_street(
    stub: tuple[str, ...], board: tuple[str, ...], events: list[Event]
) -> tuple[tuple[str, ...], Street]:
    """RULES.md 3: burn one card, then deal the flop (3), the turn or the river (1)."""
    street, where = _NEXT_STREET[len(board)]
    cards = stub[where]
    board = board + cards
    events.append(StreetDealt(street, cards, board))
    return board, street


def _settled(
    state: HandState,
    players: list[PlayerState],
    events: list[Event],
    *,
    board: tuple[str, ...],
    street: Street,
    aggressor: int | None,
    tabled: bool = False,
) -> tuple[HandState, list[Event]]:
    """The hand ended with this board (one player left, or the board complete): pay it."""
    ended = state.replace(
        players=tuple(players),
        board=board,
        street=street,
        actor=None,
        current_bet=0,
        min_increment=0,
        raises=0,
        aggressor=aggressor,
    )
    ended, more = settle(ended, tabled=tabled)
    events.extend(more)
    return ended, events
