import assert from "node:assert/strict";
import { test } from "node:test";

import {
  buyInButtons, buyInDefault, buyInProblem, buyInRange, buyInToSend, buyInWords, rebuySeat, roomBuyInText,
  topUpProblem, topUpRange,
} from "../../static/js/buy-in.js";

const room = { min_buy_in: 2000, max_buy_in: 20000 };
const wholeBalanceRoom = { min_buy_in: 1, max_buy_in: null };

test("the room's buy-in as its facts line shows it", () => {
  assert.equal(roomBuyInText(room), "2,000–20,000");
  assert.equal(roomBuyInText({ min_buy_in: 0, max_buy_in: 500 }), "1–500");
  assert.equal(roomBuyInText({ min_buy_in: 500, max_buy_in: null }), "500 – wallet");
  assert.equal(roomBuyInText(wholeBalanceRoom), "whole balance");
});

test("the window is the room's, capped by the wallet", () => {
  assert.deepEqual(buyInRange(room, { balance: 50000 }),
    { min: 2000, max: 20000, balance: 50000, wholeBalance: false, roomMax: 20000, reason: null });
  assert.deepEqual(buyInRange(room, { balance: 7000 }).max, 7000);
  assert.deepEqual(buyInRange(wholeBalanceRoom, { balance: 7000 }),
    { min: 1, max: 7000, balance: 7000, wholeBalance: true, roomMax: null, reason: null });
  assert.deepEqual(buyInRange(null, null), { min: 1, max: 0, balance: 0, wholeBalance: true, roomMax: undefined, reason: null });
});

test("the server's own window for this player wins, with its reason", () => {
  const you = { balance: 50000, buy_in: { min: 6500, max: 20000, reason: "you left this table 3 minutes ago with 6,500 chips" } };
  const range = buyInRange(room, you);
  assert.equal(range.min, 6500);
  assert.equal(range.max, 20000);
  assert.equal(range.reason, "you left this table 3 minutes ago with 6,500 chips");
  assert.equal(buyInRange(wholeBalanceRoom, { balance: 900, buy_in: { min: 300, max: null } }).wholeBalance, true);
});

test("the sentence above the amount", () => {
  assert.equal(buyInWords(buyInRange(room, { balance: 50000 })), "Buy-in between 2,000 and 20,000 chips.");
  assert.equal(buyInWords(buyInRange({ min_buy_in: 500, max_buy_in: null }, { balance: 900 })), "Buy-in at least 500 chips, up to your whole balance.");
  assert.equal(buyInWords(buyInRange(wholeBalanceRoom, { balance: 900 })), "This room plays your whole balance (you may bring less, down to 1 chip).");
});

test("what is wrong with an amount", () => {
  const range = buyInRange(room, { balance: 30000 });
  assert.equal(buyInProblem(range, 5000), "");
  assert.equal(buyInProblem(range, 2000), "");
  assert.equal(buyInProblem(range, 1999), "The minimum buy-in is 2,000.");
  assert.equal(buyInProblem(range, 20001), "The maximum buy-in is 20,000.");
  assert.equal(buyInProblem(range, 2500.5), "Enter a whole number of chips.");
  assert.equal(buyInProblem(range, NaN), "Enter a whole number of chips.");
  assert.equal(buyInProblem(buyInRange(room, { balance: 9000 }), 9001), "Your wallet has 9,000 chips.");
  assert.equal(buyInProblem(buyInRange(room, { balance: 1500 }), 1500), "You need at least 2,000 chips; your wallet has 1,500.");
  assert.equal(buyInProblem(buyInRange(wholeBalanceRoom, { balance: 900 }), 900), "");
});

test("the whole balance is sent as null, any other amount as it is", () => {
  const whole = buyInRange(wholeBalanceRoom, { balance: 900 });
  assert.equal(buyInToSend(whole, 900), null);
  assert.equal(buyInToSend(whole, 500), 500);
  assert.equal(buyInToSend(buyInRange(room, { balance: 5000 }), 5000), 5000);
});

const fixedNoMax = { min_buy_in: 200, max_buy_in: null, blinds: "fixed", big_blind: 20 };
const dynamicRoom = { min_buy_in: 0, max_buy_in: null, blinds: "dynamic", big_blind: null };

test("the proposed buy-in is the room's maximum when the wallet holds it, else the wallet", () => {
  const nl = { ...room, blinds: "fixed", big_blind: 100 };
  assert.equal(buyInDefault(buyInRange(nl, { balance: 50000 }), nl), 20000);
  assert.equal(buyInDefault(buyInRange(nl, { balance: 7000 }), nl), 7000);
  // The server's own window for this player (a returning player's minimum): its maximum.
  assert.equal(buyInDefault(buyInRange(nl, { balance: 50000, buy_in: { min: 6500, max: 20000 } }), nl), 20000);
});

test("without a maximum the whole balance is proposed first (RULES.md 1)", () => {
  assert.equal(buyInDefault(buyInRange(fixedNoMax, { balance: 10000 }), fixedNoMax), 10000);
  assert.equal(buyInDefault(buyInRange(fixedNoMax, { balance: 1500 }), fixedNoMax), 1500);
  const deep = { ...fixedNoMax, min_buy_in: 5000 };
  assert.equal(buyInDefault(buyInRange(deep, { balance: 3000 }), deep), 5000); // short: the minimum

  assert.equal(buyInDefault(buyInRange(dynamicRoom, { balance: 10000 }), dynamicRoom), 10000);
  assert.equal(buyInDefault(buyInRange(wholeBalanceRoom, { balance: 900 }), wholeBalanceRoom), 900);
});

test("a wallet short of the minimum proposes the minimum, and the problem says why", () => {
  const range = buyInRange(room, { balance: 1500 });
  assert.equal(buyInDefault(range, room), 2000);
  assert.match(buyInProblem(range, buyInDefault(range, room)), /You need at least 2,000/);
});

test("Min and Max fill the window's ends; both are useless to a short wallet", () => {
  assert.deepEqual(buyInButtons(buyInRange(room, { balance: 50000 })), { min: 2000, max: 20000, usable: true });
  assert.deepEqual(buyInButtons(buyInRange(room, { balance: 7000 })), { min: 2000, max: 7000, usable: true });
  assert.deepEqual(buyInButtons(buyInRange(fixedNoMax, { balance: 9000 })), { min: 200, max: 9000, usable: true });
  assert.deepEqual(buyInButtons(buyInRange(room, { balance: 1500 })), { min: 2000, max: 2000, usable: false });
});

// The last frame a busted player gets: the hand is over, seat 2 is empty again, no chips came back.
const bustTable = (seats) => ({ status: "open", hand: null, options: { ...room, blinds: "fixed", big_blind: 100 }, seats });
const row = (number, occupied = true) => (occupied ? { number, occupied, user_id: 100 + number } : { number, occupied });
const busted = {
  before: { user_id: 7, seat: 2, balance: 30000, in_hand: false },
  you: { user_id: 7, seat: null, balance: 30000, seated_elsewhere: null, buy_in: { min: 2000, max: 20000, reason: null } },
  event: { kind: "left", seat: 2, username: "alice", returned: 0 },
  table: bustTable([row(0), row(1, false), row(2, false), row(3)]),
};

test("a player who busted is offered the same seat again", () => {
  assert.equal(rebuySeat(busted), 2);
});

test("the seat was taken meanwhile: the first free one instead, or none", () => {
  assert.equal(rebuySeat({ ...busted, table: bustTable([row(0), row(1), row(2), row(3, false), row(4, false)]) }), 3);
  assert.equal(rebuySeat({ ...busted, table: bustTable([row(0), row(1), row(2), row(3)]) }), null);
});

test("no offer when the wallet cannot cover the minimum", () => {
  assert.equal(rebuySeat({ ...busted, you: { ...busted.you, balance: 1999 } }), null);
  // The server's own minimum for this player counts, not the room's.
  assert.equal(rebuySeat({ ...busted, you: { ...busted.you, balance: 3000, buy_in: { min: 4000, max: 20000 } } }), null);
});

test("standing up, a removal with chips back, or a seat elsewhere is not a bust", () => {
  assert.equal(rebuySeat({ ...busted, event: { ...busted.event, returned: 4800 } }), null);
  assert.equal(rebuySeat({ ...busted, event: { kind: "hand_ended" } }), null);
  assert.equal(rebuySeat({ ...busted, event: { ...busted.event, seat: 0 } }), null); // somebody else left
  assert.equal(rebuySeat({ ...busted, event: { ...busted.event, returned: undefined } }), null);
  assert.equal(rebuySeat({ ...busted, you: { ...busted.you, seated_elsewhere: { table_id: 3, name: "Other" } } }), null);
});

test("no offer to a spectator, to a player still seated, after a fresh snapshot, or in a closing room", () => {
  assert.equal(rebuySeat({ ...busted, before: { user_id: 7, seat: null } }), null);
  assert.equal(rebuySeat({ ...busted, before: null }), null);
  assert.equal(rebuySeat({ ...busted, you: { ...busted.you, seat: 2 } }), null);
  assert.equal(rebuySeat({ ...busted, event: null }), null);
  assert.equal(rebuySeat({ ...busted, table: { ...busted.table, status: "closing" } }), null);
  assert.equal(rebuySeat({ ...busted, table: { ...busted.table, hand: { street: "preflop" } } }), null);
});

test("a top-up is offered up to the room's maximum, capped by the wallet", () => {
  assert.deepEqual(topUpRange({ seat: 2, balance: 9000, top_up: { max: 15000 } }), { min: 1, max: 9000, balance: 9000 });
  assert.deepEqual(topUpRange({ seat: 2, balance: 9000, top_up: { max: 500 } }).max, 500);
  assert.equal(topUpRange({ seat: 2, balance: 9000, top_up: { max: null } }).max, 9000); // no room maximum
  assert.equal(topUpRange({ seat: 2, balance: 0, top_up: { max: 500 } }), null);
  assert.equal(topUpRange({ seat: 2, balance: 900, top_up: null }), null); // dealt in, or at the maximum
  assert.equal(topUpRange({ seat: null, balance: 900, top_up: { max: 5 } }), null);
  const range = topUpRange({ seat: 2, balance: 9000, top_up: { max: 500 } });
  assert.equal(topUpProblem(range, 501), "You can add at most 500 chips now.");
  assert.equal(topUpProblem(range, 0), "Enter a whole number of chips.");
  assert.equal(topUpProblem(range, 500), "");
});
