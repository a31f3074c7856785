import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ACTING_STATES, CONSOLE_STATES, WAITING_STATES, canRaise, consoleState, isForcedAllIn, mayShowOrMuck, raiseVerb, satOutIdle,
  showsSatOutNotice, turnLegal,
} from "../../static/js/console-state.js";
import { seatRow, viewOf } from "./view.mjs";

const legal = (fields = {}) => ({
  seat: 0, actions: ["fold", "call", "raise", "all_in"], to_call: 500, current_bet: 600, min_to: 1100, max_to: 4900,
  all_in_to: 4900, pot: 2300, ...fields,
});
const inHand = (me = {}) => ({ button: 0, seats: [seatRow(0, "alice", me), seatRow(1, "bob")], hand: { street: "flop" }, last_hand: null });
const stateOf = (you, { table = inHand(), mode = null, switching = false } = {}) => consoleState(viewOf({ table, you, switching }), mode);

test("thirteen console states, seven of them on your turn", () => {
  assert.equal(CONSOLE_STATES.length, 13);
  assert.equal(ACTING_STATES.length, 7);
  for (const state of [...ACTING_STATES, ...WAITING_STATES]) assert.ok(CONSOLE_STATES.includes(state), state);
});

test("legal actions count only when they are for this player's seat", () => {
  assert.equal(turnLegal({ seat: 0, legal: legal() }).min_to, 1100);
  assert.equal(turnLegal({ seat: 3, legal: legal() }), null);
  assert.equal(turnLegal({ seat: 0, legal: { seat: 0 } }), null);
  assert.equal(turnLegal({ seat: 0, legal: null }), null);
  assert.equal(turnLegal(null), null);
});

test("bet or raise", () => {
  assert.equal(canRaise(legal()), true);
  assert.equal(canRaise(legal({ actions: ["check", "bet"] })), true);
  assert.equal(canRaise(legal({ actions: ["fold", "call"] })), false);
  assert.equal(raiseVerb(legal()), "raise");
  assert.equal(raiseVerb(legal({ actions: ["check", "bet", "all_in"] })), "bet");
});

test("watching and switching", () => {
  assert.equal(stateOf(null), "not_playing");
  assert.equal(stateOf({ seat: null }), "not_playing");
  assert.equal(stateOf({ seat: 0, legal: legal() }, { switching: true }), "switching");
});

test("your turn: the screen depends on what you may do", () => {
  assert.equal(stateOf({ seat: 0, in_hand: true, legal: legal() }), "call_bet");
  assert.equal(stateOf({ seat: 0, in_hand: true, legal: legal({ actions: ["fold", "call"] }) }), "call_no_raise");
  assert.equal(stateOf({ seat: 0, in_hand: true, legal: legal({ actions: ["check", "bet", "all_in"], to_call: 0 }) }), "start_bet");
  // The bet is all you have or more: call means all in.
  assert.equal(stateOf({ seat: 0, in_hand: true, legal: legal({ actions: ["fold", "all_in"], to_call: 600, all_in_to: 450 }) }), "forced_all_in");
  assert.equal(stateOf({ seat: 0, in_hand: true, legal: legal({ all_in_to: 600 }) }), "forced_all_in");
});

test("your clicks open confirmations and the raise screen, only while it is your turn", () => {
  const you = { seat: 0, in_hand: true, legal: legal() };
  assert.equal(stateOf(you, { mode: "confirm_fold" }), "confirm_fold");
  assert.equal(stateOf(you, { mode: "confirm_all_in" }), "confirm_all_in");
  assert.equal(stateOf(you, { mode: "raise" }), "raise");
  assert.equal(stateOf({ ...you, legal: legal({ actions: ["fold", "call"] }) }, { mode: "raise" }), "call_no_raise");
  assert.equal(stateOf({ seat: 0, in_hand: true }, { mode: "raise" }), "waiting");
});

test("waiting during a hand: folded, all in, or protected", () => {
  assert.equal(stateOf({ seat: 0, in_hand: true }, { table: inHand({ folded: true }) }), "waiting_folded");
  assert.equal(stateOf({ seat: 0, in_hand: true }, { table: inHand({ all_in: true }) }), "waiting_all_in");
  assert.equal(stateOf({ seat: 0, in_hand: true }, { table: inHand({ protected: true }) }), "waiting_all_in");
  assert.equal(stateOf({ seat: 0, in_hand: true }), "waiting");
  assert.equal(stateOf({ seat: 0, in_hand: false }, { table: inHand({ folded: true }) }), "waiting");
});

test("after a showdown, a beaten hand without auto muck chooses Show or Muck", () => {
  const table = { button: 0, seats: [seatRow(0, "alice")], hand: null, last_hand: { number: 4, undecided: [0, 2] } };
  const you = { seat: 0, can_show: true, can_muck: true };
  assert.equal(stateOf(you, { table }), "show_or_muck");
  assert.equal(mayShowOrMuck(you, table.last_hand), true);
  assert.equal(mayShowOrMuck({ ...you, seat: 1 }, table.last_hand), false);
  assert.equal(mayShowOrMuck(you, { number: 4 }), true); // an older server: no undecided list
  assert.equal(mayShowOrMuck({ ...you, can_muck: false }, table.last_hand), false);
  assert.equal(mayShowOrMuck(you, null), false);
  assert.equal(stateOf({ ...you, can_muck: false }, { table }), "waiting");
});

test("sat out for letting the clock run out: the notice shows while waiting or acting", () => {
  const idle = { seat: 0, sitting_out: true, sit_out_reason: "idle" };
  assert.equal(satOutIdle(idle), true);
  assert.equal(satOutIdle({ ...idle, sit_out_reason: null }), false);
  assert.equal(satOutIdle({ seat: 0, sitting_out: false, sit_out_reason: "idle" }), false);
  assert.equal(satOutIdle(null), false);
  assert.equal(showsSatOutNotice(idle, "waiting"), true);
  assert.equal(showsSatOutNotice(idle, "call_bet"), true);
  assert.equal(showsSatOutNotice(idle, "not_playing"), false);
  assert.equal(showsSatOutNotice(idle, "show_or_muck"), false);
  assert.equal(showsSatOutNotice({ ...idle, sit_out_reason: "asked" }, "waiting"), false);
});

test("a call that takes every chip left is a forced all-in", () => {
  assert.equal(isForcedAllIn(legal({ actions: ["fold", "all_in"], to_call: 600, all_in_to: 450 })), true);
  assert.equal(isForcedAllIn(legal({ all_in_to: 600 })), true); // exactly the stack: still all in
  assert.equal(isForcedAllIn(legal({ all_in_to: 601 })), false);
  assert.equal(isForcedAllIn(legal({ actions: ["check", "bet"], to_call: 0, current_bet: 0, all_in_to: 0 })), false);
});
