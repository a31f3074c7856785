// A seat held for the waiting list: shown as held to everyone but its holder, never
// offered to a busted player for a rebuy, and what a lapsed or declined offer says it became.
import assert from "node:assert/strict";
import { test } from "node:test";

import { rebuySeat } from "../../static/js/buy-in.js";
import { seatStateOf } from "../../static/js/seats.js";
import { leftText } from "../../static/js/waiting.js";

const held = { number: 2, occupied: false, reserved_until: 1_800_000_000_000 };
const open = { number: 3, occupied: false };

test("a held seat reads as reserved to a spectator and to a seated player, open to its holder", () => {
  assert.equal(seatStateOf(held, { canSit: true, heldSeat: null }), "reserved");
  assert.equal(seatStateOf(held, { canSit: false, you: { seat: 0 } }), "reserved");
  assert.equal(seatStateOf(held, { canSit: true, heldSeat: 2 }), "open");
  assert.equal(seatStateOf(open, { canSit: true, heldSeat: 2 }), "open");
});

const table = (seats) => ({ status: "open", hand: null, options: { min_buy_in: 2000, max_buy_in: 20000, blinds: "fixed", big_blind: 100 }, seats });
const busted = {
  before: { user_id: 7, seat: 2, balance: 30000, in_hand: false },
  you: { user_id: 7, seat: null, balance: 30000, seated_elsewhere: null, buy_in: { min: 2000, max: 20000, reason: null } },
  event: { kind: "left", seat: 2, username: "alice", returned: 0 },
};

test("a busted player is not offered their seat once it is held for the waiting list", () => {
  const seats = [{ number: 0, occupied: true }, { number: 1, occupied: true }, held];
  assert.equal(rebuySeat({ ...busted, table: table(seats) }), null);
  assert.equal(rebuySeat({ ...busted, table: table([...seats, open]) }), 3); // another free one
});

test("a lapsed or declined offer says where the seat went", () => {
  assert.match(leftText({ reason: "lapsed", passed_on: true }), /went to the next in line/);
  assert.match(leftText({ reason: "lapsed", passed_on: false }), /nobody else was waiting/);
  assert.doesNotMatch(leftText({ reason: "lapsed", passed_on: false }), /next in line/);
  assert.match(leftText({ reason: "declined", passed_on: false }), /open to anyone/);
  assert.equal(leftText({ reason: "closed" }), "The room closed");
});
