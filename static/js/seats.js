// The seats around the oval as a viewer sees them: the seat states of RULES.md 6 and their
// labels, where each seat sits, the tags and the status line it shows. No DOM here (felt.js
// draws them), so tests/js runs it under Node. `view` is the table client (table-app.js) or any
// object with the same fields: table, hand, lastHand, you, canSit, lastActions, lastHandPlayer().

import { categoryName, chips } from "./format.js";

// RULES.md 6: the eleven seat states of [000], plus sitting out (wait-or-post rooms).
export const SEAT_STATE_LABELS = {
  closed: "Empty",
  open: "Open seat",
  mine_post_game: "Your seat · game over",
  mine_waiting_next: "Your seat · next game",
  waiting: "Waiting",
  waiting_next_game: "Next game",
  betting: "Betting",
  all_in: "All in",
  folded: "Folded",
  winner: "Winner",
  disconnected: "Disconnected",
  sitting_out: "Sitting out",
};

/** The seat state as this viewer sees it (the server's state plus open/closed and "your seat"). */
export function seatStateOf(row, view) {
  if (!row.occupied) return view.canSit ? "open" : "closed";
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
 * (as CSS strings), `turn` radians further clockwise. */
export function placement(number, count, anchor, turn = 0) {
  const index = (number - anchor + count) % count;
  const angle = (2 * Math.PI * index) / count + turn;
  // Screen coordinates: index 0 at the bottom centre, then to the left, up and round (clockwise).
  return { sin: Math.sin(angle).toFixed(4), cos: Math.cos(angle).toFixed(4), index };
}

/** "upper", "side" or "lower": where a seat sits on the oval (cards and chips go inward). */
export function rowOf(place) {
  const cos = Number(place.cos);
  return cos > 0.35 ? "lower" : cos < -0.35 ? "upper" : "side";
}

/** The cards shown from a seat at the last showdown, if the one who showed them still sits there. */
export function shownAtShowdown(row, view) {
  const last = view.lastHand;
  const cards = last && !view.hand && last.shown ? last.shown[String(row.number)] : null;
  if (!cards) return null;
  const player = view.lastHandPlayer(row.number);
  if (player && row.occupied && player.user_id !== row.user_id) return null; // a newcomer's seat
  return cards;
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
  if (button === row.number) tags.push("D");
  if (hand && hand.small_blind_seat === row.number) tags.push("SB");
  if (hand && hand.big_blind_seat === row.number) tags.push("BB");
  return tags;
}

/** An occupied seat in one sentence, for screen readers. */
export function seatSummary(row, state, view) {
  const extra = [];
  if ((state === "all_in" || state === "disconnected") && row.protected) extra.push("all-in protected");
  if (isDeciding(row, view)) extra.push("deciding whether to show");
  return `Seat ${row.number + 1}: ${row.username}, ${chips(row.stack)} chips, ${[SEAT_STATE_LABELS[state], ...extra].join(", ")}`;
}

function lastNet(row, view) {
  return view.lastHand && view.lastHand.net ? view.lastHand.net[String(row.number)] : null;
}

/** What the status line under an occupied seat's stack says, one of:
 * {kind: "deciding"}, {kind: "protected", label}, {kind: "winner", net}, {kind: "hand", category,
 * net} (the hand shown and its result), {kind: "net", net}, {kind: "last_action", text} and
 * {kind: "label", text}. */
export function seatStatus(row, state, view) {
  if (isDeciding(row, view)) return { kind: "deciding" };
  if ((state === "all_in" || state === "disconnected") && row.protected) {
    // RULES.md 5: all in through all-in protection after a disconnect (still away, or back).
    return { kind: "protected", label: SEAT_STATE_LABELS[state] };
  }
  if (state === "winner") return { kind: "winner", net: (row.net ?? lastNet(row, view)) || 0 };
  const best = view.lastHand && !view.hand && view.lastHand.best ? view.lastHand.best[String(row.number)] : null;
  if (best && (state === "waiting" || state === "mine_post_game")) {
    return { kind: "hand", category: categoryName(best.category), net: lastNet(row, view) };
  }
  if (state === "mine_post_game" || (state === "waiting" && !view.hand)) {
    const net = lastNet(row, view);
    if (net) return { kind: "net", net };
  }
  if (state === "waiting" && row.waiting_for_big_blind) return { kind: "label", text: "Waits for big blind" };
  if (state === "waiting" && view.hand && view.lastActions && view.lastActions[row.number]) {
    return { kind: "last_action", text: view.lastActions[row.number] };
  }
  return { kind: "label", text: SEAT_STATE_LABELS[state] };
}
