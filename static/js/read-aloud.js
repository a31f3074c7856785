// The table read aloud on demand (shortcuts.js's Alt+1..Alt+5): the words for your hand, the
// board, the pot and what you owe, the stacks and the time left, from the snapshot the client
// holds (`table`, public) and the player's private part (`you`). No DOM here, so tests/js runs
// it; alerts-view.js puts the words in the live region.
//
// Only `you.hole` is ever read as a hand: another player's cards reach the words only as part of
// nobody's "your hand" (style.md 5 keeps them out of `table` until shown anyway).

import { cardsInWords } from "./cards.js";
import { inTimeBank, secondsUntil, turnSecondsLeft } from "./clock.js";
import { chips } from "./format.js";

const seconds = (n) => `${n} ${n === 1 ? "second" : "seconds"}`;

function mySeatNumber(you) {
  return you && Number.isInteger(you.seat) ? you.seat : null;
}

function nameAt(table, number) {
  const row = (table && table.seats ? table.seats : []).find((s) => s.number === number && s.occupied);
  return row ? row.username : `Seat ${Number(number) + 1}`;
}

function handSeat(table, number) {
  const hand = table && table.hand;
  return hand && number !== null ? (hand.seats || []).find((s) => s.seat === number) || null : null;
}

/** "Your hand: ace of spades, king of diamonds." Your own cards only (`you.hole`). */
export function handWords(table, you) {
  const mine = mySeatNumber(you);
  if (mine === null) return "You are watching: you have no cards.";
  const hole = you && Array.isArray(you.hole) ? you.hole : [];
  if (!hole.length) {
    return table && table.hand ? "You are not dealt in this hand." : "No hand in play: you have no cards.";
  }
  const played = handSeat(table, mine);
  const folded = played && played.folded ? " You folded." : "";
  const last = table && !table.hand ? "Your last hand" : "Your hand";
  return `${last}: ${cardsInWords(hole)}.${folded}`;
}

/** "Board: ace of spades, king of diamonds, two of clubs." */
export function boardWords(table) {
  const hand = table && table.hand;
  if (hand) {
    const board = hand.board || [];
    return board.length ? `Board: ${cardsInWords(board)}.` : "Board: no cards yet, before the flop.";
  }
  const last = table && table.last_hand;
  if (last) {
    const board = last.board || [];
    return board.length ? `Last hand's board: ${cardsInWords(board)}.` : "The last hand ended before the flop.";
  }
  return "No hand in play: no board.";
}

/** What you owe to stay in the hand: "you owe 300 to call", "nothing to call", or null when you
 * are not in it (watching, folded, all in). */
function owedWords(table, you) {
  const played = handSeat(table, mySeatNumber(you));
  if (!played) return null;
  if (played.folded) return "you folded";
  if (played.all_in) return "you are all in";
  const legal = you && you.legal;
  const currentBet = legal ? legal.current_bet : table.hand.current_bet || 0;
  const owed = Math.max(0, currentBet - (played.bet || 0));
  if (owed === 0) return "nothing to call";
  // Short of the bet, a call puts in the whole stack (RULES.md 3, short all-in).
  if (owed >= (played.stack || 0)) return `you owe ${chips(owed)}: calling puts you all in for ${chips(played.stack || 0)}`;
  return `you owe ${chips(owed)} to call`;
}

/** "Pot 1,200; you owe 300 to call." / "Pot 1,200; nothing to call." */
export function potWords(table, you) {
  const hand = table && table.hand;
  if (!hand) return "No hand in play: no pot, nothing to call.";
  const parts = [`Pot ${chips(hand.pot_total || 0)}`];
  const pots = (hand.pots || []).filter((p) => p.amount > 0);
  if (pots.length > 1) {
    parts[0] += ` (${pots.map((p, i) => `${i === 0 ? "main" : `side ${i}`} ${chips(p.amount)}`).join(", ")})`;
  }
  const owed = owedWords(table, you);
  if (owed) parts.push(owed);
  return `${parts.join("; ")}.`;
}

/** "Stacks: alice 1,900, bet 100; you 2,000; bob 1,500, folded." in seat order. */
export function stackWords(table, you) {
  const mine = mySeatNumber(you);
  const rows = (table && table.seats ? table.seats : []).filter((s) => s.occupied);
  if (!rows.length) return "Nobody is seated.";
  const lines = rows.map((row) => {
    const who = row.number === mine ? "you" : row.username;
    const words = [`${who} ${chips(row.stack || 0)}`];
    if (row.bet) words.push(`bet ${chips(row.bet)}`);
    if (row.folded) words.push("folded");
    else if (row.all_in) words.push("all in");
    if (row.sitting_out) words.push("sitting out");
    if (row.disconnected) words.push("disconnected");
    return words.join(", ");
  });
  return `Stacks: ${lines.join("; ")}.`;
}

/** "Your turn: 42 seconds left. Your time bank: 90 seconds." and the like; `now` is the
 * server's time in epoch ms. */
export function timeWords(table, you, now) {
  const mine = mySeatNumber(you);
  const parts = [];
  const turn = table && table.hand ? table.turn : null;
  if (turn && turn.deadline) {
    const whose = turn.seat === mine ? "Your turn" : `${nameAt(table, turn.seat)}'s turn`;
    const bank = inTimeBank(turn) ? " on the time bank" : "";
    parts.push(`${whose}${bank}: ${seconds(turnSecondsLeft(turn, now))} left.`);
  } else if (table && table.last_hand && typeof table.last_hand.decide_by === "number") {
    parts.push(`${seconds(secondsUntil(table.last_hand.decide_by, now))} to show or muck.`);
  } else if (table && table.countdown && typeof table.countdown.starts_at === "number") {
    parts.push(`Next game in ${seconds(secondsUntil(table.countdown.starts_at, now))}.`);
  } else {
    parts.push("No clock is running.");
  }
  const row = mine === null ? null : (table && table.seats ? table.seats : []).find((s) => s.number === mine && s.occupied);
  if (row && typeof row.time_bank === "number" && !(turn && turn.seat === mine && inTimeBank(turn))) {
    parts.push(`Your time bank: ${seconds(row.time_bank)}.`);
  }
  return parts.join(" ");
}

/** The words for what the player asked to hear (shortcuts.js's `readAloudFor`), or null. */
export function readAloud(what, table, you, now) {
  switch (what) {
    case "hand": return handWords(table, you);
    case "board": return boardWords(table);
    case "pot": return potWords(table, you);
    case "stacks": return stackWords(table, you);
    case "time": return timeWords(table, you, now);
    default: return null;
  }
}
