// Amounts on the raise screen: the quick sizes, the window for "raise by", and what is wrong with
// an amount typed in. The server's legal window (RULES.md 3) bounds everything. No DOM here, so
// tests/js runs it under Node.

import { raiseVerb } from "./console-state.js";
import { chips } from "./format.js";

/** The "to" amounts of the Min, ½ Pot, Pot and Max buttons, each inside the legal window. */
export function quickAmounts(legal) {
  const current = legal.current_bet || 0;
  const toCall = legal.to_call || 0;
  const pot = legal.pot || 0;
  const clamp = (to) => Math.min(legal.max_to, Math.max(legal.min_to, Math.floor(to)));
  return {
    min: legal.min_to,
    half: clamp(current + (pot + toCall) / 2),
    pot: clamp(current + pot + toCall),
    max: legal.max_to,
  };
}

/** The window for the amount the screen asks for, "raise by" (above the current bet). */
export function raiseByWindow(legal) {
  const current = legal.current_bet || 0;
  return { current, minBy: legal.min_to - current, maxBy: legal.max_to - current };
}

/** `amount` rounded to whole chips and moved into the window. */
export function clampRaiseBy(legal, amount) {
  const { minBy, maxBy } = raiseByWindow(legal);
  return Math.min(maxBy, Math.max(minBy, Math.round(amount)));
}

/** A whole number of chips inside the window. */
export function raiseByAllowed(legal, amount) {
  const { current } = raiseByWindow(legal);
  return Number.isInteger(amount) && amount + current >= legal.min_to && amount + current <= legal.max_to;
}

/** What is wrong with the "raise by" text typed in, or "" when nothing is. */
export function raiseByProblem(legal, text) {
  const { current } = raiseByWindow(legal);
  const value = Number(text);
  if (text === "" || !Number.isInteger(value)) return "Enter a whole number of chips.";
  if (value + current < legal.min_to) return `The smallest ${raiseVerb(legal)} is to ${chips(legal.min_to)}.`;
  if (value + current > legal.max_to) return `The most you can ${raiseVerb(legal)} to is ${chips(legal.max_to)}.`;
  return "";
}

/** The line under the quick buttons: "Raise to between 1,100 and 4,900 (all in)." */
export function raiseLimitsText(legal) {
  const name = raiseVerb(legal) === "raise" ? "Raise" : "Bet";
  return `${name} to between ${chips(legal.min_to)} and ${chips(legal.max_to)}${legal.max_to === legal.all_in_to ? " (all in)" : ""}.`;
}
