// Amounts on the raise screen, all of them "raise to" totals for the betting round (what the
// server's `amount` means): the slider's steps, the quick sizes, and what is wrong with an amount
// typed in. The server's legal window (RULES.md 3) bounds everything. No DOM here, so tests/js
// runs it under Node.

import { raiseVerb } from "./console-state.js";
import { chips } from "./format.js";

/** `amount` rounded to whole chips and moved into the window min_to..max_to. */
export function clampRaiseTo(legal, amount) {
  return Math.min(legal.max_to, Math.max(legal.min_to, Math.round(amount)));
}

/** A whole number of chips inside the window. */
export function raiseToAllowed(legal, amount) {
  return Number.isInteger(amount) && amount >= legal.min_to && amount <= legal.max_to;
}

/** What is wrong with the total typed in, or "" when nothing is. */
export function raiseToProblem(legal, text) {
  const value = Number(text);
  if (String(text).trim() === "" || !Number.isInteger(value)) return "Enter a whole number of chips.";
  if (value < legal.min_to) return `The smallest ${raiseVerb(legal)} is to ${chips(legal.min_to)}.`;
  if (value > legal.max_to) return `The most you can ${raiseVerb(legal)} to is ${chips(legal.max_to)}.`;
  return "";
}

/** The line under the quick buttons, in the box's own terms: "Raise to between 1,100 and 4,900
 * (all in)." or "Bet between 100 and 450." */
export function raiseLimitsText(legal) {
  const words = raiseVerb(legal) === "raise" ? "Raise to between" : "Bet between";
  return `${words} ${chips(legal.min_to)} and ${chips(legal.max_to)}${legal.max_to === legal.all_in_to ? " (all in)" : ""}.`;
}

/** Chips per slider step: the big blind, or in fixed limit the street's bet (the small bet before
 * the turn, the big bet from it on). `hand` is table.hand, `options` table.options. */
export function raiseStep(hand, options = {}) {
  const bigBlind = (hand && hand.big_blind) || 1;
  if (hand && (hand.structure || options.structure) === "fixed_limit") {
    const late = hand.street === "turn" || hand.street === "river";
    return (late ? options.big_bet : options.small_bet) || bigBlind;
  }
  return bigBlind;
}

/** The slider's last stop: stop i is min_to + i steps, and the last one is max_to (all in is
 * always reachable, on the step grid or not). */
export function lastStop(legal, step) {
  return Math.max(0, Math.ceil((legal.max_to - legal.min_to) / step));
}

/** The amount at slider stop `index`. */
export function amountAtStop(legal, step, index) {
  return Math.min(legal.max_to, legal.min_to + Math.max(0, index) * step);
}

/** The slider stop nearest to `amount` (an amount typed in need not be on a stop). */
export function stopNearest(legal, step, amount) {
  return Math.min(lastStop(legal, step), Math.max(0, Math.round((amount - legal.min_to) / step)));
}

/** One step up (direction 1) or down (-1) from `amount`: the next stop beyond it, inside the window. */
export function stepFrom(legal, step, amount, direction) {
  const offset = (amount - legal.min_to) / step;
  const index = direction > 0 ? Math.floor(offset + 1e-9) + 1 : Math.ceil(offset - 1e-9) - 1;
  return amountAtStop(legal, step, Math.min(lastStop(legal, step), index));
}

// The player's bet-size buttons (their table settings, casino/accounts/table_settings.py), used
// until a snapshot brings theirs: after the flop percent of the pot, before it multiples.
export const DEFAULT_BET_SIZES = { bet_sizes_postflop: [33, 50, 67, 75, 100], bet_sizes_preflop: [2, 2.5, 3] };

// 33 and 67 percent stand for a third and two thirds of the pot: counted and named as such.
const POT_FRACTIONS = { 33: 1 / 3, 67: 2 / 3 };
const POT_WORDS = {
  25: ["\u00BC Pot", "A quarter of the pot"],
  33: ["\u2153 Pot", "A third of the pot"],
  50: ["\u00BD Pot", "Half pot"],
  67: ["\u2154 Pot", "Two thirds of the pot"],
  75: ["\u00BE Pot", "Three quarters of the pot"],
  100: ["Pot", "Pot"],
};

/** The share of the pot a post-flop size (percent) stands for. */
export function potFraction(percent) {
  return POT_FRACTIONS[percent] ?? percent / 100;
}

/** A post-flop size's button label and accessible name: "\u2154 Pot" / "Two thirds of the pot",
 * "40%" / "40% of the pot". */
export function potSizeWords(percent) {
  return POT_WORDS[percent] || [`${percent}%`, `${percent}% of the pot`];
}

/** What a pre-flop multiple multiplies: the big blind while nobody has raised it (limpers
 * included), else the bet faced, the current bet of the round (a 3x re-raise of a raise to 300 is
 * to 900). `opened` says which. */
export function preflopBase(legal, hand) {
  const bigBlind = (hand && hand.big_blind) || 0;
  const current = legal.current_bet || 0;
  return current > bigBlind ? { base: current, opened: true } : { base: bigBlind, opened: false };
}

/** The quick buttons, each {label, name (its accessible name), to}: Min, the player's sizes for
 * the street (before the flop multiples of preflopBase, after it shares of the pot counted after
 * calling), Max. Each size is rounded down to whole chips and kept inside the legal window (the
 * minimum raise, the stack, the pot limit), so a size the window cuts shows its nearest amount.
 * `sizes`: the player's settings (DEFAULT_BET_SIZES until the snapshot brings them). */
export function quickSizes(legal, hand, sizes = DEFAULT_BET_SIZES) {
  const current = legal.current_bet || 0;
  const toCall = legal.to_call || 0;
  const pot = legal.pot || 0;
  const clamp = (to) => Math.min(legal.max_to, Math.max(legal.min_to, Math.floor(to + 1e-9)));
  const buttons = [{ label: "Min", name: "Min", to: legal.min_to }];
  if (hand && hand.street === "preflop" && hand.big_blind) {
    const { base, opened } = preflopBase(legal, hand);
    for (const times of sizes.bet_sizes_preflop || DEFAULT_BET_SIZES.bet_sizes_preflop) {
      const name = opened ? `${times} times the bet` : `${times} big blinds`;
      buttons.push({ label: `${times}x`, name, to: clamp(times * base) });
    }
  } else {
    for (const percent of sizes.bet_sizes_postflop || DEFAULT_BET_SIZES.bet_sizes_postflop) {
      const [label, name] = potSizeWords(percent);
      buttons.push({ label, name, to: clamp(current + potFraction(percent) * (pot + toCall)) });
    }
  }
  buttons.push({ label: "Max", name: "Max", to: legal.max_to });
  return buttons;
}

/** What a call puts in when it takes every chip left (the forced all-in): the stack behind, which
 * is all_in_to less what is already in front of the player this round. */
export function allInCallAmount(legal) {
  const myBet = (legal.current_bet || 0) - (legal.to_call || 0);
  return legal.all_in_to - myBet;
}

/** The chips a raise to `to` takes from the stack now (what is already in front of the player
 * this round stays in). */
export function chipsAdded(legal, to) {
  return to - ((legal.current_bet || 0) - (legal.to_call || 0));
}
