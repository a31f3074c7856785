"""A hand in play (RULES.md 4 and 5): a player's action (a repeat answered once), the pre-action
boxes, the turn that times out, is renewed after downtime or is protected for a disconnected
player, and the Show or Muck choice after the hand; each step stores the engine's new state and
starts the next turn clock, or ends the hand (holdem/services/hand_end.py).

Each entry point runs inside one transaction holding the table lock; the engine decides every
rule, these functions only store its states.
"""

import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.accounts.models import User
from casino.errors import DomainError
from holdem import engine, preactions
from holdem.db import rows
from holdem.db.locks import LockedTable, table_lock
from holdem.engine.events import ActionTaken
from holdem.engine.hand import Step
from holdem.engine.view import result_view
from holdem.models import Disconnect, HandAction, HandRecord, ProtectionUse, Seat
from holdem.rules_words import IDLE_TIMEOUTS, PROTECTION_WINDOW, PROTECTIONS_PER_DAY
from holdem.services.hand_end import hand_finish, hand_reseal
from holdem.services.notify import TableChange, notify_player, notify_table, table_change_publish
from holdem.services.time_bank import bank_opens, bank_spent
from holdem.table_options import turn_seconds_of

# The table's columns a new turn changes, written with its event in one UPDATE.
TURN_FIELDS = ("hand_state", "turn_deadline", "turn_token", "turn_bank_from", "hand_actions")


def table_act(
    *,
    table_id: int,
    user: User,
    action: str,
    amount: int | None = None,
    action_id: str = "",
    turn_token: str | None = None,
) -> dict[str, Any]:
    """A player's action. A repeated action_id is answered with the first result, not applied twice.
    With `turn_token` (the turn the client saw), an action meant for a turn that is over is
    refused instead of landing on the player's next turn. Which actions and amounts exist is the
    engine's to say (an unknown one is refused by engine.apply_action)."""
    action_id = action_id or ""
    try:
        with transaction.atomic():
            table = table_lock(table_id)
            applied = _act(
                table,
                user=user,
                action=action,
                amount=amount,
                action_id=action_id,
                turn_token=turn_token,
                now=timezone.now(),
            )
    except (DomainError, IntegrityError):
        # A repeated action_id is looked up only when the action does not apply: a repeat
        # arrives after its turn is over, or hits the one-id-per-hand constraint (nothing of
        # the repeat was written: the transaction rolled back).
        repeated = _repeated(table_id, user, action, amount, action_id) if action_id else None
        if repeated is None:
            raise
        return repeated
    return {"action_id": action_id, "applied": True, "repeated": False, **applied}


def _act(
    table: LockedTable,
    *,
    user: User,
    action: str,
    amount: int | None,
    action_id: str,
    turn_token: str | None,
    now: datetime,
) -> dict[str, Any]:
    if not table.in_hand:
        raise DomainError("no_hand", "no hand is being played at this table")
    # The seats (with their users) serve both the check below and the broadcast.
    seats = rows.seats_with_users(table.pk)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None or not seat.in_hand:
        raise DomainError("not_in_hand", "you are not dealt into this hand")
    if turn_token is not None and turn_token != table.turn_token:
        raise DomainError("stale_turn", "that turn is over; the table has moved on")
    state = engine.state_from_json(table.hand_state)
    if (
        state.to_act == seat.number
        and table.turn_deadline is not None
        and now > table.turn_deadline
    ):
        # RULES.md 5: the clock ran out; the sweeper applies the timeout within a second.
        raise DomainError("turn_expired", "your time for this turn ran out")
    street = state.street
    try:
        new_state, events = engine.apply_action(state, seat.number, action, amount)
    except engine.IllegalAction as refused:
        raise DomainError(refused.code, refused.message) from refused
    if action == "all_in":
        # The log shows what the all-in came to (the round total), as the table did.
        amount = next(
            (e.to for e in events if isinstance(e, ActionTaken) and e.seat == seat.number), amount
        )
    _log(table, seat.number, user, action, amount, street, "player", action_id)
    bank_spent(table, seat, now)
    if seat.timeouts_in_row:
        seat.timeouts_in_row = 0
        rows.save_fields(seat, ["timeouts_in_row"])
    hand_advance(table, state=new_state, events=events, now=now, seats=seats)
    return {"action": action, "amount": amount}


def _repeated(
    table_id: int, user: User, action: str, amount: int | None, action_id: str
) -> dict[str, Any] | None:
    """The answer to an action_id used before at this table: the first result if the payload is
    the same, else an idempotency_conflict. None if the id is new."""
    first = HandAction.objects.filter(
        hand__table_id=table_id, user=user, client_action_id=action_id
    ).first()
    if first is None:
        return None
    # An all-in is logged with its total; the client sent it without an amount.
    same_amount = first.amount == amount or (action == "all_in" and amount is None)
    if first.action != action or not same_amount:
        raise DomainError(
            "idempotency_conflict",
            f"action id {action_id!r} was already used for {first.action}"
            + (f" {first.amount:,}" if first.amount is not None else "")
            + "; a new action needs a new id",
        )
    return {
        "action_id": action_id,
        "applied": True,
        "repeated": True,
        "action": first.action,
        "amount": first.amount,
    }


def hand_timeout(table: LockedTable, now: datetime) -> bool:
    """RULES.md 5: the turn ran out: check if nothing is owed, else fold. Caller holds the lock.
    A connected player with time in their bank gets it first (the turn goes on until it is
    spent); only an empty bank lets the timeout act."""
    state = engine.state_from_json(table.hand_state)
    seat_number = state.to_act
    if seat_number is None:
        return False
    seat = table.seat_set.filter(number=seat_number).select_related("user").first()
    if seat is not None and table.turn_bank_from is None and bank_opens(table, seat, state):
        return False
    if seat is not None and table.turn_bank_from is not None and seat.time_bank_ms:
        seat.time_bank_ms = 0  # spent to the end
        rows.save_fields(seat, ["time_bank_ms"])
    street = state.street
    legal = engine.legal_actions(state)
    new_state, events = engine.apply_timeout(state, seat_number)
    taken = "check" if legal is not None and "check" in legal.actions else "fold"
    _log(table, seat_number, seat.user if seat else None, taken, None, street, "timeout", "")
    sat_out = seat is not None and not seat.disconnected and _count_idle_turn(seat)
    hand_advance(table, state=new_state, events=events, now=now)
    if sat_out and seat is not None:
        # Told after the check or fold it follows from, so the log reads in that order.
        notify_table(table, TableChange("sitting_out", {"seat": seat.number, "reason": "idle"}))
    return True


def _count_idle_turn(seat: Seat) -> bool:
    """RULES.md 2: a connected player whose turn times out twice in a row is sat out (this turn's
    check or fold still applies; blinds missed from now on are owed as for any sitting-out seat).
    Returns whether they were sat out now (the caller tells the table)."""
    seat.timeouts_in_row += 1
    fields = ["timeouts_in_row"]
    if seat.timeouts_in_row >= IDLE_TIMEOUTS and not seat.sitting_out:
        seat.sitting_out = True
        seat.sat_out_idle = True
        seat.wants_to_post = False
        fields += ["sitting_out", "sat_out_idle", "wants_to_post"]
    rows.save_fields(seat, fields)
    return "sitting_out" in fields


def turn_renew(table: LockedTable, now: datetime) -> None:
    """A fresh turn clock for the player to act, same turn (token kept); caller holds the lock.
    A time bank that was running is stopped (what was used of it stays used)."""
    table.turn_deadline = now + timedelta(seconds=turn_seconds_of(table))
    table.turn_bank_from = None
    rows.save_fields(table, ["turn_deadline", "turn_bank_from"])
    state = engine.state_from_json(table.hand_state)
    notify_table(table, TableChange("turn_renewed", {"reason": "downtime"}, state=state))


def hand_protect_disconnected(table: LockedTable, seat: Seat, now: datetime) -> None:
    """RULES.md 5: in all-in-protection rooms a disconnected player is all in for what they put in,
    at most twice in 24 hours; after that they are folded. Caller holds the table lock."""
    if table.disconnect != Disconnect.ALL_IN_PROTECTION or not table.in_hand or not seat.in_hand:
        return  # RULES.md 5: a player not in the hand uses no protection
    state = engine.state_from_json(table.hand_state)
    since = now - PROTECTION_WINDOW
    used = ProtectionUse.objects.filter(user=seat.user, used_at__gte=since).count()
    protect = used < PROTECTIONS_PER_DAY
    street = state.street
    try:
        new_state, events = engine.apply_disconnect(state, seat.number, protect)
    except engine.IllegalAction:
        return  # RULES.md 5: already folded or all in: nothing to protect, no protection used
    if not events:
        return  # protected earlier in this hand
    if protect:
        assert table.hand is not None  # in a hand (checked above)
        ProtectionUse.objects.create(user=seat.user, table=table, hand=table.hand, used_at=now)
    _log(
        table,
        seat.number,
        seat.user,
        "protected" if protect else "fold",
        None,
        street,
        "disconnect",
        "",
    )
    hand_advance(table, state=new_state, events=events, now=now)


def table_show(*, table_id: int, user: User) -> None:
    """RULES.md 4: a player who won uncontested may show their hand, and so may one offered
    Show or Muck at the showdown."""
    _last_hand_choice(table_id, user, engine.show_hand, "hand_shown")


def table_muck(*, table_id: int, user: User) -> None:
    """RULES.md 4 [003]: a player offered Show or Muck mucks."""
    _last_hand_choice(table_id, user, engine.muck_hand, "hand_mucked")


def _last_hand_choice(
    table_id: int, user: User, choose: Callable[[engine.HandState, int], Step], kind: str
) -> None:
    with transaction.atomic():
        table = table_lock(table_id)
        record = table.last_hand
        if record is None or not record.final_state:
            raise DomainError("nothing_to_show", "there is no finished hand to show or muck")
        mine = [p for p in record.players if p["user_id"] == user.pk]
        if not mine:
            raise DomainError("not_in_hand", "you did not play the last hand")
        state = engine.state_from_json(record.final_state)
        try:
            new_state, events = choose(state, mine[0]["seat"])
        except engine.IllegalAction as refused:
            raise DomainError(refused.code, refused.message) from refused
        saved = _record_choices(table, record, new_state)
        change = TableChange(kind, {"seat": mine[0]["seat"]}, engine_events=events)
        rows.save_fields(table, [*table_change_publish(table, change), *saved])


def hand_muck_undecided(table: LockedTable, now: datetime) -> bool:
    """RULES.md 4: the time to choose Show or Muck ran out: every player still choosing mucks.
    Caller holds the table lock; a no-op when nobody is choosing."""
    if table.show_or_muck_deadline is None:
        return False  # set when a hand ends with players to choose, cleared once all chose
    table.show_or_muck_deadline = None
    rows.save_fields(table, ["show_or_muck_deadline"])
    record = table.last_hand
    if record is None or not record.final_state:
        return False
    state = engine.state_from_json(record.final_state)
    if state.result is None or not state.result.undecided:
        return False
    new_state, events = engine.muck_hand(state)
    saved = _record_choices(table, record, new_state)
    mucked = TableChange(
        "hand_mucked", {"seats": list(state.result.undecided)}, engine_events=events
    )
    rows.save_fields(table, [*table_change_publish(table, mucked), *saved])
    return True


def _record_choices(table: LockedTable, record: HandRecord, state: engine.HandState) -> list[str]:
    """Keep the choices in the hand's record (hashed again: it is still its table's last hand);
    returns the table's fields changed, for the caller to save with the event."""
    assert state.result is not None, "a choice after the hand is made in a finished hand"
    record.final_state = engine.state_to_json(state)
    record.shown = {str(k): list(v) for k, v in state.result.shown.items()}
    record.result = result_view(state.result)
    rows.save_fields(record, ["final_state", "shown", "result", *hand_reseal(table, record)])
    saved = ["hand_chain_hash"]
    if not state.result.undecided and table.show_or_muck_deadline is not None:
        table.show_or_muck_deadline = None
        saved.append("show_or_muck_deadline")
    return saved


def table_pre_action(
    *, table_id: int, user: User, choice: str | None, amount: int | None = None
) -> None:
    """Tick a pre-action box, or clear it with `choice` None (holdem/preactions.py). Only the
    player hears of it: others must not learn that a choice is waiting."""
    with transaction.atomic():
        table = table_lock(table_id)
        seat = table.seat_set.filter(user=user).select_related("user").first()
        if seat is None or not table.in_hand or not seat.in_hand:
            raise DomainError("no_pre_action", "pre-actions are for players dealt into the hand")
        state = engine.state_from_json(table.hand_state)
        if choice is not None:
            refused = preactions.problem(state, seat.number, choice, amount)
            if refused is not None:
                raise DomainError(*refused)
        seat.pre_action = choice or ""
        seat.pre_action_amount = amount if choice == "call" else None
        seat.pre_action_round = (
            preactions.round_key(table.hands_played, state.street) if choice else ""
        )
        rows.save_fields(seat, ["pre_action", "pre_action_amount", "pre_action_round"])
        notify_player(table, seat, state)


def _pre_actions(
    table: LockedTable,
    state: engine.HandState,
    events: list[engine.Event],
    seats: Sequence[Seat],
) -> Step:
    """Whoever's turn it is next with a pre-action standing acts by it now, through the engine
    like a clicked action (and so may the next one). Each choice is used up, or lapses, when its
    turn comes. Returns the state and events after them."""
    by_number = {s.number: s for s in seats}
    while not state.is_over and state.to_act is not None:
        seat = by_number.get(state.to_act)
        if seat is None or not seat.pre_action:
            break
        stands = preactions.stands(state, seat, table.hands_played)
        action = preactions.action_for(state, seat.pre_action, seat.pre_action_amount)
        seat.pre_action, seat.pre_action_amount, seat.pre_action_round = "", None, ""
        fields = ["pre_action", "pre_action_amount", "pre_action_round"]
        if stands and action is not None:
            seat.timeouts_in_row = 0  # the player's own choice: not an idle turn
            fields.append("timeouts_in_row")
        rows.save_fields(seat, fields)
        if not stands or action is None:
            break
        street = state.street
        state, more = engine.apply_action(state, seat.number, action, None)
        _log(table, seat.number, seat.user, action, None, street, "pre_action", "")
        events = [*events, *more]
    return state, events


def hand_advance(
    table: LockedTable,
    *,
    state: engine.HandState,
    events: list[engine.Event],
    now: datetime,
    seats: list[Seat] | None = None,
    detail: dict[str, Any] | None = None,
) -> None:
    """Store the new state, then either start the next turn clock or finish the hand
    (hand_end.py). Mid-hand the state, its clock, the action count and the event's seq are one
    UPDATE. A pre-action standing for the next player to act is applied first. `seats`: the
    table's seats with their users, if the caller has them; `detail`: what the event says
    besides the engine's events (the deal's commitment)."""
    if not state.is_over and state.to_act is not None:
        if seats is None:
            seats = list(table.seat_set.select_related("user"))
        state, events = _pre_actions(table, state, events, seats)
    if state.is_over:
        hand_finish(table, state=state, events=events, now=now)
        return
    table.hand_state = engine.state_to_json(state)
    table.turn_deadline = (
        now + timedelta(seconds=turn_seconds_of(table)) if state.to_act is not None else None
    )
    table.turn_token = uuid.uuid4().hex
    table.turn_bank_from = None
    # Mid-hand no wallet changes: the chips in play are in the state.
    change = TableChange(
        "hand", detail or {}, engine_events=events, state=state, seats=seats, balances=False
    )
    rows.save_fields(table, [*table_change_publish(table, change), *TURN_FIELDS])


def _log(
    table: LockedTable,
    seat_number: int,
    user: User | None,
    action: str,
    amount: int | None,
    street: str,
    source: str,
    action_id: str,
) -> None:
    """Append to the hand's action log; the index is the table row's count (saved by the caller
    with the new state), not a COUNT of the log."""
    assert table.hand_id is not None, "actions are logged in a hand"
    index = table.hand_actions
    table.hand_actions += 1
    rows.insert(
        HandAction(
            hand_id=table.hand_id,
            index=index,
            seat=seat_number,
            user=user,
            action=action,
            amount=amount,
            street=street,
            source=source,
            client_action_id=action_id,
        )
    )
