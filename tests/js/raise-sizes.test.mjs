import assert from "node:assert/strict";
import { test } from "node:test";

import {
  allInCallAmount, amountAtStop, chipsAdded, clampRaiseTo, lastStop, quickSizes, raiseLimitsText, raiseStep,
  raiseToAllowed, raiseToProblem, stepFrom, stopNearest,
} from "../../static/js/raise-sizes.js";

// No limit 50/100 on the flop: a bet of 600 to call 500 into 2,300, 4,900 behind.
const facingBet = { actions: ["fold", "call", "raise", "all_in"], current_bet: 600, to_call: 500, pot: 2300, min_to: 1100, max_to: 4900, all_in_to: 4900 };
// Nothing bet yet: pot 300, big blind 100.
const opening = { actions: ["check", "bet", "all_in"], current_bet: 0, to_call: 0, pot: 300, min_to: 100, max_to: 9800, all_in_to: 9800 };
// Before the flop, on the button heads-up: 50 in, 50 more to call the big blind, 5,000 in all.
const unopened = { actions: ["fold", "call", "raise", "all_in"], current_bet: 100, to_call: 50, pot: 150, min_to: 200, max_to: 5000, all_in_to: 5000 };
const flop = { street: "flop", big_blind: 100 };
const preflop = { street: "preflop", big_blind: 100 };
const sizes = (legal, hand) => Object.fromEntries(quickSizes(legal, hand).map((q) => [q.label, q.to]));

test("before the flop the quick sizes add 2.5 and 3 big blinds", () => {
  assert.deepEqual(sizes(unopened, preflop), { Min: 200, "2.5x": 250, "3x": 300, "\u00BD Pot": 200, Pot: 300, Max: 5000 });
  assert.deepEqual(quickSizes(unopened, preflop).map((q) => q.name), ["Min", "2.5 big blinds", "3 big blinds", "Half pot", "Pot", "Max"]);
});

test("2.5x and 3x are left out after the flop, and where they would only repeat Min or Max", () => {
  assert.deepEqual(Object.keys(sizes(facingBet, flop)), ["Min", "\u00BD Pot", "Pot", "Max"]);
  // Facing a raise to 600 before the flop: 2.5 and 3 big blinds are below the minimum raise.
  assert.deepEqual(Object.keys(sizes(facingBet, preflop)), ["Min", "\u00BD Pot", "Pot", "Max"]);
  // A short stack: 3 big blinds is all in already.
  const short = { ...unopened, max_to: 280, all_in_to: 280 };
  assert.deepEqual(sizes(short, preflop), { Min: 200, "2.5x": 250, "\u00BD Pot": 200, Pot: 280, Max: 280 });
  assert.deepEqual(Object.keys(sizes(unopened, null)), ["Min", "\u00BD Pot", "Pot", "Max"]);
});

test("half pot and pot are counted after calling, inside the legal window", () => {
  // Half pot: 600 + (2300 + 500) / 2 = 2000. Pot: 600 + 2300 + 500 = 3400.
  assert.deepEqual(sizes(facingBet, flop), { Min: 1100, "\u00BD Pot": 2000, Pot: 3400, Max: 4900 });
  assert.deepEqual(sizes(opening, flop), { Min: 100, "\u00BD Pot": 150, Pot: 300, Max: 9800 });
  // Short stack: the pot-sized raise is more than the stack, so it is the maximum.
  assert.equal(sizes({ ...facingBet, max_to: 2500, all_in_to: 2500 }, flop).Pot, 2500);
  // Pot limit: the window's top is the pot, and both pot and max are it.
  assert.deepEqual(sizes({ current_bet: 100, to_call: 100, pot: 150, min_to: 200, max_to: 350 }, flop), { Min: 200, "\u00BD Pot": 225, Pot: 350, Max: 350 });
  assert.equal(sizes({ current_bet: 0, to_call: 0, pot: 251, min_to: 2, max_to: 1000 }, flop)["\u00BD Pot"], 125); // whole chips
});

test("the amount is a total, clamped into the window", () => {
  assert.equal(clampRaiseTo(facingBet, 10), 1100);
  assert.equal(clampRaiseTo(facingBet, 99999), 4900);
  assert.equal(clampRaiseTo(facingBet, 1234.6), 1235);
  assert.equal(raiseToAllowed(facingBet, 1100), true);
  assert.equal(raiseToAllowed(facingBet, 4900), true);
  assert.equal(raiseToAllowed(facingBet, 1099), false);
  assert.equal(raiseToAllowed(facingBet, 4901), false);
  assert.equal(raiseToAllowed(facingBet, 1700.5), false);
  assert.equal(raiseToAllowed(facingBet, NaN), false);
});

test("what is wrong with a typed total", () => {
  assert.equal(raiseToProblem(facingBet, "1700"), "");
  assert.equal(raiseToProblem(facingBet, ""), "Enter a whole number of chips.");
  assert.equal(raiseToProblem(facingBet, "  "), "Enter a whole number of chips.");
  assert.equal(raiseToProblem(facingBet, "12.5"), "Enter a whole number of chips.");
  assert.equal(raiseToProblem(facingBet, "abc"), "Enter a whole number of chips.");
  assert.equal(raiseToProblem(facingBet, "500"), "The smallest raise is to 1,100.");
  assert.equal(raiseToProblem(facingBet, "5000"), "The most you can raise to is 4,900.");
  assert.equal(raiseToProblem(opening, "50"), "The smallest bet is to 100.");
});

test("the limits line speaks in totals, as the box does", () => {
  assert.equal(raiseLimitsText(facingBet), "Raise to between 1,100 and 4,900 (all in).");
  assert.equal(raiseLimitsText({ ...opening, max_to: 450 }), "Bet between 100 and 450.");
});

test("the slider steps by the big blind, or by the street's bet in fixed limit", () => {
  assert.equal(raiseStep({ street: "flop", big_blind: 100, structure: "no_limit" }), 100);
  assert.equal(raiseStep({ street: "river", big_blind: 400, structure: "pot_limit" }), 400); // dynamic blinds: this hand's
  const fixed = { structure: "fixed_limit", small_bet: 20, big_bet: 40 };
  assert.equal(raiseStep({ street: "preflop", big_blind: 20, structure: "fixed_limit" }, fixed), 20);
  assert.equal(raiseStep({ street: "flop", big_blind: 20 }, fixed), 20);
  assert.equal(raiseStep({ street: "turn", big_blind: 20 }, fixed), 40);
  assert.equal(raiseStep({ street: "river", big_blind: 20 }, fixed), 40);
  assert.equal(raiseStep(null), 1);
});

test("slider stops run from the minimum a big blind at a time, and the last one is all in", () => {
  // 1,100 .. 4,900 by 100: 38 steps, the last one exactly all in.
  assert.equal(lastStop(facingBet, 100), 38);
  assert.equal(amountAtStop(facingBet, 100, 0), 1100);
  assert.equal(amountAtStop(facingBet, 100, 1), 1200);
  assert.equal(amountAtStop(facingBet, 100, 38), 4900);
  // Off the grid: 200 .. 4,950 by 100 needs a last, shorter step to reach all in.
  const odd = { ...unopened, max_to: 4950, all_in_to: 4950 };
  assert.equal(lastStop(odd, 100), 48);
  assert.equal(amountAtStop(odd, 100, 47), 4900);
  assert.equal(amountAtStop(odd, 100, 48), 4950);
  assert.equal(amountAtStop(odd, 100, 99), 4950);
  assert.equal(stopNearest(odd, 100, 250), 1); // a typed 250 sits between stops 0 and 1
  assert.equal(stopNearest(odd, 100, 10), 0);
  assert.equal(stopNearest(odd, 100, 4950), 48);
  assert.equal(lastStop({ min_to: 300, max_to: 300 }, 100), 0);
});

test("arrow keys and the wheel move one stop from wherever the amount is", () => {
  assert.equal(stepFrom(unopened, 100, 200, 1), 300);
  assert.equal(stepFrom(unopened, 100, 300, -1), 200);
  assert.equal(stepFrom(unopened, 100, 250, 1), 300); // a typed amount goes to the next stop
  assert.equal(stepFrom(unopened, 100, 250, -1), 200);
  assert.equal(stepFrom(unopened, 100, 200, -1), 200); // the ends hold
  assert.equal(stepFrom(unopened, 100, 5000, 1), 5000);
  const odd = { ...unopened, max_to: 4950, all_in_to: 4950 };
  assert.equal(stepFrom(odd, 100, 4900, 1), 4950);
  assert.equal(stepFrom(odd, 100, 4950, -1), 4900);
});

test("what a call all in puts in, and what a raise takes from the stack", () => {
  // 600 to call with 450 left and nothing in yet: the call is for 450.
  assert.equal(allInCallAmount({ current_bet: 600, to_call: 600, all_in_to: 450 }), 450);
  // The big blind (100 in) facing a raise to 4,000 with 3,900 behind: 3,900 goes in.
  assert.equal(allInCallAmount({ current_bet: 4000, to_call: 3900, all_in_to: 4000 }), 3900);
  assert.equal(chipsAdded(unopened, 300), 250); // the 50 of the small blind is in already
  assert.equal(chipsAdded(opening, 300), 300);
});
