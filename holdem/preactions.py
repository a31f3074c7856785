"""Pre-action boxes: a choice a player makes while someone else acts, applied the moment
their turn comes, through the same engine checks as a clicked action. Pure functions of the hand
state; the services keep the choice on the seat (holdem/services/hand_act.py).

A choice belongs to one betting round (`round_key`: the hand number and the street) and lapses
with it. "check" lapses when a bet comes in, "call" when the amount to call changes: the player
agreed to that amount, not to any other.
"""

from holdem import engine

CHOICES = ("check_fold", "check", "call", "call_any", "fold")


def round_key(hand_number: int, street: str) -> str:
    return f"{hand_number}:{street}"


def owed(state, seat_number: int) -> int | None:
    """What the seat would put in to call now (its stack at most); None when it cannot act in this
    hand any more (not dealt in, folded, all in) or the hand is over."""
    if state is None or state.is_over:
        return None
    player = next((p for p in state.players if p.seat == seat_number), None)
    if player is None or player.folded or player.stack == 0:
        return None
    return min(max(state.current_bet - player.bet, 0), player.stack)


def problem(state, seat_number: int, choice: str, amount: int | None) -> tuple[str, str] | None:
    """Why `choice` cannot be set now, as (code, message), or None when it can."""
    if choice not in CHOICES:
        return "bad_pre_action", f"a pre-action is one of {', '.join(CHOICES)}"
    to_call = owed(state, seat_number)
    if to_call is None:
        return "no_pre_action", "pre-actions are for players still in the hand"
    if state.to_act == seat_number:
        return "your_turn", "it is your turn: act now"
    if choice == "check" and to_call > 0:
        return "bad_pre_action", "there is a bet to call: you cannot check"
    if choice == "call":
        if to_call == 0:
            return "bad_pre_action", "there is nothing to call"
        if amount != to_call:
            return "stale_pre_action", f"the amount to call is now {to_call:,}"
    return None


def live(state, seat_number: int, choice: str, amount: int | None, key: str, hand_number: int):
    """Whether a stored choice still stands in this state (same round, still fits)."""
    if not choice or state is None or key != round_key(hand_number, state.street):
        return False
    to_call = owed(state, seat_number)
    if to_call is None:
        return False
    if choice == "check":
        return to_call == 0
    if choice == "call":
        return to_call == amount and to_call > 0
    return choice in CHOICES


def stands(state, seat, hand_number: int) -> bool:
    """Whether the choice stored on a seat row (pre_action, its amount and round) still stands."""
    return live(
        state,
        seat.number,
        seat.pre_action,
        seat.pre_action_amount,
        seat.pre_action_round,
        hand_number,
    )


def action_for(state, choice: str, amount: int | None) -> str | None:
    """The action a standing choice takes now that it is the player's turn, or None to let the
    player decide (the choice no longer fits)."""
    legal = engine.legal_actions(state)
    if legal is None:
        return None
    nothing_owed = "check" in legal.actions
    if choice == "check_fold":
        return "check" if nothing_owed else "fold"
    if choice == "check":
        return "check" if nothing_owed else None
    if choice == "call":
        return "call" if not nothing_owed and legal.to_call == amount else None
    if choice == "call_any":
        return "check" if nothing_owed else "call"
    if choice == "fold":
        return "check" if nothing_owed else "fold"  # never fold when checking is free
    return None
