import assert from "node:assert/strict";
import { test } from "node:test";

import { buyInProblem, buyInRange, buyInToSend, buyInWords, roomBuyInText } from "../../static/js/buy-in.js";

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
  assert.equal(buyInWords(buyInRange(wholeBalanceRoom, { balance: 900 })), "This room plays your whole balance (you may bring less).");
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
