"""What only one user may see at a table (their private part, the `you` of a frame): their seat,
hole cards and legal actions, their wallet, what they may buy in for or top up.

Two views: the seated player's (`seated_part`), and that of a user without a seat here, who
watches or has just lost their seat (`unseated_part`). `viewer_part` finds which one a user
gets. Hole cards come only from the engine's own view for that seat (style.md 5).
"""

from collections.abc import Iterable
from typing import Any

from casino.accounts.models import CardBack, User
from casino.accounts.selectors import wallet_balance
from holdem import engine, preactions
from holdem.models import Seat, Table
from holdem.selectors.buy_in import buy_in_limits, top_up_limit
from holdem.selectors.game_state import current_state, muck_choice
from holdem.selectors.hand_history import final_state


def viewer_part(
    table: Table, user: User, seat_rows: Iterable[Seat] | None = None
) -> dict[str, Any]:
    """The private part of whoever asks (a snapshot): the seated player's if `user` sits at this
    table, else the watcher's, with where they sit if they sit elsewhere. The wallet is read.
    `seat_rows`, the table's seats if the caller has read them, spares reading them again."""
    if seat_rows is None:
        seat = Seat.objects.filter(table=table, user=user).first()
    else:
        seat = next((s for s in seat_rows if s.user_id == user.pk), None)
    if seat is None:
        other = Seat.objects.filter(user=user).select_related("table").first()
        elsewhere = {"table_id": other.table_id, "name": other.table.name} if other else None
        return unseated_part(table, user, seated_elsewhere=elsewhere)
    seat.user = user  # the viewer: their row is not read again
    return seated_part(table, seat, balance=wallet_balance(user=user))


def seated_part(
    table: Table, seat: Seat, *, balance: int | None, state: engine.HandState | None = None
) -> dict[str, Any]:
    """What only the player in `seat` (`seat.user`) may see: their seat, their hole cards and
    legal actions in the hand being played (`state`, if the caller has it) or in the last one
    once it is over, their pre-action, and their wallet's `balance` (None leaves it out: it did
    not change, and the client keeps the last one)."""
    if state is None:
        state = current_state(table)
    mine = _own_part(
        seat.user,
        balance=balance,
        seat_number=seat.number,
        seated_elsewhere=None,
        auto_muck=muck_choice(seat, table),
    )
    if balance is None:
        del mine["balance"]
    mine.update(
        {
            "in_hand": seat.in_hand,
            "sitting_out": seat.sitting_out,
            "sit_out_reason": "idle" if seat.sitting_out and seat.sat_out_idle else None,
            "waiting_for_big_blind": seat.waiting_for_big_blind,
            "wants_to_post": seat.wants_to_post,
            "missed_blinds": seat.missed_small_blind or seat.missed_big_blind,
            # RULES.md 2: the player's sit-out boxes, on every device of theirs.
            "sit_out_next_hand": seat.sit_out_next_hand,
            "sit_out_next_big_blind": seat.sit_out_next_big_blind,
        }
    )
    limit = top_up_limit(table, seat)
    mine["top_up"] = None if limit == 0 else {"max": limit}
    if state is not None and seat.in_hand and not state.is_over:
        own = engine.own_view(state, seat.number)
        mine["hole"] = own["hole"] if own else None
        mine["legal"] = own["legal"] if own else None
        if preactions.stands(state, seat, table.hands_played) and state.to_act != seat.number:
            mine["pre_action"] = {"value": seat.pre_action, "amount": seat.pre_action_amount}
    elif not table.in_hand and table.last_hand is not None:
        record = table.last_hand
        played = next((p for p in record.players if p["user_id"] == seat.user_id), None)
        if played is not None and record.final_state:
            final = final_state(record)
            own = engine.own_view(final, played["seat"])
            mine["hole"] = own["hole"] if own else None
            result = final.result
            assert result is not None, "a finished hand's state has its result"
            deciding = played["seat"] in result.undecided
            mine["can_show"] = deciding or bool(
                result.uncontested
                and result.payouts.get(played["seat"], 0) > 0
                and played["seat"] not in result.shown
            )
            mine["can_muck"] = deciding
    return mine


def unseated_part(
    table: Table, user: User, *, seated_elsewhere: dict[str, Any] | None
) -> dict[str, Any]:
    """What a user without a seat at this table sees of their own: their wallet, their muck
    choice, and the buy-in they may sit down with, unless they sit at another table
    (`seated_elsewhere`: its id and name). A user who has just lost their seat here sits nowhere
    (a user has one seat in the site), so they are told the buy-in at once."""
    mine = _own_part(
        user,
        balance=wallet_balance(user=user),
        seat_number=None,
        seated_elsewhere=seated_elsewhere,
        auto_muck=user.auto_muck if user.auto_muck is not None else table.auto_muck,
    )
    if seated_elsewhere is None:
        limits = buy_in_limits(table, user)
        mine["buy_in"] = {"min": limits.minimum, "max": limits.maximum, "reason": limits.reason}
    return mine


def _own_part(
    user: User,
    *,
    balance: int | None,
    seat_number: int | None,
    seated_elsewhere: dict[str, Any] | None,
    auto_muck: bool,
) -> dict[str, Any]:
    """The fields every private part has, with nothing dealt and nothing to decide."""
    return {
        "user_id": user.pk,
        "username": user.username,
        "balance": balance,
        "seat": seat_number,
        "seated_elsewhere": seated_elsewhere,
        "auto_muck": auto_muck,
        "card_back": user.card_back,
        "card_backs": CardBack.choices,
        "hole": None,
        "legal": None,
        "can_show": False,
        "can_muck": False,
        "pre_action": None,
    }
