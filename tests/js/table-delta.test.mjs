import assert from "node:assert/strict";
import { test } from "node:test";

import { applyChanges, applyYou } from "../../static/js/table-delta.js";

const seat = (number, extra = {}) => ({ number, occupied: false, ...extra });
const TABLE = { id: 2, hand: null, turn: null, seats: [seat(0), seat(1), seat(2)], now: 1 };

test("named keys are replaced whole and the others kept", () => {
  const hand = { street: "preflop", board: [], to_act: 1 };
  const next = applyChanges(TABLE, { hand, now: 5 });
  assert.deepEqual(next.hand, hand);
  assert.equal(next.now, 5);
  assert.equal(next.id, 2);
  assert.equal(next.seats, TABLE.seats);
  assert.equal(TABLE.hand, null); // the old view is left as it was
});

test("a null value is a value: the hand is over", () => {
  const playing = { ...TABLE, hand: { street: "river" } };
  assert.equal(applyChanges(playing, { hand: null }).hand, null);
});

test("seat updates replace the seats they carry, by number", () => {
  const alice = seat(1, { occupied: true, username: "alice", stack: 900 });
  const next = applyChanges(TABLE, { seat_updates: [alice] });
  assert.deepEqual(next.seats, [seat(0), alice, seat(2)]);
  assert.deepEqual(TABLE.seats[1], seat(1));
});

test("a whole seats list replaces the seats (the room's seat count changed)", () => {
  const seats = [seat(0), seat(1)];
  assert.deepEqual(applyChanges(TABLE, { seats }).seats, seats);
});

test("a private part without a balance keeps the one we had", () => {
  const fresh = { seat: 1, hole: ["As", "Kd"], legal: null };
  assert.deepEqual(applyYou({ seat: 1, balance: 700 }, fresh), { ...fresh, balance: 700 });
  assert.deepEqual(applyYou({ seat: 1, balance: 700 }, { ...fresh, balance: 50 }).balance, 50);
  assert.deepEqual(applyYou(null, fresh), fresh);
});
