"""The rooms shipped with the site: RULES.md section 7, one dict of table options each."""

PRESETS: dict[str, dict] = {
    "classic": {
        "name": "Classic (Student.com)",
        "seats": 6,
        "structure": "no_limit",
        "blinds": "dynamic",
        "dynamic_blind_percent": 10,
        "raise_cap": 3,
        "min_raise": "any",
        "min_buy_in": 0,
        "max_buy_in": None,  # the whole balance
        "entry": "next_hand",
        "disconnect": "check_fold",
        "separate_linked_accounts": True,
    },
    "nl50": {
        "name": "No-Limit 50/100",
        "seats": 9,
        "structure": "no_limit",
        "blinds": "fixed",
        "small_blind": 50,
        "big_blind": 100,
        "raise_cap": None,
        "min_raise": "full",
        "min_buy_in": 2_000,
        "max_buy_in": 20_000,
        "entry": "wait_or_post",
        "disconnect": "check_fold",
        "separate_linked_accounts": True,
    },
    "pl50": {
        "name": "Pot-Limit 50/100",
        "seats": 6,
        "structure": "pot_limit",
        "blinds": "fixed",
        "small_blind": 50,
        "big_blind": 100,
        "raise_cap": None,
        "min_raise": "full",
        "min_buy_in": 2_000,
        "max_buy_in": 10_000,
        "entry": "wait_or_post",
        "disconnect": "check_fold",
        "separate_linked_accounts": True,
    },
    "fl20": {
        "name": "Fixed-Limit 20/40 (Pacific)",
        "seats": 10,
        "structure": "fixed_limit",
        "blinds": "fixed",
        "small_bet": 20,
        "big_bet": 40,
        "small_blind": 10,  # RULES.md 7: half the lower stake
        "big_blind": 20,  # RULES.md 7: the lower stake
        "raise_cap": 3,
        "min_raise": "full",
        "min_buy_in": 200,  # 10 x the lower stake [003]
        "max_buy_in": None,
        "entry": "wait_or_post",
        "disconnect": "all_in_protection",
        "separate_linked_accounts": True,
    },
    # RULES.md 1 and 7: the slow table (three times the turn clock and time bank), six-handed so
    # a round of turns stays bearable at that pace.
    "nl50_slow": {
        "name": "No-Limit 50/100 Slow",
        "seats": 6,
        "structure": "no_limit",
        "blinds": "fixed",
        "small_blind": 50,
        "big_blind": 100,
        "raise_cap": None,
        "min_raise": "full",
        "min_buy_in": 2_000,
        "max_buy_in": 20_000,
        "entry": "wait_or_post",
        "disconnect": "check_fold",
        "pace": "slow",
        "separate_linked_accounts": True,
    },
}


# The Sit & Go templates shipped with the site (RULES.md 8, the table at the end of the section).
# The levels and payouts are left empty: the RULES.md 8 defaults.
SIT_AND_GO_PRESETS: dict[str, dict] = {
    "sng6": {
        "name": "Sit & Go 6",
        "seats": 6,
        "structure": "no_limit",
        "buy_in": 1_000,
        "fee": 100,
        "starting_stack": 1_500,
        "level_seconds": 10 * 60,
    },
    "sng9_turbo": {
        "name": "Sit & Go 9 Turbo",
        "seats": 9,
        "structure": "no_limit",
        "buy_in": 500,
        "fee": 50,
        "starting_stack": 1_500,
        "level_seconds": 5 * 60,
    },
    "hu_hyper": {
        "name": "Heads-up Hyper",
        "seats": 2,
        "structure": "no_limit",
        "buy_in": 2_000,
        "fee": 100,
        "starting_stack": 500,
        "level_seconds": 3 * 60,
    },
}
