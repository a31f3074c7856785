"""Auto top-up (RULES.md 2): a regular's setting, kept with their preferences, that brings a short
stack back to a target from the wallet before each hand of a cash game, through the same path
(checks, ledger line, event) as a top-up asked for by hand.
"""

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from casino.accounts.models import Preferences, User
from casino.accounts.preferences import preferences_update
from casino.accounts.services import wallet_lock
from casino.errors import DomainError
from holdem.db.locks import LockedTable
from holdem.models import Seat, TableKind
from holdem.realtime.broadcast import frame_message, player_group, send_on_commit, user_group
from holdem.selectors.auto_top_up import auto_top_up_amount, auto_top_up_view
from holdem.services.seats import seat_top_up

# The threshold is a percent of the target; the target in big blinds is a whole number in range.
BELOW_PERCENT_RANGE = (1, 100)
TO_BIG_BLINDS_RANGE = (10, 1000)


def auto_top_up_set(
    *, user: User, enabled: bool, below_percent: int, to_big_blinds: int | None
) -> dict[str, Any]:
    """Save the player's auto top-up: on or off, the threshold (top up when the stack is below
    `below_percent` percent of the target) and the target (`to_big_blinds` big blinds, or None
    for the room's maximum buy-in). Every socket of the player hears the new setting."""
    low, high = BELOW_PERCENT_RANGE
    if not low <= below_percent <= high:
        raise DomainError(
            "bad_top_up_threshold", f"the threshold is a percent of the target, {low} to {high}"
        )
    if to_big_blinds is not None:
        low, high = TO_BIG_BLINDS_RANGE
        if not low <= to_big_blinds <= high:
            raise DomainError(
                "bad_top_up_target",
                f"the target is {low} to {high} big blinds, or the room's maximum buy-in",
            )
    with transaction.atomic():
        saved = preferences_update(
            user=user,
            auto_top_up=enabled,
            top_up_below_percent=below_percent,
            top_up_to_bb=to_big_blinds,
        )
        view = auto_top_up_view(saved)
        send_on_commit(
            [(user_group(user.pk), frame_message({"type": "auto_top_up", "settings": view}))]
        )
    return view


def auto_top_ups_apply(table: LockedTable, seats: Sequence[Seat]) -> None:
    """RULES.md 2: before a hand of a cash game is dealt (the caller holds the table and seats
    locks), top up every seat whose player has auto top-up on and whose stack is short. Seats
    sitting out are left as they are. A top-up the table's rules refuse is skipped, the player
    told why; it changes nothing else."""
    if table.kind != TableKind.CASH:
        return  # RULES.md 8: tournament chips come only with the starting stack
    candidates = {s.user_id: s for s in seats if not s.sitting_out and not s.in_hand}
    if not candidates:
        return
    chosen = {
        p.user_id: p
        for p in Preferences.objects.filter(user_id__in=list(candidates), auto_top_up=True)
    }
    if not chosen:
        return
    wallets = wallet_lock(user_ids=sorted(chosen))  # all at once, in key order (style.md 8)
    for user_id, preferences in chosen.items():
        seat = candidates[user_id]
        plan = auto_top_up_amount(table, seat, preferences, wallets[user_id].balance)
        notice = plan.skipped
        if plan.amount:
            try:
                with transaction.atomic():  # a refused top-up leaves no trace
                    seat_top_up(
                        table,
                        seat,
                        amount=plan.amount,
                        reason=f"Auto top-up at {table.name}",
                        auto=True,
                    )
            except DomainError as refused:
                notice = f"Auto top-up skipped: {refused.message}."
        if notice:
            frame = {"type": "notice", "code": "auto_top_up_skipped", "message": notice}
            send_on_commit([(player_group(table.pk, user_id), frame_message(frame))])
