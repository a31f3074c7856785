"""Auto top-up as the player set it (their preferences) and what it does at a table (RULES.md 2):
the target stack, and how many chips a seat gets before the next hand."""

from dataclasses import dataclass
from typing import Any

from casino.accounts.models import Preferences, User
from casino.accounts.preferences import preferences_for
from holdem.models import Blinds, Seat, Table
from holdem.selectors.buy_in import top_up_limit


def auto_top_up_view(preferences: Preferences) -> dict[str, Any]:
    """The setting as the table's dialog shows it (`to_big_blinds` None: the room's maximum)."""
    return {
        "enabled": preferences.auto_top_up,
        "below_percent": preferences.top_up_below_percent,
        "to_big_blinds": preferences.top_up_to_bb,
    }


def auto_top_up_of(user: User) -> dict[str, Any]:
    """The player's auto top-up setting (the defaults when they never saved one)."""
    return auto_top_up_view(preferences_for(user))


def auto_top_up_target(table: Table, preferences: Preferences) -> int | None:
    """RULES.md 2: the stack auto top-up brings a seat to at `table`: the room's maximum buy-in,
    or the chosen number of big blinds held within the room's buy-in range. None when there is
    no target: a room without a maximum asked for its maximum, or a room whose big blind changes
    with the stacks (dynamic blinds) asked for big blinds."""
    if preferences.top_up_to_bb is None:
        return table.max_buy_in
    if table.blinds != Blinds.FIXED:
        return None
    target: int = preferences.top_up_to_bb * table.big_blind
    target = max(target, table.min_buy_in, 1)
    if table.max_buy_in is not None:
        target = min(target, table.max_buy_in)
    return target


@dataclass(frozen=True)
class AutoTopUp:
    """What auto top-up does for one seat now: add `amount` chips, or nothing (0) with `skipped`
    saying why when the player should hear it."""

    amount: int
    skipped: str | None = None


def auto_top_up_amount(
    table: Table, seat: Seat, preferences: Preferences, balance: int
) -> AutoTopUp:
    """RULES.md 2: how many chips auto top-up adds to `seat` before the next hand, with a wallet
    of `balance`: up to the target when the stack is below the threshold, never beyond the
    wallet (then what the wallet has), and nothing when even that leaves the stack under the
    room's minimum buy-in (the player is told)."""
    target = auto_top_up_target(table, preferences)
    if target is None or seat.stack * 100 >= target * preferences.top_up_below_percent:
        return AutoTopUp(0)
    wanted = target - seat.stack
    limit = top_up_limit(table, seat)  # the same room a top-up by hand has
    if limit is not None:
        wanted = min(wanted, limit)
    if wanted < 1:
        return AutoTopUp(0)
    amount = min(wanted, balance)
    minimum = max(table.min_buy_in, 1)
    if seat.stack + amount < minimum or amount < 1:
        return AutoTopUp(
            0,
            f"Auto top-up skipped: your wallet has {balance:,} chips, not enough to bring your "
            f"stack to the room's minimum buy-in of {minimum:,}.",
        )
    return AutoTopUp(amount)
