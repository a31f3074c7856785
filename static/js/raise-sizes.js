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

/** The quick buttons, each {label, name (its accessible name), to}: Min; before the flop 2.5 and 3
 * big blinds when they fall strictly inside the window (below it they would only repeat Min);
 * half the pot and the pot (after calling), both kept inside the window; Max. */
export function quickSizes(legal, hand) {
  const current = legal.current_bet || 0;
  const toCall = legal.to_call || 0;
  const pot = legal.pot || 0;
  const clamp = (to) => Math.min(legal.max_to, Math.max(legal.min_to, Math.floor(to)));
  const sizes = [{ label: "Min", name: "Min", to: legal.min_to }];
  if (hand && hand.street === "preflop" && hand.big_blind) {
    for (const [label, name, times] of [["2.5x", "2.5 big blinds", 2.5], ["3x", "3 big blinds", 3]]) {
      const to = Math.round(times * hand.big_blind);
      if (to > legal.min_to && to < legal.max_to) sizes.push({ label, name, to });
    }
  }
  sizes.push(
    { label: "\u00BD Pot", name: "Half pot", to: clamp(current + (pot + toCall) / 2) },
    { label: "Pot", name: "Pot", to: clamp(current + pot + toCall) },
    { label: "Max", name: "Max", to: legal.max_to },
  );
  return sizes;
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
