import assert from "node:assert/strict";
import { test } from "node:test";

import {
  autoTopUpForm, autoTopUpFrame, autoTopUpProblem, autoTopUpTarget, autoTopUpWords,
} from "../../static/js/buy-in.js";

const nl50 = { blinds: "fixed", big_blind: 100, min_buy_in: 2000, max_buy_in: 20000 };
const fl20 = { blinds: "fixed", big_blind: 20, min_buy_in: 200, max_buy_in: null };
const classic = { blinds: "dynamic", big_blind: null, min_buy_in: 1, max_buy_in: null };

test("the form reads the server's setting, defaults included", () => {
  assert.deepEqual(autoTopUpForm(null), { enabled: false, belowPercent: 50, target: "max", toBigBlinds: 100 });
  assert.deepEqual(autoTopUpForm({ enabled: true, below_percent: 70, to_big_blinds: 150 }),
    { enabled: true, belowPercent: 70, target: "bb", toBigBlinds: 150 });
});

test("each bad value is named, as the server would refuse it", () => {
  const good = { enabled: true, belowPercent: 50, target: "bb", toBigBlinds: 100 };
  assert.equal(autoTopUpProblem(good), "");
  assert.equal(autoTopUpProblem({ ...good, belowPercent: 0 }), "The threshold is a whole percent from 1 to 100.");
  assert.equal(autoTopUpProblem({ ...good, belowPercent: 50.5 }), "The threshold is a whole percent from 1 to 100.");
  assert.equal(autoTopUpProblem({ ...good, toBigBlinds: 9 }), "The target is 10 to 1,000 big blinds.");
  assert.equal(autoTopUpProblem({ ...good, target: "max", toBigBlinds: 9 }), "");
});

test("the frame sends null for the room's maximum", () => {
  assert.deepEqual(autoTopUpFrame({ enabled: true, belowPercent: 40, target: "max", toBigBlinds: 100 }),
    { type: "auto_top_up", enabled: true, below_percent: 40, to_big_blinds: null });
  assert.deepEqual(autoTopUpFrame({ enabled: false, belowPercent: 40, target: "bb", toBigBlinds: 80 }),
    { type: "auto_top_up", enabled: false, below_percent: 40, to_big_blinds: 80 });
});

test("the target is the room's maximum, or big blinds held within the buy-in range", () => {
  const form = { enabled: true, belowPercent: 50, target: "max", toBigBlinds: 100 };
  assert.equal(autoTopUpTarget(nl50, form), 20000);
  assert.equal(autoTopUpTarget(fl20, form), null);
  assert.equal(autoTopUpTarget(nl50, { ...form, target: "bb" }), 10000);
  assert.equal(autoTopUpTarget(nl50, { ...form, target: "bb", toBigBlinds: 1000 }), 20000);
  assert.equal(autoTopUpTarget(nl50, { ...form, target: "bb", toBigBlinds: 10 }), 2000);
  assert.equal(autoTopUpTarget(fl20, { ...form, target: "bb", toBigBlinds: 50 }), 1000);
  assert.equal(autoTopUpTarget(classic, { ...form, target: "bb" }), null);
  assert.match(autoTopUpWords(nl50, form), /under 10,000 before a hand, it is brought back to 20,000/);
  assert.match(autoTopUpWords(fl20, form), /no maximum buy-in/);
  assert.match(autoTopUpWords(classic, { ...form, target: "bb" }), /blinds follow the stacks/);
});
