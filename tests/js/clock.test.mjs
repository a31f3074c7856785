import assert from "node:assert/strict";
import { test } from "node:test";

import { decideLeftMs, inTimeBank, secondsUntil, turnFractionLeft, turnSecondsLeft } from "../../static/js/clock.js";

const NOW = 1_796_043_188_342;

test("the share of the turn left", () => {
  const turn = { seat: 0, deadline: NOW + 15_000, seconds: 60 };
  assert.equal(turnFractionLeft(turn, NOW), 0.25);
  assert.equal(turnFractionLeft(turn, NOW + 20_000), 0);
  assert.equal(turnFractionLeft({ ...turn, deadline: NOW + 90_000 }, NOW), 1); // a clock ahead of ours
  assert.equal(turnFractionLeft({ ...turn, seconds: 0 }, NOW), 0);
  assert.equal(turnFractionLeft(null, NOW), 0);
});

test("seconds left round up and never go below zero", () => {
  const turn = { seat: 0, deadline: NOW + 14_001, seconds: 60 };
  assert.equal(turnSecondsLeft(turn, NOW), 15);
  assert.equal(turnSecondsLeft(turn, NOW + 14_001), 0);
  assert.equal(turnSecondsLeft(turn, NOW + 60_000), 0);
  assert.equal(turnSecondsLeft({ seat: 0 }, NOW), 0);
  assert.equal(secondsUntil(NOW + 1, NOW), 1);
  assert.equal(secondsUntil(NOW + 30_000, NOW), 30);
  assert.equal(secondsUntil(NOW - 5_000, NOW), 0);
});

test("time left to choose Show or Muck", () => {
  assert.equal(decideLeftMs({ decide_by: NOW + 9_000 }, NOW), 9_000);
  assert.equal(decideLeftMs({ decide_by: NOW - 1 }, NOW), 0);
  assert.equal(decideLeftMs({ decide_by: null }, NOW), null);
  assert.equal(decideLeftMs(null, NOW), null);
});

test("on the time bank the bar shows the share of the bank left", () => {
  const turn = { seat: 0, deadline: NOW + 10_000, seconds: 20, bank_from: NOW - 30_000 };
  assert.ok(inTimeBank(turn));
  assert.equal(turnFractionLeft(turn, NOW), 0.25);
  assert.equal(turnSecondsLeft(turn, NOW), 10);
  assert.ok(!inTimeBank({ ...turn, bank_from: null }));
});
