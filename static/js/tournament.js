// What a tournament's table shows of it: a Sit & Go's (RULES.md 8) the level with its blinds and
// ante, the next one and the time until it, the players left, the prizes, and a player's own
// finish; a multi-table tournament's (RULES.md 9) the average stack, your rank by chips, what the
// next place pays, hand for hand, and why the table waits between hands. From `table.tournament`
// (docs/protocol.md, "Sit & Go" and "Multi-table tournaments"). No DOM here, so tests/js runs it.

import { secondsUntil } from "./clock.js";
import { chips } from "./format.js";
import { ordinal } from "./waiting.js";

/** "25/50" or "100/200 ante 25". */
export function blindsText(level) {
  if (!level) return "";
  const blinds = `${chips(level.small_blind)}/${chips(level.big_blind)}`;
  return level.ante ? `${blinds} ante ${chips(level.ante)}` : blinds;
}

/** "Level 3 · 25/50". */
export function levelText(t) {
  return `Level ${t.level} · ${blindsText(t)}`;
}

/** "Level 4 · 50/100", or "" when there is none to come. */
export function nextLevelText(t) {
  const next = t.next_level;
  if (!next) return "";
  return `Level ${next.level} · ${blindsText(next)}`;
}

/** "4:05" or "1:02:09": a countdown in whole seconds. */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** Seconds until the next level, by the server's clock (`now`, epoch ms); null when the levels
 * have stopped (the tournament is over). RULES.md 8: the level applies from the next hand dealt,
 * so at zero the blinds of the hand in play stay as they are. */
export function levelSecondsLeft(t, now) {
  if (!t || t.status !== "running" || typeof t.level_ends_at !== "number") return null;
  return secondsUntil(t.level_ends_at, now);
}

/** When the next level starts: "in 4:05", or at zero "with the next hand". */
export function levelCountdownText(t, now) {
  const left = levelSecondsLeft(t, now);
  if (left === null) return "";
  return left > 0 ? `in ${clockText(left)}` : "with the next hand";
}

/** "4 of 6 players left"; once it is over, "6 entrants" (nobody is left: the winner has a place). */
export function playersLeftText(t) {
  if (t.status === "finished") return `${chips(t.entrants)} entrant${t.entrants === 1 ? "" : "s"}`;
  return `${chips(t.players_left)} of ${chips(t.entrants)} players left`;
}

/** The prize table: [{place: "1st", prize: "650"}, ...], with who took it once it is settled. */
export function prizeRows(t) {
  const finished = new Map((t.finished || []).map((f) => [f.place, f]));
  return (t.prizes || []).map((p) => ({
    place: ordinal(p.place),
    prize: chips(p.prize),
    username: finished.has(p.place) ? finished.get(p.place).username : null,
  }));
}

/** This player's finish: {place, prize, won} once they are out (or have won), else null. */
export function finishOf(t, username) {
  if (!t || !username) return null;
  const mine = (t.finished || []).find((f) => f.username === username);
  if (!mine) return null;
  return { place: mine.place, prize: mine.prize || 0, won: mine.place === 1 };
}

/** "You finished 4th" or "You won the tournament". */
export function finishTitle(finish) {
  if (!finish) return "";
  return finish.won ? "You won the tournament" : `You finished ${ordinal(finish.place)}`;
}

/** "You finished 4th", "You finished 2nd and won 350 chips", "You won the tournament and 650 chips". */
export function finishWords(finish) {
  if (!finish) return "";
  if (!(finish.prize > 0)) return finishTitle(finish);
  return finish.won ? `${finishTitle(finish)} and ${chips(finish.prize)} chips` : `${finishTitle(finish)} and won ${chips(finish.prize)} chips`;
}

/** The tournament's winner, once it is over. */
export function winnerOf(t) {
  if (!t || t.status !== "finished") return null;
  const first = (t.finished || []).find((f) => f.place === 1);
  return first ? first.username : null;
}

/** RULES.md 9: a table of a multi-table tournament (else a Sit & Go's). */
export function isMultiTable(t) {
  return Boolean(t && t.kind === "scheduled");
}

/** RULES.md 9, "your rank by chips": "3rd of 12" for the player at `seat`, or "" (watching, out,
 * or the tournament over). The server ranks every seat of the table among all the players. */
export function rankText(t, seat) {
  if (!isMultiTable(t) || !Number.isInteger(seat) || !t.ranks) return "";
  const rank = t.ranks[String(seat)];
  return Number.isInteger(rank) ? `${ordinal(rank)} of ${chips(t.players_left)}` : "";
}

/** RULES.md 9: the average stack of the players left, or "" once nobody is. */
export function averageStackText(t) {
  return t && Number.isInteger(t.average_stack) ? chips(t.average_stack) : "";
}

/** RULES.md 9, "what the next place pays": "6th · 1,200" for the place the next player out
 * takes; "Nothing yet" before the money. */
export function nextPrizeText(t) {
  if (!t || t.status !== "running") return "";
  const next = t.next_prize;
  return next ? `${ordinal(next.place)} · ${chips(next.prize)}` : "Nothing yet";
}

/** "2 paid", "18 paid": how many places the prize table pays. */
export function placesPaidText(t) {
  return t && Number.isInteger(t.places_paid) ? `${chips(t.places_paid)} paid` : "";
}

/** RULES.md 9: why a tournament's table deals no hand although it could, in place of the
 * countdown (the `held` event's reason); "" for none. */
export function heldText(reason) {
  if (reason === "hand_for_hand") return "Waiting for the other tables (hand for hand)";
  if (reason === "balancing") return "Balancing tables";
  return "";
}

/** The hold a table is under after `event`, from the one before (`held`: a reason or null): a
 * `held` event sets it; it lasts until the table deals, ends a hand or closes. */
export function heldAfter(held, event) {
  if (!event) return held;
  if (event.kind === "held") return event.reason || null;
  const dealt = event.kind === "hand" && (event.engine || []).some((e) => e.kind === "hand_started");
  return dealt || ["hand_ended", "closing", "closed"].includes(event.kind) ? null : held;
}

/** "table 2" from a tournament table's name ("Sunday 500 #14 · table 2"), else the name. */
export function tableLabel(name) {
  const found = /·\s*(table \d+)\s*$/i.exec(name || "");
  return found ? found[1] : name || "another table";
}

/** The notice on the table a player was moved to (RULES.md 9: balancing or a table broken). */
export function movedText(name) {
  return `You were moved to ${tableLabel(name)}`;
}

/** The line under the table's name at a tournament table: [{text, kind}], as tableFacts. */
export function tournamentFacts(t, table) {
  const facts = [{ text: isMultiTable(t) ? "Tournament" : "Sit & Go", kind: "badge" }];
  facts.push({ text: levelText(t) });
  facts.push({ text: `Buy-in ${chips(t.buy_in)}${t.fee ? ` + ${chips(t.fee)}` : ""}` });
  facts.push({ text: `Prize pool ${chips(t.prize_pool)}` });
  if (table && table.hand_id) facts.push({ text: `Hand #${table.hand_id}` });
  facts.push({ text: `${(table && table.spectators) || 0} watching` });
  return facts;
}

/** The sentence in the middle of the felt between hands once the tournament is over. */
export function overText(t) {
  const winner = winnerOf(t);
  return winner ? `${winner} wins the tournament.` : "The tournament is over.";
}
