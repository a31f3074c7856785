// How much a player may bring to a seat (RULES.md 1, 2): the window, its sentence, and what is
// wrong with an amount typed in. No DOM here, so tests/js runs it under Node.

import { chips } from "./format.js";

const unset = (value) => value === null || value === undefined;

/** The room's buy-in as its facts line shows it: "2,000–20,000", "500 – wallet", "whole balance". */
export function roomBuyInText(options) {
  const o = options;
  if (unset(o.max_buy_in)) return o.min_buy_in > 1 ? `${chips(o.min_buy_in)} – wallet` : "whole balance";
  return `${chips(Math.max(o.min_buy_in, 1))}–${chips(o.max_buy_in)}`;
}

/** The buy-in window for this player: the server's own (you.buy_in: a rathole minimum or blind
 * debts, RULES.md 2) when it sends one, else the room's; `max` is capped by the wallet. */
export function buyInRange(options, you) {
  const o = options || {};
  const limits = you && you.buy_in && typeof you.buy_in === "object" ? you.buy_in : null;
  const balance = (you && you.balance) || 0;
  const roomMax = limits ? limits.max : o.max_buy_in;
  const wholeBalance = unset(roomMax);
  const min = Math.max((limits ? limits.min : o.min_buy_in) || 0, 1);
  const max = wholeBalance ? balance : Math.min(roomMax, balance);
  return { min, max, balance, wholeBalance, roomMax, reason: (limits && limits.reason) || null };
}

/** The sentence above the amount box. */
export function buyInWords(range) {
  if (!range.wholeBalance) return `Buy-in between ${chips(range.min)} and ${chips(range.roomMax)} chips.`;
  if (range.min > 1) return `Buy-in at least ${chips(range.min)} chips, up to your whole balance.`;
  return "This room plays your whole balance (you may bring less).";
}

/** What is wrong with buying in for `value` chips, or "" when nothing is. */
export function buyInProblem(range, value) {
  if (range.balance < range.min) return `You need at least ${chips(range.min)} chips; your wallet has ${chips(range.balance)}.`;
  if (!Number.isInteger(value)) return "Enter a whole number of chips.";
  if (value < range.min) return `The minimum buy-in is ${chips(range.min)}.`;
  if (value > range.balance) return `Your wallet has ${chips(range.balance)} chips.`;
  if (!range.wholeBalance && value > range.roomMax) return `The maximum buy-in is ${chips(range.roomMax)}.`;
  return "";
}

/** The `buy_in` of the sit frame: null asks for the whole balance in a room without a maximum. */
export function buyInToSend(range, value) {
  return range.wholeBalance && value === range.balance ? null : value;
}
