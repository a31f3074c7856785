"""Side pots, rake and splitting a pot among tied winners (RULES.md 4).

Pure functions on plain numbers: the hand and showdown modules feed them player chips.
"""

from collections.abc import Sequence
from typing import NamedTuple

from holdem.engine.options import exact_fraction


class Pot(NamedTuple):
    """A pot and the seats that can win it (in the order the stakes were given)."""

    amount: int
    eligible: tuple[int, ...]


class Stake(NamedTuple):
    """What one player has in the middle, for building pots.

    live: chips that make the player eligible (dead blinds excluded); dead: chips given to the
    pot without eligibility; contending: not folded; capped: cannot put in more (all in, or
    under all-in protection), so their live chips mark a side-pot level.
    """

    seat: int
    live: int
    dead: int = 0
    contending: bool = True
    capped: bool = False


def side_pots(stakes: Sequence[Stake]) -> tuple[Pot, ...]:
    """RULES.md 4: one pot per all-in level; each player can win from every other player at
    most what they put in themselves. Dead blinds go to the main pot."""
    levels = sorted({stake.live for stake in stakes if stake.contending and stake.capped})
    pots = []
    below = 0
    for level in levels:
        amount = 0
        for stake in stakes:
            if stake.live > below:
                amount += (level if stake.live > level else stake.live) - below
        if amount:
            pots.append(
                Pot(
                    amount,
                    tuple(
                        stake.seat for stake in stakes if stake.contending and stake.live >= level
                    ),
                )
            )
        below = level
    rest = 0
    for stake in stakes:
        if stake.live > below:
            rest += stake.live - below
    if rest:
        # Everyone still in who can put in more (RULES.md 3: they have matched the bets, or
        # everyone else folded) is eligible for what lies above the all-in levels.
        eligible = tuple(stake.seat for stake in stakes if stake.contending and not stake.capped)
        if eligible or not pots:
            pots.append(Pot(rest, eligible))
        else:
            # Chips above every contender's level (a player who folded out of turn) stay
            # with the last pot rather than going to nobody.
            last = pots.pop()
            pots.append(Pot(last.amount + rest, last.eligible))
    dead = sum(stake.dead for stake in stakes)
    if dead:
        if pots:
            pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
        else:
            pots.append(Pot(dead, tuple(stake.seat for stake in stakes if stake.contending)))
    return tuple(pots)


def pot_rakes(amounts: Sequence[int], percent: int | float, cap: int | None) -> tuple[int, ...]:
    """RULES.md 4: `percent` of each pot, rounded down; the whole hand's rake at most `cap`,
    taken from the main pot first."""
    if not percent:
        return (0,) * len(amounts)
    share = exact_fraction(percent)
    rakes = []
    left = cap
    for amount in amounts:
        rake = int(amount * share)
        if left is not None:
            rake = min(rake, left)
            left -= rake
        rakes.append(rake)
    return tuple(rakes)


def split_pot(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """RULES.md 4 [003]: equal shares; the odd chips all go to the first winner, `winners`
    being given clockwise from the button."""
    share, odd = divmod(amount, len(winners))
    shares = dict.fromkeys(winners, share)
    shares[winners[0]] += odd
    return shares
