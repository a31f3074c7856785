"""Checks the evaluator on every poker hand: all 133,784,560 seven-card hands by category and
the 7,462 distinct values of all 2,598,960 five-card hands, against the known totals.

Run from the project root: `.venv/bin/python bench/enumerate7.py` (about 20 s on one core), or
`--sample N` for N random seven-card hands checked against the expected proportions.
Exits 1 on any mismatch.
"""

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root

from holdem.engine import evaluator
from holdem.engine.cards import new_deck, parse_card

SEVEN_CARD_HANDS = 133_784_560
FIVE_CARD_HANDS = 2_598_960
SEVEN_CARD_TOTALS = {
    "straight flush": 41_584,
    "four of a kind": 224_848,
    "full house": 3_473_184,
    "flush": 4_047_644,
    "straight": 6_180_020,
    "three of a kind": 6_461_620,
    "two pair": 31_433_400,
    "one pair": 58_627_800,
    "high card": 23_294_460,
}
FIVE_CARD_TOTALS = {
    "straight flush": 40,
    "four of a kind": 624,
    "full house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three of a kind": 54_912,
    "two pair": 123_552,
    "one pair": 1_098_240,
    "high card": 1_302_540,
}
FIVE_CARD_VALUES = 7_462
CATEGORY_SHIFT = 20  # a value's top bits are its category (evaluator.py)


def count_all_seven_card_hands():
    """Hands per category index over every seven-card hand.

    The same arithmetic as evaluator.evaluate_ints, with the card sums built up one loop level
    at a time so that the innermost loop is one add, the flush check and one table lookup.
    Flushes (about 3%) go through evaluate_ints itself.
    """
    cards = [parse_card(code) for code in new_deck()]
    tails = [tuple(cards[start:]) for start in range(53)]
    flush_finder = evaluator._FLUSH_FINDERS[7]
    unsuited = evaluator._UNSUITED[7]
    evaluate_ints = evaluator.evaluate_ints
    counts = [0] * len(evaluator.CATEGORIES)
    for i1 in range(46):
        c1 = cards[i1]
        for i2 in range(i1 + 1, 47):
            c2 = cards[i2]
            s2 = c1 + c2
            for i3 in range(i2 + 1, 48):
                c3 = cards[i3]
                s3 = s2 + c3
                for i4 in range(i3 + 1, 49):
                    c4 = cards[i4]
                    s4 = s3 + c4
                    for i5 in range(i4 + 1, 50):
                        c5 = cards[i5]
                        s5 = s4 + c5
                        for i6 in range(i5 + 1, 51):
                            c6 = cards[i6]
                            s6 = s5 + c6
                            for c7 in tails[i6 + 1]:
                                total = s6 + c7
                                if flush_finder[total & 255] is None:
                                    counts[unsuited[total >> 8] >> 20] += 1
                                else:
                                    value = evaluate_ints((c1, c2, c3, c4, c5, c6, c7))
                                    counts[value >> 20] += 1
    return counts


def count_sampled_seven_card_hands(sample, seed):
    """Hands per category index over `sample` random seven-card hands."""
    cards = [parse_card(code) for code in new_deck()]
    rng = random.Random(seed)
    counts = [0] * len(evaluator.CATEGORIES)
    for _ in range(sample):
        counts[evaluator.evaluate_ints(rng.sample(cards, 7)) >> CATEGORY_SHIFT] += 1
    return counts


def count_all_five_card_hands():
    """(hands per category index, set of distinct values) over every five-card hand."""
    cards = [parse_card(code) for code in new_deck()]
    tails = [tuple(cards[start:]) for start in range(53)]
    flush_finder = evaluator._FLUSH_FINDERS[5]
    unsuited = evaluator._UNSUITED[5]
    counts = [0] * len(evaluator.CATEGORIES)
    values = set()
    for i1 in range(48):
        c1 = cards[i1]
        for i2 in range(i1 + 1, 49):
            c2 = cards[i2]
            s2 = c1 + c2
            for i3 in range(i2 + 1, 50):
                c3 = cards[i3]
                s3 = s2 + c3
                for i4 in range(i3 + 1, 51):
                    c4 = cards[i4]
                    s4 = s3 + c4
                    for c5 in tails[i4 + 1]:
                        total = s4 + c5
                        if flush_finder[total & 255] is None:
                            value = unsuited[total >> 8]
                        else:
                            value = evaluator.evaluate_ints((c1, c2, c3, c4, c5))
                        counts[value >> 20] += 1
                        values.add(value)
    return counts, values


def report(title, counts, expected, tolerance=None):
    """Print one row per category; True if every row matches (within `tolerance`, if given)."""
    print(title)
    print(f"  {'category':<16}{'counted':>14}{'expected':>16}")
    all_ok = True
    for index in reversed(range(len(evaluator.CATEGORIES))):
        name = evaluator.CATEGORIES[index]
        want = expected[name]
        if tolerance is None:
            ok = counts[index] == want
        else:
            ok = abs(counts[index] - want) <= tolerance(want)
        all_ok &= ok
        shown = f"{want:,}" if tolerance is None else f"{want:,.1f}"
        print(f"  {name:<16}{counts[index]:>14,}{shown:>16}  {'OK' if ok else 'MISMATCH'}")
    print(f"  {'total':<16}{sum(counts):>14,}")
    return all_ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="check N random seven-card hands instead of all of them",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of --sample (default 1)")
    args = parser.parse_args(argv)
    all_ok = True

    started = time.perf_counter()
    if args.sample:
        counts = count_sampled_seven_card_hands(args.sample, args.seed)
        scale = args.sample / SEVEN_CARD_HANDS
        expected = {name: total * scale for name, total in SEVEN_CARD_TOTALS.items()}

        # Five standard deviations of a binomial count, plus one for the rarest rows.
        def tolerance(mean):
            return 5 * math.sqrt(mean * (1 - mean / args.sample)) + 1

        title = (
            f"Seven-card hands: {args.sample:,} random (seed {args.seed}),"
            " against the expected share"
        )
        all_ok &= report(title, counts, expected, tolerance)
    else:
        counts = count_all_seven_card_hands()
        all_ok &= report(f"Seven-card hands: all {SEVEN_CARD_HANDS:,}", counts, SEVEN_CARD_TOTALS)
        all_ok &= sum(counts) == SEVEN_CARD_HANDS
    elapsed = time.perf_counter() - started
    if args.sample:
        print(f"  time: {elapsed:.1f} s (mostly drawing the random hands)\n")
    else:
        print(f"  time: {elapsed:.1f} s ({sum(counts) / elapsed / 1e6:.2f} M hands/s)\n")

    started = time.perf_counter()
    counts, values = count_all_five_card_hands()
    all_ok &= report(f"Five-card hands: all {FIVE_CARD_HANDS:,}", counts, FIVE_CARD_TOTALS)
    values_ok = len(values) == FIVE_CARD_VALUES
    all_ok &= values_ok and sum(counts) == FIVE_CARD_HANDS
    print(
        f"  distinct values: {len(values):,} (expected {FIVE_CARD_VALUES:,})  "
        f"{'OK' if values_ok else 'MISMATCH'}"
    )
    print(f"  time: {time.perf_counter() - started:.1f} s\n")

    print("ALL OK" if all_ok else "MISMATCH")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
