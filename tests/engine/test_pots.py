"""Side pots, rake and splitting (holdem/engine/pots.py), as pure functions on chip counts."""

import pytest

from holdem.engine.pots import Pot, Stake, pot_rakes, side_pots, split_pot


def test_nobody_all_in_makes_one_pot_for_everyone_still_in():
    stakes = [Stake(1, 300), Stake(2, 300), Stake(3, 100, contending=False)]
    assert side_pots(stakes) == (Pot(700, (1, 2)),)


def test_the_worked_example_of_rules_4_makes_pots_of_1200_1000_and_400():
    # [000]: players 1-4 put in 500, player 5 is all in for 400, player 6 for 200.
    stakes = [Stake(seat, 500) for seat in (1, 2, 3, 4)]
    stakes += [Stake(5, 400, capped=True), Stake(6, 200, capped=True)]
    assert side_pots(stakes) == (
        Pot(1200, (1, 2, 3, 4, 5, 6)),
        Pot(1000, (1, 2, 3, 4, 5)),
        Pot(400, (1, 2, 3, 4)),
    )


def test_folded_chips_are_in_the_pots_but_the_folded_player_is_eligible_for_none():
    stakes = [Stake(1, 1000), Stake(2, 300, capped=True), Stake(3, 600, contending=False)]
    # Player 3 folded after putting in 600: 300 of it in the main pot, 300 in the side pot.
    assert side_pots(stakes) == (Pot(900, (1, 2)), Pot(1000, (1,)))


def test_a_player_under_all_in_protection_marks_a_level_like_an_all_in():
    stakes = [Stake(1, 800), Stake(2, 800), Stake(3, 250, capped=True)]
    assert side_pots(stakes) == (Pot(750, (1, 2, 3)), Pot(1100, (1, 2)))


def test_two_all_ins_at_the_same_level_make_one_pot():
    stakes = [Stake(1, 400, capped=True), Stake(2, 400, capped=True), Stake(3, 900)]
    assert side_pots(stakes) == (Pot(1200, (1, 2, 3)), Pot(500, (3,)))


def test_a_dead_blind_goes_to_the_main_pot_and_gives_no_eligibility():
    stakes = [Stake(1, 100, dead=50), Stake(2, 100), Stake(3, 60, capped=True)]
    assert side_pots(stakes) == (Pot(230, (1, 2, 3)), Pot(80, (1, 2)))


def test_chips_above_every_contender_stay_with_the_last_pot():
    # A player who folded out of turn (RULES.md 5) had more in than anyone still in.
    stakes = [Stake(1, 200, capped=True), Stake(2, 900, contending=False)]
    assert side_pots(stakes) == (Pot(1100, (1,)),)


def test_pots_always_hold_every_chip():
    stakes = [
        Stake(1, 37, capped=True),
        Stake(2, 1000),
        Stake(3, 512, capped=True),
        Stake(4, 999, contending=False),
        Stake(5, 1000, dead=25),
        Stake(6, 3),
    ]
    pots = side_pots(stakes)
    assert sum(pot.amount for pot in pots) == sum(s.live + s.dead for s in stakes)


def test_split_gives_equal_shares_and_every_odd_chip_to_the_first_winner():
    assert split_pot(100, (7, 2)) == {7: 50, 2: 50}
    assert split_pot(101, (7, 2)) == {7: 51, 2: 50}
    assert split_pot(11, (3, 5, 8)) == {3: 5, 5: 3, 8: 3}


def test_rake_is_a_percent_of_each_pot_rounded_down():
    assert pot_rakes([1000, 399], 5, None) == (50, 19)
    assert pot_rakes([999], 2.5, None) == (24,)


def test_rake_cap_is_for_the_whole_hand_main_pot_first():
    assert pot_rakes([1000, 1000, 1000], 5, 120) == (50, 50, 20)
    assert pot_rakes([1000], 5, 0) == (0,)


@pytest.mark.parametrize("percent", [0, 0.0])
def test_no_rake_percent_takes_nothing(percent):
    assert pot_rakes([5000, 10], percent, None) == (0, 0)


def test_a_decimal_rake_percent_is_exact():
    # 0.1% of 1000 is exactly 1 chip (a binary float would round it down to 0).
    assert pot_rakes([1000], 0.1, None) == (1,)


def test_the_last_player_in_wins_the_folded_chips_even_having_put_in_nothing():
    # RULES.md 5: blinds folded out of turn by disconnection, the button never put a chip in.
    stakes = [Stake(0, 0), Stake(1, 50, contending=False), Stake(2, 100, contending=False)]
    assert side_pots(stakes) == (Pot(150, (0,)),)
