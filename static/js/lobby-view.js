// What the lobby shows of its rooms: the player's filters and sort order (kept in localStorage by
// lobby.js). The server filters and pages (the `lobby_view` frame, viewFrame below); the same
// filter applied here hides at once what a change of filter will take off the page, and the sort
// order sorts the page shown. No DOM here, so tests/js runs it under Node.

export const STRUCTURES = ["no_limit", "pot_limit", "fixed_limit"];
// What the lobby lists: rooms and Sit & Gos, rooms only, or Sit & Gos only.
export const KINDS = ["all", "cash", "sit_and_go"];

export const DEFAULT_VIEW = Object.freeze({
  structures: STRUCTURES,
  stakes: "",
  free: 0,
  hideEmpty: false,
  hideFull: false,
  kind: "all",
  sort: null, // {key, dir}; null: the rooms in the order the site lists them
});

const byNumber = (value) => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** The big blind (fixed limit: the big bet) a stakes label names, for sorting: "1,000/2,000" ->
 * 2000. Dynamic blinds have none: 0, so they come first. */
export function stakesValue(label) {
  const match = /([\d,]+)\s*\/\s*([\d,]+)/.exec(String(label || ""));
  return match ? Number(match[2].replace(/,/g, "")) : 0;
}

/** Seats nobody holds: taken seats and seats held for the waiting list are not free. */
export function freeSeats(room) {
  return Math.max(0, (room.seats || 0) - (room.taken || 0) - (room.reserved || 0));
}

export function isFull(room) {
  return freeSeats(room) === 0;
}

// Each column's value, and the direction a first click sorts it: words and stakes from the
// smallest, figures from the biggest. A missing figure (no hands in the last hour) goes last
// either way.
export const COLUMNS = {
  name: { dir: "asc", value: (room) => String(room.name || "").toLowerCase() },
  structure: { dir: "asc", value: (room) => STRUCTURES.indexOf(room.structure) },
  stakes: { dir: "asc", value: (room) => stakesValue(room.stakes) },
  // Players seated; between rooms with as many, the bigger room.
  seated: { dir: "desc", value: (room) => (room.taken || 0) + (room.seats || 0) / 100 },
  average_pot: { dir: "desc", value: (room) => byNumber(room.average_pot) },
  hands_per_hour: { dir: "desc", value: (room) => byNumber(room.hands_per_hour) },
  players_per_flop: { dir: "desc", value: (room) => byNumber(room.players_per_flop) },
  waiting: { dir: "desc", value: (room) => room.waiting || 0 },
};

/** A stored view made safe: anything unknown or malformed falls back to the default. */
export function readView(text) {
  let stored;
  try {
    stored = JSON.parse(text || "null");
  } catch {
    stored = null;
  }
  if (!stored || typeof stored !== "object") return { ...DEFAULT_VIEW };
  const structures = Array.isArray(stored.structures)
    ? STRUCTURES.filter((name) => stored.structures.includes(name))
    : DEFAULT_VIEW.structures;
  const sort =
    stored.sort && Object.hasOwn(COLUMNS, stored.sort.key) && ["asc", "desc"].includes(stored.sort.dir)
      ? { key: stored.sort.key, dir: stored.sort.dir }
      : null;
  return {
    structures,
    stakes: typeof stored.stakes === "string" ? stored.stakes : "",
    free: Number.isInteger(stored.free) && stored.free >= 0 && stored.free <= 10 ? stored.free : 0,
    hideEmpty: stored.hideEmpty === true,
    hideFull: stored.hideFull === true,
    kind: KINDS.includes(stored.kind) ? stored.kind : "all",
    sort,
  };
}

/** The `lobby_view` frame asking the server for `view`'s rooms, page `page` (docs/protocol.md). */
export function viewFrame(view, page = 1) {
  return {
    type: "lobby_view",
    structures: [...view.structures],
    stakes: view.stakes,
    free: view.free,
    hide_full: view.hideFull,
    hide_empty: view.hideEmpty,
    kind: view.kind,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** Whether the server's page is already the one `view` asks for (the sort order is ours). */
export function sameFilter(view, served) {
  if (!served) return false;
  const asked = viewFrame(view, served.page);
  return ["stakes", "free", "hide_full", "hide_empty", "kind"].every((key) => served[key] === asked[key]) &&
    Array.isArray(served.structures) && served.structures.join() === asked.structures.join();
}

/** "12 rooms", or "3 of 12 rooms" under a filter; and the players seated in them. */
export function countText(totals, filtered) {
  if (!totals) return "";
  const rooms = filtered ? `${totals.matching} of ${totals.rooms} rooms` : `${totals.rooms} rooms`;
  return totals.players ? `${rooms} · ${totals.players} playing` : rooms;
}

/** A click on a column heading: the same column again turns the order round. */
export function nextSort(sort, key) {
  if (!Object.hasOwn(COLUMNS, key)) return sort;
  if (sort && sort.key === key) return { key, dir: sort.dir === "asc" ? "desc" : "asc" };
  return { key, dir: COLUMNS[key].dir };
}

export function passes(room, view) {
  if (room.status === "closed" || view.kind === "sit_and_go") return false;
  if (!view.structures.includes(room.structure)) return false;
  if (view.stakes && room.stakes !== view.stakes) return false;
  if (view.free && freeSeats(room) < view.free) return false;
  if (view.hideEmpty && !room.taken) return false;
  if (view.hideFull && isFull(room)) return false;
  return true;
}

function compare(a, b, column, dir) {
  const x = column.value(a);
  const y = column.value(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  const order = typeof x === "string" ? x.localeCompare(y) : x - y;
  return dir === "asc" ? order : -order;
}

/** The rooms to show, in order; ties keep the site's order (by id). */
export function visibleRooms(rooms, view) {
  const shown = rooms.filter((room) => passes(room, view));
  const column = view.sort ? COLUMNS[view.sort.key] : null;
  return shown.sort((a, b) => (column ? compare(a, b, column, view.sort.dir) : 0) || a.id - b.id);
}

/** The stakes the filter offers: those of the open rooms, smallest first. */
export function stakesChoices(rooms) {
  const labels = [...new Set(rooms.filter((room) => room.status !== "closed").map((room) => room.stakes))];
  return labels.sort((a, b) => stakesValue(a) - stakesValue(b) || String(a).localeCompare(String(b)));
}

/** A change of a `rooms` frame: what the room frames carry; the figures (last hour, waiting
 * list) come with the page, and are kept until the page brings them again. */
export function mergeRoom(before, room) {
  return { ...(before || {}), ...room };
}

/** A `waiting_room` frame: the lobby's count of players in line and seats held for them. */
export function withWaiting(room, frame) {
  if (!room) return room;
  return { ...room, waiting: frame.waiting, reserved: frame.reserved };
}
