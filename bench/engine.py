"""Engine speed, side by side with treys and pokerkit: prints figures, asserts nothing.

    .venv/bin/python bench/engine.py [--hands 2000] [--seed 7] [--evaluations 100000]

1. Seven-card evaluations per second: ours, treys, pokerkit (bench/evaluator_speed.measure).
2. Complete random 6-max no-limit hands per second: ours and pokerkit's NoLimitTexasHoldem
   state machine, each driven by the same seeded policy (uniform over fold / check-call /
   bet-raise to a random legal amount / all in) from the same starting stacks.
"""

import argparse
import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from holdem.engine import HandOptions, SeatIn, apply_action, legal_actions, start_hand  # noqa: E402
from holdem.engine.cards import new_deck, shuffle  # noqa: E402

SMALL_BLIND, BIG_BLIND = 50, 100
PLAYERS = 6
TARGET_VS_POKERKIT = 20  # hands per second, ours over pokerkit (docs/performance.md)
TARGET_VS_TREYS = 20  # seven-card evaluations per second, ours over treys


def starting_stacks(hands: int, seed: int) -> list[tuple[int, ...]]:
    """Per hand, six stacks of 20 to 300 big blinds (short stacks make side pots common)."""
    rng = random.Random(seed)
    return [tuple(rng.randint(20, 300) * BIG_BLIND for _ in range(PLAYERS)) for _ in range(hands)]


def _choice(rng: random.Random, can_fold: bool, can_raise: bool, can_all_in: bool) -> str:
    kinds = ["call"]
    if can_fold:
        kinds.append("fold")
    if can_raise:
        kinds.append("raise")
    if can_all_in:
        kinds.append("all_in")
    return rng.choice(kinds)


def play_ours(stacks_per_hand, rng: random.Random) -> tuple[float, int]:
    """CPU seconds to play every hand with our engine, and the number of actions taken."""
    options = HandOptions(structure="no_limit", small_blind=SMALL_BLIND, big_blind=BIG_BLIND)
    deck = new_deck()
    actions = 0
    started = time.process_time()
    for stacks in stacks_per_hand:
        seats = [SeatIn(seat, stack) for seat, stack in enumerate(stacks)]
        # Button on seat 5: pokerkit's player 0 is the small blind, so the seats line up.
        state, _ = start_hand(options, seats, PLAYERS - 1, shuffle(deck, rng))
        while state.actor is not None:
            legal = legal_actions(state)
            kind = _choice(
                rng, "check" not in legal.actions, legal.can_raise, "all_in" in legal.actions
            )
            if kind == "fold":
                state, _ = apply_action(state, legal.seat, "fold")
            elif kind == "call":
                state, _ = apply_action(
                    state, legal.seat, "check" if "check" in legal.actions else "call"
                )
            elif kind == "raise":
                state, _ = apply_action(
                    state,
                    legal.seat,
                    "raise" if legal.current_bet else "bet",
                    rng.randint(legal.min_to, legal.max_to),
                )
            else:
                state, _ = apply_action(state, legal.seat, "all_in")
            actions += 1
        assert state.is_over
    return time.process_time() - started, actions


def play_pokerkit(stacks_per_hand, rng: random.Random) -> tuple[float, int]:
    """The same with pokerkit's NoLimitTexasHoldem, dealing and settling automated (it
    shuffles with the module-level generator, seeded by the caller)."""
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    actions = 0
    started = time.process_time()
    for stacks in stacks_per_hand:
        state = NoLimitTexasHoldem.create_state(
            automations,
            True,
            0,
            (SMALL_BLIND, BIG_BLIND),
            BIG_BLIND,
            stacks,
            PLAYERS,
            mode=Mode.CASH_GAME,
        )
        while state.status:
            if state.actor_index is None:
                raise AssertionError("pokerkit waits for an operation the bench does not make")
            can_raise = state.can_complete_bet_or_raise_to()
            to_call = state.checking_or_calling_amount
            player = state.actor_index
            all_in_to = state.stacks[player] + state.bets[player]
            kind = _choice(
                rng,
                bool(to_call),
                can_raise,
                to_call >= state.stacks[player]
                or (can_raise and state.max_completion_betting_or_raising_to_amount == all_in_to),
            )
            if kind == "fold":
                state.fold()
            elif kind == "call":
                state.check_or_call()
            elif kind == "raise":
                state.complete_bet_or_raise_to(
                    rng.randint(
                        state.min_completion_betting_or_raising_to_amount,
                        state.max_completion_betting_or_raising_to_amount,
                    )
                )
            elif to_call >= state.stacks[player]:
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(all_in_to)
            actions += 1
    return time.process_time() - started, actions


def race(stacks, seed: int, rounds: int = 10) -> dict:
    """Both engines on the same hands, in alternating slices so that a change in the machine's
    load hits both alike; CPU time of this process only."""
    random.seed(seed)  # pokerkit's shuffles
    ours_rng, pokerkit_rng = random.Random(seed), random.Random(seed)
    totals = {"ours": [0.0, 0], "pokerkit": [0.0, 0]}
    size = -(-len(stacks) // rounds)
    for start in range(0, len(stacks), size):
        chunk = stacks[start : start + size]
        for name, play, rng in (
            ("ours", play_ours, ours_rng),
            ("pokerkit", play_pokerkit, pokerkit_rng),
        ):
            seconds, actions = play(chunk, rng)
            totals[name][0] += seconds
            totals[name][1] += actions
    return totals


def evaluator_figures(evaluations: int) -> dict | None:
    try:
        from evaluator_speed import measure
    except ImportError:
        return None
    return measure(n_hands=evaluations)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per engine (2000)")
    parser.add_argument("--seed", type=int, default=7, help="seed of stacks and policy (7)")
    parser.add_argument(
        "--evaluations",
        type=int,
        default=100_000,
        help="seven-card hands for the evaluator figures (100,000)",
    )
    args = parser.parse_args(argv)

    figures = evaluator_figures(args.evaluations)
    print("Seven-card evaluations per second")
    if figures is None:
        print("  (bench/evaluator_speed.py not found)")
    else:
        print(f"  ours      {figures['ours']:>12,.0f}")
        verdict = "meets" if figures["ours_vs_treys"] >= TARGET_VS_TREYS else "below"
        print(
            f"  treys     {figures['treys']:>12,.0f}   ours / treys    = "
            f"{figures['ours_vs_treys']:.1f}x ({verdict} the {TARGET_VS_TREYS}x target)"
        )
        print(
            f"  pokerkit  {figures['pokerkit']:>12,.0f}   ours / pokerkit = "
            f"{figures['ours_vs_pokerkit']:.1f}x"
        )

    stacks = starting_stacks(args.hands, args.seed)
    totals = race(stacks, args.seed)
    ours_seconds, ours_actions = totals["ours"]
    pk_seconds, pk_actions = totals["pokerkit"]
    ours_rate = args.hands / ours_seconds
    pk_rate = args.hands / pk_seconds
    print(
        f"\nComplete random {PLAYERS}-max no-limit hands per second ({args.hands} hands each, "
        "CPU time)"
    )
    print(f"  ours      {ours_rate:>12,.0f}   ({ours_actions / args.hands:.1f} actions a hand)")
    print(f"  pokerkit  {pk_rate:>12,.0f}   ({pk_actions / args.hands:.1f} actions a hand)")
    ratio = ours_rate / pk_rate
    verdict = "meets" if ratio >= TARGET_VS_POKERKIT else "below"
    print(f"  ours / pokerkit = {ratio:.1f}x ({verdict} the {TARGET_VS_POKERKIT}x target)")


if __name__ == "__main__":
    main()
