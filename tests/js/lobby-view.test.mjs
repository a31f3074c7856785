// The lobby's filters and sort order (static/js/lobby-view.js): what is shown, in what order,
// what a stored view may hold, and the waiting lists (static/js/waiting.js).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  DEFAULT_VIEW,
  countText,
  freeSeats,
  isFull,
  mergeRoom,
  nextSort,
  readView,
  sameFilter,
  stakesChoices,
  stakesValue,
  viewFrame,
  visibleRooms,
  withWaiting,
} from "../../static/js/lobby-view.js";
import { LEFT_REASONS, applyWaiting, linesFrom, offerSecondsLeft, offers, ordinal, placeText } from "../../static/js/waiting.js";

const room = (id, fields) => ({
  id,
  name: `Room ${id}`,
  status: "open",
  structure: "no_limit",
  stakes: "50/100",
  seats: 6,
  taken: 0,
  reserved: 0,
  waiting: 0,
  average_pot: null,
  hands_per_hour: 0,
  players_per_flop: null,
  ...fields,
});

const ROOMS = [
  room(1, { name: "Beta", stakes: "1,000/2,000", taken: 6, average_pot: 12_000, hands_per_hour: 40, players_per_flop: 30, waiting: 2 }),
  room(2, { name: "alpha", structure: "pot_limit", taken: 2, average_pot: 900, hands_per_hour: 55, players_per_flop: 45 }),
  room(3, { name: "Gamma", structure: "fixed_limit", stakes: "20/40", seats: 10, taken: 0 }),
  room(4, { name: "Delta", stakes: "dynamic 10%", taken: 5, reserved: 1, players_per_flop: 60, hands_per_hour: 12, average_pot: 300 }),
  room(5, { name: "Closed", status: "closed", taken: 0 }),
];
const ids = (rooms) => rooms.map((r) => r.id);
const view = (fields) => ({ ...DEFAULT_VIEW, ...fields });

test("stakes sort by their big blind; dynamic blinds have none", () => {
  assert.equal(stakesValue("1,000/2,000"), 2000);
  assert.equal(stakesValue("20/40"), 40);
  assert.equal(stakesValue("dynamic 10%"), 0);
  assert.equal(stakesValue(undefined), 0);
  assert.deepEqual(stakesChoices(ROOMS), ["dynamic 10%", "20/40", "50/100", "1,000/2,000"]);
});

test("a seat held for the waiting list is not free: such a room is full", () => {
  assert.equal(freeSeats(ROOMS[3]), 0);
  assert.equal(isFull(ROOMS[3]), true);
  assert.equal(freeSeats(ROOMS[2]), 10);
  assert.equal(freeSeats({ seats: 2, taken: 3 }), 0);
});

test("the default view shows every open room in the site's order", () => {
  assert.deepEqual(ids(visibleRooms(ROOMS, DEFAULT_VIEW)), [1, 2, 3, 4]);
});

test("each filter hides what it says and they combine", () => {
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ structures: ["no_limit"] }))), [1, 4]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ stakes: "50/100" }))), [2]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ free: 4 }))), [2, 3]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ hideEmpty: true }))), [1, 2, 4]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ hideFull: true }))), [2, 3]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ hideEmpty: true, hideFull: true, structures: ["pot_limit", "fixed_limit"] }))), [2]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ structures: [] }))), []);
});

test("a column sorts one way on the first click and the other way on the second", () => {
  let sort = nextSort(null, "name");
  assert.deepEqual(sort, { key: "name", dir: "asc" });
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort }))), [2, 1, 4, 3]); // case does not matter
  sort = nextSort(sort, "name");
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort }))), [3, 4, 1, 2]);
  // Figures start from the biggest; a room without hands goes last both ways.
  sort = nextSort(sort, "average_pot");
  assert.deepEqual(sort, { key: "average_pot", dir: "desc" });
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort }))), [1, 2, 4, 3]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort: nextSort(sort, "average_pot") }))), [4, 2, 1, 3]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort: { key: "stakes", dir: "asc" } }))), [4, 3, 2, 1]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort: { key: "seated", dir: "desc" } }))), [1, 4, 2, 3]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort: { key: "players_per_flop", dir: "desc" } }))), [4, 2, 1, 3]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort: { key: "structure", dir: "asc" } }))), [1, 4, 2, 3]);
  assert.deepEqual(ids(visibleRooms(ROOMS, view({ sort: { key: "waiting", dir: "desc" } }))), [1, 2, 3, 4]);
  assert.deepEqual(nextSort(sort, "no_such_column"), sort);
  assert.deepEqual(nextSort(sort, "toString"), sort);
});

test("a stored view is read back, and anything malformed falls back to the default", () => {
  const stored = { structures: ["pot_limit"], stakes: "20/40", free: 2, hideEmpty: true, hideFull: false, kind: "cash", sort: { key: "hands_per_hour", dir: "desc" } };
  assert.deepEqual(readView(JSON.stringify(stored)), stored);
  assert.deepEqual(readView(null), DEFAULT_VIEW);
  assert.deepEqual(readView("{not json"), DEFAULT_VIEW);
  assert.deepEqual(readView("42"), DEFAULT_VIEW);
  const odd = readView(JSON.stringify({ structures: ["stud", "no_limit"], free: -3, hideFull: "yes", kind: "bingo", sort: { key: "__proto__", dir: "asc" }, stakes: 7 }));
  assert.deepEqual(odd, { ...DEFAULT_VIEW, structures: ["no_limit"] });
});

test("the view goes to the server as a lobby_view frame, and its answer is recognised", () => {
  const view = { ...DEFAULT_VIEW, structures: ["pot_limit", "fixed_limit"], stakes: "20/40", free: 2, hideFull: true, sort: { key: "name", dir: "asc" } };
  const frame = viewFrame(view, 3);
  assert.deepEqual(frame, {
    type: "lobby_view", structures: ["pot_limit", "fixed_limit"], stakes: "20/40", free: 2,
    hide_full: true, hide_empty: false, kind: "all", page: 3,
  });
  assert.equal(viewFrame(view, 0).page, 1);
  assert.equal(viewFrame(view, "2").page, 1);
  const { type: _type, ...served } = frame;
  assert.ok(sameFilter(view, { ...served, page: 1 }), "the page number is not the filter");
  assert.ok(!sameFilter(view, { ...served, stakes: "" }));
  assert.ok(!sameFilter(view, { ...served, structures: ["pot_limit"] }));
  assert.ok(!sameFilter(view, null));
  // Sit & Go only: no room is shown.
  assert.deepEqual(visibleRooms(ROOMS, { ...DEFAULT_VIEW, kind: "sit_and_go" }), []);
});

test("the count says how many rooms the filter leaves of all, and the players seated", () => {
  assert.equal(countText({ matching: 12, rooms: 12, players: 0 }, false), "12 rooms");
  assert.equal(countText({ matching: 3, rooms: 30000, players: 91000 }, true), "3 of 30000 rooms · 91000 playing");
  assert.equal(countText(null, false), "");
});

test("live room frames keep the figures of the last poll; waiting_room frames set the counts", () => {
  const polled = ROOMS[0];
  const live = mergeRoom(polled, { id: 1, taken: 5, players: ["ann"] });
  assert.equal(live.taken, 5);
  assert.equal(live.average_pot, 12_000);
  assert.deepEqual(withWaiting(live, { table_id: 1, waiting: 3, reserved: 1 }).reserved, 1);
  assert.equal(withWaiting(undefined, { waiting: 1 }), undefined);
});

test("waiting frames build the lines; place null ends one", () => {
  const first = { type: "waiting", table_id: 7, name: "NL", place: 2, waiting: 3, offer: null, now: 1000 };
  let lines = applyWaiting(new Map(), first);
  assert.equal(lines.get(7).place, 2);
  lines = applyWaiting(lines, { ...first, place: 1, offer: { seat: 3, expires_at: 31_000, seconds: 30 } });
  assert.deepEqual(offers(lines).map((l) => l.table_id), [7]);
  lines = applyWaiting(lines, { ...first, place: null, offer: null, reason: "lapsed" });
  assert.equal(lines.size, 0);
  assert.equal(applyWaiting(lines, { type: "waiting" }).size, 0);
  assert.equal(linesFrom([first, { table_id: "x", place: 1 }, null]).size, 1);
  assert.ok(LEFT_REASONS.lapsed.includes("next in line"));
});

test("an offer's time left follows the server's clock and stops at zero", () => {
  const offer = { seat: 0, expires_at: 100_000 };
  assert.equal(offerSecondsLeft(offer, 70_000), 30);
  assert.equal(offerSecondsLeft(offer, 99_001), 1);
  assert.equal(offerSecondsLeft(offer, 100_000), 0);
  assert.equal(offerSecondsLeft(offer, 200_000), 0);
  assert.equal(offerSecondsLeft(null, 0), 0);
});

test("a place in line reads as words", () => {
  assert.equal(placeText({ place: 1 }), "You are next in line");
  assert.equal(placeText({ place: 2 }), "You are 2nd in line");
  assert.equal(placeText({ place: 1, offer: { seat: 0 } }), "A seat is yours to take");
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map(ordinal), ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]);
});

test("the lobby's pure modules touch no page", () => {
  for (const name of ["lobby-view.js", "waiting.js"]) {
    const code = readFileSync(new URL(`../../static/js/${name}`, import.meta.url), "utf8").replace(/\/\/.*$/gm, "");
    assert.equal(code.match(/\b(document|window|location|localStorage|WebSocket|fetch)\b/), null, name);
    assert.deepEqual([...code.matchAll(/from\s+"\.\/([^"]+)"/g)].map((m) => m[1]), []);
  }
});
