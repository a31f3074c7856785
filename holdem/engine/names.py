"""The engine's words for actions, streets and betting structures, shared with the whole site.

Each is a `StrEnum`: a member is the plain string it names (`Action.ALL_IN == "all_in"`, the same
hash, `json.dumps` writes `"all_in"`), so stored hands, JSON and the client keep plain strings.
"""

from enum import StrEnum


class Action(StrEnum):
    """What a player may do on their turn (RULES.md 3)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"


class Street(StrEnum):
    """A hand's stage: the four betting rounds, then how it ended (RULES.md 3 and 4)."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"  # over, after a showdown
    OVER = "over"  # over, won uncontested


class Structure(StrEnum):
    """The betting structure of a table (RULES.md 1 and 3)."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


# The members again as module names, for the code run on every action (betting, hand, rounds).
# Python 3.11 finds a member on its class slowly (EnumType has a __getattr__, dropped in 3.12):
# `Action.FOLD` costs about 0.1 µs, four times a module global, and a hand makes hundreds.
FOLD, CHECK, CALL = Action.FOLD, Action.CHECK, Action.CALL
BET, RAISE, ALL_IN = Action.BET, Action.RAISE, Action.ALL_IN
PREFLOP, FLOP, TURN, RIVER = Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER
SHOWDOWN, OVER = Street.SHOWDOWN, Street.OVER
NO_LIMIT, POT_LIMIT, FIXED_LIMIT = Structure.NO_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT
