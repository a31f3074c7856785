"""HandOptions and the blinds derived from the table options (RULES.md 1, 3 and 7)."""

import pytest

from holdem.engine import HandOptions, dynamic_blinds, fixed_limit_blinds

NL50 = {
    "structure": "no_limit",
    "blinds": "fixed",
    "small_blind": 50,
    "big_blind": 100,
    "raise_cap": "none",
    "min_raise": "full",
}


def test_from_rules_reads_the_preset_no_limit_table():
    options = HandOptions.from_rules(NL50)
    assert options == HandOptions("no_limit", 50, 100, raise_cap=None, min_raise="full")


@pytest.mark.parametrize("name", ["seats", "min_buy_in", "turn_seconds", "chat", "auto_muck"])
def test_from_rules_refuses_a_tables_own_option(name):
    """The engine knows the hand's options only; the site leaves the table's own ones out."""
    with pytest.raises(ValueError, match=f"^{name}: unknown option"):
        HandOptions.from_rules({**NL50, name: 1})


def test_from_rules_computes_dynamic_blinds_from_the_stacks_dealt_in():
    rules = {"structure": "no_limit", "blinds": "dynamic", "raise_cap": 3, "min_raise": "any"}
    options = HandOptions.from_rules(rules, stacks=[2378, 5000, 1234])
    assert (options.small_blind, options.big_blind) == (61, 122)
    assert (options.raise_cap, options.min_raise) == (3, "any")
    with pytest.raises(ValueError, match="stacks"):
        HandOptions.from_rules(rules)
    assert HandOptions.from_rules({**rules, "small_blind": 5, "big_blind": 10}).big_blind == 10


def test_from_rules_gives_fixed_limit_its_blinds_and_big_bet_from_the_small_bet():
    options = HandOptions.from_rules({"structure": "fixed_limit", "small_bet": 20, "raise_cap": 3})
    assert (options.small_blind, options.big_blind, options.small_bet, options.big_bet) == (
        10,
        20,
        20,
        40,
    )
    with pytest.raises(ValueError, match="big_bet"):
        HandOptions.from_rules({"structure": "fixed_limit", "small_bet": 20, "big_bet": 50})
    with pytest.raises(ValueError, match="below 1 chip"):
        HandOptions.from_rules({"structure": "fixed_limit", "small_bet": 1})


@pytest.mark.parametrize(
    "rules, name",
    [
        ({"big_blind": 100, "colour": "red"}, "colour"),
        ({"structure": "spread_limit", "big_blind": 100}, "structure"),
        ({"big_blind": 100, "blinds": "random"}, "blinds"),
        ({"big_blind": 100, "min_raise": "half"}, "min_raise"),
        ({"big_blind": 100, "raise_cap": -1}, "raise_cap"),
        ({"big_blind": 100, "rake_percent": 101}, "rake_percent"),
        ({"big_blind": 100, "rake_cap": 2.5}, "rake_cap"),
        ({"big_blind": 0}, "big_blind"),
        ({"big_blind": True}, "big_blind"),
        ({"small_blind": 60, "big_blind": 50}, "small_blind"),
        ({"structure": "no_limit"}, "big_blind"),
        ({"blinds": "dynamic", "dynamic_blind_percent": 0}, "dynamic_blind_percent"),
    ],
)
def test_from_rules_names_the_bad_option(rules, name):
    with pytest.raises(ValueError, match=name):
        HandOptions.from_rules(rules, stacks=[1000, 2000])


def test_hand_options_fill_in_fixed_limit_bets_from_the_big_blind():
    options = HandOptions(structure="fixed_limit", small_blind=10, big_blind=20)
    assert (options.small_bet, options.big_bet) == (20, 40)
    assert options.bet_size("preflop") == options.bet_size("flop") == 20
    assert options.bet_size("turn") == options.bet_size("river") == 40


@pytest.mark.parametrize(
    "stacks, percent, blinds",
    [
        ([5000, 9000], 10, (250, 500)),
        ([5000], 1, (25, 50)),  # the [000] example, with the percent that makes it true
        ([1234], 10, (61, 122)),
        ([15, 900], 10, (1, 2)),  # at least 2 chips
        ([999], 2.5, (12, 24)),
    ],
)
def test_dynamic_blinds(stacks, percent, blinds):
    assert dynamic_blinds(stacks, percent) == blinds


def test_fixed_limit_blinds_are_half_the_lower_stake_rounded_down():
    assert fixed_limit_blinds(20) == (10, 20)
    assert fixed_limit_blinds(5) == (2, 5)
    with pytest.raises(ValueError):
        fixed_limit_blinds(1)
