import assert from "node:assert/strict";
import { test } from "node:test";

import {
  clampRaiseBy, quickAmounts, raiseByAllowed, raiseByProblem, raiseByWindow, raiseLimitsText,
} from "../../static/js/raise-sizes.js";

// No limit 50/100 on the flop: a bet of 600 to call 500 into 2,300, 4,900 behind.
const facingBet = { actions: ["fold", "call", "raise", "all_in"], current_bet: 600, to_call: 500, pot: 2300, min_to: 1100, max_to: 4900, all_in_to: 4900 };
// Nothing bet yet: pot 300, big blind 100.
const opening = { actions: ["check", "bet", "all_in"], current_bet: 0, to_call: 0, pot: 300, min_to: 100, max_to: 9800, all_in_to: 9800 };

test("quick sizes: half pot and pot are counted after calling", () => {
  // Half pot: 600 + (2300 + 500) / 2 = 2000. Pot: 600 + 2300 + 500 = 3400.
  assert.deepEqual(quickAmounts(facingBet), { min: 1100, half: 2000, pot: 3400, max: 4900 });
  assert.deepEqual(quickAmounts(opening), { min: 100, half: 150, pot: 300, max: 9800 });
});

test("quick sizes stay inside the legal window", () => {
  // Short stack: the pot-sized raise is more than the stack, so it is the maximum.
  const short = { ...facingBet, max_to: 2500, all_in_to: 2500 };
  assert.deepEqual(quickAmounts(short), { min: 1100, half: 2000, pot: 2500, max: 2500 });
  // A small pot: half the pot is less than the minimum raise, so it is the minimum.
  const small = { current_bet: 100, to_call: 50, pot: 150, min_to: 200, max_to: 5000 };
  assert.deepEqual(quickAmounts(small), { min: 200, half: 200, pot: 300, max: 5000 });
  // Pot limit: the window's top is the pot, and both pot and max are it.
  const potLimit = { current_bet: 100, to_call: 100, pot: 150, min_to: 200, max_to: 350 };
  assert.deepEqual(quickAmounts(potLimit), { min: 200, half: 225, pot: 350, max: 350 });
});

test("odd halves round down to whole chips", () => {
  assert.equal(quickAmounts({ current_bet: 0, to_call: 0, pot: 251, min_to: 2, max_to: 1000 }).half, 125);
  assert.equal(quickAmounts({ min_to: 2, max_to: 1000 }).pot, 2); // nothing known: the minimum
});

test("the raise-by window and clamping into it", () => {
  assert.deepEqual(raiseByWindow(facingBet), { current: 600, minBy: 500, maxBy: 4300 });
  assert.deepEqual(raiseByWindow(opening), { current: 0, minBy: 100, maxBy: 9800 });
  assert.equal(clampRaiseBy(facingBet, 10), 500);
  assert.equal(clampRaiseBy(facingBet, 99999), 4300);
  assert.equal(clampRaiseBy(facingBet, 1234.6), 1235);
});

test("which raise-by amounts may be sent", () => {
  assert.equal(raiseByAllowed(facingBet, 500), true);
  assert.equal(raiseByAllowed(facingBet, 4300), true);
  assert.equal(raiseByAllowed(facingBet, 499), false);
  assert.equal(raiseByAllowed(facingBet, 4301), false);
  assert.equal(raiseByAllowed(facingBet, 700.5), false);
  assert.equal(raiseByAllowed(facingBet, NaN), false);
});

test("what is wrong with a typed amount", () => {
  assert.equal(raiseByProblem(facingBet, "700"), "");
  assert.equal(raiseByProblem(facingBet, ""), "Enter a whole number of chips.");
  assert.equal(raiseByProblem(facingBet, "12.5"), "Enter a whole number of chips.");
  assert.equal(raiseByProblem(facingBet, "abc"), "Enter a whole number of chips.");
  assert.equal(raiseByProblem(facingBet, "3"), "The smallest raise is to 1,100.");
  assert.equal(raiseByProblem(facingBet, "5000"), "The most you can raise to is 4,900.");
  assert.equal(raiseByProblem(opening, "50"), "The smallest bet is to 100.");
});

test("the limits line says when the top is all in", () => {
  assert.equal(raiseLimitsText(facingBet), "Raise to between 1,100 and 4,900 (all in).");
  assert.equal(raiseLimitsText({ ...opening, max_to: 450 }), "Bet to between 100 and 450.");
});
