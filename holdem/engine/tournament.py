"""The arithmetic of a Sit & Go (RULES.md 8): the blind levels, the prize percents and chips,
and the places of the players who go out in one hand. Pure functions on plain numbers.
"""

from collections.abc import Callable, Sequence

from holdem.engine.options import is_chips

# RULES.md 8: the levels unless a template sets its own, each (small blind, big blind, ante).
DEFAULT_LEVELS: tuple[tuple[int, int, int], ...] = (
    (10, 20, 0),
    (15, 30, 0),
    (25, 50, 0),
    (50, 100, 0),
    (75, 150, 0),
    (100, 200, 0),
    (100, 200, 25),
    (150, 300, 25),
    (200, 400, 50),
    (300, 600, 75),
    (400, 800, 100),
    (600, 1200, 150),
    (800, 1600, 200),
    (1000, 2000, 250),
    (1500, 3000, 400),
)

# RULES.md 8: each place's percent of the pool, as [up to N entrants, percents]: 100 for 2-3
# entrants, 65/35 for 4-6, 50/30/20 for 7-10.
DEFAULT_PAYOUTS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (3, (100,)),
    (6, (65, 35)),
    (10, (50, 30, 20)),
)


def level_blinds(schedule: Sequence[Sequence[int]], index: int) -> tuple[int, int, int]:
    """RULES.md 8: (small blind, big blind, ante) of level `index` (0 is the first level) of
    `schedule` (an empty one: DEFAULT_LEVELS). After the last level every level is twice the
    one before."""
    levels = [tuple(level) for level in schedule] if schedule else list(DEFAULT_LEVELS)
    if type(index) is not int or index < 0:
        raise ValueError("level: must be a whole number, 0 or more")
    for level in levels:
        if len(level) != 3 or not all(is_chips(chips) and chips >= 0 for chips in level):
            raise ValueError("blind_schedule: each level is (small blind, big blind, ante)")
        small, big, _ante = level
        if not 1 <= small <= big:
            raise ValueError("blind_schedule: each level needs 1 <= small blind <= big blind")
    small, big, ante = levels[min(index, len(levels) - 1)]
    factor = 2 ** max(0, index - len(levels) + 1)
    return small * factor, big * factor, ante * factor


def payout_percents(
    entrants: int, payouts: Sequence[Sequence[object]] | None = None
) -> tuple[int, ...]:
    """RULES.md 8: the percent of the pool for each place (first place first) when `entrants`
    players entered. `payouts`: [[up to N entrants, [percents]], ...] in any order; empty or
    None: DEFAULT_PAYOUTS. The first row whose N is at least `entrants` applies."""
    if type(entrants) is not int or entrants < 1:
        raise ValueError("entrants: must be a whole number, at least 1")
    rows = []
    for row in payouts or DEFAULT_PAYOUTS:
        if len(row) != 2:
            raise ValueError("payouts: each row is [up to N entrants, [percents]]")
        most, percents = row
        if not is_chips(most) or not isinstance(percents, (list, tuple)) or not percents:
            raise ValueError("payouts: each row is [up to N entrants, [percents]]")
        if not all(is_chips(p) and p >= 0 for p in percents) or sum(percents) != 100:
            raise ValueError(f"payouts: the percents for up to {most} entrants must add to 100")
        if len(percents) > most:
            raise ValueError(f"payouts: more places than entrants for up to {most} entrants")
        rows.append((most, tuple(percents)))
    for most, percents in sorted(rows):
        if entrants <= most:
            return percents
    raise ValueError(f"payouts: no row for {entrants} entrants")


def prizes(pool: int, percents: Sequence[int]) -> list[int]:
    """RULES.md 8: each place's prize in whole chips, rounded down, what is left over to first
    place: the prizes always add up to `pool`."""
    if not is_chips(pool) or pool < 0:
        raise ValueError("pool: must be whole chips, 0 or more")
    if not percents or sum(percents) != 100:
        raise ValueError("percents: must add up to 100")
    amounts = [pool * percent // 100 for percent in percents]
    amounts[0] += pool - sum(amounts)
    return amounts


def places_for_busts(
    busted: Sequence[tuple[int, int]],
    next_place: int,
    prize_of_place: Callable[[int], int] | Sequence[int],
    order_from_button: Sequence[int],
) -> list[tuple[int, int, int]]:
    """RULES.md 8: (seat, place, prize) for the players out in one hand, best place first.

    `busted`: each (seat, chips they began the hand with). `next_place`: the highest place not
    yet given; the places count down from it. More starting chips finish higher. Players who
    began with the same chips share the summed prizes of the places they take equally, the
    odd chips one each to the first of them clockwise left of the button (`order_from_button`:
    the seats in that order); each of them is given the best place of their group.
    `prize_of_place(place)` (or a sequence: index place - 1; past its end no prize) is the
    prize of a place. The prizes returned add up to those of the places taken.
    """
    if not busted:
        return []
    if len(busted) > next_place:
        raise ValueError("places: more players out than places left")
    order = list(order_from_button)
    if any(seat not in order for seat, _ in busted):
        raise ValueError("places: every player out needs a place in order_from_button")

    def prize(place: int) -> int:
        if callable(prize_of_place):
            return prize_of_place(place)
        return prize_of_place[place - 1] if place <= len(prize_of_place) else 0

    by_chips: dict[int, list[int]] = {}
    for seat, chips in busted:
        by_chips.setdefault(chips, []).append(seat)
    answer = []
    place = next_place - len(busted) + 1  # the best place given in this hand
    for chips in sorted(by_chips, reverse=True):
        group = sorted(by_chips[chips], key=order.index)  # clockwise from the button
        taken = range(place, place + len(group))
        share, odd = divmod(sum(prize(p) for p in taken), len(group))
        for rank, seat in enumerate(group):
            answer.append((seat, place, share + (1 if rank < odd else 0)))
        place += len(group)
    return answer
