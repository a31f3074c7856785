"""The end of a hand: the pots paid to the seats, the record completed, the players offered Show
or Muck given their time to choose, who must go leaves (a bust, a disconnected player in a
check-or-fold room, one who took a break during the hand, everyone when the room closes), and
the next countdown.

Runs in the transaction of the step that ended the hand (holdem/services/hand_act.py), which
holds the table lock.
"""

from collections.abc import Iterable
from datetime import datetime, timedelta

from casino.chain import chain_hash
from holdem import engine
from holdem.db import rows
from holdem.db.locks import LockedTable, seats_lock
from holdem.engine.view import result_view
from holdem.hand_chain import HEAD_FIELDS
from holdem.models import HandRecord, Seat, TableStatus
from holdem.selectors.hand_chain import hand_chain_hash_of, hand_record_content
from holdem.services.countdown import countdown_after_hand
from holdem.services.game_kinds import game_kind_of
from holdem.services.notify import TableChange, notify_table, table_change_publish
from holdem.services.seats import seat_leave, seat_release
from holdem.services.sit_out_boxes import sat_out_tell, sit_outs_due

# RULES.md 4 [003]: how long a player offered Show or Muck has to choose (then: muck).
SHOW_OR_MUCK_SECONDS = 8


# The table's columns the end of a hand changes, written with the "hand_ended" event.
END_FIELDS = (
    "rake_collected",
    "hand_state",
    "hand",
    "last_hand",
    "turn_deadline",
    "turn_token",
    "turn_bank_from",
    "show_or_muck_deadline",
    *HEAD_FIELDS,
)


def hand_finish(
    table: LockedTable, *, state: engine.HandState, events: list[engine.Event], now: datetime
) -> None:
    """Pay the pots to the seats, keep the record, boot who must go, set the next countdown."""
    result = state.result
    assert result is not None, "a hand is finished once it is over"
    seats = {s.number: s for s in seats_lock(table)}
    record = table.hand
    assert record is not None, "the hand being finished"
    for number, stack in result.final_stacks.items():
        seats[number].stack = stack
        seats[number].in_hand = False
    rows.save_many([seats[n] for n in result.final_stacks], ["stack", "in_hand"])
    rows.save_fields(record, [*record_result(record, state, now), *hand_seal(table, record)])
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
    kind = game_kind_of(table)
    # What the chips back in the seats decide (a tournament's places and prizes), before anyone
    # leaves: the event below shows it.
    kind.hand_ended(table, record=record, seats=list(seats.values()), now=now)
    # Seats that leave the table now: each gets its own "left" event after "hand_ended".
    busted = {number for number, stack in result.final_stacks.items() if stack == 0}
    leaving = [
        seat
        for seat in seats.values()
        if seat.number in busted
        or (seat.disconnected and not kind.keeps_disconnected(table))
        or seat.leave_after_hand
    ]
    detail = {"hand_id": record.pk}
    saved = list(END_FIELDS)
    common = not leaving and table.status != TableStatus.CLOSING
    if common:
        # The common end: nobody leaves, so the next countdown comes in the same event.
        _sit_out_disconnected(seats.values())
        sit_outs_due(seats.values())  # RULES.md 2: their hand is over; the event shows them out
        seconds = countdown_after_hand(table, list(seats.values()), now)
        if seconds is not None:
            detail["countdown"] = seconds
        saved.append("next_hand_at")
    # No wallet changes when a hand ends (the chips go back to the seats): the private parts
    # leave the balance out, and the seats locked above are the ones to show.
    ended = TableChange(
        "hand_ended",
        detail,
        engine_events=events,
        state=state,
        seats=list(seats.values()),
        balances=False,
    )
    # The end of the hand and the event's bookkeeping in one UPDATE.
    rows.save_fields(table, [*table_change_publish(table, ended), *saved])
    if common:
        return
    for seat in leaving:
        if seat.number in busted:
            # What a bust means is the kind of game's (a cash game: the seat is freed).
            if kind.bust(table=table, seat=seat, now=now):
                seat_leave(table, seat, reason="Busted")
        elif seat.leave_after_hand:
            # RULES.md 2 and docs/rules.md 11: the player asked to leave, or took a break, during
            # this hand.
            seat_leave(table, seat, reason=f"Left at the hand's end: cash-out from {table.name}")
        else:
            # RULES.md 5: still disconnected when the game ends: removed, chips to the wallet.
            seat_leave(table, seat, reason=f"Disconnected: cash-out from {table.name}")
    remaining = [s for s in seats.values() if s.pk is not None]  # seat_release deletes the row
    _sit_out_disconnected(remaining)
    sat_out_tell(table, sit_outs_due(remaining))
    if table.status == TableStatus.CLOSING:
        for seat in remaining:
            seat_release(table, seat, reason=f"Room {table.name} closed")
        table.status = TableStatus.CLOSED
        rows.save_fields(table, ["status"])
        notify_table(table, TableChange("closed"))
        return
    seconds = countdown_after_hand(table, remaining, now)
    if seconds is not None:
        change = TableChange("countdown", {"seconds": seconds}, seats=remaining, balances=False)
        rows.save_fields(table, [*table_change_publish(table, change), "next_hand_at"])


def record_result(record: HandRecord, state: engine.HandState, now: datetime) -> list[str]:
    """Complete the hand's record from the finished `state` (board, pots, shown, rake, result,
    each player's stack after and net); returns the fields set, for the caller to save."""
    result = state.result
    assert result is not None, "a record is completed once the hand is over"
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
    return ["ended_at", "board", "pots", "shown", "rake", "result", "final_state", "players"]


def hand_seal(table: LockedTable, record: HandRecord) -> list[str]:
    """Chain the record of the hand that just ended (its content now complete) to the table's last
    finished hand, and make it the table's head (saved with END_FIELDS); returns the record's
    fields to save."""
    record.chain_prev_id = table.hand_chain_last_id
    record.chain_hash = chain_hash(
        hand_record_content(record),
        prev_id=table.hand_chain_last_id,
        prev_hash=table.hand_chain_hash,
    )
    table.hand_chain_length += 1
    table.hand_chain_last_id = record.pk
    table.hand_chain_hash = record.chain_hash
    return ["chain_prev_id", "chain_hash"]


def hand_reseal(table: LockedTable, record: HandRecord) -> list[str]:
    """Hash again the table's last finished hand, changed by a choice made after it (RULES.md 4:
    Show or Muck): nothing is chained to it yet, so only it and the head change. Returns the
    record's fields to save; the caller saves the table's `hand_chain_hash`."""
    assert table.hand_chain_last_id == record.pk, "only the last hand of a table changes"
    record.chain_hash = chain_hash(
        hand_record_content(record),
        prev_id=record.chain_prev_id,
        prev_hash=hand_chain_hash_of(record.chain_prev_id),
    )
    table.hand_chain_hash = record.chain_hash
    return ["chain_hash"]


def _sit_out_disconnected(seats: Iterable[Seat]) -> None:
    """RULES.md 5: a player still disconnected when the game ends sits out (where the room does
    not cash them out)."""
    for seat in seats:
        if seat.disconnected and not seat.sitting_out:
            seat.sitting_out = True
            rows.save_fields(seat, ["sitting_out"])
