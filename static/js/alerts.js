// What the table tells a player who is looking elsewhere: the words of the turn alert, the
// opponents' actions read out by the live region, the flashing tab title, and whether leaving the
// page now would cost a hand. alerts-view.js says them. No DOM here, so tests/js runs it under Node.

import { turnLegal } from "./console-state.js";
import { chips } from "./format.js";
import { engineLines } from "./log.js";

/** The tab title while it is this player's turn, alternating with the page's own title. */
export const TURN_TITLE = "\u25B6 Your turn";

/** The turn to alert this player to: the token of table.turn when you.legal offers that turn to
 * them, else null. One alert per token: an answer in flight or a renewed clock keeps it. */
export function turnToAlert(table, you) {
  const legal = turnLegal(you);
  const turn = table && table.turn;
  if (!legal || !turn || !turn.token || turn.seat !== you.seat) return null;
  return turn.token;
}

/** The turn alert in words, from you.legal: "Your turn: call 200 or raise". */
export function turnWords(legal) {
  const offers = (action) => legal.actions.includes(action);
  const myBet = legal.current_bet - legal.to_call;
  // Not enough chips to call: all that is left goes in, or the hand is folded (console-state's forced_all_in).
  if (legal.to_call > 0 && legal.all_in_to <= legal.current_bet) {
    return `Your turn: call ${chips(legal.all_in_to - myBet)} (all in) or fold`;
  }
  if (offers("call")) return `Your turn: call ${chips(legal.to_call)} or ${offers("raise") ? "raise" : "fold"}`;
  if (offers("check")) {
    if (offers("bet")) return "Your turn: check or bet";
    if (offers("raise")) return "Your turn: check or raise"; // the big blind's option before the flop
    if (offers("all_in")) return "Your turn: check or go all in";
    return "Your turn: check";
  }
  return "Your turn";
}

/** One line per action of somebody else in these engine events ("bob raises to 600"); the
 * player's own actions are not read back to them. */
export function opponentActionLines(engineEvents, mySeat, name) {
  const lines = [];
  for (const e of engineEvents || []) {
    if (e.kind !== "action" || e.seat === mySeat) continue;
    for (const line of engineLines(e, name)) lines.push(line.text);
  }
  return lines;
}

/** The tab title at step `step` of the flashing: the turn title, then the page's own, and so on. */
export function flashingTitle(step, ownTitle) {
  return step % 2 === 0 ? TURN_TITLE : ownTitle;
}

/** The title keeps flashing while the turn is this player's, and after it (it timed out, or
 * they acted from another tab) until they look at the page again. */
export function keepsFlashing({ myTurn, flashing, looking }) {
  return Boolean(myTurn || (flashing && !looking));
}

/** Leaving the page now gives up a hand: dealt in to the hand in progress and not folded. */
export function leavingGivesUpAHand(table, you) {
  if (!table || !table.hand || !you || !you.in_hand || !Number.isInteger(you.seat)) return false;
  const mine = (table.seats || []).find((s) => s.number === you.seat && s.occupied);
  return Boolean(mine && mine.user_id === you.user_id && !mine.folded);
}
