"""RULES.md 2, the blinds of players entering between hands: what a seat posts when it is dealt
in, and the blinds a sitting-out seat misses (owed when it comes back). The caller holds the
table lock."""

from holdem import rows
from holdem.engine.positions import blind_seats


def blind_post_for(seat, small_seat, big_seat) -> str:
    """RULES.md 2: a player coming back or entering early posts a live big blind, plus a dead
    small blind when they missed the big blind; in the blinds they simply post those."""
    if seat.number in (small_seat, big_seat):
        return "none"
    if seat.missed_big_blind:
        return "big_and_dead_small"
    if seat.missed_small_blind or seat.wants_to_post:
        return "big"
    return "none"


def blinds_missed_mark(seats, dealt, button) -> None:
    """A sitting-out player whose seat a blind passes owes it when they come back (RULES.md 2)."""
    for seat in seats:
        if not seat.sitting_out or seat.stack == 0 or seat.number in dealt:
            continue
        small, big = blind_seats(sorted([*dealt, seat.number]), button)
        if seat.number == small and not seat.missed_small_blind:
            seat.missed_small_blind = True
            rows.save_fields(seat, ["missed_small_blind"])
        elif seat.number == big and not seat.missed_big_blind:
            seat.missed_big_blind = True
            rows.save_fields(seat, ["missed_big_blind"])
