import assert from "node:assert/strict";
import { test } from "node:test";

import { shortcutFor } from "../../static/js/shortcuts.js";

const facing = { actions: ["fold", "call", "raise", "all_in"] };
const open = { actions: ["check", "bet", "all_in"] };
const key = (k, state, legal, extra = {}) => shortcutFor(k, { state, legal, ...extra });

test("F asks to fold, C checks or calls, R opens the raise", () => {
  assert.equal(key("f", "call_bet", facing), "ask_fold");
  assert.equal(key("F", "call_bet", facing), "ask_fold");
  assert.equal(key("c", "call_bet", facing), "call");
  assert.equal(key("c", "start_bet", open), "check");
  assert.equal(key("r", "call_bet", facing), "raise");
  assert.equal(key("R", "start_bet", open), "raise");
});

test("keys that have nothing to do are left alone or swallowed", () => {
  assert.equal(key("f", "start_bet", { actions: ["check", "bet"] }), null);
  assert.equal(key("c", "start_bet", { actions: ["fold", "bet"] }), "ignore");
  assert.equal(key("x", "call_bet", facing), null);
  assert.equal(key("r", "call_no_raise", { actions: ["fold", "call", "raise"] }), null);
});

test("when the bet is more than the stack, C asks to go all in and R does nothing", () => {
  const forced = { actions: ["fold", "all_in"] };
  assert.equal(key("c", "forced_all_in", forced), "ask_all_in");
  assert.equal(key("r", "forced_all_in", { actions: ["fold", "raise", "all_in"] }), null);
});

test("confirmations: Enter confirms, Escape cancels", () => {
  assert.equal(key("Enter", "confirm_fold", facing), "fold");
  assert.equal(key("Enter", "confirm_all_in", facing), "all_in");
  assert.equal(key("Enter", "confirm_fold", facing, { pending: true }), "ignore");
  assert.equal(key("Enter", "confirm_fold", facing, { typing: true }), null);
  assert.equal(key("Escape", "confirm_fold", facing), "cancel");
  assert.equal(key("Escape", "raise", facing, { typing: true }), "cancel");
  assert.equal(key("Escape", "call_bet", facing), null);
});

test("Show or Muck answers S and M", () => {
  assert.equal(key("s", "show_or_muck", null), "show");
  assert.equal(key("M", "show_or_muck", null), "muck");
  assert.equal(key("s", "show_or_muck", null, { pending: true }), null);
  assert.equal(key("m", "show_or_muck", null, { typing: true }), null);
});

test("nothing while typing, while an action is on its way, or out of turn", () => {
  assert.equal(key("f", "call_bet", facing, { typing: true }), null);
  assert.equal(key("c", "call_bet", facing, { pending: true }), null);
  assert.equal(key("c", "waiting", null), null);
  assert.equal(key("f", "raise", facing), null);
});

test("on the raise screen Enter places the amount shown, even from the box", () => {
  assert.equal(key("Enter", "raise", facing), "place_raise");
  assert.equal(key("Enter", "raise", facing, { typing: true }), "place_raise");
  assert.equal(key("Enter", "raise", facing, { pending: true }), "ignore");
  assert.equal(key("Enter", "call_bet", facing), null); // not a shortcut outside the raise screen
});
