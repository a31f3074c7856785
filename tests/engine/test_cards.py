"""Cards: the codes, the deck, the shuffle and the int encoding the evaluator sums.

Pure and fast: no Django, no database.
"""

import ast
import itertools
import random
import secrets
from collections import Counter
from pathlib import Path

import pytest

from holdem.engine import cards
from holdem.engine.cards import card_code, new_deck, parse_card, shuffle

ENGINE_DIR = Path(cards.__file__).parent


class RecordingRandom:
    """A generator that records every randrange call and answers from a seeded Random."""

    def __init__(self, seed):
        self.inner = random.Random(seed)
        self.calls = []

    def randrange(self, stop):
        self.calls.append(stop)
        return self.inner.randrange(stop)


# --- codes and the deck -----------------------------------------------------------------------


def test_new_deck_has_52_distinct_codes():
    deck = new_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52


def test_every_code_is_a_rank_then_a_suit():
    for code in new_deck():
        assert len(code) == 2
        assert code[0] in "23456789TJQKA"
        assert code[1] in "cdhs"


def test_new_deck_is_in_a_fixed_order_and_a_new_list_each_time():
    first, second = new_deck(), new_deck()
    assert first == second
    assert first is not second
    assert first[:5] == ["2c", "2d", "2h", "2s", "3c"]
    assert first[-1] == "As"


def test_parse_card_and_card_code_round_trip_for_every_card():
    for code in new_deck():
        assert card_code(parse_card(code)) == code


def test_card_ints_are_distinct_and_none_is_zero():
    card_ints = [parse_card(code) for code in new_deck()]
    assert len(set(card_ints)) == 52
    assert all(type(card) is int and card > 0 for card in card_ints)


@pytest.mark.parametrize(
    "bad", ["", "A", "1s", "10s", "as", "AS", "Ax", "Ass", " As", None, 14, ["As"], b"As"]
)
def test_a_bad_code_raises_value_error_naming_it(bad):
    with pytest.raises(ValueError) as caught:
        parse_card(bad)
    message = str(caught.value)
    assert repr(bad) in message
    assert "23456789TJQKA" in message and "cdhs" in message


@pytest.mark.parametrize("bad", [-1, 3, 10**12, True, 1.0, "As", None])
def test_card_code_refuses_values_that_are_not_card_ints(bad):
    with pytest.raises(ValueError, match="bad card int"):
        card_code(bad)


# --- the shuffle ------------------------------------------------------------------------------


def test_shuffle_is_a_permutation_of_the_deck():
    deck = new_deck()
    shuffled = shuffle(deck, random.Random(7))
    assert sorted(shuffled) == sorted(deck)
    assert shuffled != deck  # 1 chance in 52! of a false failure with this fixed seed: none


def test_shuffle_with_a_seeded_random_is_deterministic():
    assert shuffle(new_deck(), random.Random(42)) == shuffle(new_deck(), random.Random(42))
    assert shuffle(new_deck(), random.Random(42)) != shuffle(new_deck(), random.Random(43))


def test_shuffle_returns_a_new_list_and_leaves_its_input_alone():
    deck = new_deck()
    as_given = list(deck)
    shuffled = shuffle(deck, random.Random(1))
    assert deck == as_given
    assert shuffled is not deck
    as_tuple = tuple(deck)
    assert sorted(shuffle(as_tuple, random.Random(1))) == sorted(as_tuple)


def test_shuffle_draws_only_from_the_generator_it_is_given():
    # RULES.md 3: Fisher-Yates from the generator passed in; never the global `random`.
    random.seed(1)
    first = shuffle(new_deck(), random.Random(5))
    random.seed(2)
    second = shuffle(new_deck(), random.Random(5))
    assert first == second

    recorder = RecordingRandom(5)
    assert shuffle(new_deck(), recorder) == first
    # One draw per position, from the whole deck down: randrange(52), (51), ..., (2).
    assert recorder.calls == list(range(52, 1, -1))


def test_shuffle_works_with_the_system_random_used_in_production():
    # RULES.md 3: production shuffles from a cryptographically secure generator (secrets).
    shuffled = shuffle(new_deck(), secrets.SystemRandom())
    assert sorted(shuffled) == sorted(new_deck())


def test_shuffle_deals_every_order_of_three_cards_equally_often():
    # A uniform Fisher-Yates: each of the 6 orders about 1/6 of the time, including those that
    # leave a card in place (an off-by-one would give only the 2 cyclic orders).
    rng = random.Random(2024)
    counts = Counter(tuple(shuffle(["As", "Kd", "2c"], rng)) for _ in range(60_000))
    assert len(counts) == 6
    assert all(9_500 < count < 10_500 for count in counts.values()), counts


def test_shuffle_of_an_empty_or_one_card_deck_needs_no_draws():
    recorder = RecordingRandom(0)
    assert shuffle([], recorder) == []
    assert shuffle(["As"], recorder) == ["As"]
    assert recorder.calls == []


# --- the int encoding the evaluator relies on -------------------------------------------------


def rank_multisets(size):
    """Every multiset of `size` rank indexes with at most four of a rank."""
    return [
        ranks
        for ranks in itertools.combinations_with_replacement(range(13), size)
        if max(Counter(ranks).values()) <= 4
    ]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_rank_key_sums_name_the_rank_multiset_of_a_hand(size):
    sums = {sum(cards.RANK_KEYS[rank] for rank in ranks) for ranks in rank_multisets(size)}
    assert len(sums) == len(rank_multisets(size))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_suit_key_sums_tell_whether_and_in_which_suit_a_hand_is_flush(size):
    flush_suit_of_sum = {}
    for counts in itertools.product(range(size + 1), repeat=4):
        if sum(counts) != size:
            continue
        flush_suit = next((suit for suit, count in enumerate(counts) if count >= 5), None)
        suit_sum = sum(key * count for key, count in zip(cards.SUIT_KEYS, counts))
        assert flush_suit_of_sum.setdefault(suit_sum, flush_suit) == flush_suit, counts


def test_suit_sums_of_seven_cards_fit_the_low_byte():
    # The evaluator reads the suit sum as `total & 255` and the ranks as `total >> 8`.
    assert cards.SUIT_BITS == 8
    assert 7 * max(cards.SUIT_KEYS) < 256


def test_card_modules_import_only_the_standard_library():
    # style.md 1: a pure engine; no module-level `random`, no Django, no I/O.
    allowed = {"dataclasses", "itertools", "operator", "collections.abc", "typing"}  # (types)
    for name in ("cards.py", "evaluator.py"):
        tree = ast.parse((ENGINE_DIR / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert {alias.name for alias in node.names} <= allowed, name
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module in allowed, (name, node.module)
