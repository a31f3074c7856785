// The lobby's scheduled tournaments (RULES.md 9): the tournaments the `lobby` frames and the
// `tournaments` of `rooms` frames bring (docs/protocol.md, `tournament`), in the order they are
// shown, and the words and buttons of each row for this player. No DOM here, so tests/js runs
// it under Node; scheduled-view.js draws it. lobby/templatetags/tournaments.py says the same
// words on the server.

import { chips } from "./format.js";
import { speedText } from "./sit-and-go.js";
import { blindsText } from "./tournament.js";

const ORDER = { registering: 0, running: 0, finished: 1, cancelled: 1 };

// The player's part of a tournament they have not entered (the server's `you`).
export const NOT_ENTERED = Object.freeze({ entries: 0, entered: false, table_url: null });

/** The tournaments of a `lobby` frame (or the page), by id. */
export function tournamentsFrom(list) {
  const held = new Map();
  for (const t of Array.isArray(list) ? list : []) {
    if (t && Number.isInteger(t.id) && Object.hasOwn(ORDER, t.status)) held.set(t.id, t);
  }
  return held;
}

/** A tournament's change (whole): it replaces the one held. Returns a new Map. */
export function applyTournament(held, t) {
  const next = new Map(held);
  if (!t || !Number.isInteger(t.id) || !Object.hasOwn(ORDER, t.status)) return next;
  next.set(t.id, t);
  return next;
}

/** Those taking entries or running, the first to start first; then those over, the latest
 * first (the server's order). */
export function orderedTournaments(held) {
  return [...held.values()].sort(
    (a, b) =>
      ORDER[a.status] - ORDER[b.status] ||
      (ORDER[a.status] === 0 ? (a.starts_at || 0) - (b.starts_at || 0) : (b.starts_at || 0) - (a.starts_at || 0)) ||
      a.id - b.id,
  );
}

/** RULES.md 9: where late registration stands: "Late registration until the end of level 4",
 * "Late registration open until the end of level 4", "Late registration closed", "No late
 * registration", "Full"; "" once it is over. */
export function lateRegistrationText(t) {
  const levels = t.late_registration_levels || 0;
  if (t.status === "registering") {
    if (!t.registration_open) return "Full";
    return levels ? `Late registration until the end of level ${levels}` : "No late registration";
  }
  if (t.status !== "running") return "";
  if (t.registration_open) return `Late registration open until the end of level ${levels}`;
  const level = t.level ? t.level.level : 0;
  return levels && level <= levels ? "Full" : "Late registration closed";
}

/** "1 re-entry", "2 re-entries", or "" (none allowed, or over). */
export function reEntriesText(t) {
  const n = t.re_entries || 0;
  if (!n || (t.status !== "registering" && t.status !== "running")) return "";
  return `${n} re-entr${n === 1 ? "y" : "ies"}`;
}

/** The entrants cell: {count, rest}: "12" "/100" while registering, "47" " left of 60" running. */
export function entrantsText(t) {
  if (t.status === "running") return { count: chips(t.players_left), rest: ` left of ${chips(t.entrants)}` };
  const most = t.status === "registering" && t.max_entrants ? `/${chips(t.max_entrants)}` : "";
  return { count: chips(t.entrants), rest: most };
}

/** The line under the start time: the level in play, or what each player gets. */
export function stateText(t) {
  if (t.status === "running" && t.level) {
    return `Level ${t.level.level} · ${blindsText(t.level)}${t.hand_for_hand ? " · hand for hand" : ""}`;
  }
  if (t.status === "registering") {
    return `${chips(t.starting_stack)} chips · ${speedText({ level_minutes: (t.level_seconds || 0) / 60 })} levels · ${t.table_seats} a table`;
  }
  return t.status === "finished" ? "Finished" : "Cancelled";
}

/** "Starts in 25 min", "Starting…" (its time has come: the clock starts it within the second),
 * or "Starts <when>" / "Started <when>" with `when(ms)` writing the time as the page likes. */
export function startText(t, now, when = (ms) => new Date(ms).toISOString()) {
  if (typeof t.starts_at !== "number") return "";
  if (t.status !== "registering") return `Started ${when(t.starts_at)}`;
  const minutes = Math.ceil((t.starts_at - now) / 60000);
  if (minutes <= 0) return "Starting…";
  if (minutes <= 60) return `Starts in ${minutes} min`;
  return `Starts ${when(t.starts_at)}`;
}

/** What the row offers this player (`you`: the server's part of it for them): `register` (the
 * button's words, "Register" or "Re-enter", or null), `unregister`, `table` (a link to their
 * seat) and `page` (the tournament's own page: {url, text}). The server refuses the rest (another
 * tournament, a seat at a cash table, a short wallet) and says why. */
export function rowControls(t, you = NOT_ENTERED) {
  const mine = you || NOT_ENTERED;
  let register = null;
  if (t.registration_open && !mine.entered) {
    if (!mine.entries) register = "Register";
    else if (mine.entries <= (t.re_entries || 0)) register = "Re-enter"; // RULES.md 9
  }
  const pageText = { registering: "Details", running: "Watch" }[t.status] || "Results";
  return {
    register,
    unregister: t.status === "registering" && Boolean(mine.entered),
    table: t.status === "running" && mine.entered && mine.table_url ? mine.table_url : null,
    page: t.url ? { url: t.url, text: pageText } : null,
  };
}

// The tournament's page asks for live.json this often while it registers or runs
// (docs/decisions.md, Tournaments: a poll, not a socket).
export const POLL_MS = 5000;

/** When the tournament's page asks again: every POLL_MS while it is live, backing off to a
 * minute while the server does not answer (`failures` in a row); never once it is over. */
export function pollDelayMs(status, failures = 0) {
  if (status !== "registering" && status !== "running") return null;
  return Math.min(60_000, POLL_MS * 2 ** Math.max(0, failures));
}
