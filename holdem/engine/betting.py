"""What the player to act may do, and with what amounts (RULES.md 3).

`raise_window` is the one place the bet and raise rules live: no limit, pot limit, fixed limit,
min_raise full/any, the raise cap and the short all-in rule. `check_move` refuses what they
forbid; `legal_actions` lists what they allow.
"""

from dataclasses import dataclass
from typing import NamedTuple

from holdem.engine.errors import IllegalAction
from holdem.engine.names import (
    ALL_IN,
    BET,
    CALL,
    CHECK,
    FIXED_LIMIT,
    FOLD,
    POT_LIMIT,
    RAISE,
    Action,
)
from holdem.engine.options import is_chips
from holdem.engine.state import HandState, PlayerState

_new = object.__new__


@dataclass(frozen=True, init=False)
class Legal:
    """The options of the player to act. `to` amounts are totals for this betting round."""

    seat: int
    actions: tuple[Action, ...]
    to_call: int
    current_bet: int
    min_to: int | None
    max_to: int | None
    all_in_to: int
    can_raise: bool
    raise_closed_reason: str | None
    pot: int

    def __init__(
        self,
        *,
        seat: int,
        actions: tuple[Action, ...],
        to_call: int,
        current_bet: int,
        min_to: int | None,
        max_to: int | None,
        all_in_to: int,
        can_raise: bool,
        raise_closed_reason: str | None,
        pot: int,
    ) -> None:
        # Made before every decision: one __dict__ store (see state.py) instead of ten.
        object.__setattr__(
            self,
            "__dict__",
            {
                "seat": seat,
                "actions": actions,
                "to_call": to_call,
                "current_bet": current_bet,
                "min_to": min_to,
                "max_to": max_to,
                "all_in_to": all_in_to,
                "can_raise": can_raise,
                "raise_closed_reason": raise_closed_reason,
                "pot": pot,
            },
        )


class RaiseWindow(NamedTuple):
    """Bounds of a bet or raise now: min_to..max_to, or closed with a (code, reason)."""

    min_to: int | None
    max_to: int | None
    closed_code: str | None = None
    closed_reason: str | None = None


def _closed(code: str, reason: str) -> RaiseWindow:
    return RaiseWindow(None, None, code, reason)


def raise_window(state: HandState, player: PlayerState) -> RaiseWindow:
    """How far `player` may bet or raise, or why they may not."""
    options = state.options
    current = state.current_bet
    all_in_to = player.bet + player.stack
    if all_in_to <= current:
        return _closed("cannot_raise", "not enough chips to raise")
    for other in state.players:
        if (
            other is not player
            and other.bet + other.stack > current
            and not other.folded
            and not other.protected
        ):
            break
    else:
        # RULES.md 3: when at most one player can still bet, no more betting happens; a raise
        # nobody could call is no raise at all.
        return _closed("opponents_all_in", "no other player could call a raise")
    if current:
        cap = options.raise_cap
        if cap is not None and state.raises >= cap:
            # RULES.md 3: after N raises in a round players may only call or fold.
            return _closed("raise_capped", f"raising is capped after {cap} raises")
        if (
            player.acted
            and options.min_raise == "full"
            and current - player.bet < state.min_increment
        ):
            # RULES.md 3: a short all-in does not reopen raising to a player who already acted,
            # unless the all-ins since they acted add up to a full raise.
            return _closed("raise_not_reopened", "a short all-in does not reopen raising")
    if options.structure == FIXED_LIMIT:
        # RULES.md 3: bets and raises are exactly the round's bet size, or all in for less.
        exact = min(current + options.bet_size(state.street), all_in_to)
        return RaiseWindow(exact, exact)
    increment = 1 if options.min_raise == "any" else state.min_increment
    min_to = min(current + increment, all_in_to)
    if options.structure == POT_LIMIT:
        # RULES.md 3: at most current bet + pot (all bets on the table) + the amount to call.
        pot = sum([other.committed for other in state.players])
        pot_max = current + pot + (current - player.bet)
        return RaiseWindow(min_to, max(min_to, min(pot_max, all_in_to)))
    return RaiseWindow(min_to, all_in_to)


def legal_actions(state: HandState) -> Legal | None:
    """The options of the player to act, or None when nobody is to act."""
    if state.actor is None:
        return None
    player = state.players[state.actor]
    current = state.current_bet
    owed = current - player.bet
    all_in_to = player.bet + player.stack
    window = raise_window(state, player)
    actions = [FOLD, CALL if owed > 0 else CHECK]
    if window.min_to is not None:
        actions.append(RAISE if current else BET)
    if all_in_to <= current or (window.max_to is not None and all_in_to <= window.max_to):
        actions.append(ALL_IN)
    # Made before every decision. Python 3.11 calls a class with keywords by packing them into a
    # dict and unpacking them again (an eighth of this function's cost); a direct __init__ call on
    # a new object passes them as they are.
    legal = _new(Legal)
    Legal.__init__(
        legal,
        seat=player.seat,
        actions=tuple(actions),
        to_call=min(max(owed, 0), player.stack),
        current_bet=current,
        min_to=window.min_to,
        max_to=window.max_to,
        all_in_to=all_in_to,
        can_raise=window.min_to is not None,
        raise_closed_reason=window.closed_reason,
        pot=sum([other.committed for other in state.players]),
    )
    return legal


def check_move(state: HandState, player: PlayerState, action: Action, to: object) -> int:
    """The player's round total after `action`, or IllegalAction naming the rule it breaks."""
    current = state.current_bet
    owed = current - player.bet
    all_in_to = player.bet + player.stack
    if action == FOLD:
        _no_amount(action, to, None)
        return player.bet
    if action == CHECK:
        _no_amount(action, to, None)
        if owed > 0:
            raise IllegalAction(
                "cannot_check", f"there is {min(owed, player.stack)} to call: you cannot check"
            )
        return player.bet
    if action == CALL:
        total = min(current, all_in_to)
        _no_amount(action, to, total)
        if owed <= 0:
            raise IllegalAction("nothing_to_call", "there is nothing to call: check instead")
        return total
    if action == ALL_IN:
        _no_amount(action, to, all_in_to)
        if all_in_to <= current:
            return all_in_to  # RULES.md 3: a call all in for less (or exactly the bet)
        return _check_raise_to(state, player, RAISE if current else BET, all_in_to)
    if action == BET and current:
        raise IllegalAction("bet_facing_bet", f"there is a bet of {current}: raise instead")
    if action == RAISE and not current:
        raise IllegalAction("nothing_to_raise", "there is no bet to raise: bet instead")
    if to is None:
        raise IllegalAction("bad_amount", f"{action} needs an amount: to")
    if not is_chips(to):
        raise IllegalAction("bad_amount", "amount must be a whole number of chips")
    if to < 0:
        raise IllegalAction("bad_amount", "amount cannot be negative")
    if to > all_in_to:
        raise IllegalAction(
            "above_stack", f"seat {player.seat} can {action} to at most {all_in_to} (all in)"
        )
    return _check_raise_to(state, player, action, to)


def _no_amount(action: Action, to: object, implied: int | None) -> None:
    """fold/check take no amount; call/all_in may repeat the total they lead to."""
    if to is None or (implied is not None and is_chips(to) and to == implied):
        return
    raise IllegalAction(
        "bad_amount",
        f"{action} takes no amount" if implied is None else f"{action} here is to {implied}",
    )


def _check_raise_to(state: HandState, player: PlayerState, action: Action, to: int) -> int:
    window = raise_window(state, player)
    if window.min_to is None or window.max_to is None:
        # A window without bounds is closed and says why (raise_window).
        assert window.closed_code is not None and window.closed_reason is not None
        raise IllegalAction(window.closed_code, window.closed_reason)
    noun = "raise" if action == RAISE else "bet"
    if state.options.structure == FIXED_LIMIT:
        if to != window.min_to:
            what = "a raise is to" if noun == "raise" else "a bet is"
            raise IllegalAction(
                "fixed_limit_amount", f"fixed limit: {what} exactly {window.min_to}"
            )
        return to
    if to < window.min_to:
        if noun == "raise":
            raise IllegalAction("below_min_raise", f"minimum raise is to {window.min_to}")
        raise IllegalAction("below_min_bet", f"minimum bet is {window.min_to}")
    if to > window.max_to:
        # Only pot limit has a ceiling below the stack.
        raise IllegalAction(
            "above_pot_limit", f"pot limit: the most you can {noun} to is {window.max_to}"
        )
    return to
