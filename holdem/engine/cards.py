"""Playing cards: the two-character codes (`As`, `Td`, `2c`), the deck and its shuffle.

Also fixes the int a card is parsed to, chosen so the evaluator scores a hand by summing ints.
"""

from collections.abc import Iterable
from typing import Protocol

RANKS = "23456789TJQKA"
SUITS = "cdhs"

# --- the int encoding -------------------------------------------------------------------------
# A card int is RANK_KEYS[rank] << SUIT_BITS | SUIT_KEYS[suit]. Summing the ints of a hand gives,
# above the low byte, a number that names the hand's multiset of ranks and, in the low byte, a
# number that says whether the hand holds a flush and in which suit: the evaluator then needs
# one table lookup per hand instead of scoring 21 five-card subsets.
#
# RANK_KEYS: every multiset of up to seven ranks from 3..A (at most four of a rank) has its own
# key sum, so hands' rank multisets never collide (the deuce's key is 0: the hand's size and
# its other ranks tell how many deuces it holds).
# Found by a greedy search: each key is the smallest that keeps all those sums distinct. Small
# keys keep most hand sums below 2**30, where CPython adds ints fastest.
RANK_KEYS = (0, 1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359)

# SUIT_KEYS: for every hand of 5, 6 or 7 cards, two suit counts with different flush answers
# (no flush, or a flush in a given suit) never share a key sum. Found by search: (0, 1, 25, 32)
# are the smallest; each is shifted up by one, which keeps that property (it adds the hand's
# size to every sum) and means no card is the int 0. A sum is at most 7 * 33 = 231: it fits the
# low byte and never carries into the rank part.
SUIT_KEYS = (1, 2, 26, 33)
SUIT_BITS = 8

_BAD_CODE = (
    "a card code is a rank from 23456789TJQKA followed by a suit from cdhs, like 'As' or 'Td'"
)

_INT_OF_CODE = {
    rank + suit: RANK_KEYS[rank_index] << SUIT_BITS | SUIT_KEYS[suit_index]
    for rank_index, rank in enumerate(RANKS)
    for suit_index, suit in enumerate(SUITS)
}
_CODE_OF_INT = {card: code for code, card in _INT_OF_CODE.items()}


class Rng(Protocol):
    """What the engine asks of a random generator: `randrange(n)`, an int from 0 to n - 1.
    `secrets.SystemRandom()` in production, `random.Random(seed)` in tests (RULES.md 3)."""

    def randrange(self, stop: int, /) -> int: ...


def new_deck() -> list[str]:
    """The 52 card codes in a fixed order: 2c 2d 2h 2s 3c ... As."""
    return [rank + suit for rank in RANKS for suit in SUITS]


def shuffle[T](deck: Iterable[T], rng: Rng) -> list[T]:
    """A shuffled copy of `deck` (Fisher-Yates); `deck` itself is left as it was.

    RULES.md 3: production passes `secrets.SystemRandom()`; tests pass `random.Random(seed)`.
    Only `rng.randrange` is called, so any generator with that method will do.
    """
    cards = list(deck)
    for last in range(len(cards) - 1, 0, -1):
        # randrange(last + 1) includes `last` itself: leaving a card in place must be possible,
        # or the shuffle is biased (Sattolo's cycle, not a uniform permutation).
        other = rng.randrange(last + 1)
        cards[last], cards[other] = cards[other], cards[last]
    return cards


def parse_card(code: str) -> int:
    """The evaluator's int for a card code; ValueError if `code` is not a card."""
    try:
        return _INT_OF_CODE[code]
    except (KeyError, TypeError):  # TypeError: an unhashable value such as a list
        raise ValueError(f"bad card code {code!r}: {_BAD_CODE}") from None


def card_code(card: int) -> str:
    """The code of a card int made by `parse_card`; ValueError for any other value."""
    if type(card) is not int:  # True == 1 and 1.0 == 1 hash like ints; neither is a card
        raise ValueError(f"bad card int {card!r}: expected an int made by parse_card")
    try:
        return _CODE_OF_INT[card]
    except KeyError:
        raise ValueError(f"bad card int {card!r}: no card has this int") from None
