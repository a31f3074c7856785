"""Small reads of a table's game that the views and the services share: the hand being played,
whether a game is running, a player's muck choice, the stakes' label and the wire's timestamps.
"""

from collections.abc import Iterable
from datetime import datetime

from holdem import engine
from holdem.models import Seat, Table


def epoch_ms(moment: datetime | None) -> int | None:
    """A moment as the clients read it: milliseconds since the epoch (None stays None)."""
    return int(moment.timestamp() * 1000) if moment else None


def current_state(table: Table) -> engine.HandState | None:
    """The engine state of the hand being played at the table, None between hands."""
    return engine.state_from_json(table.hand_state) if table.in_hand else None


def stakes_label(table: Table) -> str:
    if table.structure == "fixed_limit":
        return f"{table.small_bet:,}/{table.big_bet:,}"
    if table.blinds == "dynamic":
        return f"dynamic {table.dynamic_blind_percent}%"
    return f"{table.small_blind:,}/{table.big_blind:,}"


def game_running(table: Table, seats: Iterable[Seat]) -> bool:
    """RULES.md 2: a hand is being played, or the countdown after a hand runs with two or more of
    the players who played it still seated. Otherwise everybody is dealt in at the next game."""
    if table.in_hand:
        return True
    if table.next_hand_at is None or table.last_hand is None:
        return False
    played = {p["user_id"] for p in table.last_hand.players}
    return sum(1 for s in seats if s.user_id in played) >= 2


def muck_choice(seat: Seat, table: Table) -> bool:
    """RULES.md 1: the player's own "muck losing hands" box, or the room's default if never set."""
    return bool(table.auto_muck if seat.auto_muck is None else seat.auto_muck)
