"""The table options one hand needs (RULES.md 1), and the blind sizes derived from them.

`HandOptions.from_rules` reads RULES.md option names; `dynamic_blinds` and `fixed_limit_blinds`
compute blinds as RULES.md 3 and 7 say.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeGuard

from holdem.engine.names import FIXED_LIMIT, FLOP, PREFLOP, Structure

MIN_RAISE_RULES = ("full", "any")
_STRUCTURE_CHOICES = f"structure: must be one of {', '.join(Structure)}"

# The RULES.md 1 options one hand needs. The table's other options are the site's business, and
# the site passes only these (holdem/table_options.py declares which options the engine reads).
HAND_OPTION_NAMES = frozenset(
    {
        "structure",
        "blinds",
        "small_blind",
        "big_blind",
        "dynamic_blind_percent",
        "small_bet",
        "big_bet",
        "raise_cap",
        "min_raise",
        "rake_percent",
        "rake_cap",
    }
)
# RULES.md 8: options a tournament's hand has and a cash room does not (the level's ante).
# from_rules reads them too; they are not table options (holdem/table_options.py).
TOURNAMENT_OPTION_NAMES = frozenset({"ante"})


def is_chips(value: object) -> TypeGuard[int]:
    """A whole number of chips: an int, and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_percent(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 100


def exact_fraction(percent: int | float) -> Fraction:
    """A percentage as an exact fraction of 1 (2.5 -> 1/40), read from its decimal digits."""
    return Fraction(str(percent)) / 100


@dataclass(frozen=True)
class HandOptions:
    """Betting structure, blinds, raise rules and rake of one hand (docs/engine-api.md)."""

    structure: Structure = Structure.NO_LIMIT
    small_blind: int = 1
    big_blind: int = 2
    small_bet: int | None = None
    big_bet: int | None = None
    raise_cap: int | None = None
    min_raise: str = "full"
    rake_percent: int | float = 0
    rake_cap: int | None = None
    ante: int = 0  # RULES.md 8: posted by every player dealt in, dead money (cash rooms: 0)

    def __post_init__(self) -> None:
        # A plain string becomes its Structure (equal to it: stored options read back equal).
        object.__setattr__(self, "structure", _structure(self.structure))
        if self.min_raise not in MIN_RAISE_RULES:
            raise ValueError("min_raise: must be 'full' or 'any'")
        if not is_chips(self.big_blind) or self.big_blind < 1:
            raise ValueError("big_blind: must be a whole number of chips, at least 1")
        if not is_chips(self.small_blind) or not 1 <= self.small_blind <= self.big_blind:
            raise ValueError("small_blind: must be whole chips, at least 1, at most the big blind")
        if self.raise_cap is not None and (not is_chips(self.raise_cap) or self.raise_cap < 0):
            raise ValueError("raise_cap: must be None or a whole number of raises, 0 or more")
        if not _is_percent(self.rake_percent):
            raise ValueError("rake_percent: must be a number from 0 to 100")
        if self.rake_cap is not None and (not is_chips(self.rake_cap) or self.rake_cap < 0):
            raise ValueError("rake_cap: must be None or whole chips, 0 or more")
        if not is_chips(self.ante) or self.ante < 0:
            raise ValueError("ante: must be whole chips, 0 or more")
        for name in ("small_bet", "big_bet"):
            value = getattr(self, name)
            if value is not None and (not is_chips(value) or value < 1):
                raise ValueError(f"{name}: must be whole chips, at least 1")
        if self.structure == FIXED_LIMIT:
            # RULES.md 7: the lower stake is the big blind unless given; big bet = 2 x small bet.
            small_bet = self.big_blind if self.small_bet is None else self.small_bet
            object.__setattr__(self, "small_bet", small_bet)
            if self.big_bet is None:
                object.__setattr__(self, "big_bet", 2 * small_bet)

    def bet_size(self, street: str) -> int:
        """Fixed limit: the bet of a round, the small bet before the turn, then the big bet."""
        size = self.small_bet if street in (PREFLOP, FLOP) else self.big_bet
        if size is None:
            raise ValueError("bet_size: only fixed limit has bet sizes")
        return size

    @classmethod
    def from_rules(
        cls, rules: Mapping[str, Any], stacks: Iterable[int] | None = None
    ) -> "HandOptions":
        """Options from RULES.md section 1 names; `stacks` (chips of the players dealt in) are
        needed for `blinds: "dynamic"` unless `small_blind`/`big_blind` are given already.

        Only HAND_OPTION_NAMES and TOURNAMENT_OPTION_NAMES (the ante) are read; another name (a
        table's own option such as `seats`, or a typo) or a bad value raises ValueError naming
        the option.
        """
        if not isinstance(rules, Mapping):
            raise ValueError("options: must be a mapping of RULES.md option names")
        for name in rules:
            if name not in HAND_OPTION_NAMES and name not in TOURNAMENT_OPTION_NAMES:
                raise ValueError(f"{name}: unknown option")
        structure = _structure(rules.get("structure", Structure.NO_LIMIT))
        small_bet = _optional_chips(rules, "small_bet")
        big_bet = _optional_chips(rules, "big_bet")
        small_blind = _optional_chips(rules, "small_blind")
        big_blind = _optional_chips(rules, "big_blind")

        if structure == FIXED_LIMIT:
            if small_bet is None:
                if big_blind is None:
                    raise ValueError("small_bet: required for fixed limit")
                small_bet = big_blind
            if big_bet is None:
                big_bet = 2 * small_bet
            elif big_bet != 2 * small_bet:
                # RULES.md 1: the higher stake is twice the lower stake [003].
                raise ValueError(f"big_bet: must be 2 x small_bet ({2 * small_bet})")

        blinds = rules.get("blinds", "fixed")
        if blinds == "dynamic":
            percent = rules.get("dynamic_blind_percent", 10)
            if not _is_percent(percent) or percent <= 0:
                raise ValueError("dynamic_blind_percent: must be a number above 0, at most 100")
            if stacks is not None:
                small_blind, big_blind = dynamic_blinds(stacks, percent)
            elif small_blind is None or big_blind is None:
                raise ValueError("blinds: dynamic blinds need the stacks dealt in (stacks=...)")
        elif blinds == "fixed":
            if big_blind is None:
                if structure != FIXED_LIMIT or small_bet is None:
                    raise ValueError("big_blind: required for fixed blinds")
                small_blind, big_blind = fixed_limit_blinds(small_bet)
            elif small_blind is None:
                small_blind = big_blind // 2
        else:
            raise ValueError("blinds: must be 'fixed' or 'dynamic'")

        raise_cap = _optional_count(rules, "raise_cap")
        rake_cap = _optional_count(rules, "rake_cap")
        ante = rules.get("ante", 0)
        if not is_chips(ante) or ante < 0:
            raise ValueError("ante: must be whole chips, 0 or more")
        return cls(
            structure=structure,
            small_blind=small_blind,
            big_blind=big_blind,
            small_bet=small_bet,
            big_bet=big_bet,
            raise_cap=raise_cap,
            min_raise=rules.get("min_raise", "full"),
            rake_percent=rules.get("rake_percent", 0),
            rake_cap=rake_cap,
            ante=ante,
        )


def _structure(name: object) -> Structure:
    for structure in Structure:
        if name == structure:
            return structure
    raise ValueError(_STRUCTURE_CHOICES)


def _optional_chips(rules: Mapping[str, Any], name: str) -> int | None:
    value = rules.get(name)
    if value is None:
        return None
    if not is_chips(value) or value < 1:
        raise ValueError(f"{name}: must be whole chips, at least 1")
    return value


def _optional_count(rules: Mapping[str, Any], name: str) -> int | None:
    """A cap that may be "none" (RULES.md 1: raise_cap none or N; rake_cap none)."""
    value = rules.get(name)
    if value is None or value == "none":
        return None
    if not is_chips(value) or value < 0:
        raise ValueError(f"{name}: must be none or a whole number, 0 or more")
    return value


def dynamic_blinds(stacks: Iterable[int], percent: int | float = 10) -> tuple[int, int]:
    """RULES.md 3: big blind = `percent` of the smallest stack dealt in, rounded down to an even
    number of chips and at least 2; small blind = half of it."""
    stacks = list(stacks)
    if not stacks or not all(is_chips(stack) and stack > 0 for stack in stacks):
        raise ValueError("stacks: need at least one stack of whole chips above 0")
    if not _is_percent(percent) or percent <= 0:
        raise ValueError("dynamic_blind_percent: must be a number above 0, at most 100")
    big = int(min(stacks) * exact_fraction(percent)) // 2 * 2
    big = max(big, 2)
    return big // 2, big


def fixed_limit_blinds(small_bet: int) -> tuple[int, int]:
    """RULES.md 7: small blind = half the lower stake rounded down, big blind = the lower stake;
    a table whose small blind would be below 1 chip is refused."""
    if not is_chips(small_bet) or small_bet < 1:
        raise ValueError("small_bet: must be whole chips, at least 1")
    if small_bet // 2 < 1:
        raise ValueError(f"small_bet: {small_bet} gives a small blind below 1 chip")
    return small_bet // 2, small_bet
