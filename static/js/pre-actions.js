// The pre-action boxes: what a player still in the hand may choose before their turn comes
// ("Check/Fold", "Call 200", "Call any"...), which box is checked (the server's you.pre_action),
// and the frame a click sends (docs/protocol.md `pre_action`). No DOM here, so tests/js runs it
// under Node; console-screens.js draws the boxes.

import { chips } from "./format.js";

/** The player's own entry in the hand in progress, or null (not dealt in, or no hand). */
function handSeatOf(table, you) {
  const hand = table && table.hand;
  if (!hand || !you || !Number.isInteger(you.seat)) return null;
  return (hand.seats || []).find((s) => s.seat === you.seat) || null;
}

/** The boxes offered now, each {value, label, amount} (amount only for "call": what the call
 * would put in now), or null: only while dealt in, not folded, not all in, and it is somebody
 * else's turn. */
export function preActionOptions(table, you) {
  const mine = handSeatOf(table, you);
  const hand = table && table.hand;
  if (!mine || mine.folded || mine.all_in || mine.protected) return null;
  if (!Number.isInteger(hand.to_act) || hand.to_act === you.seat) return null;
  const stack = mine.stack || 0;
  const toCall = Math.min(Math.max((hand.current_bet || 0) - (mine.bet || 0), 0), stack);
  if (toCall === 0) {
    return [
      { value: "check_fold", label: "Check/Fold", amount: null },
      { value: "check", label: "Check", amount: null },
      { value: "call_any", label: "Call any", amount: null },
    ];
  }
  return [
    { value: "fold", label: "Fold", amount: null },
    { value: "call", label: `Call ${chips(toCall)}${toCall === stack ? " (all in)" : ""}`, amount: toCall },
    { value: "call_any", label: "Call any", amount: null },
  ];
}

/** The value of the box to draw checked, from the server's you.pre_action, or null. A "call" is
 * checked only for the amount it was chosen for (the server drops it when the bet changes);
 * "check_fold" facing a bet is the fold it will be. */
export function checkedPreAction(options, preAction) {
  if (!options || !preAction || !preAction.value) return null;
  const offered = (value) => options.find((option) => option.value === value) || null;
  if (preAction.value === "call") {
    const call = offered("call");
    return call && call.amount === preAction.amount ? "call" : null;
  }
  if (preAction.value === "check_fold" && !offered("check_fold")) return offered("fold") ? "fold" : null;
  return offered(preAction.value) ? preAction.value : null;
}

/** The frame a click on `option` sends: the checked box clears the choice, any other sets it. */
export function preActionFrame(option, checked) {
  if (option.value === checked) return { type: "pre_action" };
  const frame = { type: "pre_action", value: option.value };
  if (option.value === "call") frame.amount = option.amount;
  return frame;
}
