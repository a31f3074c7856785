// The lobby's Sit & Go list (RULES.md 8): the tournaments the `lobby` and `sit_and_go` frames
// bring, in the order they are shown, and the words and buttons of each row. No DOM here, so
// tests/js runs it under Node; sit-and-go-view.js draws it.

import { chips } from "./format.js";
import { ordinal } from "./waiting.js";

const ORDER = { registering: 0, running: 1, finished: 2, cancelled: 3 };

/** The tournaments of a `lobby` frame (or the page), by id. The server lists those taking
 * entries, those running and those that ended in the last hour. */
export function sitAndGosFrom(list) {
  const held = new Map();
  for (const s of Array.isArray(list) ? list : []) {
    if (s && Number.isInteger(s.id) && Object.hasOwn(ORDER, s.status)) held.set(s.id, s);
  }
  return held;
}

/** A `sit_and_go` frame: the tournament replaces the one held (a finished one stays, with its
 * results, until the next full list leaves it out). Returns a new Map. */
export function applySitAndGo(held, s) {
  const next = new Map(held);
  if (!s || !Number.isInteger(s.id) || !Object.hasOwn(ORDER, s.status)) return next;
  next.set(s.id, s);
  return next;
}

/** Open ones first (the one closest to starting first), then the running ones, then those
 * over (the latest first); by id within. */
export function orderedSitAndGos(held) {
  return [...held.values()].sort(
    (a, b) =>
      ORDER[a.status] - ORDER[b.status] ||
      (a.status === "registering" ? seatsLeft(a) - seatsLeft(b) : 0) ||
      (ORDER[a.status] >= 2 ? b.id - a.id : a.id - b.id),
  );
}

export function seatsLeft(s) {
  return Math.max(0, (s.seats || 0) - (s.registered || 0));
}

/** Whether this player is one of the tournament's entrants. */
export function isEntered(s, username) {
  return Boolean(username && s && Array.isArray(s.players) && s.players.includes(username));
}

/** "1,000 + 100": the buy-in into the pool, and the fee to the house. */
export function entryText(s) {
  return s.fee ? `${chips(s.buy_in)} + ${chips(s.fee)}` : chips(s.buy_in);
}

/** The level length: "10 min", "1.5 min"; under a minute, in seconds ("30 s"). */
export function speedText(s) {
  const minutes = Number(s.level_minutes);
  if (!Number.isFinite(minutes) || minutes <= 0) return "";
  if (minutes < 1) return `${Math.round(minutes * 60)} s`;
  return `${Math.round(minutes * 10) / 10} min`;
}

export function placesPaidText(s) {
  const n = s.places_paid || 0;
  return `${n} place${n === 1 ? "" : "s"} paid`;
}

/** "1st 650 · 2nd 350". */
export function prizesText(prizes) {
  return (Array.isArray(prizes) ? prizes : []).map((prize, index) => `${ordinal(index + 1)} ${chips(prize)}`).join(" · ");
}

/** The line under the name: how far registration has got, or how the game goes. */
export function stateText(s) {
  if (s.status === "registering") {
    const left = seatsLeft(s);
    if (left === 0) return "Starting…";
    return `${left} more to start`;
  }
  if (s.status === "running") return "Running";
  if (s.status === "finished") return "Finished";
  return "Cancelled";
}

/**
 * What the row offers this player: `register` and `unregister` (buttons), `table` (a link:
 * {url, text}) and `results` (a link url). Unregister only for one's own registration; the server
 * refuses the rest (another registration, a seat, a short wallet) and says why.
 */
export function rowControls(s, username) {
  const mine = isEntered(s, username);
  const open = s.status === "registering";
  return {
    register: open && !mine && seatsLeft(s) > 0,
    unregister: open && mine,
    table: s.status === "running" && s.table_url ? { url: s.table_url, text: mine ? "Take your seat" : "Watch" } : null,
    results: s.status !== "registering" && s.results_url ? s.results_url : null,
  };
}

/** The one of these the player is entered in and that is still taking entries, if any. */
export function ownRegistration(list, username) {
  return (Array.isArray(list) ? list : [...list.values()]).find((s) => s.status === "registering" && isEntered(s, username)) || null;
}
