// The hand replayer's steps (holdem/history/replayer.py hand_replay makes them, one per public
// event of a finished hand) as the table client's view: the felt (felt.js) and the seats
// (seats.js) draw a step exactly as they draw a live table. Also where each street starts, what
// each seat did last, and how the keys move. No DOM here, so tests/js runs it under Node.

import { chips } from "./format.js";
import { lastActionText } from "./log.js";
import { centerMessage } from "./messages.js";

// The street jumps, in the order of a hand.
export const REPLAY_STREETS = [
  { street: "preflop", label: "Pre-flop" },
  { street: "flop", label: "Flop" },
  { street: "turn", label: "Turn" },
  { street: "river", label: "River" },
  { street: "showdown", label: "Showdown" },
];
const STREET_LABELS = Object.fromEntries(REPLAY_STREETS.map(({ street, label }) => [street, label]));

// Play: one step every so often, a little longer where the table deals or pays.
export const PLAY_MS = 1100;
const SLOW_KINDS = new Set(["street", "hands_tabled", "showdown", "result"]);

/** How long Play stays on `step` before the next one. */
export function playDelay(step) {
  return step && SLOW_KINDS.has(step.kind) ? PLAY_MS * 1.6 : PLAY_MS;
}

/** The first step of each street the hand reached: {preflop: 0, flop: 7, ...}. */
export function streetStarts(steps) {
  const starts = {};
  (steps || []).forEach((step, index) => {
    if (!(step.street in starts)) starts[step.street] = index;
  });
  return starts;
}

/** `index` kept inside the steps. */
export function clampStep(index, count) {
  if (!count) return 0;
  return Math.min(Math.max(0, Math.trunc(Number(index) || 0)), count - 1);
}

/** The step a key leads to from `index`, or null for a key the replayer leaves alone. */
export function stepForKey(key, index, count) {
  switch (key) {
    case "ArrowLeft": return clampStep(index - 1, count);
    case "ArrowRight": return clampStep(index + 1, count);
    case "Home": return 0;
    case "End": return clampStep(count - 1, count);
    default: return null;
  }
}

/** "Step 5 of 19 · Flop" */
export function positionText(steps, index) {
  const step = steps[index];
  const label = step ? STREET_LABELS[step.street] || "" : "";
  return `Step ${index + 1} of ${steps.length}${label ? ` · ${label}` : ""}`;
}

/** What each seat did last in the betting round of step `index`, as its seat shows it at the
 * table ("Call 1,000"): the table's own words (log.js lastActionText). */
export function lastActionsAt(steps, index) {
  let last = {};
  for (let i = 0; i <= index && i < steps.length; i += 1) {
    const step = steps[i];
    if (step.kind === "hand_started" || step.kind === "street") last = {};
    else if (step.kind === "action" && step.event) last = { ...last, [step.seat]: lastActionText(step.event) };
  }
  return last;
}

/** RULES.md 6 seat states, as the server gives them in a table frame
 * (holdem/selectors/table_view.py). */
function seatState(seat, step) {
  if (step.result) return step.result.winners.includes(seat.seat) ? "winner" : "post_game";
  if (seat.folded) return "folded";
  if (seat.all_in || seat.protected) return "all_in";
  if (step.hand && step.hand.to_act === seat.seat) return "betting";
  return "waiting";
}

/** Step `index` as the public table of a snapshot: every seat of the room (those not in the hand
 * empty), the hand in progress, or once it is over the last hand's result. */
export function replayTable(replay, index) {
  const step = replay.steps[index];
  const names = new Map((replay.players || []).map((p) => [p.seat, p.username]));
  const inHand = new Map(step.seats.map((seat) => [seat.seat, seat]));
  const seats = [];
  for (let number = 0; number < replay.seat_count; number += 1) {
    const seat = inHand.get(number);
    if (!seat || !names.has(number)) {
      seats.push({ number, occupied: false });
      continue;
    }
    const row = {
      number, occupied: true, username: names.get(number), stack: seat.stack, in_hand: true, sitting_out: false,
      waiting_for_big_blind: false, disconnected: false, bet: seat.bet, committed: seat.committed, folded: seat.folded,
      all_in: seat.all_in, protected: seat.protected, has_cards: seat.has_cards,
    };
    if (seat.hole) row.hole = seat.hole;
    row.state = seatState(seat, step);
    if (step.result) {
      row.net = step.result.net[String(number)] ?? 0;
      row.winner = step.result.winners.includes(number);
    }
    seats.push(row);
  }
  return {
    name: replay.table, status: "open", options: { seats: replay.seat_count }, button: replay.button, seats,
    hand: step.hand ? { ...step.hand, seats: step.seats } : null, hand_id: replay.hand_id, turn: null, countdown: null,
    last_hand: step.result || null, spectators: 0,
  };
}

const DESIGN_NAME = /^[a-z0-9_-]+$/; // a card back becomes a CSS class (cards.js)

/** The view the felt draws for step `index`: the same fields the table client (table-app.js)
 * gives it. The viewer's own cards come as `you.hole`, like the table's private part. */
export function replayView(replay, index) {
  const table = replayTable(replay, index);
  const step = replay.steps[index];
  const names = new Map((replay.players || []).map((p) => [p.seat, p.username]));
  const you = replay.you || null;
  const mine = you ? step.seats.find((seat) => seat.seat === you.seat) || null : null;
  const cardBack = typeof replay.card_back === "string" && DESIGN_NAME.test(replay.card_back) ? replay.card_back : "classic";
  return {
    table,
    hand: table.hand,
    lastHand: table.hand ? null : table.last_hand,
    you: you ? { seat: you.seat, username: you.username, hole: mine && mine.hole ? mine.hole : null } : null,
    canSit: false,
    switching: false,
    cardBack,
    lastActions: lastActionsAt(replay.steps, index),
    nameOf: (seat) => names.get(seat) || `Seat ${Number(seat) + 1}`,
    handSeat: (number) => table.seats.find((row) => row.number === number && row.occupied) || null,
    // RULES.md 4 [002]: as at the table, your own folded cards are off the felt once it is over.
    foldedLastHand: () => Boolean(table.last_hand && mine && mine.folded),
  };
}

/** The line in the middle of the felt: the street and the blinds, or who won (as the table says). */
export function centerText(view) {
  if (view.hand) {
    const label = STREET_LABELS[view.hand.street] || "";
    return `${label ? `${label} · ` : ""}Blinds ${chips(view.hand.small_blind)}/${chips(view.hand.big_blind)}`;
  }
  return view.lastHand ? centerMessage(view, 0) : "";
}
