"""The start of a hand (RULES.md 2 and 3): once the countdown ends, who is dealt in, the button,
the blinds, the shuffled deck, the hand's record; then the first turn (holdem/services/hand_act.py).

Runs inside the deadline clock's transaction, which holds the table lock.
"""

import logging
from dataclasses import asdict
from datetime import datetime, timedelta

from holdem import engine
from holdem.db import rows
from holdem.db.locks import LockedTable, seats_lock
from holdem.engine.commitment import deck_commitment
from holdem.models import HandParticipant, HandRecord, TableStatus
from holdem.selectors.game_state import muck_choice
from holdem.services.auto_top_up import auto_top_ups_apply
from holdem.services.blinds import blind_post_for
from holdem.services.game_kinds import game_kind_of
from holdem.services.hand_act import hand_advance, hand_muck_undecided
from holdem.services.notify import TableChange, notify_table
from holdem.services.shuffle import RandomSourceFailed, deck_salts, hand_deck, random_source
from holdem.services.sit_out_boxes import sat_out_tell, sit_outs_due
from holdem.services.time_bank import BANK_FIELDS, bank_refill

log = logging.getLogger("holdem.hands")

# docs/fairness.md: how long a table waits to try again when the random source failed.
SHUFFLE_RETRY_SECONDS = 10
# RULES.md 9: how soon a tournament's table held between hands looks again.
HOLD_SECONDS = 1


def hand_start(table: LockedTable, now: datetime) -> bool:
    """Deal a hand if two or more players can be dealt in; the caller holds the table lock."""
    hand_muck_undecided(table, now)  # a short countdown may end before the time to choose
    seats = seats_lock(table)
    table.next_hand_at = None
    if table.status != TableStatus.OPEN or table.in_hand:
        rows.save_fields(table, ["next_hand_at"])
        return False
    kind = game_kind_of(table)
    hold = kind.hold(table)
    if hold is not None:
        # RULES.md 9: a tournament's table waits between hands for a move (the clock's sweep
        # makes it, holdem/services/multi_table.py) or for the other tables; it looks again in
        # a second.
        table.next_hand_at = now + timedelta(seconds=HOLD_SECONDS)
        told, table.held_for = table.held_for, hold
        rows.save_fields(table, ["next_hand_at", "held_for"])
        if told != hold:
            notify_table(table, TableChange("held", {"reason": hold}))
        return False
    if table.held_for:
        table.held_for = ""
        rows.save_fields(table, ["held_for"])
    # RULES.md 2: who ticked "sit out next hand" sits out now; short stacks with auto top-up on
    # are topped up; then the plan sits out who ticked "sit out at the next big blind" and has it.
    sat_out = sit_outs_due(seats)
    auto_top_ups_apply(table, seats)
    out_before = {s.number for s in seats if s.sitting_out}
    try:
        plan = kind.hand_plan(table=table, seats=seats, rng=random_source())
        sat_out += [s for s in seats if s.sitting_out and s.number not in out_before]
        if plan is not None:
            deck = hand_deck()
            salts = deck_salts()[: len(deck)]
    except RandomSourceFailed:
        # docs/fairness.md: never another shuffle; the table waits, says so, and tries again.
        log.error("table %s: no hand dealt, the random source failed", table.pk)
        sat_out_tell(table, sat_out)
        table.next_hand_at = now + timedelta(seconds=SHUFFLE_RETRY_SECONDS)
        rows.save_fields(table, ["next_hand_at"])
        notify_table(table, TableChange("shuffle_unavailable", {"retry_in": SHUFFLE_RETRY_SECONDS}))
        return False
    sat_out_tell(table, sat_out)
    if plan is None:
        rows.save_fields(table, ["next_hand_at"])
        notify_table(table, TableChange("waiting_for_players"))
        return False
    button, dealt = plan.button, plan.dealt
    by_number = {s.number: s for s in seats}
    players = [by_number[n] for n in dealt]
    # The posts of players entering are placed by the blinds (a dead small blind posts nothing).
    small_seat = plan.small if plan.small is not None else -1

    seat_ins = [
        engine.SeatIn(
            seat=s.number,
            stack=s.stack,
            post=blind_post_for(s, small_seat, plan.big),
            auto_muck=muck_choice(s, table),
        )
        for s in players
    ]
    # The blinds (and any ante) are the kind of game's: a cash game's are the room's options.
    options = kind.hand_options(table=table, stacks=[s.stack for s in players], now=now)
    commitment = deck_commitment(deck, salts)
    blinds = (plan.small, plan.big) if plan.dead_button else None
    state, events = engine.start_hand(options, seat_ins, button, deck, blinds=blinds)

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
        salts=salts,
        commitment=commitment,
        blinds=list(blinds) if blinds is not None else None,
        tournament=kind.hand_header(table),
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
    table.small_blind_seat, table.big_blind_seat = plan.small, plan.big
    table.hand = record
    table.commitment = commitment  # published with the deal's first event, before any action
    table.hand_actions = 0
    rows.save_fields(
        table,
        [
            "next_hand_at",
            "hands_played",
            "button_seat",
            "small_blind_seat",
            "big_blind_seat",
            "hand",
            "commitment",
            "hand_actions",
        ],
    )
    hand_advance(table, state=state, events=events, now=now, detail={"commitment": commitment})
    return True
