"""RULES.md 2, the blinds of players entering between hands: who is dealt in and where the
button goes, what a seat posts when it is dealt in, and the blinds a sitting-out seat misses
(owed when it comes back), and the seat whose player asked to sit out before their big blind.
The caller holds the table lock."""

from collections.abc import Iterable, Sequence

from holdem.db import rows
from holdem.engine.positions import blind_seats, posts_allowed
from holdem.models import Seat


def hand_entrants(ready: Sequence[Seat]) -> tuple[list[int], list[int], list[int]]:
    """The seats `ready` to play (not sitting out, with chips) as three lists of seat numbers:
    those dealt in whatever the button does, those who asked to post, those waiting for the big
    blind. The button goes round the first list: fewer than two there, and no hand is dealt."""
    playing = [s.number for s in ready if not s.waiting_for_big_blind]
    posting = [s.number for s in ready if s.waiting_for_big_blind and s.wants_to_post]
    waiting = [s.number for s in ready if s.waiting_for_big_blind and not s.wants_to_post]
    if len(playing) + len(posting) < 2:
        # Nobody to wait behind: with no game running everybody seated is dealt in.
        return playing + posting + waiting, [], []
    if len(playing) < 2:
        # One player and posters: no button goes round to pass them, so the posts all play.
        return playing + posting, [], waiting
    return playing, posting, waiting


def hand_seats_dealt(
    playing: list[int], posting: list[int], waiting: list[int], button: int
) -> list[int]:
    """The seat numbers dealt into the next hand, in increasing order, for the lists of
    `hand_entrants` and the button placed among the players of its first."""
    # RULES.md 2 [002]: a post is taken only where it seats the player neither on the button
    # nor in the small blind.
    dealt = sorted([*playing, *posts_allowed(playing, posting, button)])
    # RULES.md 2: a player waiting for the big blind is dealt in when it reaches their seat.
    for number in waiting:
        trial = sorted([*dealt, number])
        if blind_seats(trial, button)[1] == number:
            return trial
    return dealt


def blind_post_for(seat: Seat, small_seat: int, big_seat: int) -> str:
    """RULES.md 2: a player coming back or entering early posts a live big blind, plus a dead
    small blind when they missed the big blind; in the blinds they simply post those."""
    if seat.number in (small_seat, big_seat):
        return "none"
    if seat.missed_big_blind:
        return "big_and_dead_small"
    if seat.missed_small_blind or seat.wants_to_post:
        return "big"
    return "none"


def blinds_missed_mark(seats: Iterable[Seat], dealt: list[int], button: int) -> None:
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


def big_blind_sit_out(seat: Seat) -> bool:
    """RULES.md 2: the seat would post the big blind of the hand about to be dealt: if its "sit
    out at the next big blind" box is ticked, it sits out now, before the deal (True)."""
    if not seat.sit_out_next_big_blind or seat.sitting_out:
        return False
    seat_sit_out(seat)
    return True


def seat_sit_out(seat: Seat) -> None:
    """The seat sits out from the next hand dealt (the caller tells the table)."""
    seat.sitting_out = True
    seat.wants_to_post = False
    rows.save_fields(seat, ["sitting_out", "wants_to_post"])
