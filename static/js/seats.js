// The seats around the oval as a viewer sees them: the seat states of RULES.md 6 and their
// labels, where each seat sits, the tags and the status line it shows. No DOM here (felt.js
// draws them), so tests/js runs it under Node. `view` is the table client (table-app.js) or any
// object with the same fields: table, hand, lastHand, you, canSit, lastActions.

import { categoryName, chips } from "./format.js";

// RULES.md 6: the eleven seat states of [000], plus sitting out (wait-or-post rooms).
export const SEAT_STATE_LABELS = {
  closed: "Empty",
  open: "Open seat",
  mine_post_game: "Your seat · game over",
  mine_waiting_next: "Your seat · next game",
  waiting: "Waiting",
  waiting_next_game: "Next game",
  betting: "To act",
  all_in: "All in",
  folded: "Folded",
  winner: "Winner",
  disconnected: "Disconnected",
  sitting_out: "Sitting out",
};

// What the status line says instead of a state name that reads badly there (the box is already
// drawn as yours), and the words cut short to fit a phone's seat box.
const STATUS_LABELS = { mine_post_game: "Game over", mine_waiting_next: "Next game" };
const SHORT_WORDS = {
  Disconnected: "Offline", "Three of a kind": "Trips", "Four of a kind": "Quads", "Straight flush": "Str. flush",
};
const short = (text) => SHORT_WORDS[text] || text;

/** "Raise to 600" -> {verb: "Raise", amount: " to 600"}: a phone shows the verb, and the amount on
 * the seat's chips. */
export function splitAction(text) {
  const match = /^(.*?)((?: to)? [\d,]+)$/.exec(text);
  return match ? { verb: match[1], amount: match[2] } : { verb: text, amount: "" };
}

/** The seat state as this viewer sees it (the server's state plus open/closed and "your seat"). */
export function seatStateOf(row, view) {
  if (!row.occupied) {
    // Held for the first in the waiting list: nobody else is offered it (its holder is).
    if (Number.isInteger(row.reserved_until) && view.heldSeat !== row.number) return "reserved";
    return view.canSit ? "open" : "closed";
  }
  const mine = view.you && view.you.seat === row.number;
  if (mine && row.state === "post_game") return "mine_post_game";
  if (mine && row.state === "waiting_next_game") return "mine_waiting_next";
  if (row.state === "post_game") return "waiting";
  return row.state in SEAT_STATE_LABELS ? row.state : "waiting";
}

/** Which seat is drawn at the bottom: your own, else seat 0. Seats go round clockwise. */
export function anchorSeat(view) {
  return view.you && Number.isInteger(view.you.seat) ? view.you.seat : 0;
}

/** Where seat `number` of `count` sits when `anchor` is at the bottom: sin and cos of its angle
 * (as CSS strings). */
export function placement(number, count, anchor) {
  const index = (number - anchor + count) % count;
  const angle = (2 * Math.PI * index) / count;
  // Screen coordinates: index 0 at the bottom centre, then to the left, up and round (clockwise).
  return { sin: Math.sin(angle).toFixed(4), cos: Math.cos(angle).toFixed(4), index };
}

/** "upper", "side" or "lower": where a seat sits on the oval (cards and chips go inward). */
export function rowOf(place) {
  const cos = Number(place.cos);
  return cos > 0.35 ? "lower" : cos < -0.35 ? "upper" : "side";
}

/** "left", "right" or "middle": which half of the oval a seat is on (its outer side is free). */
export function halfOf(place) {
  const sin = Number(place.sin);
  return sin > 0.2 ? "left" : sin < -0.2 ? "right" : "middle";
}

/** A seat above the oval's middle line (on a phone a side seat's cards hang towards the middle). */
export function isHigh(place) {
  return Number(place.cos) < 0;
}

/** Whether the one sitting in this seat now played it in the last hand. A seat shows only its
 * own player's result: once they have gone, the seat (empty, or a newcomer's) shows nothing of
 * them. The server leaves their cards and net out too (holdem/selectors/table_view.py
 * `_last_result`); a replay's result has no `players`, and everyone on its felt played the hand. */
export function playedLastHand(row, view) {
  const last = view.lastHand;
  if (!last || !row.occupied) return false;
  if (!last.players) return true;
  const player = last.players[String(row.number)];
  return Boolean(player && player.user_id === row.user_id);
}

/** Who played `seat` in the last hand, by name (a pot's winner may have left since). */
export function lastHandName(view, seat) {
  const last = view.lastHand;
  const player = last && last.players ? last.players[String(seat)] : null;
  return player ? player.username : view.nameOf(seat);
}

/** The cards shown from a seat at the last showdown, if the one who showed them still sits there. */
export function shownAtShowdown(row, view) {
  const last = view.lastHand;
  const cards = last && !view.hand && last.shown ? last.shown[String(row.number)] : null;
  return cards && playedLastHand(row, view) ? cards : null;
}

/** The best five cards of the winning hands at showdown (RULES.md 4), as a set of codes. */
export function winningCards(view) {
  const codes = new Set();
  const last = view.lastHand;
  if (!last || view.hand || !last.best) return codes;
  const winners = new Set((last.winners || []).map(String));
  for (const [seat, best] of Object.entries(last.best)) {
    if (winners.has(seat) && best && best.cards) best.cards.forEach((c) => codes.add(c));
  }
  return codes;
}

/** RULES.md 4 [003]: this seat is still choosing whether to show the hand that lost. */
export function isDeciding(row, view) {
  const last = view.lastHand;
  return Boolean(last && !view.hand && Array.isArray(last.undecided) && last.undecided.includes(row.number));
}

/** The dealer button and blinds on an occupied seat: some of "D", "SB", "BB". */
export function seatTags(row, view) {
  const hand = view.hand;
  const tags = [];
  const button = hand ? hand.button : view.table.button;
  // Between hands the button is where the last hand had it: on its player, not on a newcomer.
  const buttonHere = button === row.number && (hand || !view.lastHand || playedLastHand(row, view));
  if (buttonHere) tags.push("D");
  if (hand && hand.small_blind_seat === row.number) tags.push("SB");
  if (hand && hand.big_blind_seat === row.number) tags.push("BB");
  return tags;
}

/** Dealt into the hand in progress and still playing it: not waiting for the next game. */
function playingHand(row, state, view) {
  return state === "waiting" && Boolean(view.hand) && Boolean(row.in_hand) && !row.folded;
}

/** The seat state in words: "Waiting" is for the next game only, so a player still in the hand
 * who is not the one to act reads "In hand". */
export function stateLabel(row, state, view) {
  return playingHand(row, state, view) ? "In hand" : SEAT_STATE_LABELS[state];
}

/** An occupied seat in one sentence, for screen readers. */
export function seatSummary(row, state, view) {
  const extra = [];
  if ((state === "all_in" || state === "disconnected") && row.protected) extra.push("all-in protected");
  if (isDeciding(row, view)) extra.push("deciding whether to show");
  if (seatTags(row, view).includes("D")) extra.push("dealer button");
  const last = playingHand(row, state, view) && view.lastActions ? view.lastActions[row.number] : null;
  if (last) extra.push(`last action ${last}`);
  return `Seat ${row.number + 1}: ${row.username}, ${chips(row.stack)} chips, ${[stateLabel(row, state, view), ...extra].join(", ")}`;
}

function lastNet(row, view) {
  const last = view.lastHand;
  return last && last.net && playedLastHand(row, view) ? last.net[String(row.number)] : null;
}

/** What the status line under an occupied seat's stack says, one of:
 * {kind: "deciding"}, {kind: "protected", label, short}, {kind: "winner", net}, {kind: "hand",
 * category, short, net} (the hand shown and its result), {kind: "net", net}, {kind: "last_action",
 * text, verb, amount} and {kind: "label", text, short}. `short`: the words a phone shows. */
export function seatStatus(row, state, view) {
  if (isDeciding(row, view)) return { kind: "deciding" };
  if ((state === "all_in" || state === "disconnected") && row.protected) {
    // RULES.md 5: all in through all-in protection after a disconnect (still away, or back).
    return { kind: "protected", label: SEAT_STATE_LABELS[state], short: short(SEAT_STATE_LABELS[state]) };
  }
  if (state === "winner") return { kind: "winner", net: (row.net ?? lastNet(row, view)) || 0 };
  const last = view.lastHand;
  const best = last && !view.hand && last.best && playedLastHand(row, view) ? last.best[String(row.number)] : null;
  if (best && (state === "waiting" || state === "mine_post_game")) {
    const category = categoryName(best.category);
    return { kind: "hand", category, short: short(category), net: lastNet(row, view) };
  }
  if (state === "mine_post_game" || (state === "waiting" && !view.hand)) {
    const net = lastNet(row, view);
    if (net) return { kind: "net", net };
  }
  if (state === "waiting" && row.waiting_for_big_blind) return { kind: "label", text: "Waits for big blind", short: "Waits for BB" };
  // Still in the hand, waiting for a turn: what they did last this round, else "In hand".
  if (playingHand(row, state, view) && view.lastActions && view.lastActions[row.number]) {
    const text = view.lastActions[row.number];
    return { kind: "last_action", text, ...splitAction(text) };
  }
  const text = STATUS_LABELS[state] || stateLabel(row, state, view);
  return { kind: "label", text, short: short(text) };
}
