"""Seven-card evaluations per second, side by side: ours (the fast int path), treys, pokerkit.

All three score the same pre-generated random hands, each converted to its library's cards first.
Run from the project root: `.venv/bin/python bench/evaluator_speed.py [--hands N] [--seed S]`.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project root

import itertools

from holdem.engine.cards import new_deck, parse_card
from holdem.engine.evaluator import evaluate, evaluate_ints

# pokerkit builds a hand object for each of the 21 five-card subsets, about 1,000 times slower
# than our path: it is timed on the first hands of the same list to keep the run short.
POKERKIT_HANDS = 5_000


def _deal(n_hands, seed):
    """`n_hands` seven-card hands of codes: two hole cards, then the five of the board."""
    rng = random.Random(seed)
    deck = new_deck()
    return [rng.sample(deck, 7) for _ in range(n_hands)]


def _best_rate(run, count, repeats, warm_up=None):
    """Evaluations per second of `run()` (which scores `count` hands), best of `repeats`.

    `warm_up()` (default: `run` itself) goes first, untimed: CPython specialises a loop's
    bytecode on its first passes, and the tables should be in the cache as in real use.
    """
    (warm_up or run)()
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return count / best


def _time_ours(hands, repeats):
    parsed = [tuple(map(parse_card, codes)) for codes in hands]

    def run():
        for cards in parsed:
            evaluate_ints(cards)

    return _best_rate(run, len(parsed), repeats), [evaluate_ints(cards) for cards in parsed]


def _time_ours_from_codes(hands, repeats):
    def run():
        for codes in hands:
            evaluate(codes)

    return _best_rate(run, len(hands), repeats)


def _time_treys(hands, repeats):
    from treys import Card, Evaluator

    treys_evaluator = Evaluator()
    converted = [
        ([Card.new(code) for code in codes[:2]], [Card.new(code) for code in codes[2:]])
        for codes in hands
    ]

    def run():
        for hole, board in converted:
            treys_evaluator.evaluate(hole, board)

    # treys ranks 1 (royal flush) .. 7462: smaller is better, so negate to compare with ours.
    ranks = [-treys_evaluator.evaluate(hole, board) for hole, board in converted]
    return _best_rate(run, len(converted), repeats), ranks


def _time_pokerkit(hands):
    from pokerkit import Card, StandardHighHand

    converted = [
        (tuple(Card.parse("".join(codes[:2]))), tuple(Card.parse("".join(codes[2:]))))
        for codes in hands
    ]

    def run(hands=converted):
        for hole, board in hands:
            StandardHighHand.from_game(hole, board)

    pokerkit_hands = [StandardHighHand.from_game(hole, board) for hole, board in converted]
    # Timed once, warmed on a few hands: a full extra pass would double the slowest part.
    return _best_rate(run, len(converted), 1, lambda: run(converted[:100])), pokerkit_hands


def _same_order(ours, theirs):
    """True if both lists order their hands identically, ties included."""
    order = sorted(range(len(ours)), key=theirs.__getitem__)
    for low, high in itertools.pairwise(order):
        tied = not theirs[low] < theirs[high]
        if (ours[low] == ours[high]) != tied or ours[low] > ours[high]:
            return False
    return True


def measure(n_hands=100_000, seed=1, pokerkit_hands=POKERKIT_HANDS, repeats=3):
    """Seven-card evaluations per second of ours, treys and pokerkit on the same random hands.

    Returns a dict: hands, pokerkit_hands, ours, ours_from_codes, treys, pokerkit (evaluations
    per second), ours_vs_treys, ours_vs_pokerkit (speed ratios) and agrees_with_treys,
    agrees_with_pokerkit (whether both order the hands the same way, ties included).
    """
    hands = _deal(n_hands, seed)
    pokerkit_sample = hands[:pokerkit_hands]
    ours, our_values = _time_ours(hands, repeats)
    ours_from_codes = _time_ours_from_codes(hands, repeats)
    treys, treys_ranks = _time_treys(hands, repeats)
    pokerkit, pokerkit_results = _time_pokerkit(pokerkit_sample)
    return {
        "hands": n_hands,
        "pokerkit_hands": len(pokerkit_sample),
        "ours": ours,
        "ours_from_codes": ours_from_codes,
        "treys": treys,
        "pokerkit": pokerkit,
        "ours_vs_treys": ours / treys,
        "ours_vs_pokerkit": ours / pokerkit,
        "agrees_with_treys": _same_order(our_values, treys_ranks),
        "agrees_with_pokerkit": _same_order(our_values[: len(pokerkit_sample)], pokerkit_results),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands to time (100,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random hands (1)")
    parser.add_argument(
        "--pokerkit-hands",
        type=int,
        default=POKERKIT_HANDS,
        help=f"of those, how many pokerkit scores ({POKERKIT_HANDS:,})",
    )
    args = parser.parse_args(argv)
    result = measure(args.hands, args.seed, args.pokerkit_hands)
    print(
        f"Seven-card evaluations per second ({result['hands']:,} random hands, seed {args.seed};"
        f" pokerkit on the first {result['pokerkit_hands']:,})"
    )
    print(f"  {'ours, evaluate_ints':<30}{result['ours']:>14,.0f}")
    print(f"  {'ours, evaluate (card codes)':<30}{result['ours_from_codes']:>14,.0f}")
    print(f"  {'treys Evaluator.evaluate':<30}{result['treys']:>14,.0f}")
    print(f"  {'pokerkit StandardHighHand':<30}{result['pokerkit']:>14,.0f}")
    print(f"  ours / treys:    {result['ours_vs_treys']:8.1f}x")
    print(f"  ours / pokerkit: {result['ours_vs_pokerkit']:8.1f}x")
    print(
        f"  same order as treys: {'yes' if result['agrees_with_treys'] else 'NO'};"
        f" as pokerkit: {'yes' if result['agrees_with_pokerkit'] else 'NO'}"
    )
    return 0 if result["agrees_with_treys"] and result["agrees_with_pokerkit"] else 1


if __name__ == "__main__":
    sys.exit(main())
