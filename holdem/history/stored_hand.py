"""The replay of a stored hand through the engine (options, stacks, deck, the action log): its
steps, its public events for the table log, and each event with the hand as it stood then."""

from dataclasses import dataclass

from holdem import engine
from holdem.models import HandRecord


def record_start(record: HandRecord):
    """The engine's first state and events of a stored hand: the blinds posted, the cards dealt."""
    options = engine.HandOptions(**record.options)
    seats = [
        engine.SeatIn(
            seat=p["seat"],
            stack=p["stack_before"],
            post=p.get("post", "none"),
            auto_muck=p.get("auto_muck", True),
        )
        for p in record.players
    ]
    return engine.start_hand(
        options, seats, record.button_seat, record.deck, blinds=record_blinds(record)
    )


def record_blinds(record: HandRecord) -> tuple[int | None, int] | None:
    """The blinds the tournament placed (RULES.md 8, the dead button), or None: they follow the
    button (RULES.md 3)."""
    blinds = record.blinds
    if blinds is None:
        return None
    small, big = blinds
    return small, big


def _apply_row(state, row):
    """One row of the action log applied to the hand, as the table applied it."""
    if row.source == "timeout":
        return engine.apply_timeout(state, row.seat)
    if row.source == "disconnect":
        return engine.apply_disconnect(state, row.seat, row.action == "protected")
    return engine.apply_action(state, row.seat, row.action, row.amount)


def replay_record(record: HandRecord, events: list | None = None):
    """Yield (action row, state before, state after) for every logged action of a hand. With
    `events`, the engine's events of the hand are appended to it as well, in order."""
    state, happened = record_start(record)
    if events is not None:
        events.extend(happened)
    steps = []
    # The log's own ordering (hand, index): a prefetched log is used as it is.
    for row in record.actions.all():
        before = state
        state, happened = _apply_row(state, row)
        if events is not None:
            events.extend(happened)
        steps.append((row, before, state))
    return state, steps


def hand_log(record: HandRecord) -> list[dict]:
    """The public engine events of a hand so far, as the table's `event` frames carried them:
    what a player who reloads the page needs to write the table log again. Each has `at` (epoch
    ms: the hand's start, or when its action was logged), so the page can put the chat lines
    said meanwhile where they were said."""
    state, happened = record_start(record)
    at = _epoch_ms(record.started_at)
    log = [{**event.as_dict(), "at": at} for event in happened if event.private_to is None]
    for row in record.actions.all():
        state, happened = _apply_row(state, row)
        at = _epoch_ms(row.created_at)
        log.extend({**event.as_dict(), "at": at} for event in happened if event.private_to is None)
    return log


def _epoch_ms(moment) -> int:
    return int(moment.timestamp() * 1000)


# The engine's events carry every amount (the blinds, what each call or all-in put in, the pots
# and who collected them); the action log keeps only the player's choice. Both the record on the
# history pages and the replayer are made from the events of a replay of the stored hand.


@dataclass(frozen=True)
class Moment:
    """One public event of a hand with the hand just before the engine step that made it
    (`before`: an action's step starts where the action was chosen) and right after the event
    (`state`). `source`: how the logged action of the step came in ("" for the deal)."""

    event: engine.Event
    before: engine.HandState
    state: engine.HandState
    source: str


def hand_moments(record: HandRecord, rows=None) -> list[Moment]:
    """Every public event of a stored hand, in order, each with the hand as it stood right after
    it. One engine step can hold several events (a call, the uncalled chips returned, the flop):
    the states between them are rebuilt from the events; the step's last one is the engine's."""
    state, events = record_start(record)
    stacks = {p["seat"]: p["stack_before"] for p in record.players}
    opening = state.replace(
        players=tuple(
            engine.PlayerState(
                seat=p.seat, stack=stacks[p.seat], hole=p.hole, auto_muck=p.auto_muck
            )
            for p in state.players
        ),
        board=(),
        street=engine.Street.PREFLOP,
        actor=None,
        current_bet=0,
        raises=0,
        aggressor=None,
        result=None,
    )
    moments = _step_moments(opening, events, state, "")
    for row in record.actions.all() if rows is None else rows:
        before = state
        state, events = _apply_row(state, row)
        moments.extend(_step_moments(before, events, state, row.source))
    return moments


def _step_moments(before, events, after, source: str) -> list[Moment]:
    public = [event for event in events if event.private_to is None]  # no HoleCards
    players = list(before.players)
    where = {p.seat: index for index, p in enumerate(players)}
    board, street, gathered = before.board, before.street, False
    moments = []
    for number, event in enumerate(public):
        kind = event.kind
        if kind in ("pot_awarded", "hand_ended") or number == len(public) - 1:
            moments.append(Moment(event, before, after, source))
            continue
        seat = getattr(event, "seat", None)
        if kind == "blind_posted":
            p = players[where[seat]]
            # An ante (RULES.md 8) is in no bet, and it is not a dead blind: it makes its
            # poster eligible for what it is.
            live = 0 if event.blind in ("dead", "ante") else event.amount
            players[where[seat]] = p.replace(
                stack=p.stack - event.amount,
                bet=p.bet + live,
                committed=p.committed + event.amount,
                dead=p.dead + (event.amount if event.blind == "dead" else 0),
            )
        elif kind == "action":
            p = players[where[seat]]
            players[where[seat]] = p.folds() if event.action == "fold" else p.pays(event.amount)
        elif kind == "all_in_protected":
            players[where[seat]] = players[where[seat]].replace(protected=True)
        elif kind == "uncalled_returned":
            players[where[seat]] = players[where[seat]].gets_back(event.amount)
        elif kind in ("street", "hands_tabled", "showdown", "mucked") and not gathered:
            players = [p.next_round() for p in players]  # RULES.md 3: the bets go to the pot
            gathered = True
        if kind == "street":
            board, street = event.board, event.street
        elif kind in ("showdown", "mucked"):
            street = engine.Street.SHOWDOWN
        state = before.replace(
            players=tuple(players),
            board=board,
            street=street,
            actor=None,
            current_bet=0 if gathered else before.current_bet,
        )
        moments.append(Moment(event, before, state, source))
    return moments
