"""The table options of RULES.md 1, each declared once, and what is made from the declarations:
the room's columns, the options under their rule names, the engine's HandOptions, the checks a
room must pass and the rules dialog's lines.

One `option(...)` in RoomOptions below is the whole of an option: its column (type and default),
the rules.md section it serves, whether the engine reads it, its admin group, and its words in the
rules dialog (docs/architecture.md, "Adding a table option").
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.db import models

from holdem import engine, rules_words
from holdem.rules_words import BANK_REFILL_HANDS, BANK_REFILL_MS, SLOW_PACE_FACTOR, paced


class Structure(models.TextChoices):
    NO_LIMIT = "no_limit", "No-Limit"
    POT_LIMIT = "pot_limit", "Pot-Limit"
    FIXED_LIMIT = "fixed_limit", "Fixed-Limit"


class Blinds(models.TextChoices):
    FIXED = "fixed", "Fixed"
    DYNAMIC = "dynamic", "Dynamic (percent of the smallest stack)"


class MinRaise(models.TextChoices):
    FULL = "full", "Full raise (TDA)"
    ANY = "any", "Any increment"


class Entry(models.TextChoices):
    NEXT_HAND = "next_hand", "Dealt in at the next game"
    WAIT_OR_POST = "wait_or_post", "Wait for the big blind or post"


class Disconnect(models.TextChoices):
    CHECK_FOLD = "check_fold", "Check or fold when the turn runs out"
    ALL_IN_PROTECTION = "all_in_protection", "All-in protection"


class Pace(models.TextChoices):
    NORMAL = "normal", "Normal"
    SLOW = "slow", f"Slow: turn clock and time bank {SLOW_PACE_FACTOR}x as long"


class ChatRule(models.TextChoices):
    EVERYONE = "everyone", "Players and spectators"
    PLAYERS = "players", "Seated players only"


@dataclass(frozen=True)
class Words:
    """A line of the rules dialog: `key` names it to the page (data-rule), `term` heads it, and
    `text` words it from the room's options (None leaves the line out)."""

    key: str
    term: str
    text: Callable[[Mapping[str, Any]], str | None]


@dataclass(frozen=True)
class TableOption:
    """One table option as declared in RoomOptions (see `option`)."""

    name: str
    field: "models.Field[Any, Any]"
    rule: int
    group: str
    words: Words | str
    engine: bool
    chips: bool
    check: Callable[[Any], str | None] | None
    to_rule: Callable[[Any], Any] | None

    @property
    def line(self) -> str:
        """The key of the rules dialog line that words this option."""
        return self.words.key if isinstance(self.words, Words) else self.words


_DECLARED: "list[tuple[models.Field[Any, Any], dict[str, Any]]]" = []


def option[F: models.Field[Any, Any]](
    field: F,
    *,
    rule: int,
    group: str,
    words: Words | str,
    engine: bool = False,
    chips: bool = False,
    check: Callable[[Any], str | None] | None = None,
    to_rule: Callable[[Any], Any] | None = None,
) -> F:
    """Declare a table option: `field` is its column (type, default, help text), `rule` the
    docs/rules.md section it serves, `group` its fieldset in the admin, `words` its own line in
    the rules dialog or the key of the line that words it with others. `engine`: HandOptions reads
    it; `chips`: an amount of chips (the admin shows it with separators when read-only); `check`:
    what is wrong with the room's value (given the room), if anything; `to_rule`: the value as
    `rules_of` gives it, when the column stores it otherwise."""
    spec = {"rule": rule, "group": group, "words": words, "engine": engine, "chips": chips}
    _DECLARED.append((field, spec | {"check": check, "to_rule": to_rule}))
    return field


def _rake_percent(value: Decimal | None) -> int | float:
    rake = Decimal(value or 0)
    return int(rake) if rake == rake.to_integral_value() else float(rake)


class RoomOptions(models.Model):
    """A room's options (RULES.md 1), apart from its live state: holdem.models.Table inherits them,
    and they are columns of its table. The order here is the rules dialog's order."""

    seats = option(
        models.PositiveSmallIntegerField(default=6),
        rule=1,
        group="Room",
        words=Words("game", "Game", rules_words.game),
        check=lambda t: None if 2 <= (t.seats or 0) <= 10 else "A room has 2 to 10 seats.",
    )
    structure = option(
        models.CharField(max_length=12, choices=Structure.choices, default=Structure.NO_LIMIT),
        rule=3,
        group="Betting structure",
        words="game",
        engine=True,
    )
    blinds = option(
        models.CharField(max_length=8, choices=Blinds.choices, default=Blinds.FIXED),
        rule=3,
        group="Blinds",
        words=Words("stakes", "Stakes and blinds", rules_words.stakes),
        engine=True,
    )
    small_blind = option(
        models.PositiveIntegerField(default=50),
        rule=3,
        group="Blinds",
        words="stakes",
        engine=True,
        chips=True,
    )
    big_blind = option(
        models.PositiveIntegerField(default=100),
        rule=3,
        group="Blinds",
        words="stakes",
        engine=True,
        chips=True,
    )
    dynamic_blind_percent = option(
        models.PositiveSmallIntegerField(default=10),
        rule=3,
        group="Blinds",
        words="stakes",
        engine=True,
    )
    small_bet = option(
        models.PositiveIntegerField(default=0, help_text="Fixed limit: the lower stake."),
        rule=7,
        group="Limit stakes",
        words="stakes",
        engine=True,
        chips=True,
        to_rule=lambda value: value or None,
    )
    big_bet = option(
        models.PositiveIntegerField(default=0, help_text="Fixed limit: the higher stake."),
        rule=7,
        group="Limit stakes",
        words="stakes",
        engine=True,
        chips=True,
        to_rule=lambda value: value or None,
    )
    raise_cap = option(
        models.PositiveSmallIntegerField(
            null=True, blank=True, help_text="Raises after the opening bet; empty = no cap."
        ),
        rule=3,
        group="Raises",
        words=Words("raise_cap", "Raise cap", rules_words.raise_cap),
        engine=True,
        check=lambda t: (
            "A raise cap allows at least 1 raise (leave it empty for no cap)."
            if t.raise_cap is not None and t.raise_cap < 1
            else None
        ),
    )
    min_raise = option(
        models.CharField(max_length=4, choices=MinRaise.choices, default=MinRaise.FULL),
        rule=3,
        group="Raises",
        words=Words("min_raise", "Minimum raise", rules_words.min_raise),
        engine=True,
    )
    min_buy_in = option(
        models.PositiveIntegerField(default=0),
        rule=2,
        group="Buy-in",
        words=Words("buy_in", "Buy-in", rules_words.buy_in),
        chips=True,
    )
    max_buy_in = option(
        models.PositiveIntegerField(null=True, blank=True, help_text="Empty = the whole wallet."),
        rule=2,
        group="Buy-in",
        words="buy_in",
        chips=True,
    )
    entry = option(
        models.CharField(max_length=12, choices=Entry.choices, default=Entry.NEXT_HAND),
        rule=2,
        group="Players",
        words=Words("entry", "Joining a game", rules_words.entry),
    )
    disconnect = option(
        models.CharField(max_length=20, choices=Disconnect.choices, default=Disconnect.CHECK_FOLD),
        rule=5,
        group="Players",
        words=Words("disconnect", "Disconnection", rules_words.disconnect),
    )
    disconnect_grace_seconds = option(
        models.PositiveSmallIntegerField(
            default=20,
            help_text="How long a dropped connection may take to come back before it counts as a disconnection.",
        ),
        rule=5,
        group="Players",
        words="disconnect",
    )
    turn_seconds = option(
        models.PositiveSmallIntegerField(default=60),
        rule=5,
        group="Clocks",
        words=Words("turn", "Turn time", rules_words.turn),
        check=lambda t: "A turn lasts at least 5 seconds." if t.turn_seconds < 5 else None,
    )
    time_bank_seconds = option(
        models.PositiveSmallIntegerField(
            default=30,
            help_text="Each player's time bank: extra time once the turn clock runs out (0 = none); "
            f"refilled by {BANK_REFILL_MS // 1000} s every {BANK_REFILL_HANDS} hands dealt, up to this.",
        ),
        rule=1,
        group="Clocks",
        words=Words("time_bank", "Time bank", rules_words.time_bank),
        check=lambda t: (
            None if 0 <= t.time_bank_seconds <= 600 else "A time bank is 0 (none) to 600 seconds."
        ),
    )
    pace = option(
        models.CharField(
            max_length=6,
            choices=Pace.choices,
            default=Pace.NORMAL,
            help_text=f"Slow multiplies the turn clock, the time bank and its refill by "
            f"{SLOW_PACE_FACTOR} (a table for players who need more time).",
        ),
        rule=1,
        group="Clocks",
        words=Words("pace", "Pace", rules_words.pace),
        check=lambda t: None if t.pace in Pace.values else "The pace is normal or slow.",
    )
    countdown_seconds = option(
        models.PositiveSmallIntegerField(default=30),
        rule=2,
        group="Clocks",
        words=Words("countdown", "Between games", rules_words.countdown),
        # Both countdowns answer here: the admin shows the one message once.
        check=lambda t: (
            "Countdowns last at least 1 second."
            if t.countdown_seconds < 1 or t.countdown_full_seconds < 1
            else None
        ),
    )
    countdown_full_seconds = option(
        models.PositiveSmallIntegerField(default=10),
        rule=2,
        group="Clocks",
        words="countdown",
    )
    chat = option(
        models.CharField(
            max_length=10,
            choices=ChatRule.choices,
            default=ChatRule.EVERYONE,
            help_text="Who may write in the table chat (everyone may read it).",
        ),
        rule=1,
        group="Chat and rake",
        words=Words("chat", "Chat", rules_words.chat),
        check=lambda t: (
            None
            if t.chat in ChatRule.values
            else "Chat is open to everyone or to seated players only."
        ),
    )
    rake_percent = option(
        models.DecimalField(max_digits=5, decimal_places=2, default=0),
        rule=4,
        group="Chat and rake",
        words=Words("rake", "Rake", rules_words.rake),
        engine=True,
        check=lambda t: (
            None if 0 <= Decimal(t.rake_percent or 0) <= 100 else "Rake is 0 to 100 percent."
        ),
        to_rule=_rake_percent,
    )
    rake_cap = option(
        models.PositiveIntegerField(null=True, blank=True),
        rule=4,
        group="Chat and rake",
        words="rake",
        engine=True,
        chips=True,
    )
    auto_muck = option(
        models.BooleanField(
            default=True,
            help_text="The default of each player's 'muck losing hands' box (a player's own choice wins).",
        ),
        rule=4,
        group="Players",
        words=Words("auto_muck", "Showing hands", rules_words.auto_muck),
    )
    separate_linked_accounts = option(
        models.BooleanField(
            default=True,
            help_text="Two accounts that signed up from one address or share a browser may not "
            "sit at this table together.",
        ),
        rule=2,
        group="Players",
        words=Words(
            "separate_linked_accounts", "Linked accounts", rules_words.separate_linked_accounts
        ),
    )

    class Meta:
        abstract = True


TABLE_OPTIONS: tuple[TableOption, ...] = tuple(
    TableOption(name=field.name, field=field, **spec) for field, spec in _DECLARED
)
# The options one hand needs, as the engine names them (engine.HAND_OPTION_NAMES).
ENGINE_OPTION_NAMES = frozenset(declared.name for declared in TABLE_OPTIONS if declared.engine)
# The rules dialog's lines, in the order of the options that declare them.
RULES_LINES = tuple(d.words for d in TABLE_OPTIONS if isinstance(d.words, Words))


def rules_of(table) -> dict:
    """The room's options under their RULES.md section 1 names."""
    rules = {}
    for declared in TABLE_OPTIONS:
        value = getattr(table, declared.name)
        rules[declared.name] = declared.to_rule(value) if declared.to_rule else value
    return rules


def turn_seconds_of(table) -> int:
    """RULES.md 1: the turn clock as the room's pace makes it (what the deadline and the client's
    countdown use; `turn_seconds` is the normal pace's)."""
    return paced(table.turn_seconds, table.pace)


def time_bank_ms_of(table) -> int:
    """RULES.md 1: a full time bank at this room's pace, in milliseconds."""
    return paced(table.time_bank_seconds * 1000, table.pace)


def bank_refill_ms_of(table) -> int:
    """RULES.md 1: what a time bank grows back by every BANK_REFILL_HANDS hands, at this pace."""
    return paced(BANK_REFILL_MS, table.pace)


def hand_options(table, stacks) -> "engine.HandOptions":
    """This hand's options; dynamic blinds come from the stacks dealt in (RULES.md 3)."""
    rules = {k: v for k, v in rules_of(table).items() if k in ENGINE_OPTION_NAMES}
    if table.structure != Structure.FIXED_LIMIT:
        rules.pop("small_bet", None)
        rules.pop("big_bet", None)
    return engine.HandOptions.from_rules(rules, stacks=list(stacks))


def rules_dialog(rules: Mapping[str, Any]) -> list[dict[str, str]]:
    """The rules dialog of a room whose options are `rules` (rules_of's): [{key, term, text}] in
    the dialog's order, the lines with nothing to say left out. The table snapshot sends it."""
    return [
        {"key": key, "term": term, "text": text} for key, term, text in _lines(tuple(rules.items()))
    ]


@lru_cache(maxsize=256)
def _lines(rules: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, str, str], ...]:
    # Every event's view carries the dialog; rooms' options rarely change, so their words are kept.
    options = dict(rules)
    worded = ((line, line.text(options)) for line in RULES_LINES)
    return tuple((line.key, line.term, text) for line, text in worded if text is not None)


def room_problems(table) -> dict[str, str]:
    """Everything wrong with a room's options, by field name; empty when it can be played."""
    problems: dict[str, str] = {}
    for declared in TABLE_OPTIONS:
        problem = declared.check(table) if declared.check else None
        if problem:
            problems[declared.name] = problem
    problems.update(_stake_problems(table))
    if not problems and table.blinds == Blinds.FIXED:
        try:
            hand_options(table, [table.big_blind * 100] * 2)
        except ValueError as error:
            problems["structure"] = str(error)
    return problems


def _stake_problems(table) -> dict[str, str]:
    """The blinds, limit stakes and buy-ins, which are checked against each other."""
    problems: dict[str, str] = {}
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
    return problems
