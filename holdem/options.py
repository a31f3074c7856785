"""From a room's stored options to the engine's HandOptions, and the checks a room must pass."""

from decimal import Decimal

from holdem import engine
from holdem.engine.options import HAND_OPTION_NAMES
from holdem.models import Blinds, ChatRule, Structure


def rules_of(table) -> dict:
    """The room's options under their RULES.md section 1 names."""
    rake = Decimal(table.rake_percent or 0)
    return {
        "seats": table.seats,
        "structure": table.structure,
        "blinds": table.blinds,
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "dynamic_blind_percent": table.dynamic_blind_percent,
        "small_bet": table.small_bet or None,
        "big_bet": table.big_bet or None,
        "raise_cap": table.raise_cap,
        "min_raise": table.min_raise,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "entry": table.entry,
        "disconnect": table.disconnect,
        "turn_seconds": table.turn_seconds,
        "time_bank_seconds": table.time_bank_seconds,
        "chat": table.chat,
        "countdown_seconds": table.countdown_seconds,
        "countdown_full_seconds": table.countdown_full_seconds,
        "rake_percent": int(rake) if rake == rake.to_integral_value() else float(rake),
        "rake_cap": table.rake_cap,
        "auto_muck": table.auto_muck,
        "disconnect_grace_seconds": table.disconnect_grace_seconds,
    }


def hand_options(table, stacks) -> "engine.HandOptions":
    """This hand's options; dynamic blinds come from the stacks dealt in (RULES.md 3)."""
    rules = {k: v for k, v in rules_of(table).items() if k in HAND_OPTION_NAMES}
    if table.structure != Structure.FIXED_LIMIT:
        rules.pop("small_bet", None)
        rules.pop("big_bet", None)
    return engine.HandOptions.from_rules(rules, stacks=list(stacks))


def room_problems(table) -> dict[str, str]:
    """Everything wrong with a room's options, by field name; empty when it can be played."""
    problems: dict[str, str] = {}
    if not 2 <= (table.seats or 0) <= 10:
        problems["seats"] = "A room has 2 to 10 seats."
    if table.structure == Structure.FIXED_LIMIT:
        if table.blinds == Blinds.DYNAMIC:
            problems["blinds"] = "Fixed-limit rooms use fixed blinds derived from the lower stake."
        if not table.small_bet or table.small_bet < 1:
            problems["small_bet"] = "A fixed-limit room needs a lower stake of at least 1 chip."
        elif table.small_bet // 2 < 1:
            problems["small_bet"] = (
                "The small blind (half the lower stake) would be below 1 chip (RULES.md 7)."
            )
        if table.small_bet and table.big_bet != 2 * table.small_bet:
            problems["big_bet"] = "The higher stake must be twice the lower stake (RULES.md 1)."
        if table.small_bet and table.small_bet // 2 >= 1:
            # RULES.md 1 and 7 [003]: the blinds follow from the lower stake.
            if table.small_blind != table.small_bet // 2:
                problems["small_blind"] = (
                    f"In fixed limit the small blind is half the lower stake, rounded down: {table.small_bet // 2:,}."
                )
            if table.big_blind != table.small_bet:
                problems["big_blind"] = (
                    f"In fixed limit the big blind is the lower stake: {table.small_bet:,}."
                )
            if table.min_buy_in < 10 * table.small_bet:
                problems["min_buy_in"] = (
                    f"The minimum buy-in is at least 10 lower stakes here: {10 * table.small_bet:,} (RULES.md 1)."
                )
    if table.blinds == Blinds.FIXED:
        if table.small_blind < 1:
            problems["small_blind"] = "The small blind must be at least 1 chip."
        if table.big_blind < table.small_blind:
            problems["big_blind"] = "The big blind must be at least the small blind."
    elif not 1 <= table.dynamic_blind_percent <= 100:
        problems["dynamic_blind_percent"] = (
            "Dynamic blinds are 1 to 100 percent of the smallest stack."
        )
    if table.max_buy_in is not None and table.max_buy_in < table.min_buy_in:
        problems["max_buy_in"] = "The maximum buy-in must not be below the minimum buy-in."
    if table.raise_cap is not None and table.raise_cap < 1:
        problems["raise_cap"] = "A raise cap allows at least 1 raise (leave it empty for no cap)."
    if not 0 <= Decimal(table.rake_percent or 0) <= 100:
        problems["rake_percent"] = "Rake is 0 to 100 percent."
    if table.turn_seconds < 5:
        problems["turn_seconds"] = "A turn lasts at least 5 seconds."
    if table.chat not in ChatRule.values:
        problems["chat"] = "Chat is open to everyone or to seated players only."
    if not 0 <= table.time_bank_seconds <= 600:
        problems["time_bank_seconds"] = "A time bank is 0 (none) to 600 seconds."
    if table.countdown_seconds < 1 or table.countdown_full_seconds < 1:
        problems["countdown_seconds"] = "Countdowns last at least 1 second."
    if not problems and table.blinds == Blinds.FIXED:
        try:
            hand_options(table, [table.big_blind * 100] * 2)
        except ValueError as error:
            problems["structure"] = str(error)
    return problems
