"""Hand values for showdown: the best five of 5, 6 or 7 cards as one int, higher is better.

Tables built at import make a hand one lookup on the sum of its card ints (see cards.py).
"""

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from operator import eq

from .cards import RANK_KEYS, RANKS, SUIT_BITS, SUIT_KEYS, SUITS, card_code, parse_card

# RULES.md 4: the rankings, lowest first; a value's category is its top bits.
CATEGORIES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
(
    HIGH_CARD,
    ONE_PAIR,
    TWO_PAIR,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
) = range(len(CATEGORIES))

# A value is the category followed by the five ranks (0 = deuce .. 12 = ace) in order of
# importance, four bits each: the pair before its kickers, the trips before the pair of a full
# house. Comparing values compares category, then those ranks in turn, which is exactly how
# RULES.md 4 breaks ties (five cards only; unused cards never count). best_five reads them back.
_CATEGORY_SHIFT = 20
_ACE, _FIVE = 12, 3
_WHEEL = (1 << _ACE) | 0b1111  # A-2-3-4-5: RULES.md 4, the only place the ace plays low
_SUIT_MASK = (1 << SUIT_BITS) - 1
_BIT = tuple(1 << rank for rank in range(13))


def _pack(category: int, ranks: Iterable[int]) -> int:
    value = category
    for rank in ranks:
        value = value << 4 | rank
    return value


def _straight_ranks(rank_mask: int) -> Sequence[int] | None:
    """The ranks of the highest straight in a set of ranks (bitmask), high to low, or None."""
    for high in range(_ACE, _FIVE, -1):
        window = 0b11111 << (high - 4)
        if rank_mask & window == window:
            return range(high, high - 5, -1)
    if rank_mask & _WHEEL == _WHEEL:
        return (_FIVE, 2, 1, 0, _ACE)  # the wheel is five-high; no wrap-around (Q-K-A-2-3)
    return None


def _flush_value(rank_mask: int) -> int:
    """Value of five or more cards of one suit with these ranks (bitmask)."""
    straight = _straight_ranks(rank_mask)
    if straight is not None:
        return _pack(STRAIGHT_FLUSH, straight)
    top_five = [rank for rank in range(_ACE, -1, -1) if rank_mask >> rank & 1][:5]
    return _pack(FLUSH, top_five)


def _unsuited_value(ranks: Sequence[int]) -> int:
    """Value of the best five of these ranks (high to low) when no five share a suit."""
    # ranks by how many cards hold them, high to low
    groups: dict[int, list[int]] = {4: [], 3: [], 2: [], 1: []}
    present: list[int] = []  # distinct ranks, high to low
    for rank in ranks:
        if present and present[-1] == rank:
            continue
        present.append(rank)
        groups[ranks.count(rank)].append(rank)
    quads, trips, pairs, singles = groups[4], groups[3], groups[2], groups[1]

    if quads:
        kicker = next(rank for rank in present if rank != quads[0])
        return _pack(FOUR_OF_A_KIND, [quads[0]] * 4 + [kicker])
    if trips and (len(trips) > 1 or pairs):
        # Ranked by the trips first; the pair is the best other trips or pair.
        pair = max(trips[1:] + pairs)
        return _pack(FULL_HOUSE, [trips[0]] * 3 + [pair] * 2)
    if len(present) >= 5:
        straight = _straight_ranks(sum(map(_BIT.__getitem__, present)))
        if straight is not None:
            return _pack(STRAIGHT, straight)
    if trips:
        return _pack(THREE_OF_A_KIND, [trips[0]] * 3 + singles[:2])
    if len(pairs) >= 2:
        # A third pair can be the kicker: only its rank counts, like any unpaired card.
        kicker = max(pairs[2:3] + singles[:1])
        return _pack(TWO_PAIR, [pairs[0]] * 2 + [pairs[1]] * 2 + [kicker])
    if pairs:
        return _pack(ONE_PAIR, [pairs[0]] * 2 + singles[:3])
    return _pack(HIGH_CARD, singles[:5])


def _rank_multisets(size: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """(ranks high to low, key) for each multiset of `size` ranks; key = their ints' sum >> 8."""
    for ranks in combinations_with_replacement(range(_ACE, -1, -1), size):
        if not any(map(eq, ranks, ranks[4:])):  # five of a rank (ranks sorted): only 4 suits
            yield ranks, sum(map(RANK_KEYS.__getitem__, ranks))


def _build_unsuited_tables() -> list[dict[int, int]]:
    """[size] -> {key: value} for 5, 6 and 7 cards of which no five share a suit.

    Five-card multisets are scored; a bigger hand's best five lies inside one of the hands it
    makes by dropping one card, so its value is the best of those (and building is faster).
    """
    tables: list[dict[int, int]] = [{} for _ in range(8)]  # (sizes 0-4 stay empty)
    for size in (5, 6, 7):
        multisets = list(_rank_multisets(size))
        if size == 5:
            table = {key: _unsuited_value(ranks) for ranks, key in multisets}
        else:
            smaller, table = tables[size - 1], {}
            for ranks, key in multisets:
                table[key] = max([smaller[key - RANK_KEYS[rank]] for rank in set(ranks)])
        if len(table) != len(multisets):
            raise AssertionError(f"RANK_KEYS collide for {size} cards")  # cards.py's promise
        tables[size] = table
    return tables


def _build_flush_finder(
    size: int, suited_bits: Sequence[dict[int, int]]
) -> list[dict[int, int] | None]:
    """A 256-entry list: the low byte of a `size`-card sum -> None, or the flush suit's bits."""
    finder: list[dict[int, int] | None] = [None] * (1 << SUIT_BITS)
    answer_of: dict[int, int | None] = {}
    for counts in product(range(size + 1), repeat=len(SUITS)):
        if sum(counts) != size:
            continue
        flush_suit = next((suit for suit, count in enumerate(counts) if count >= 5), None)
        suit_sum = sum(key * count for key, count in zip(SUIT_KEYS, counts))
        if answer_of.setdefault(suit_sum, flush_suit) != flush_suit:
            raise AssertionError(f"SUIT_KEYS confuse flushes for {size} cards")  # cards.py
        if flush_suit is not None:
            finder[suit_sum] = suited_bits[flush_suit]
    return finder


# Per suit: card int -> its rank's bit if the card is of that suit, else 0. OR-ing these over a
# hand gives the ranks held in that suit, the index into _FLUSH_VALUES.
_SUITED_BITS = tuple(
    {
        parse_card(rank + suit): (1 << rank_index if suit == flush_suit else 0)
        for rank_index, rank in enumerate(RANKS)
        for suit in SUITS
    }
    for flush_suit in SUITS
)
# (0 for fewer than five ranks: no flush, never looked up)
_FLUSH_VALUES = [_flush_value(mask) if mask.bit_count() >= 5 else 0 for mask in range(1 << 13)]
# Indexed by the number of cards in the hand (5, 6 or 7): a list index is the cheapest lookup.
_UNSUITED = _build_unsuited_tables()
_FLUSH_FINDERS: list[list[dict[int, int] | None]] = [[] for _ in range(5)] + [
    _build_flush_finder(size, _SUITED_BITS) for size in (5, 6, 7)
]


def evaluate_ints(cards: Sequence[int]) -> int:
    """Value of a sequence (tuple or list) of 5, 6 or 7 parsed cards: the fast path.

    The ints come from cards.parse_card and must be distinct; nothing is checked here
    (`evaluate` checks). One sequence rather than seven arguments: `sum` adds it in C, so it
    is as fast as positional ints, and the hole cards plus the board are a list already.
    """
    total = sum(cards)
    size = len(cards)
    # 255 and 8 are _SUIT_MASK and SUIT_BITS, written out: constants load faster than globals.
    suited = _FLUSH_FINDERS[size][total & 255]
    if suited is None:
        return _UNSUITED[size][total >> 8]
    # Five or more cards of one suit: with at most two others the hand cannot also hold a full
    # house or four of a kind, so the flush (or straight flush) is the hand.
    rank_mask = 0
    for card in cards:
        rank_mask |= suited[card]
    return _FLUSH_VALUES[rank_mask]


def _parse_hand(cards: Iterable[str]) -> list[int]:
    if isinstance(cards, str):
        raise ValueError(f"expected a sequence of card codes, got the string {cards!r}")
    codes = list(cards)
    card_ints = [parse_card(code) for code in codes]
    if not 5 <= len(card_ints) <= 7:
        raise ValueError(f"a hand is 5, 6 or 7 cards, got {len(card_ints)}")
    if len(set(card_ints)) != len(card_ints):
        raise ValueError(f"a card appears twice in {codes}")
    return card_ints


def evaluate(cards: Iterable[str]) -> int:
    """Value of the best five of 5, 6 or 7 card codes; larger is better, equal hands are equal."""
    return evaluate_ints(_parse_hand(cards))


def category(value: int) -> str:
    """The ranking name of a hand value ("full house", "one pair", ...)."""
    if type(value) is not int or not 0 <= value >> _CATEGORY_SHIFT < len(CATEGORIES):
        raise ValueError(f"{value!r} is not a hand value")
    return CATEGORIES[value >> _CATEGORY_SHIFT]


def hand_name(value: int) -> str:
    """What a player calls the hand: its category, except that the ace-high straight flush is a
    "royal flush" (RULES.md 4: the highest straight flush)."""
    if value >> _CATEGORY_SHIFT == STRAIGHT_FLUSH and value >> 16 & 15 == 12:
        return "royal flush"
    return category(value)


@dataclass(frozen=True)
class BestHand:
    """The best five cards of a hand: its value, name ("royal flush", "one pair") and the codes."""

    value: int
    category: str
    cards: tuple[str, ...]  # most important first: the quads, the trips of a full house, ...


def best_five(cards: Iterable[str]) -> BestHand:
    """The five of these 5-7 card codes that make the hand, ordered by importance.

    Order: quads then kicker; trips then pair; higher pair, lower pair, kicker; straights high
    to low (the wheel as 5-4-3-2-A); flushes and high cards high to low. Of equal-ranked cards
    the one listed first is taken: suits never rank (RULES.md 4).
    """
    card_ints = _parse_hand(cards)
    value = evaluate_ints(card_ints)
    ranks = [value >> shift & 15 for shift in (16, 12, 8, 4, 0)]
    pool = list(card_ints)
    if value >> _CATEGORY_SHIFT in (FLUSH, STRAIGHT_FLUSH):
        # Only cards of the flush suit may play (at most one suit has five cards in seven).
        suit_keys = [card & _SUIT_MASK for card in card_ints]
        flush_key = max(suit_keys, key=suit_keys.count)
        pool = [card for card in card_ints if card & _SUIT_MASK == flush_key]
    chosen = []
    for rank in ranks:
        rank_key = RANK_KEYS[rank]
        card = next(card for card in pool if card >> SUIT_BITS == rank_key)
        pool.remove(card)
        chosen.append(card_code(card))
    return BestHand(value=value, category=hand_name(value), cards=tuple(chosen))
