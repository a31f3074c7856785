import assert from "node:assert/strict";
import { test } from "node:test";

import {
  allInCallAmount, amountAtStop, chipsAdded, clampRaiseTo, lastStop, quickSizes, raiseLimitsText, raiseStep,
  raiseToAllowed, raiseToProblem, stepFrom, stopNearest, DEFAULT_BET_SIZES, potFraction, potSizeWords, preflopBase,
} from "../../static/js/raise-sizes.js";
import { foldAsks } from "../../static/js/console-state.js";
import { parseSizes, sizeButtonsText, sizesText } from "../../static/js/table-settings.js";

// No limit 50/100 on the flop: a bet of 600 to call 500 into 2,300, 4,900 behind.
const facingBet = { actions: ["fold", "call", "raise", "all_in"], current_bet: 600, to_call: 500, pot: 2300, min_to: 1100, max_to: 4900, all_in_to: 4900 };
// Nothing bet yet: pot 300, big blind 100.
const opening = { actions: ["check", "bet", "all_in"], current_bet: 0, to_call: 0, pot: 300, min_to: 100, max_to: 9800, all_in_to: 9800 };
// Before the flop, on the button heads-up: 50 in, 50 more to call the big blind, 5,000 in all.
const unopened = { actions: ["fold", "call", "raise", "all_in"], current_bet: 100, to_call: 50, pot: 150, min_to: 200, max_to: 5000, all_in_to: 5000 };
const flop = { street: "flop", big_blind: 100 };
const preflop = { street: "preflop", big_blind: 100 };
const sizes = (legal, hand, mine) => Object.fromEntries(quickSizes(legal, hand, mine).map((q) => [q.label, q.to]));

const HALF = "\u00BD Pot";
const THIRD = "\u2153 Pot";
const TWO_THIRDS = "\u2154 Pot";
const THREE_QUARTERS = "\u00BE Pot";

test("by default: 2x, 2.5x and 3x the big blind before the flop, while nobody has raised", () => {
  assert.deepEqual(sizes(unopened, preflop), { Min: 200, "2x": 200, "2.5x": 250, "3x": 300, Max: 5000 });
  assert.deepEqual(quickSizes(unopened, preflop).map((q) => q.name), ["Min", "2 big blinds", "2.5 big blinds", "3 big blinds", "Max"]);
  assert.deepEqual(DEFAULT_BET_SIZES, { bet_sizes_postflop: [33, 50, 67, 75, 100], bet_sizes_preflop: [2, 2.5, 3] });
});

test("before the flop, after a raise, the multiples are of the bet faced", () => {
  // Facing a raise to 600 (big blind 100): 2x is to 1,200, 2.5x to 1,500, 3x to 1,800.
  assert.deepEqual(sizes(facingBet, preflop), { Min: 1100, "2x": 1200, "2.5x": 1500, "3x": 1800, Max: 4900 });
  assert.deepEqual(quickSizes(facingBet, preflop).map((q) => q.name).slice(1, 4), ["2 times the bet", "2.5 times the bet", "3 times the bet"]);
  assert.deepEqual(preflopBase(facingBet, preflop), { base: 600, opened: true });
  // The big blind's option with limpers in: still the big blind's multiples.
  assert.deepEqual(preflopBase({ ...unopened, current_bet: 100 }, preflop), { base: 100, opened: false });
});

test("by default after the flop: a third, half, two thirds, three quarters of the pot and the pot, counted after calling", () => {
  // Pot after calling: 2,300 + 500 = 2,800. A third: 600 + 933 = 1,533; half: 2,000; two
  // thirds: 2,466; three quarters: 2,700; pot: 3,400.
  assert.deepEqual(sizes(facingBet, flop), { Min: 1100, [THIRD]: 1533, [HALF]: 2000, [TWO_THIRDS]: 2466, [THREE_QUARTERS]: 2700, Pot: 3400, Max: 4900 });
  // Nothing bet into 300: a third is exactly 100 (no rounding down to 99).
  assert.deepEqual(sizes(opening, flop), { Min: 100, [THIRD]: 100, [HALF]: 150, [TWO_THIRDS]: 200, [THREE_QUARTERS]: 225, Pot: 300, Max: 9800 });
  assert.equal(sizes({ current_bet: 0, to_call: 0, pot: 251, min_to: 2, max_to: 1000 }, flop)[HALF], 125); // whole chips
  // Without a hand (a stale view) the post-flop sizes show.
  assert.deepEqual(Object.keys(sizes(unopened, null)), ["Min", THIRD, HALF, TWO_THIRDS, THREE_QUARTERS, "Pot", "Max"]);
});

test("the player's own sizes, in their order, each named", () => {
  const mine = { bet_sizes_postflop: [40, 125, 250], bet_sizes_preflop: [2.2, 4] };
  assert.deepEqual(quickSizes(opening, flop, mine).map((q) => [q.label, q.name, q.to]), [
    ["Min", "Min", 100], ["40%", "40% of the pot", 120], ["125%", "125% of the pot", 375], ["250%", "250% of the pot", 750], ["Max", "Max", 9800],
  ]);
  assert.deepEqual(sizes(unopened, preflop, mine), { Min: 200, "2.2x": 220, "4x": 400, Max: 5000 });
  assert.deepEqual(potSizeWords(25), ["\u00BC Pot", "A quarter of the pot"]);
  assert.equal(potFraction(67), 2 / 3);
  assert.equal(potFraction(40), 0.4);
});

test("every size is kept inside the legal window: the minimum raise, the stack, the pot limit", () => {
  // Below the minimum raise: the minimum. A short stack: all in.
  const short = { ...unopened, max_to: 280, all_in_to: 280 };
  assert.deepEqual(sizes(short, preflop), { Min: 200, "2x": 200, "2.5x": 250, "3x": 280, Max: 280 });
  assert.equal(sizes({ ...facingBet, max_to: 2500, all_in_to: 2500 }, flop).Pot, 2500);
  // Pot limit: the window's top is the pot; an overbet size is the pot too.
  const potLimit = { current_bet: 100, to_call: 100, pot: 150, min_to: 200, max_to: 350, all_in_to: 5000 };
  assert.deepEqual(sizes(potLimit, flop, { bet_sizes_postflop: [10, 50, 200] }), { Min: 200, "10%": 200, [HALF]: 225, "200%": 350, Max: 350 });
  // A tiny size into a big bet is the minimum raise, never less.
  assert.equal(sizes(facingBet, flop, { bet_sizes_postflop: [10] })["10%"], 1100);
});

test("the settings dialog reads the sizes typed and says the buttons they make", () => {
  assert.deepEqual(parseSizes("33, 50 ,75"), { sizes: [33, 50, 75], problem: "" });
  assert.deepEqual(parseSizes("2.5x; 3x 4"), { sizes: [2.5, 3, 4], problem: "" });
  assert.deepEqual(parseSizes("40%"), { sizes: [40], problem: "" });
  assert.deepEqual(parseSizes("  "), { sizes: [], problem: "" }); // the defaults
  assert.equal(parseSizes("33, half").problem, '"half" is not a number.');
  assert.equal(parseSizes("1e400").problem, '"1e400" is not a number.');
  assert.equal(sizesText([2, 2.5, 3]), "2, 2.5, 3");
  assert.equal(sizeButtonsText([33, 50, 100, 150], "flop"), "\u2153 Pot, \u00BD Pot, Pot, 150%");
  assert.equal(sizeButtonsText([2, 2.5], "preflop"), "2x, 2.5x");
});

test("fold asks first when the player wants it, and always when checking is free", () => {
  const facing = { actions: ["fold", "call", "raise"] };
  const free = { actions: ["fold", "check", "bet"] };
  assert.equal(foldAsks(facing, { fold_confirm: true }), true);
  assert.equal(foldAsks(facing, { fold_confirm: false }), false);
  assert.equal(foldAsks(free, { fold_confirm: false }), true); // rules.md 6
  assert.equal(foldAsks(facing, undefined), true); // before the snapshot: the default, on
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
