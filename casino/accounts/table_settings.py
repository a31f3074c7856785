"""The table settings a player keeps on the server (bet-size buttons, fold confirmation, deck
colours): their checks, their one write (`preferences_set`) and the view every page applies.

The raise screen's sizes are the player's: after the flop in percent of the pot, before it in
multiples (of the big blind while nobody has raised, else of the bet faced; static/js/raise-sizes.js
computes them). An empty list stored means the defaults, so a player who never chose follows them.
"""

import math
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from casino.accounts.models import Deck, Preferences, User
from casino.accounts.preferences import preferences_for, preferences_update
from casino.errors import DomainError

MAX_SIZES = 6
# After the flop: whole percent of the pot (after calling). 33 and 67 are drawn and counted as a
# third and two thirds (raise-sizes.js).
DEFAULT_POSTFLOP: list[float] = [33, 50, 67, 75, 100]
POSTFLOP_MIN, POSTFLOP_MAX = 10, 500
# Before the flop: multiples with at most one decimal.
DEFAULT_PREFLOP: list[float] = [2, 2.5, 3]
PREFLOP_MIN, PREFLOP_MAX = 1.5, 20

# Sent inside the transaction of every change with `user_id` and `preferences` (the view): the
# tables app tells the player's open pages once it commits (holdem/apps.py).
preferences_changed = Signal()

SETTINGS = ("bet_sizes_postflop", "bet_sizes_preflop", "fold_confirm", "deck")


def table_settings_view(preferences: Preferences) -> dict[str, Any]:
    """The settings as the pages apply them: the sizes in force (the defaults when none were
    chosen), and the defaults themselves for the dialogs' Reset."""
    return {
        "bet_sizes_postflop": list(preferences.bet_sizes_postflop or DEFAULT_POSTFLOP),
        "bet_sizes_preflop": list(preferences.bet_sizes_preflop or DEFAULT_PREFLOP),
        "fold_confirm": preferences.fold_confirm,
        "deck": preferences.deck,
        "defaults": {"bet_sizes_postflop": DEFAULT_POSTFLOP, "bet_sizes_preflop": DEFAULT_PREFLOP},
    }


def table_settings_for(user: User) -> dict[str, Any]:
    return table_settings_view(preferences_for(user))


def preferences_set(*, user: User, **changes: Any) -> Preferences:
    """Check and store some of the table settings (SETTINGS); every page of the player hears of
    it once committed. A bad value refuses the whole change (DomainError naming the field) and
    stores nothing."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise DomainError(
            "bad_preferences",
            f"unknown settings: {', '.join(sorted(unknown))[:80]}",
            fields=dict.fromkeys(unknown, "unknown setting"),
        )
    checked: dict[str, Any] = {}
    problems: dict[str, str] = {}
    for name, value in changes.items():
        try:
            checked[name] = CHECKS[name](value)
        except ValueError as problem:
            problems[name] = str(problem)
    if problems:
        raise DomainError("bad_preferences", " ".join(problems.values()), fields=problems)
    with transaction.atomic():
        row = preferences_update(user=user, **checked)
        preferences_changed.send(sender=None, user_id=user.pk, preferences=table_settings_view(row))
    return row


def _sizes(
    value: Any,
    *,
    what: str,
    low: float,
    high: float,
    unit: str,
    decimals: int,
    defaults: list[float],
) -> list[float]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what}: a list of numbers.")
    if len(value) > MAX_SIZES:
        raise ValueError(f"{what}: at most {MAX_SIZES} sizes.")
    sizes: list[float] = []
    for size in value:
        if isinstance(size, bool) or not isinstance(size, (int, float)) or not math.isfinite(size):
            raise ValueError(f"{what}: {str(size)[:20]!r} is not a number.")
        if round(size, decimals) != size:
            kind = "whole numbers" if decimals == 0 else f"at most {decimals} decimal"
            raise ValueError(f"{what}: sizes are {kind} ({size:g} is not).")
        if not low <= size <= high:
            raise ValueError(f"{what}: each size is from {low:g}{unit} to {high:g}{unit}.")
        sizes.append(int(size) if size == int(size) else float(size))
    if len(set(sizes)) != len(sizes):
        raise ValueError(f"{what}: each size once.")
    sizes.sort()
    # The defaults chosen again are stored as "the defaults": they follow the site's from then on.
    return [] if sizes == defaults else sizes


def _postflop(value: Any) -> list[float]:
    return _sizes(
        value,
        what="Sizes after the flop",
        low=POSTFLOP_MIN,
        high=POSTFLOP_MAX,
        unit="%",
        decimals=0,
        defaults=DEFAULT_POSTFLOP,
    )


def _preflop(value: Any) -> list[float]:
    return _sizes(
        value,
        what="Sizes before the flop",
        low=PREFLOP_MIN,
        high=PREFLOP_MAX,
        unit="x",
        decimals=1,
        defaults=DEFAULT_PREFLOP,
    )


def _fold_confirm(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("Fold confirmation is on or off.")
    return value


def _deck(value: Any) -> str:
    if value not in Deck.values:
        raise ValueError(f"The deck is one of {', '.join(Deck.values)}.")
    return str(value)


CHECKS = {
    "bet_sizes_postflop": _postflop,
    "bet_sizes_preflop": _preflop,
    "fold_confirm": _fold_confirm,
    "deck": _deck,
}
