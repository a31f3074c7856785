"""A hand's life at a table: start after the countdown, actions, timeouts, protection, the end.

Each entry point runs inside one transaction holding the table lock; the engine decides every
rule, these functions only store its states and move chips between seats and wallets.
"""

import secrets
import uuid
from dataclasses import asdict
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.errors import DomainError
from holdem import engine, preactions
from holdem.db import rows
from holdem.db.locks import seats_lock, table_lock
from holdem.engine.cards import new_deck, shuffle
from holdem.engine.positions import blind_seats, next_button
from holdem.engine.view import result_view
from holdem.models import (
    Disconnect,
    Entry,
    HandAction,
    HandParticipant,
    HandRecord,
    ProtectionUse,
    TableStatus,
)
from holdem.selectors import muck_choice
from holdem.services.blinds import (
    blind_post_for,
    blinds_missed_mark,
    hand_entrants,
    hand_seats_dealt,
)
from holdem.services.countdown import countdown_after_hand
from holdem.services.notify import notify_player, notify_table
from holdem.services.seats import seat_release
from holdem.services.time_bank import BANK_FIELDS, bank_opens, bank_refill, bank_spent
from holdem.table_options import hand_options

PROTECTIONS_PER_DAY = 2  # RULES.md 5
# RULES.md 4 [003]: how long a player offered Show or Muck has to choose (then: muck).
SHOW_OR_MUCK_SECONDS = 8


def hand_deck() -> list[str]:
    """RULES.md 3: a fresh deck shuffled by Fisher-Yates from a cryptographically secure generator.
    (Tests replace this function to deal chosen cards.)"""
    return shuffle(new_deck(), secrets.SystemRandom())


def hand_start(table, now) -> bool:
    """Deal a hand if two or more players can be dealt in; the caller holds the table lock."""
    hand_muck_undecided(table, now)  # a short countdown may end before the time to choose
    seats = seats_lock(table)
    table.next_hand_at = None
    if table.status != TableStatus.OPEN or table.in_hand:
        rows.save_fields(table, ["next_hand_at"])
        return False
    ready = [s for s in seats if not s.sitting_out and s.stack > 0]
    playing, posting, waiting = hand_entrants(ready)
    if len(playing) < 2:
        rows.save_fields(table, ["next_hand_at"])
        notify_table(table, "waiting_for_players", {})
        return False
    # RULES.md 2 [002]: the button goes round the players only, never onto a post.
    button = next_button(table.button_seat, playing, secrets.SystemRandom())
    dealt = hand_seats_dealt(playing, posting, waiting, button)
    small_seat, big_seat = blind_seats(dealt, button)
    by_number = {s.number: s for s in seats}
    players = [by_number[n] for n in dealt]
    if table.entry == Entry.WAIT_OR_POST:
        blinds_missed_mark(seats, dealt, button)

    seat_ins = [
        engine.SeatIn(
            seat=s.number,
            stack=s.stack,
            post=blind_post_for(s, small_seat, big_seat),
            auto_muck=muck_choice(s, table),
        )
        for s in players
    ]
    options = hand_options(table, [s.stack for s in players])
    deck = hand_deck()
    state, events = engine.start_hand(options, seat_ins, button, deck)

    table.hands_played += 1
    record = HandRecord.objects.create(
        table=table,
        number=table.hands_played,
        started_at=now,
        button_seat=button,
        options=asdict(options),  # HandOptions holds JSON primitives only
        players=[
            {
                "seat": s.number,
                "user_id": s.user_id,
                "username": s.user.username,
                "stack_before": s.stack,
                "post": si.post,
                "auto_muck": si.auto_muck,
            }
            for s, si in zip(players, seat_ins)
        ],
        deck=list(deck),
    )
    HandParticipant.objects.bulk_create(
        HandParticipant(hand=record, user_id=s.user_id, seat=s.number) for s in players
    )
    for s in players:
        s.stack = 0  # the chips are in the hand now; the engine state holds them
        s.in_hand = True
        s.waiting_for_big_blind = s.wants_to_post = False
        s.missed_small_blind = s.missed_big_blind = False
        bank_refill(s, table)
    rows.save_many(
        players,
        [
            "stack",
            "in_hand",
            "waiting_for_big_blind",
            "wants_to_post",
            "missed_small_blind",
            "missed_big_blind",
            *BANK_FIELDS,
        ],
    )
    table.button_seat = button
    table.hand = record
    table.hand_actions = 0
    rows.save_fields(table, ["next_hand_at", "hands_played", "button_seat", "hand", "hand_actions"])
    _advance(table, state, events, now)
    return True


def table_act(
    *, table_id: int, user, action, amount=None, action_id: str = "", turn_token: str | None = None
) -> dict:
    """A player's action. A repeated action_id is answered with the first result, not applied twice.
    With `turn_token` (the turn the client saw), an action meant for a turn that is over is
    refused instead of landing on the player's next turn. Which actions and amounts exist is the
    engine's to say (an unknown one is refused by engine.apply_action)."""
    action_id = action_id or ""
    try:
        with transaction.atomic():
            table = table_lock(table_id)
            applied = _act(table, user, action, amount, action_id, turn_token)
    except (DomainError, IntegrityError):
        # A repeated action_id is looked up only when the action does not apply: a repeat
        # arrives after its turn is over, or hits the one-id-per-hand constraint (nothing of
        # the repeat was written: the transaction rolled back).
        repeated = _repeated(table_id, user, action, amount, action_id) if action_id else None
        if repeated is None:
            raise
        return repeated
    return {"action_id": action_id, "applied": True, "repeated": False, **applied}


def _act(table, user, action, amount, action_id: str, turn_token) -> dict:
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
        and timezone.now() > table.turn_deadline
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
            (e.to for e in events if e.kind == "action" and e.seat == seat.number), amount
        )
    _log(table, seat.number, user, action, amount, street, "player", action_id)
    bank_spent(table, seat, timezone.now())
    if seat.timeouts_in_row:
        seat.timeouts_in_row = 0
        rows.save_fields(seat, ["timeouts_in_row"])
    _advance(table, new_state, events, timezone.now(), seats=seats)
    return {"action": action, "amount": amount}


def _repeated(table_id: int, user, action, amount, action_id: str) -> dict | None:
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


def hand_timeout(table, now) -> bool:
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
    _advance(table, new_state, events, now)
    if sat_out:
        # Told after the check or fold it follows from, so the log reads in that order.
        notify_table(table, "sitting_out", {"seat": seat.number, "reason": "idle"})
    return True


IDLE_TIMEOUTS = 2  # RULES.md 2


def _count_idle_turn(seat) -> bool:
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


def turn_renew(table, now) -> None:
    """A fresh turn clock for the player to act, same turn (token kept); caller holds the lock.
    A time bank that was running is stopped (what was used of it stays used)."""
    table.turn_deadline = now + timedelta(seconds=table.turn_seconds)
    table.turn_bank_from = None
    rows.save_fields(table, ["turn_deadline", "turn_bank_from"])
    notify_table(
        table,
        "turn_renewed",
        {"reason": "downtime"},
        state=engine.state_from_json(table.hand_state),
    )


def hand_protect_disconnected(table, seat, now) -> None:
    """RULES.md 5: in all-in-protection rooms a disconnected player is all in for what they put in,
    at most twice in 24 hours; after that they are folded. Caller holds the table lock."""
    if table.disconnect != Disconnect.ALL_IN_PROTECTION or not table.in_hand or not seat.in_hand:
        return  # RULES.md 5: a player not in the hand uses no protection
    state = engine.state_from_json(table.hand_state)
    since = now - timedelta(hours=24)
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
    _advance(table, new_state, events, now)


def table_show(*, table_id: int, user) -> None:
    """RULES.md 4: a player who won uncontested may show their hand, and so may one offered
    Show or Muck at the showdown."""
    _last_hand_choice(table_id, user, engine.show_hand, "hand_shown")


def table_muck(*, table_id: int, user) -> None:
    """RULES.md 4 [003]: a player offered Show or Muck mucks."""
    _last_hand_choice(table_id, user, engine.muck_hand, "hand_mucked")


def _last_hand_choice(table_id: int, user, choose, kind: str) -> None:
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
        _record_choices(table, record, new_state)
        notify_table(table, kind, {"seat": mine[0]["seat"]}, engine_events=events)


def hand_muck_undecided(table, now) -> bool:
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
    _record_choices(table, record, new_state)
    notify_table(
        table, "hand_mucked", {"seats": list(state.result.undecided)}, engine_events=events
    )
    return True


def _record_choices(table, record, state) -> None:
    record.final_state = engine.state_to_json(state)
    record.shown = {str(k): list(v) for k, v in state.result.shown.items()}
    record.result = result_view(state.result)
    rows.save_fields(record, ["final_state", "shown", "result"])
    if not state.result.undecided and table.show_or_muck_deadline is not None:
        table.show_or_muck_deadline = None
        rows.save_fields(table, ["show_or_muck_deadline"])


def table_pre_action(*, table_id: int, user, choice: str | None, amount: int | None = None):
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


def _pre_actions(table, state, events, seats):
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


def _advance(table, state, events, now, seats=None) -> None:
    """Store the new state, then either start the next turn clock or finish the hand. Mid-hand
    the state, its clock, the action count and the event's seq are one UPDATE (notify_table).
    A pre-action standing for the next player to act is applied first."""
    if not state.is_over and state.to_act is not None:
        if seats is None:
            seats = list(table.seat_set.select_related("user"))
        state, events = _pre_actions(table, state, events, seats)
    if state.is_over:
        _finish(table, state, events, now)
        return
    table.hand_state = engine.state_to_json(state)
    table.turn_deadline = (
        now + timedelta(seconds=table.turn_seconds) if state.to_act is not None else None
    )
    table.turn_token = uuid.uuid4().hex
    table.turn_bank_from = None
    notify_table(
        table,
        "hand",
        {},
        engine_events=events,
        state=state,
        save=("hand_state", "turn_deadline", "turn_token", "turn_bank_from", "hand_actions"),
        seats=seats,
        balances=False,  # mid-hand no wallet changes: the chips in play are in the state
    )


def _finish(table, state, events, now) -> None:
    """Pay the pots to the seats, keep the record, boot who must go, set the next countdown."""
    result = state.result
    seats = {s.number: s for s in seats_lock(table)}
    record = table.hand
    for number, stack in result.final_stacks.items():
        seats[number].stack = stack
        seats[number].in_hand = False
    rows.save_many([seats[n] for n in result.final_stacks], ["stack", "in_hand"])
    record.ended_at = now
    record.board = list(state.board)
    record.pots = [
        {
            "amount": p.amount,
            "eligible": list(p.eligible),
            "winners": list(p.winners),
            "shares": {str(k): v for k, v in p.shares.items()},
            "rake": p.rake,
        }
        for p in result.pots
    ]
    record.shown = {str(k): list(v) for k, v in result.shown.items()}
    record.rake = result.rake
    record.result = result_view(result)
    record.final_state = engine.state_to_json(state)
    for player in record.players:
        player["stack_after"] = result.final_stacks[player["seat"]]
        player["net"] = result.net[player["seat"]]
    rows.save_fields(
        record,
        ["ended_at", "board", "pots", "shown", "rake", "result", "final_state", "players"],
    )
    table.rake_collected += result.rake
    table.hand_state = ""
    table.hand = None
    table.last_hand = record
    table.turn_deadline = None
    table.turn_token = ""
    table.turn_bank_from = None
    # RULES.md 4: players offered Show or Muck have a few seconds to choose.
    table.show_or_muck_deadline = (
        now + timedelta(seconds=SHOW_OR_MUCK_SECONDS) if result.undecided else None
    )
    # Saved with the event's seq (notify_table), in one UPDATE.
    saved = (
        "rake_collected",
        "hand_state",
        "hand",
        "last_hand",
        "turn_deadline",
        "turn_token",
        "turn_bank_from",
        "show_or_muck_deadline",
    )
    # Seats that leave the table now: each gets its own "left" event after "hand_ended".
    busted = {number for number, stack in result.final_stacks.items() if stack == 0}
    leaving = [
        seat
        for seat in seats.values()
        if seat.number in busted
        or (seat.disconnected and table.disconnect == Disconnect.CHECK_FOLD)
    ]
    detail = {"hand_id": record.pk}
    ending = {"engine_events": events, "state": state, "seats": list(seats.values())}
    if not leaving and table.status != TableStatus.CLOSING:
        # The common end: nobody leaves, so the next countdown comes in the same event.
        _sit_out_disconnected(seats.values())
        seconds = countdown_after_hand(table, list(seats.values()), now)
        if seconds is not None:
            detail["countdown"] = seconds
        # No wallet changes when a hand ends (the chips go back to the seats): the private
        # parts leave the balance out, and the seats locked above are the ones to show.
        notify_table(
            table, "hand_ended", detail, **ending, save=(*saved, "next_hand_at"), balances=False
        )
        return
    notify_table(table, "hand_ended", detail, **ending, save=saved, balances=False)
    for seat in leaving:
        if seat.number in busted:
            seat_release(table, seat, reason="Busted")
            returned = 0
        else:
            # RULES.md 5: still disconnected when the game ends: removed, chips to the wallet.
            returned = seat_release(table, seat, reason=f"Disconnected: cash-out from {table.name}")
        notify_table(
            table,
            "left",
            {"seat": seat.number, "username": seat.user.username, "returned": returned},
            also_tell=[seat.user],
        )
    remaining = [s for s in seats.values() if s.pk is not None]  # seat_release deletes the row
    _sit_out_disconnected(remaining)
    if table.status == TableStatus.CLOSING:
        for seat in remaining:
            seat_release(table, seat, reason=f"Room {table.name} closed")
        table.status = TableStatus.CLOSED
        rows.save_fields(table, ["status"])
        notify_table(table, "closed", {})
        return
    seconds = countdown_after_hand(table, remaining, now)
    if seconds is not None:
        notify_table(
            table,
            "countdown",
            {"seconds": seconds},
            seats=remaining,
            save=("next_hand_at",),
            balances=False,
        )


def _sit_out_disconnected(seats) -> None:
    """RULES.md 5: a player still disconnected when the game ends sits out (where the room does
    not cash them out)."""
    for seat in seats:
        if seat.disconnected and not seat.sitting_out:
            seat.sitting_out = True
            rows.save_fields(seat, ["sitting_out"])


def _log(table, seat_number, user, action, amount, street, source, action_id) -> None:
    """Append to the hand's action log; the index is the table row's count (saved by the caller
    with the new state), not a COUNT of the log."""
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
