// How much a player may bring to a seat (RULES.md 1, 2): the window, its sentence, the amount the
// form proposes, what is wrong with an amount typed in, and when a player who busted is offered a
// new buy-in. No DOM here, so tests/js runs it under Node.

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
  return "This room plays your whole balance (you may bring less, down to 1 chip).";
}

/** The amount the form proposes: the room's maximum when the wallet holds it (else the wallet);
 * without a maximum, the whole balance (RULES.md 1: "the buy-in form then offers the whole
 * balance first"). Never below the minimum: a short wallet is the problem buyInProblem names,
 * not a smaller number in the box. */
export function buyInDefault(range) {
  const wanted = range.wholeBalance ? range.balance : range.roomMax;
  return Math.max(range.min, Math.min(wanted, range.balance));
}

/** What the Min and Max buttons fill in; `usable` is false when the wallet is short of the minimum. */
export function buyInButtons(range) {
  return { min: range.min, max: Math.max(range.min, range.max), usable: range.balance >= range.min };
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

/** After a bust, the seat to offer a new buy-in at, or null for no offer. `before` and `you` are
 * the private part before and after the event. The bust is the table's `left` event for the seat
 * we held, once the hand is over, with nothing returned: standing up or being removed after a
 * disconnect gives chips back. The same seat if it is free, else the first free one; only when the
 * wallet covers the minimum and the room still seats players. */
export function rebuySeat({ before, you, event, table }) {
  if (!before || !Number.isInteger(before.seat) || !you || Number.isInteger(you.seat) || you.seated_elsewhere) return null;
  if (!event || event.kind !== "left" || event.seat !== before.seat || event.returned !== 0) return null;
  if (!table || table.status !== "open" || table.hand) return null;
  const range = buyInRange(table.options, you);
  if (range.balance < range.min) return null;
  // A seat held for the waiting list is not offered (the holder alone may take it).
  const free = (table.seats || []).filter((s) => !s.occupied && !Number.isInteger(s.reserved_until)).map((s) => s.number);
  if (free.includes(before.seat)) return before.seat;
  return free.length ? Math.min(...free) : null;
}

/** How much a seated player may add between hands (you.top_up from the server: null when not
 * now, else {max}: the room's room left, null without a room maximum), capped by the wallet.
 * Null when there is nothing to offer. */
export function topUpRange(you) {
  if (!you || !Number.isInteger(you.seat) || !you.top_up) return null;
  const balance = Number.isInteger(you.balance) ? you.balance : 0;
  const roomLeft = Number.isInteger(you.top_up.max) ? you.top_up.max : balance;
  const max = Math.min(roomLeft, balance);
  return max >= 1 ? { min: 1, max, balance } : null;
}

/** What is wrong with topping up by `value`, or "". */
export function topUpProblem(range, value) {
  if (!range) return "You cannot add chips now.";
  if (!Number.isInteger(value) || value < 1) return "Enter a whole number of chips.";
  if (value > range.max) return `You can add at most ${chips(range.max)} chips now.`;
  return "";
}

// RULES.md 2, auto top-up: the player's setting (the server keeps it with their preferences) as
// the Top up dialog edits it: { enabled, belowPercent, target: "max" | "bb", toBigBlinds }.
export const AUTO_TOP_UP_BELOW = { min: 1, max: 100 };
export const AUTO_TOP_UP_BIG_BLINDS = { min: 10, max: 1000 };

/** The form's values for the server's setting (snapshot.auto_top_up). */
export function autoTopUpForm(settings) {
  const s = settings || {};
  const bb = Number.isInteger(s.to_big_blinds) ? s.to_big_blinds : null;
  return { enabled: Boolean(s.enabled), belowPercent: Number.isInteger(s.below_percent) ? s.below_percent : 50, target: bb === null ? "max" : "bb", toBigBlinds: bb === null ? 100 : bb };
}

/** What is wrong with the values typed in, or "" (the server says the same, in its words). */
export function autoTopUpProblem(form) {
  const { min, max } = AUTO_TOP_UP_BELOW;
  if (!Number.isInteger(form.belowPercent) || form.belowPercent < min || form.belowPercent > max) {
    return `The threshold is a whole percent from ${min} to ${max}.`;
  }
  const bb = AUTO_TOP_UP_BIG_BLINDS;
  if (form.target === "bb" && (!Number.isInteger(form.toBigBlinds) || form.toBigBlinds < bb.min || form.toBigBlinds > bb.max)) {
    return `The target is ${chips(bb.min)} to ${chips(bb.max)} big blinds.`;
  }
  return "";
}

/** The frame that saves the form's values. */
export function autoTopUpFrame(form) {
  return {
    type: "auto_top_up", enabled: form.enabled, below_percent: form.belowPercent,
    to_big_blinds: form.target === "bb" ? form.toBigBlinds : null,
  };
}

/** The stack auto top-up aims at in this room (as the server works it out), or null. */
export function autoTopUpTarget(options, form) {
  const o = options || {};
  if (form.target !== "bb") return unset(o.max_buy_in) ? null : o.max_buy_in;
  if (o.blinds !== "fixed" || !Number.isInteger(o.big_blind)) return null;
  let target = Math.max(form.toBigBlinds * o.big_blind, o.min_buy_in || 0, 1);
  if (!unset(o.max_buy_in)) target = Math.min(target, o.max_buy_in);
  return target;
}

/** One sentence under the form: what the setting does at this table. */
export function autoTopUpWords(options, form) {
  const o = options || {};
  const target = autoTopUpTarget(o, form);
  if (target === null) {
    return form.target === "bb"
      ? "This room's blinds follow the stacks, so a target in big blinds does not apply here: choose the room's maximum."
      : "This room has no maximum buy-in: choose a target in big blinds for auto top-up to work here.";
  }
  const below = Math.floor((target * form.belowPercent) / 100);
  return `Here: when your stack is under ${chips(below)} before a hand, it is brought back to ${chips(target)} from your wallet.`;
}
