"""The rules dialog's sentences: each takes a room's options under their RULES.md 1 names (the
dict `rules_of` makes) and says one rule in plain words, or None when the room has nothing to say.

holdem/table_options.py gives each option its line; the figures the site fixes for every room
(the time bank's refill, how long a departure is remembered, the idle turns that sit a player
out, the all-in protections a day) are defined here, so the dialog and the services that
apply them state them once.
"""

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

# RULES.md 1: a time bank grows back by BANK_REFILL_MS every BANK_REFILL_HANDS hands dealt.
BANK_REFILL_MS = 5_000
BANK_REFILL_HANDS = 10
# RULES.md 1: a slow table (`pace` slow) multiplies the turn clock, the time bank and its refill
# by this, so a player who needs more time to read the table or use assistive technology has it.
SLOW_PACE_FACTOR = 3
# RULES.md 2: how long a table remembers what a player who left it owed and held.
DEPARTURE_MEMORY = timedelta(minutes=30)
# RULES.md 2: this many turns in a row running out sit a player out.
IDLE_TIMEOUTS = 2
# RULES.md 5: all-in protections a player may have in PROTECTION_WINDOW.
PROTECTIONS_PER_DAY = 2
PROTECTION_WINDOW = timedelta(hours=24)

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
MULTIPLE_WORDS = {2: "twice", 3: "three times", 4: "four times", 5: "five times"}
TIMES_WORDS = {1: "once", 2: "twice"}

# The structures as a player reads them (static/js/format.js has the same words for the lobby).
STRUCTURE_WORDS = {"no_limit": "No Limit", "pot_limit": "Pot Limit", "fixed_limit": "Fixed Limit"}

type Options = Mapping[str, Any]


def _span(length: timedelta) -> str:
    minutes = int(length.total_seconds()) // 60
    return f"{minutes // 60} hours" if minutes % 60 == 0 else f"{minutes} minutes"


def _times(count: int) -> str:
    return TIMES_WORDS.get(count, f"{count} times")


def paced(amount: int, pace: str) -> int:
    """RULES.md 1: a length of time (or a refill) as the room's pace makes it."""
    return amount * SLOW_PACE_FACTOR if pace == "slow" else amount


def chips(amount: int) -> str:
    return f"{amount:,}"


def game(o: Options) -> str:
    return (
        f"{STRUCTURE_WORDS.get(o['structure'], o['structure'])} Texas Hold'em, {o['seats']} seats."
    )


def stakes(o: Options) -> str:
    blinds = f"Blinds {chips(o['small_blind'])}/{chips(o['big_blind'])}."
    if o["structure"] == "fixed_limit":
        return (
            f"Bets and raises of exactly {chips(o['small_bet'])} in the first two rounds and "
            f"{chips(o['big_bet'])} in the last two. {blinds}"
        )
    limit = (
        "Bet or raise up to the size of the pot (after calling)."
        if o["structure"] == "pot_limit"
        else "Bet or raise up to your whole stack."
    )
    if o["blinds"] == "dynamic":
        return (
            f"{limit} Blinds are dynamic: the big blind is {o['dynamic_blind_percent']}% of the "
            "smallest stack dealt in (rounded down to an even number, at least 2), set when each "
            "game starts; the small blind is half of it."
        )
    return f"{limit} {blinds}"


def raise_cap(o: Options) -> str:
    if o["raise_cap"] is None:
        return "No cap on the number of raises."
    return f"{o['raise_cap']} raises after the opening bet of a round; then players may only call or fold."


def min_raise(o: Options) -> str | None:
    if o["structure"] == "fixed_limit":
        return None  # every raise is of the round's fixed size
    if o["min_raise"] == "any":
        return "Any raise of 1 chip or more."
    return (
        "At least the largest bet or raise of the round so far (the smallest bet is the big "
        "blind). A short all-in does not reopen raising."
    )


def buy_in(o: Options) -> str:
    low = max(o["min_buy_in"] or 0, 1)
    if o["max_buy_in"] is not None:
        limits = f"{chips(low)} to {chips(o['max_buy_in'])} chips."
    elif low > 1:
        limits = f"At least {chips(low)} chips, up to your whole wallet."
    else:
        limits = "Your whole balance (you may bring less)."
    return (
        f"{limits} Leaving and coming back within {_span(DEPARTURE_MEMORY)}, you buy in for at "
        "least the chips "
        "you left with and still owe the blinds you missed."
    )


def entry(o: Options) -> str:
    if o["entry"] == "wait_or_post":
        return (
            "Sitting down during a game, you wait for the big blind, or post a big blind to be "
            "dealt in at the next game. Coming back from sitting out costs a live big blind, plus "
            "a dead small blind if you missed the big blind."
        )
    return "Sitting down during a game, you are dealt in at the next game."


def disconnect(o: Options) -> str:
    grace = (
        f"A dropped connection has {o['disconnect_grace_seconds']} s to come back before it "
        "counts as a disconnection (a reload changes nothing). "
    )
    if o["disconnect"] == "all_in_protection":
        return (
            f"{grace}Disconnected during a hand, you are treated as all in for what you have "
            f"already put in (side pots apply), at most {_times(PROTECTIONS_PER_DAY)} in "
            f"{_span(PROTECTION_WINDOW)}; after that you are folded."
        )
    return (
        f"{grace}Disconnected during a hand, you stay in it: your turn runs its full time, then "
        "you check, or fold if you owe chips. Still disconnected when the game ends, you lose the "
        "seat (the chips go back to your wallet)."
    )


def pace(o: Options) -> str | None:
    if o["pace"] != "slow":
        return None  # the usual clocks: the turn and time bank lines say them
    times = MULTIPLE_WORDS.get(SLOW_PACE_FACTOR, f"{SLOW_PACE_FACTOR} times")
    return (
        f"A slow table: the turn clock and the time bank are {times} as long as the room's "
        f"{o['turn_seconds']} s and {o['time_bank_seconds']} s, for players who take longer to "
        "read the table."
    )


def turn(o: Options) -> str:
    return (
        f"{paced(o['turn_seconds'], o['pace'])} s to act; when it runs out you check, or fold if "
        f"you owe chips. {NUMBER_WORDS.get(IDLE_TIMEOUTS, str(IDLE_TIMEOUTS)).capitalize()} turns "
        "in a row running out sit you out."
    )


def time_bank(o: Options) -> str:
    if not o["time_bank_seconds"]:
        return "No time bank: when the turn clock runs out, the timeout acts."
    return (
        f"{paced(o['time_bank_seconds'], o['pace'])} s of extra time each, used when your turn "
        f"clock runs out; it refills by {paced(BANK_REFILL_MS, o['pace']) // 1000} s every "
        f"{BANK_REFILL_HANDS} hands."
    )


def countdown(o: Options) -> str:
    return (
        f"The next game starts {o['countdown_seconds']} s after the last one "
        f"({o['countdown_full_seconds']} s when every seat is taken); you may get up meanwhile."
    )


def chat(o: Options) -> str | None:
    if o["chat"] != "players":
        return None  # open to everyone: nothing to warn about
    return "Only the seated players may write in the chat; everyone may read it."


def rake(o: Options) -> str:
    if not o["rake_percent"]:
        return "No rake."
    cap = "" if o["rake_cap"] is None else f", at most {chips(o['rake_cap'])} chips a pot"
    return f"{o['rake_percent']}% of each pot that saw a flop{cap}."


def auto_muck(o: Options) -> str:
    start = "on" if o["auto_muck"] else "off"
    return (
        f'Auto muck is {start} unless you change it ("Auto muck losing hand" in the console; '
        "your own choice wins). With it, a losing hand beaten by one already shown is not "
        "revealed; without it you choose to show or muck it, and it is mucked when the time runs "
        "out. When every remaining player is all in, all hands are turned face up."
    )


def separate_linked_accounts(o: Options) -> str | None:
    if not o["separate_linked_accounts"]:
        return None
    return (
        "Accounts that signed up from the same address or are used from the same browser may "
        "not sit at this table together."
    )
