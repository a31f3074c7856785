import assert from "node:assert/strict";
import { test } from "node:test";

import { checkedPreAction, preActionFrame, preActionOptions } from "../../static/js/pre-actions.js";

// Seat 2 is "you"; the hand's own entries (table.hand.seats) carry bet, stack, folded, all_in.
const entry = (seat, fields = {}) => ({ seat, stack: 4000, bet: 0, committed: 0, folded: false, all_in: false, protected: false, has_cards: true, ...fields });
const tableWith = ({ me = {}, currentBet = 0, toAct = 4 } = {}) => ({
  hand: { street: "flop", current_bet: currentBet, to_act: toAct, seats: [entry(0), entry(2, me), entry(4)] },
});
const you = { seat: 2 };
const values = (options) => options && options.map((o) => o.value);

test("nothing to call: Check/Fold, Check, Call any", () => {
  const options = preActionOptions(tableWith(), you);
  assert.deepEqual(options, [
    { value: "check_fold", label: "Check/Fold", amount: null },
    { value: "check", label: "Check", amount: null },
    { value: "call_any", label: "Call any", amount: null },
  ]);
  // The big blind before the flop has put in the current bet: nothing to call either.
  assert.deepEqual(values(preActionOptions(tableWith({ me: { bet: 100 }, currentBet: 100 }), you)), ["check_fold", "check", "call_any"]);
});

test("a bet to call: Fold, Call what it would put in now, Call any", () => {
  const options = preActionOptions(tableWith({ me: { bet: 100 }, currentBet: 600 }), you);
  assert.deepEqual(options, [
    { value: "fold", label: "Fold", amount: null },
    { value: "call", label: "Call 500", amount: 500 },
    { value: "call_any", label: "Call any", amount: null },
  ]);
});

test("a call that takes the whole stack says so, for the stack", () => {
  const options = preActionOptions(tableWith({ me: { stack: 1500 }, currentBet: 4000 }), you);
  assert.deepEqual(options[1], { value: "call", label: "Call 1,500 (all in)", amount: 1500 });
  // Exactly the stack is all in too.
  assert.equal(preActionOptions(tableWith({ me: { stack: 600 }, currentBet: 600 }), you)[1].label, "Call 600 (all in)");
});

test("no boxes on your turn, folded, all in, protected, not dealt in, or between hands", () => {
  assert.equal(preActionOptions(tableWith({ toAct: 2 }), you), null);
  assert.equal(preActionOptions(tableWith({ me: { folded: true } }), you), null);
  assert.equal(preActionOptions(tableWith({ me: { all_in: true, stack: 0 } }), you), null);
  assert.equal(preActionOptions(tableWith({ me: { protected: true } }), you), null);
  assert.equal(preActionOptions(tableWith(), { seat: 3 }), null); // seated after the deal
  assert.equal(preActionOptions(tableWith(), { seat: null }), null); // watching
  assert.equal(preActionOptions(tableWith(), null), null);
  assert.equal(preActionOptions({ hand: null }, you), null);
  assert.equal(preActionOptions(tableWith({ toAct: null }), you), null); // nobody left to bet
});

test("the checked box is the server's choice, a call only for the amount it was made for", () => {
  const free = preActionOptions(tableWith(), you);
  const facing = preActionOptions(tableWith({ currentBet: 600 }), you);
  assert.equal(checkedPreAction(free, null), null);
  assert.equal(checkedPreAction(free, { value: "check", amount: null }), "check");
  assert.equal(checkedPreAction(free, { value: "call_any", amount: null }), "call_any");
  assert.equal(checkedPreAction(facing, { value: "call", amount: 600 }), "call");
  // The bet went up since the box was checked: nothing shows checked (the server drops it too).
  assert.equal(checkedPreAction(facing, { value: "call", amount: 200 }), null);
  // Check is not on offer facing a bet; Check/Fold then means the fold it will be.
  assert.equal(checkedPreAction(facing, { value: "check", amount: null }), null);
  assert.equal(checkedPreAction(facing, { value: "check_fold", amount: null }), "fold");
  assert.equal(checkedPreAction(free, { value: "fold", amount: null }), null);
  assert.equal(checkedPreAction(null, { value: "check", amount: null }), null);
});

test("a click sets the box, or clears it when it was the checked one", () => {
  const facing = preActionOptions(tableWith({ me: { bet: 100 }, currentBet: 600 }), you);
  assert.deepEqual(preActionFrame(facing[1], null), { type: "pre_action", value: "call", amount: 500 });
  assert.deepEqual(preActionFrame(facing[0], "call"), { type: "pre_action", value: "fold" });
  assert.deepEqual(preActionFrame(facing[2], null), { type: "pre_action", value: "call_any" });
  assert.deepEqual(preActionFrame(facing[1], "call"), { type: "pre_action" });
  assert.deepEqual(preActionFrame(facing[0], "fold"), { type: "pre_action" });
});
