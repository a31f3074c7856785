"""The shuffle's position frequencies: a chi-square over a million decks. Prints, asserts nothing.

    .venv/bin/python bench/shuffle_stats.py [--shuffles 1000000] [--processes 2]

Each deck comes from the site's own path (holdem.services.shuffle.hand_deck: the configured
random source, Fisher-Yates). For every card and every deck position the count of decks with that
card there is compared with the N/52 a uniform shuffle gives: chi-square with 51 x 51 = 2,601
degrees of freedom, and its p-value (Wilson-Hilferty). Beside it, measured the same way on the
same number of decks, a known-biased peer (the "swap each card with any card" shuffle, which is
not uniform), to show the statistic would catch a bias.
"""

import argparse
import math
import multiprocessing
import os
import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]
CARDS = 52
DEGREES = (CARDS - 1) * (CARDS - 1)


def _site_decks(count: int) -> list[int]:
    """Counts[card * 52 + position] over `count` decks dealt by the site's shuffle."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "x" * 40)
    import django  # the settings are chosen above, before Django is set up

    django.setup()
    from holdem.engine.cards import new_deck
    from holdem.services.shuffle import hand_deck

    index = {card: i for i, card in enumerate(new_deck())}
    counts = [0] * (CARDS * CARDS)
    for _ in range(count):
        for position, card in enumerate(hand_deck()):
            counts[index[card] * CARDS + position] += 1
    return counts


def _naive_decks(count: int) -> list[int]:
    """The same counts for the biased peer: every position swapped with any position."""
    rng = random.SystemRandom()
    counts = [0] * (CARDS * CARDS)
    for _ in range(count):
        deck = list(range(CARDS))
        for i in range(CARDS):
            j = rng.randrange(CARDS)
            deck[i], deck[j] = deck[j], deck[i]
        for position, card in enumerate(deck):
            counts[card * CARDS + position] += 1
    return counts


def chi_square(counts: list[int], decks: int) -> tuple[float, float]:
    """The statistic and its upper-tail p-value (Wilson-Hilferty's normal approximation)."""
    expected = decks / CARDS
    statistic = sum((seen - expected) ** 2 for seen in counts) / expected
    k = DEGREES
    z = ((statistic / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return statistic, 0.5 * math.erfc(z / math.sqrt(2))


def measure(work, shuffles: int, processes: int) -> tuple[list[int], float]:
    start = time.perf_counter()
    shares = [
        shuffles // processes + (1 if i < shuffles % processes else 0) for i in range(processes)
    ]
    with multiprocessing.Pool(processes) as pool:
        parts = pool.map(work, shares)
    counts = [sum(column) for column in zip(*parts)]
    return counts, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shuffles", type=int, default=1_000_000)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"shuffles={args.shuffles:,} processes={args.processes} cpus={os.cpu_count()} "
        f"load={load[0]:.2f},{load[1]:.2f},{load[2]:.2f}"
    )
    for name, work in (("site", _site_decks), ("naive peer", _naive_decks)):
        counts, seconds = measure(work, args.shuffles, args.processes)
        statistic, p = chi_square(counts, args.shuffles)
        low, high = min(counts), max(counts)
        print(
            f"{name:>10}: chi2={statistic:,.1f} df={DEGREES:,} chi2/df={statistic / DEGREES:.4f} "
            f"p={p:.4g} cell min/max={low:,}/{high:,} (expected {args.shuffles / CARDS:,.1f}) "
            f"{args.shuffles / seconds:,.0f} shuffles/s"
        )


if __name__ == "__main__":
    main()
