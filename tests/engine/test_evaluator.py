"""Hand evaluation: values, categories and the best five cards, checked against the rules.

A slow, obvious reference scorer written here is the yardstick for the fast table evaluator.
"""

import itertools
import random
import time
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holdem.engine import evaluator
from holdem.engine.cards import new_deck, parse_card
from holdem.engine.evaluator import BestHand, best_five, category, evaluate, evaluate_ints

RANKS = "23456789TJQKA"
DECK = new_deck()

# RULES.md 4: the rankings, lowest first.
CATEGORY_NAMES = (
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


# --- the reference scorer ---------------------------------------------------------------------


def reference_five(cards):
    """(category index, tie-break ranks) of five codes, straight from RULES.md 4."""
    ranks = sorted((RANKS.index(code[0]) for code in cards), reverse=True)
    is_flush = len({code[1] for code in cards}) == 1
    straight_high = None
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_high = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_high = 3  # RULES.md 4: ace low only in 5-4-3-2-A, which is five-high
    # Ranks ordered by how many cards share them, then by rank: the tie-break order.
    by_group = sorted(set(ranks), key=lambda rank: (ranks.count(rank), rank), reverse=True)
    shape = [ranks.count(rank) for rank in by_group]
    if straight_high is not None and is_flush:
        return (8, [straight_high])
    if shape == [4, 1]:
        return (7, by_group)
    if shape == [3, 2]:
        return (6, by_group)
    if is_flush:
        return (5, ranks)
    if straight_high is not None:
        return (4, [straight_high])
    if shape == [3, 1, 1]:
        return (3, by_group)
    if shape == [2, 2, 1]:
        return (2, by_group)
    if shape == [2, 1, 1, 1]:
        return (1, by_group)
    return (0, ranks)


def reference_best(cards):
    """RULES.md 4: best five of the cards, by brute force over every five-card subset."""
    return max(reference_five(five) for five in itertools.combinations(cards, 5))


def assert_same_order(ours, reference):
    """`ours` and `reference` (parallel lists) order their hands identically, ties included."""
    pairs = sorted(zip(reference, ours))
    for (ref_low, our_low), (ref_high, our_high) in itertools.pairwise(pairs):
        if ref_low == ref_high:
            assert our_low == our_high, (ref_low, our_low, our_high)
        else:
            assert our_low < our_high, (ref_low, ref_high, our_low, our_high)


def random_hands(count, size, seed):
    rng = random.Random(seed)
    return [rng.sample(DECK, size) for _ in range(count)]


def hand(text):
    return text.split()


def beats(winner, loser):
    return evaluate(hand(winner)) > evaluate(hand(loser))


def ties(first, second):
    return evaluate(hand(first)) == evaluate(hand(second))


# --- every five-card class --------------------------------------------------------------------


def five_card_classes():
    """One hand for each of the 7,462 classes of five-card hands.

    Five distinct ranks (C(13,5) = 1,287 sets) once suited and once not, and every rank
    multiset with a repeat once (no flush is possible then). Every five-card hand has the value
    of one of these, since suits never rank (tested below).
    """
    hands = []
    for ranks in itertools.combinations(RANKS, 5):
        hands.append([rank + "h" for rank in ranks])
        hands.append([rank + suit for rank, suit in zip(ranks, "hhhhs")])
    for ranks in itertools.combinations_with_replacement(RANKS, 5):
        counts = Counter(ranks)
        if len(counts) < 5 and max(counts.values()) <= 4:
            hands.append(
                [rank + "cdhs"[index] for rank, count in counts.items() for index in range(count)]
            )
    return hands


FIVE_CARD_CLASSES = five_card_classes()


def test_there_are_7462_distinct_five_card_hand_values():
    assert len(FIVE_CARD_CLASSES) == 7462
    values = {evaluate(cards) for cards in FIVE_CARD_CLASSES}
    assert len(values) == 7462


def test_each_category_has_its_known_number_of_five_card_values():
    counts = Counter(category(evaluate(cards)) for cards in FIVE_CARD_CLASSES)
    assert counts == {
        "straight flush": 10,
        "four of a kind": 156,
        "full house": 156,
        "flush": 1277,
        "straight": 10,
        "three of a kind": 858,
        "two pair": 858,
        "one pair": 2860,
        "high card": 1277,
    }


def test_every_five_card_class_is_ordered_as_the_reference_orders_it():
    ours = [evaluate(cards) for cards in FIVE_CARD_CLASSES]
    reference = [reference_five(cards) for cards in FIVE_CARD_CLASSES]
    assert_same_order(ours, reference)
    for value, (category_index, _ranks) in zip(ours, reference):
        assert category(value) == CATEGORY_NAMES[category_index]


# --- RULES.md 4, case by case -----------------------------------------------------------------


def test_royal_flush_is_the_highest_hand():
    # RULES.md 4: straight flush, royal is the highest.
    royal = evaluate(hand("As Ks Qs Js Ts"))
    assert royal == max(evaluate(cards) for cards in FIVE_CARD_CLASSES)
    assert category(royal) == "straight flush"


def test_wheel_is_the_lowest_straight():
    # RULES.md 4: ace is high, or low in 5-4-3-2-A.
    assert category(evaluate(hand("5c 4d 3h 2s Ad"))) == "straight"
    assert beats("6c 5d 4h 3s 2d", "5c 4d 3h 2s Ad")
    assert beats("5c 4d 3h 2s Ad", "Ac Ad Ah Ks Qd")  # still a straight: above any trips


def test_steel_wheel_is_the_lowest_straight_flush():
    assert category(evaluate(hand("5h 4h 3h 2h Ah"))) == "straight flush"
    assert beats("6h 5h 4h 3h 2h", "5h 4h 3h 2h Ah")
    assert beats("5h 4h 3h 2h Ah", "Ac Ad Ah As Kd")


def test_no_wrap_around_q_k_a_2_3_is_only_ace_high():
    # RULES.md 4: no wrap-around.
    assert category(evaluate(hand("Qc Kd Ah 2s 3d"))) == "high card"
    assert category(evaluate(hand("Kc Ad 2h 3s 4d"))) == "high card"
    assert ties("Qc Kd Ah 2s 3d", "Qd Kc As 2h 3c")
    assert beats("Qc Kd Ah 2s 4d", "Qc Kd Ah 2s 3d")


def test_ace_plays_high_in_a_broadway_straight():
    assert beats("Ac Kd Qh Js Td", "Kc Qd Jh Ts 9d")


def test_kickers_decide_between_equal_pairs():
    # RULES.md 4: ties are broken by the ranks of the five cards.
    assert beats("Ac Ad Kh Qs Jd", "Ah As Kc Qd Td")
    assert beats("Ac Ad Kh Qs 3d", "Ah As Kc Jd Td")
    assert ties("Ac Ad Kh Qs Jd", "Ah As Kc Qd Jh")


def test_kickers_decide_between_equal_trips_and_equal_quads():
    assert beats("7c 7d 7h As 2d", "7c 7d 7s Ks Qd")
    assert beats("9c 9d 9h 9s Ad", "9c 9d 9h 9s Kd")


def test_two_pair_ranks_higher_pair_then_lower_pair_then_kicker():
    assert beats("Ac Ad 3h 3s 2d", "Kc Kd Qh Qs Jd")
    assert beats("Ac Ad 4h 4s 2d", "Ah As 3c 3d Kd")
    assert beats("Ac Ad 4h 4s 3d", "Ah As 4c 4d 2d")


def test_full_house_is_ranked_by_its_trips_first():
    assert beats("4c 4d 4h 2s 2d", "3c 3d 3h As Ad")
    assert beats("4c 4d 4h 3s 3d", "4c 4d 4s 2s 2d")


def test_seven_cards_with_two_sets_make_the_best_full_house():
    best = best_five(hand("Ac Ad Ah Ks Kd Kh 2c"))
    assert best.category == "full house"
    assert [code[0] for code in best.cards] == list("AAAKK")


def test_flush_beats_straight():
    assert beats("2h 5h 7h 9h Jh", "Ac Kd Qh Js Td")
    assert category(evaluate(hand("2h 5h 7h 9h Jh Tc 8d"))) == "flush"  # also holds 7-J straight


def test_flushes_compare_card_by_card_from_the_top():
    assert beats("Ah 9h 7h 5h 3h", "Ks Qs Js 9s 7s")
    assert beats("Ah 9h 7h 5h 4h", "As 9s 7s 5s 3s")


def test_each_category_beats_the_one_below():
    ladder = [
        "As Ks Qs Js Ts",
        "2c 2d 2h 2s 3c",
        "3c 3d 3h 2s 2c",
        "2h 3h 4h 5h 7h",
        "6c 5d 4h 3s 2d",
        "2c 2d 2h 3s 4c",
        "2c 2d 3h 3s 4c",
        "2c 2d 3h 4s 5c",
        "2c 3d 4h 5s 7c",
    ]
    values = [evaluate(hand(cards)) for cards in ladder]
    assert values == sorted(values, reverse=True)
    assert [category(value) for value in values] == list(reversed(CATEGORY_NAMES))


def test_suits_never_rank():
    # RULES.md 4: suits never rank; same ranks, other suits, same value.
    assert ties("Ah Kh Qh Jh 9h", "As Ks Qs Js 9s")
    assert ties("Ac Ad 7h 5s 2c", "Ah As 7c 5d 2s")
    rng = random.Random(11)
    for cards in random_hands(300, 7, seed=12):
        suits = list("cdhs")
        rng.shuffle(suits)
        renamed = [code[0] + suits["cdhs".index(code[1])] for code in cards]
        assert evaluate(renamed) == evaluate(cards)


def test_unused_cards_never_break_ties():
    # RULES.md 4: ties are broken by the five cards only, never by unused cards.
    assert ties("Ac Kd Qh Js 9c 3d 2h", "Ac Kd Qh Js 9c 8d 7h")  # the board's five play
    assert ties("Ac Ad Ah As Kc Qd Jh", "Ac Ad Ah As Kd 2c 3h")  # quads: one kicker only
    assert ties("Kc Kd Qh Qs 9c 8d 7h", "Kc Kd Qh Qs 9d 3d 2h")  # two pair: one kicker only


def test_board_plays_and_the_pot_splits():
    # RULES.md 4: the board may play; equal hands split the pot.
    board = hand("Ac Kd Qh Js Tc")
    first, second = board + hand("2c 3d"), board + hand("4h 4s")
    assert evaluate(first) == evaluate(second)
    assert best_five(first).cards == best_five(second).cards == tuple(board)


def test_counterfeited_two_pair_loses_to_the_board_pairs_with_a_better_kicker():
    # The board pairs twice above the pocket threes: they no longer play, the kicker decides.
    board = hand("8c 8d 5h 5s Kc")
    pocket_threes = evaluate(board + hand("3c 3d"))
    ace_kicker = evaluate(board + hand("Ah 2d"))
    assert category(pocket_threes) == category(ace_kicker) == "two pair"
    assert ace_kicker > pocket_threes
    assert ties("8c 8d 5h 5s Kc 3c 3d", "8c 8d 5h 5s Kc 4h 2d")  # both play 8-8-5-5-K


def test_two_pair_kicker_can_be_the_rank_of_a_third_pair():
    best = best_five(hand("Ac Ad Kh Ks Qc Qd 2h"))
    assert best.category == "two pair"
    assert [code[0] for code in best.cards] == list("AAKKQ")
    assert beats("Ac Ad Kh Ks Qc Qd 2h", "Ac Ad Kh Ks Jc Jd 2h")


def test_six_and_seven_cards_score_their_best_five():
    # RULES.md 4: best five of seven; any combination of hole and board cards.
    assert category(evaluate(hand("9c 8d 7h 6s 5c Kd"))) == "straight"
    assert category(evaluate(hand("9c 8d 7h 6s 5c Kd Kh"))) == "straight"
    assert category(evaluate(hand("9h 8h 7h 6h 2h Tc 5h"))) == "straight flush"
    assert evaluate(hand("Ac Ad Kh Ks 2c 3d")) == evaluate(hand("Ac Ad Kh Ks 3d"))
    for size in (6, 7):
        for cards in random_hands(1000, size, seed=size):
            assert evaluate(cards) == max(
                evaluate(five) for five in itertools.combinations(cards, 5)
            )


# --- a large random sample against the reference ----------------------------------------------


def test_seven_card_values_match_the_best_subset_and_the_reference_order():
    hands = random_hands(20_000, 7, seed=2024)
    ours = [evaluate(cards) for cards in hands]
    parsed = [[parse_card(code) for code in cards] for cards in hands]
    assert [evaluate_ints(card_ints) for card_ints in parsed] == ours
    assert [evaluate_ints(tuple(card_ints)) for card_ints in parsed] == ours
    # The best of the 21 five-card hands inside (scored on ints: the same path, parsed once).
    for card_ints, value in zip(parsed, ours):
        assert value == max(map(evaluate_ints, itertools.combinations(card_ints, 5)))
    reference = [reference_best(cards) for cards in hands]
    assert_same_order(ours, reference)
    # The sample holds every category, the rare ones included.
    assert {category(value) for value in ours} >= set(CATEGORY_NAMES) - {"straight flush"}


@given(st.permutations(DECK))
def test_any_seven_cards_score_as_the_reference_scores_them(shuffled):
    cards = shuffled[:7]
    value = evaluate(cards)
    assert category(value) == CATEGORY_NAMES[reference_best(cards)[0]]
    best = best_five(cards)
    assert best.value == value
    assert reference_five(best.cards) == reference_best(cards)


def test_seven_card_straight_flushes_match_the_reference():
    # Too rare for the random sample (about 1 in 3,000): build some on purpose.
    rng = random.Random(5)
    hands = []
    for high in range(3, 13):
        for suit in "cdhs":
            ranks = [12, 0, 1, 2, 3] if high == 3 else range(high - 4, high + 1)
            straight_flush = [RANKS[rank] + suit for rank in ranks]
            rest = [code for code in DECK if code not in straight_flush]
            hands.append(straight_flush + rng.sample(rest, 2))
    ours = [evaluate(cards) for cards in hands]
    assert {category(value) for value in ours} == {"straight flush"}
    assert_same_order(ours, [reference_best(cards) for cards in hands])


# --- best_five --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, expected",
    [
        ("Kd 9h Ks Kc 2c Kh 3d", "Kd Ks Kc Kh 9h"),  # quads, then kicker
        ("Qd Qs 2c 7h 7d 2s 7c", "7h 7d 7c Qd Qs"),  # trips, then the best pair
        ("4c Jd 4h Js 9c 9d 2s", "Jd Js 9c 9d 4c"),  # high pair, low pair, kicker
        ("5c 4d 3h 2s Ad Kc Qh", "5c 4d 3h 2s Ad"),  # the wheel as 5-4-3-2-A
        ("9c Td Jh Qs Kd Kc 2h", "Kd Qs Jh Td 9c"),  # straight high to low
        ("2h 9h 5h Jh 7h Ah Kc", "Ah Jh 9h 7h 5h"),  # six hearts: the best five
        ("9h 8h 7h 6h 5h Td 2c", "9h 8h 7h 6h 5h"),  # straight flush over a higher straight
        ("Ah 5h 4h 3h 2h 6c 7d", "5h 4h 3h 2h Ah"),  # steel wheel
        ("8s 3c 8d Ac Kd Qh 2s", "8s 8d Ac Kd Qh"),  # one pair, then three kickers
        ("2c 7d 9h Js 4d 3s Kc", "Kc Js 9h 7d 4d"),  # high card
        ("6c 6d 6h Ks Qd 2c 3h", "6c 6d 6h Ks Qd"),  # trips, then two kickers
    ],
)
def test_best_five_returns_the_five_cards_in_order_of_importance(cards, expected):
    best = best_five(hand(cards))
    assert best.cards == tuple(hand(expected))
    assert best.value == evaluate(hand(cards)) == evaluate(best.cards)
    assert best.category == category(best.value)


def test_best_five_of_five_cards_is_those_cards():
    best = best_five(hand("Ts 2d Tc Ah 7h"))
    assert best == BestHand(
        value=evaluate(hand("Ts 2d Tc Ah 7h")),
        category="one pair",
        cards=("Ts", "Tc", "Ah", "7h", "2d"),
    )


def test_best_five_is_frozen():
    best = best_five(hand("Ts 2d Tc Ah 7h"))
    with pytest.raises(AttributeError):
        best.value = 0


def test_best_five_cards_come_from_the_hand_and_make_its_value():
    for cards in random_hands(2000, 7, seed=99):
        best = best_five(cards)
        assert len(set(best.cards)) == 5 and set(best.cards) <= set(cards)
        assert evaluate(best.cards) == best.value == evaluate(cards)


# --- the API's edges --------------------------------------------------------------------------


def test_category_names_are_exactly_those_of_the_contract():
    assert evaluator.CATEGORIES == CATEGORY_NAMES


@pytest.mark.parametrize("bad", [-1, 9 << 20, 1.5, "flush", None])
def test_category_refuses_what_is_not_a_hand_value(bad):
    with pytest.raises(ValueError):
        category(bad)


@pytest.mark.parametrize(
    "cards, message",
    [
        ("As Kd Qh Js", "5, 6 or 7 cards"),
        ("As Kd Qh Js Tc 9c 8c 7c", "5, 6 or 7 cards"),
        ("As Kd Qh Js As", "twice"),
        ("As Kd Qh Js 1c", "bad card code"),
    ],
)
def test_evaluate_and_best_five_refuse_bad_hands(cards, message):
    for function in (evaluate, best_five):
        with pytest.raises(ValueError, match=message):
            function(hand(cards))


def test_evaluate_refuses_a_string_of_codes():
    with pytest.raises(ValueError, match="sequence of card codes"):
        evaluate("AsKdQhJsTc")


def test_evaluate_ints_scores_five_and_six_cards_too():
    for size in (5, 6):
        for cards in random_hands(500, size, seed=10 + size):
            assert evaluate_ints([parse_card(code) for code in cards]) == evaluate(cards)


def test_evaluate_accepts_any_sequence_or_iterable_of_codes():
    codes = hand("As Kd Qh Js Tc 2c 3d")
    assert evaluate(tuple(codes)) == evaluate(codes) == evaluate(iter(codes))


def test_tables_are_built_in_well_under_two_seconds():
    started = time.perf_counter()
    evaluator._build_unsuited_tables()
    assert time.perf_counter() - started < 2.0  # about 0.2 s on an idle machine


def test_the_ace_high_straight_flush_is_called_a_royal_flush():
    # RULES.md 4: "straight flush (royal is the highest)"; players call it by its name.
    royal = best_five(hand("Ah Kh Qh Jh Th 2c 3d"))
    assert royal.category == "royal flush"
    assert category(royal.value) == "straight flush"  # the ranking itself is unchanged
    assert best_five(hand("Kh Qh Jh Th 9h 2c 3d")).category == "straight flush"
