// The sentences the table page shows: the room's facts under its name, the connection status,
// the message in the middle of the felt and the console's status line. No DOM here, so tests/js
// runs it under Node. `view` is the table client (table-app.js): table, hand, lastHand, you,
// nameOf(seat), and `held` (why a tournament's table waits between hands, or null).

import { roomBuyInText } from "./buy-in.js";
import { secondsUntil, turnSecondsLeft } from "./clock.js";
import { CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS } from "./close-codes.js";
import { satOutIdle } from "./console-state.js";
import { STREET_NAMES, STRUCTURE_NAMES, categoryName, chips } from "./format.js";
import { lastHandName } from "./seats.js";
import { heldText, isMultiTable, overText, tournamentFacts } from "./tournament.js";

const has = (value) => value !== null && value !== undefined;

/** The line under the room's name: [{text, kind}], kind "badge" or "wallet" for the two styled. */
export function tableFacts(table, you) {
  // RULES.md 8 and 9: a tournament's table plays tournament chips: its level and entry, not cash stakes.
  if (table.tournament) {
    const facts = tournamentFacts(table.tournament, table);
    if (you && Number.isInteger(you.balance)) facts.push({ text: `Wallet ${chips(you.balance)}`, kind: "wallet" });
    return facts;
  }
  const o = table.options || {};
  const facts = [{ text: STRUCTURE_NAMES[o.structure] || o.structure || "", kind: "badge" }];
  facts.push({ text: o.blinds === "dynamic" ? `Blinds ${o.dynamic_blind_percent}% of the short stack` : `Stakes ${table.stakes}` });
  facts.push({ text: `Buy-in ${roomBuyInText(o)}` });
  if (has(o.raise_cap)) facts.push({ text: `Cap ${o.raise_cap} raises` });
  if (table.hand_id) facts.push({ text: `Hand #${table.hand_id}` });
  facts.push({ text: `${table.spectators || 0} watching` });
  if (you && Number.isInteger(you.balance)) facts.push({ text: `Wallet ${chips(you.balance)}`, kind: "wallet" });
  return facts;
}

/** The connection badge for a LiveSocket status (socket.js) and its detail. */
export function connectionText(status, detail) {
  if (status === "open") return "Live";
  if (status === "connecting") return "Connecting…";
  if (status === "reconnecting") {
    const seconds = detail && detail.inMs ? Math.max(1, Math.round(detail.inMs / 1000)) : 0;
    return seconds ? `Connection lost · reconnecting in ${seconds}s` : "Reconnecting…";
  }
  if (status === "stopped" && detail && detail.code === CLOSE_SIGNED_OUT) return "Signed out · sign in again to play";
  if (status === "stopped" && detail && detail.code === CLOSE_TOO_MANY_SOCKETS) return "Open in too many tabs · reload to play here";
  return "Offline";
}

/** The sentence in the middle of the felt: who won, the countdown, or what we wait for. */
export function centerMessage(view, now) {
  const table = view.table;
  if (table.status === "closing") return "This room closes after this hand.";
  // RULES.md 9: a tournament's table that broke up; its players play on at the others.
  if (table.status === "closed" && isMultiTable(table.tournament) && table.tournament.status === "running") return "This table is closed: its players were moved to the other tables.";
  if (table.status === "closed") return "This room is closed.";
  if (view.hand) {
    const street = STREET_NAMES[view.hand.street] || "";
    const blinds = `Blinds ${chips(view.hand.small_blind)}/${chips(view.hand.big_blind)}`;
    return `${street} · ${blinds}`;
  }
  const parts = [];
  const last = view.lastHand;
  if (last) {
    const winners = (last.winners || []).map((seat) => {
      const best = last.best ? last.best[String(seat)] : null;
      const name = lastHandName(view, seat); // who won, even if they have left since
      return best && !last.uncontested ? `${name} wins with ${categoryName(best.category).toLowerCase()}` : `${name} wins`;
    });
    if (winners.length) parts.push(winners.join(", ") + ".");
  }
  if (table.tournament && table.tournament.status === "finished") {
    parts.push(overText(table.tournament));
  } else if (heldText(view.held)) {
    // RULES.md 9: the table waits for a move or for the other tables, not for a countdown.
    parts.push(`${heldText(view.held)}…`);
  } else if (table.countdown && table.countdown.starts_at) {
    const seconds = secondsUntil(table.countdown.starts_at, now);
    parts.push(seconds > 0 ? `Next game in ${seconds}s` : "Dealing…");
  } else {
    const seated = (table.seats || []).filter((s) => s.occupied && !s.sitting_out).length;
    if (seated < 2) parts.push("Waiting for players");
  }
  return parts.join(" ");
}

/** The console's line while the player waits: for whom or what, and how long. */
export function statusLine(view, now) {
  const you = view.you || {};
  const table = view.table;
  if (!table) return "Connecting…";
  if (view.hand) {
    if (!you.in_hand) {
      if (you.sitting_out) return "You are sitting out.";
      if (you.waiting_for_big_blind) return you.wants_to_post ? "You post a big blind and play the next game." : "You are waiting for the big blind, or post one to play the next game.";
      return "You join at the next game.";
    }
    const turn = table.turn;
    if (turn && Number.isInteger(turn.seat) && turn.seat !== you.seat) return `${view.nameOf(turn.seat)} is thinking… ${turnSecondsLeft(turn, now)}s`;
    return "Waiting for the dealer…";
  }
  if (you.sitting_out) return satOutIdle(view.you) ? "You are sitting out." : "You are sitting out. Sit in to play the next game.";
  if (heldText(view.held)) return `${heldText(view.held)}.`; // RULES.md 9: instead of a countdown
  const countdown = table.countdown;
  if (countdown && countdown.starts_at) {
    const seconds = secondsUntil(countdown.starts_at, now);
    // RULES.md 8: nobody gets up from a tournament with its chips.
    if (seconds > 0) return table.tournament ? `Next game in ${seconds}s.` : `Next game in ${seconds}s. You can still get up.`;
    return "Dealing…";
  }
  return "Waiting for more players to sit down.";
}
